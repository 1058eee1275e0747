"""Mailing list: the members-sync runs, whose cursor lets an interrupted sync continue.

Revision ID: 0012_mailing
Revises: 0010_crawler
Create Date: 2026-11-28 07:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_mailing"
down_revision: str | Sequence[str] | None = "0010_crawler"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "mailing_sync_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column(
            "status",
            sa.Enum("running", "completed", "failed", name="syncstatus", native_enum=False, length=16),
            nullable=False,
        ),
        sa.Column("requested_by", sa.Integer(), nullable=True),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("subscribed", sa.Integer(), nullable=False),
        sa.Column("unsubscribed", sa.Integer(), nullable=False),
        sa.Column("rejected", sa.Integer(), nullable=False),
        sa.Column("cursor", sa.String(length=320), nullable=True),
        sa.Column("error", sa.String(length=500), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["requested_by"], ["users.id"], name=op.f("fk_mailing_sync_runs_requested_by_users"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mailing_sync_runs")),
    )
    op.create_index(op.f("ix_mailing_sync_runs_status"), "mailing_sync_runs", ["status"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_mailing_sync_runs_status"), table_name="mailing_sync_runs")
    op.drop_table("mailing_sync_runs")
