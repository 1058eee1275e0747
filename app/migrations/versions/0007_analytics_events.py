"""Analytics: the append-only events table, the rollups per tour, ad and creator (one row per
quarter-hour bucket) and the rollup watermark.

Revision ID: 0007_analytics_events
Revises: 0005_classifications_admin
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_analytics_events"
# Re-chained after the ads branch's 0006 at merge.
down_revision: str | Sequence[str] | None = "0005_classifications_admin"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KINDS = ("view", "like", "save", "share", "follow", "ad_impression", "ad_click")


def _counts(*names: str) -> list[sa.Column[int]]:
    return [sa.Column(name, sa.Integer(), nullable=False) for name in names]


def upgrade() -> None:
    op.create_table(
        "analytics_events",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("kind", sa.Enum(*KINDS, name="eventkind", native_enum=False, length=16), nullable=False),
        sa.Column("value", sa.SmallInteger(), nullable=False),
        sa.Column("occurred_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("bucket", sa.BigInteger(), nullable=False),
        sa.Column("tour_id", sa.Integer(), nullable=True),
        sa.Column("ad_id", sa.Integer(), nullable=True),
        sa.Column("creator_id", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("viewer_key", sa.String(length=100), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_analytics_events")),
    )
    op.create_index("ix_analytics_events_bucket", "analytics_events", ["bucket"])
    op.create_index("ix_analytics_events_creator_id_bucket", "analytics_events", ["creator_id", "bucket"])

    op.create_table(
        "analytics_tour_rollups",
        sa.Column("tour_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("bucket", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("creator_id", sa.Integer(), nullable=True),
        *_counts("views", "likes", "saves", "shares"),
        sa.PrimaryKeyConstraint("tour_id", "bucket", name=op.f("pk_analytics_tour_rollups")),
    )
    op.create_index("ix_analytics_tour_rollups_creator_id_bucket", "analytics_tour_rollups", ["creator_id", "bucket"])

    op.create_table(
        "analytics_ad_rollups",
        sa.Column("ad_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("bucket", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("creator_id", sa.Integer(), nullable=True),
        *_counts("impressions", "clicks"),
        sa.PrimaryKeyConstraint("ad_id", "bucket", name=op.f("pk_analytics_ad_rollups")),
    )
    op.create_index("ix_analytics_ad_rollups_creator_id_bucket", "analytics_ad_rollups", ["creator_id", "bucket"])

    op.create_table(
        "analytics_creator_rollups",
        sa.Column("creator_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("bucket", sa.BigInteger(), autoincrement=False, nullable=False),
        *_counts("views", "likes", "saves", "shares", "follows", "impressions", "clicks"),
        sa.PrimaryKeyConstraint("creator_id", "bucket", name=op.f("pk_analytics_creator_rollups")),
    )

    op.create_table(
        "analytics_rollup_state",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("watermark", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_analytics_rollup_state")),
    )


def downgrade() -> None:
    op.drop_table("analytics_rollup_state")
    op.drop_table("analytics_creator_rollups")
    op.drop_index("ix_analytics_ad_rollups_creator_id_bucket", table_name="analytics_ad_rollups")
    op.drop_table("analytics_ad_rollups")
    op.drop_index("ix_analytics_tour_rollups_creator_id_bucket", table_name="analytics_tour_rollups")
    op.drop_table("analytics_tour_rollups")
    op.drop_index("ix_analytics_events_creator_id_bucket", table_name="analytics_events")
    op.drop_index("ix_analytics_events_bucket", table_name="analytics_events")
    op.drop_table("analytics_events")
