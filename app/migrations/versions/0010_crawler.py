"""Crawler: the per-session frontier (what a resumed worker continues from), the session's heartbeat
and page counters, and crawled tours keyed by their normalised link.

Revision ID: 0010_crawler
Revises: 0009_tour_rollups_by_day
Create Date: 2026-11-28 07:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.classifications.dictionaries import normalise_link

revision: str = "0010_crawler"
down_revision: str | Sequence[str] | None = "0009_tour_rollups_by_day"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("crawler_sessions") as batch:
        batch.add_column(sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("pages_fetched", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("pages_failed", sa.Integer(), nullable=False, server_default="0"))
        batch.create_index(batch.f("ix_crawler_sessions_heartbeat_at"), ["heartbeat_at"], unique=False)
    with op.batch_alter_table("crawler_sessions") as batch:
        batch.alter_column("pages_fetched", server_default=None)
        batch.alter_column("pages_failed", server_default=None)

    op.add_column("crawled_tours", sa.Column("link_normalised", sa.String(length=2048), nullable=True))
    connection = op.get_bind()
    crawled = sa.table(
        "crawled_tours",
        sa.column("id", sa.Integer()),
        sa.column("link", sa.String()),
        sa.column("link_normalised", sa.String()),
    )
    for row in connection.execute(sa.select(crawled.c.id, crawled.c.link)).all():
        connection.execute(
            crawled.update().where(crawled.c.id == row.id).values(link_normalised=normalise_link(row.link))
        )
    with op.batch_alter_table("crawled_tours") as batch:
        batch.alter_column("link_normalised", existing_type=sa.String(length=2048), nullable=False)
        batch.create_unique_constraint(batch.f("uq_crawled_tours_link_normalised"), ["link_normalised"])

    op.create_table(
        "crawl_frontier",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("url", sa.String(length=2048), nullable=False),
        sa.Column("url_key", sa.String(length=2048), nullable=False),
        sa.Column(
            "kind", sa.Enum("sitemap", "page", name="frontierkind", native_enum=False, length=16), nullable=False
        ),
        sa.Column("depth", sa.Integer(), nullable=False),
        sa.Column(
            "state",
            sa.Enum("pending", "done", "failed", "skipped", name="frontierstate", native_enum=False, length=16),
            nullable=False,
        ),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(length=500), nullable=True),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["crawler_sessions.id"],
            name=op.f("fk_crawl_frontier_session_id_crawler_sessions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_crawl_frontier")),
        sa.UniqueConstraint("session_id", "url_key", name=op.f("uq_crawl_frontier_session_id_url_key")),
    )
    op.create_index(op.f("ix_crawl_frontier_state"), "crawl_frontier", ["state"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_crawl_frontier_state"), table_name="crawl_frontier")
    op.drop_table("crawl_frontier")
    with op.batch_alter_table("crawled_tours") as batch:
        batch.drop_constraint(batch.f("uq_crawled_tours_link_normalised"), type_="unique")
        batch.drop_column("link_normalised")
    with op.batch_alter_table("crawler_sessions") as batch:
        batch.drop_index(batch.f("ix_crawler_sessions_heartbeat_at"))
        batch.drop_column("pages_failed")
        batch.drop_column("pages_fetched")
        batch.drop_column("heartbeat_at")
