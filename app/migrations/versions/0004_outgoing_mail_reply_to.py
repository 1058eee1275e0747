"""Outgoing mail: a Reply-To address (the contact form's sender, so the creator can answer).

Revision ID: 0004_outgoing_mail_reply_to
Revises: 0003_vendors
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_outgoing_mail_reply_to"
down_revision: str | Sequence[str] | None = "0003_vendors"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("outgoing_mail", sa.Column("reply_to", sa.String(length=320), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outgoing_mail") as batch:
        batch.drop_column("reply_to")
