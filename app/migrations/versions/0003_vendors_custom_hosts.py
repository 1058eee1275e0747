"""Vendors (issue 13): the host name of a custom host request and when a vendor last accepted a
user's API credentials.

Revision ID: 0003_vendors
Revises: 0002_creator_link_checks
Create Date: 2026-12-01 10:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_vendors"
down_revision: str | Sequence[str] | None = "0002_creator_link_checks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("custom_provider_requests") as batch:
        batch.add_column(sa.Column("host", sa.String(length=253), nullable=True))
    with op.batch_alter_table("vendor_credentials") as batch:
        batch.add_column(sa.Column("checked_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("vendor_credentials") as batch:
        batch.drop_column("checked_at")
    with op.batch_alter_table("custom_provider_requests") as batch:
        batch.drop_column("host")
