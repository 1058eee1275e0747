"""Classifications: the dictionaries every form and filter reads, named in the caller's language.
The administrators' changes are app/classifications/admin.py's (batch.py, requests.py, icons.py and
embeddings.py around them)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import or_, select
from sqlalchemy.orm import Session, selectinload

from app.classifications import names
from app.classifications.models import (
    CaptureDevice,
    Category,
    DictionaryKind,
    DictionaryName,
    MediaType,
    RankSource,
    Subcategory,
    Tag,
    TagTopicType,
)
from app.core.locale import DEFAULT_LOCALE

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


def media_type_ids_360(db: Session) -> tuple[int, ...]:
    """The media types that are panoramas or 360 video: what the filters' "360° only" switch keeps
    (inactive ones too: their tours are still listed)."""
    return tuple(db.scalars(select(MediaType.id).where(MediaType.is_360.is_(True)).order_by(MediaType.id)))


def list_capture_devices(db: Session) -> Sequence[CaptureDevice]:
    return db.scalars(
        select(CaptureDevice).where(CaptureDevice.is_active.is_(True)).order_by(CaptureDevice.camera_name)
    ).all()


def search_tags(
    db: Session,
    *,
    text: str | None,
    category_id: int | None,
    media_type_id: int | None,
    limit: int = MAX_TAG_RESULTS,
    locale: str = DEFAULT_LOCALE,
) -> Sequence[Tag]:
    """Tags by name, case-insensitively (in English or the caller's language), narrowed by category
    and/or media type (spec §5 Search)."""
    statement = select(Tag).where(Tag.is_active.is_(True))
    if text:
        needle = text.strip().lstrip("#").lower()
        matches = Tag.name_lower.contains(needle, autoescape=True)
        if locale != DEFAULT_LOCALE:
            translated = select(DictionaryName.entity_id).where(
                DictionaryName.kind == DictionaryKind.tag,
                DictionaryName.language == locale,
                DictionaryName.name_lower.contains(needle, autoescape=True),
            )
            matches = or_(matches, Tag.id.in_(translated))
        statement = statement.where(matches)
    topics = []
    if category_id is not None:
        topics.append((Tag.topic_type == TagTopicType.category) & (Tag.topic_id == category_id))
    if media_type_id is not None:
        topics.append((Tag.topic_type == TagTopicType.media_type) & (Tag.topic_id == media_type_id))
    if topics:
        statement = statement.where(or_(*topics))
    return db.scalars(statement.order_by(Tag.name_lower).limit(limit)).all()


def list_rank_sources(db: Session) -> Sequence[RankSource]:
    return db.scalars(select(RankSource).order_by(RankSource.name)).all()


def localized_names(db: Session, kind: DictionaryKind, ids: Sequence[int], locale: str) -> dict[int, str]:
    """Row id → its name in the caller's language, where it has one (else its English name stands)."""
    return names.localized_names(db, kind, ids, locale)


def subcategories_of(categories: Sequence[Category]) -> list[Subcategory]:
    return [sub for category in categories for sub in category.subcategories if sub.is_active]
