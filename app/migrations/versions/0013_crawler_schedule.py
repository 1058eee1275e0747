"""Crawler schedule: when a configuration's schedule applies from, the due time a session was started
for (unique per configuration), and at most one active session per configuration.

Revision ID: 0013_crawler_schedule
Revises: 0012_mailing
Create Date: 2026-11-28 10:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_crawler_schedule"
down_revision: str | Sequence[str] | None = "0012_mailing"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ACTIVE_SESSION = "status IN ('queued', 'running')"


def upgrade() -> None:
    with op.batch_alter_table("crawler_configurations") as batch:
        batch.add_column(sa.Column("schedule_since", sa.DateTime(timezone=True), nullable=True))
    # A schedule stored before it was read counts from now, not from the configuration's creation.
    op.execute(sa.text("UPDATE crawler_configurations SET schedule_since = CURRENT_TIMESTAMP"))

    # Two active sessions of one configuration (a race the old check in start let through) would stop
    # the index below from being built: all but the newest are stopped.
    op.execute(
        sa.text(
            "UPDATE crawler_sessions SET status = 'stopped', finished_at = CURRENT_TIMESTAMP, heartbeat_at = NULL "
            f"WHERE {ACTIVE_SESSION} AND id < (SELECT MAX(newer.id) FROM crawler_sessions AS newer "
            "WHERE newer.configuration_id = crawler_sessions.configuration_id "
            f"AND newer.{ACTIVE_SESSION})"
        )
    )
    with op.batch_alter_table("crawler_sessions") as batch:
        batch.add_column(sa.Column("scheduled_for", sa.DateTime(timezone=True), nullable=True))
        batch.create_unique_constraint(
            batch.f("uq_crawler_sessions_configuration_id_scheduled_for"), ["configuration_id", "scheduled_for"]
        )
    op.create_index(
        "ix_crawler_sessions_one_active",
        "crawler_sessions",
        ["configuration_id"],
        unique=True,
        sqlite_where=sa.text(ACTIVE_SESSION),
        postgresql_where=sa.text(ACTIVE_SESSION),
    )


def downgrade() -> None:
    op.drop_index("ix_crawler_sessions_one_active", table_name="crawler_sessions")
    with op.batch_alter_table("crawler_sessions") as batch:
        batch.drop_constraint(batch.f("uq_crawler_sessions_configuration_id_scheduled_for"), type_="unique")
        batch.drop_column("scheduled_for")
    with op.batch_alter_table("crawler_configurations") as batch:
        batch.drop_column("schedule_since")
