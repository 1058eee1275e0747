"""Classifications: the dictionaries every form and filter reads."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from app.classifications.models import (
    CaptureDevice,
    Category,
    MediaType,
    RankSource,
    Tag,
    TagTopicType,
)

MAX_TAG_RESULTS = 200


def list_categories(db: Session) -> Sequence[Category]:
    return db.scalars(
        select(Category)
        .where(Category.is_active.is_(True))
        .options(selectinload(Category.subcategories))
        .order_by(Category.position, Category.name)
    ).all()


def list_media_types(db: Session) -> Sequence[MediaType]:
    return db.scalars(select(MediaType).where(MediaType.is_active.is_(True)).order_by(MediaType.name)).all()


def list_capture_devices(db: Session) -> Sequence[CaptureDevice]:
    return db.scalars(
        select(CaptureDevice).where(CaptureDevice.is_active.is_(True)).order_by(CaptureDevice.camera_name)
    ).all()


def search_tags(
    db: Session, *, text: str | None, category_id: int | None, media_type_id: int | None, limit: int = MAX_TAG_RESULTS
) -> Sequence[Tag]:
    """Tags by name, case-insensitively, narrowed by category and/or media type (spec §5 Search)."""
    statement = select(Tag).where(Tag.is_active.is_(True))
    if text:
        statement = statement.where(Tag.name_lower.contains(text.strip().lstrip("#").lower(), autoescape=True))
    topics = []
    if category_id is not None:
        topics.append((Tag.topic_type == TagTopicType.category) & (Tag.topic_id == category_id))
    if media_type_id is not None:
        topics.append((Tag.topic_type == TagTopicType.media_type) & (Tag.topic_id == media_type_id))
    if topics:
        from sqlalchemy import or_

        statement = statement.where(or_(*topics))
    return db.scalars(statement.order_by(Tag.name_lower).limit(limit)).all()


def list_rank_sources(db: Session) -> Sequence[RankSource]:
    return db.scalars(select(RankSource).order_by(RankSource.name)).all()
