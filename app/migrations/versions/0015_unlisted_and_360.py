"""Unlisted tours and the "360° only" filter (issue 18 parts 4 and 5): `tours.visibility` (public or
unlisted; every existing tour stays public) and `media_types.is_360` (set on the built-in panorama and
360 video types; administrators decide for the types they added).

Revision ID: 0015_unlisted_and_360
Revises: 0014_tour_tag_hashtags
Create Date: 2026-11-29 09:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_unlisted_and_360"
down_revision: str | Sequence[str] | None = "0014_tour_tag_hashtags"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The built-in media types that are panoramas or 360 video (app/classifications/dictionaries.py).
BUILT_IN_360_SLUGS = ("360-panorama", "panorama-tour", "360-video", "street-view", "aerial-360")


def upgrade() -> None:
    # Plain ADD COLUMN with a constant default on both databases: no copy of the tours table.
    op.add_column(
        "tours",
        sa.Column(
            "visibility",
            sa.Enum("public", "unlisted", name="tourvisibility", native_enum=False, length=16),
            nullable=False,
            server_default="public",
        ),
    )
    op.add_column("media_types", sa.Column("is_360", sa.Boolean(), nullable=False, server_default=sa.false()))
    media_types = sa.table("media_types", sa.column("slug", sa.String()), sa.column("is_360", sa.Boolean()))
    op.execute(media_types.update().where(media_types.c.slug.in_(BUILT_IN_360_SLUGS)).values(is_360=True))


def downgrade() -> None:
    with op.batch_alter_table("media_types") as batch:
        batch.drop_column("is_360")
    with op.batch_alter_table("tours") as batch:
        batch.drop_column("visibility")
