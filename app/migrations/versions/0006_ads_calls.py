"""Ads calls (issue 15): impressions and clicks counted once per viewer per page view, the viewer's
recent impressions for the frequency cap, and ads' embeddings.

Revision ID: 0006_ads_calls
Revises: 0005_classifications_admin
Create Date: 2026-11-28 03:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_ads_calls"
down_revision: str | Sequence[str] | None = "0005_classifications_admin"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ONCE_PER_PAGE_VIEW = "kind IN ('view', 'click')"


def upgrade() -> None:
    with op.batch_alter_table("ad_engagements") as batch:
        batch.add_column(sa.Column("viewer_key", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("page_view", sa.String(length=64), nullable=True))
    op.create_index(
        "ix_ad_engagements_once_per_page_view",
        "ad_engagements",
        ["ad_id", "kind", "viewer_key", "page_view"],
        unique=True,
        sqlite_where=sa.text(ONCE_PER_PAGE_VIEW),
        postgresql_where=sa.text(ONCE_PER_PAGE_VIEW),
    )
    op.create_index(
        "ix_ad_engagements_viewer_key_created_at", "ad_engagements", ["viewer_key", "created_at"], unique=False
    )
    op.create_table(
        "ad_embeddings",
        sa.Column("ad_id", sa.Integer(), nullable=False),
        sa.Column("model", sa.String(length=100), nullable=False),
        sa.Column("vector", sa.LargeBinary(), nullable=False),
        sa.Column("text_hash", sa.String(length=64), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["ad_id"], ["ads.id"], name=op.f("fk_ad_embeddings_ad_id_ads"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("ad_id", name=op.f("pk_ad_embeddings")),
    )


def downgrade() -> None:
    op.drop_table("ad_embeddings")
    op.drop_index("ix_ad_engagements_viewer_key_created_at", table_name="ad_engagements")
    op.drop_index("ix_ad_engagements_once_per_page_view", table_name="ad_engagements")
    with op.batch_alter_table("ad_engagements") as batch:
        batch.drop_column("page_view")
        batch.drop_column("viewer_key")
