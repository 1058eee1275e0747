"""Hashtags in descriptions: a tour's tag link remembers the description's hashtag it came from.

Revision ID: 0014_tour_tag_hashtags
Revises: 0013_crawler_schedule
Create Date: 2026-11-29 09:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_tour_tag_hashtags"
down_revision: str | Sequence[str] | None = "0013_crawler_schedule"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tour_tags") as batch:
        batch.add_column(sa.Column("hashtag", sa.String(length=100), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tour_tags") as batch:
        batch.drop_column("hashtag")
