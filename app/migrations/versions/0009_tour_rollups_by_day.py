"""Analytics: the tour rollups hold a row per tour and UTC day, not per quarter hour.

Events spread over many tours rarely share a tour's quarter hour, so the quarter-hour tour rollup had
nearly a row per event (9 M rows for 10 M events) and a busy creator's per-tour table summed a quarter
of a million of them. The per-tour table needs range totals, not a series: whole UTC days come from
this table, the partial days at a range's ends in the viewer's zone from the events
(app/analytics/service.py). Rollups are derived data: every rollup row is dropped and the watermark
reset, so the next run recomputes them all from the events.

Revision ID: 0009_tour_rollups_by_day
Revises: 0008_billing
Create Date: 2026-11-28 07:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_tour_rollups_by_day"
down_revision: str | Sequence[str] | None = "0008_billing"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _counts(*names: str) -> list[sa.Column[int]]:
    return [sa.Column(name, sa.Integer(), nullable=False) for name in names]


def _tour_rollups(period: str) -> None:
    op.create_table(
        "analytics_tour_rollups",
        sa.Column("tour_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column(period, sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("creator_id", sa.Integer(), nullable=True),
        *_counts("views", "likes", "saves", "shares"),
        sa.PrimaryKeyConstraint("tour_id", period, name=op.f("pk_analytics_tour_rollups")),
    )
    op.create_index(f"ix_analytics_tour_rollups_creator_id_{period}", "analytics_tour_rollups", ["creator_id", period])


def _recompute_everything() -> None:
    op.execute("DELETE FROM analytics_ad_rollups")
    op.execute("DELETE FROM analytics_creator_rollups")
    op.execute("DELETE FROM analytics_rollup_state")


def upgrade() -> None:
    op.drop_index("ix_analytics_tour_rollups_creator_id_bucket", table_name="analytics_tour_rollups")
    op.drop_table("analytics_tour_rollups")
    _tour_rollups("day")
    _recompute_everything()


def downgrade() -> None:
    op.drop_index("ix_analytics_tour_rollups_creator_id_day", table_name="analytics_tour_rollups")
    op.drop_table("analytics_tour_rollups")
    _tour_rollups("bucket")
    _recompute_everything()
