"""Creators: the one-day cache of website and social link checks (spec §5 "must be live").

Revision ID: 0002_creator_link_checks
Revises: 0001
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_creator_link_checks"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "creator_link_checks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("url", sa.String(length=2048), nullable=False),
        sa.Column("live", sa.Boolean(), nullable=False),
        sa.Column("message", sa.String(length=300), nullable=True),
        sa.Column("checked_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_creator_link_checks")),
        sa.UniqueConstraint("url", name=op.f("uq_creator_link_checks_url")),
    )


def downgrade() -> None:
    op.drop_table("creator_link_checks")
