"""Database rows → index documents. Only what may be listed becomes a document: active, approved
tours of active, undeleted users; active creators of active users; active, approved ads."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from app.ads.models import Ad
from app.classifications.models import Tag
from app.creators.models import Creator
from app.tours.models import ApprovalState, Tour, TourStatus, TourTag
from app.users.models import User
from indexer.documents import AdDocument, CreatorDocument, PlaceDocument, TagDocument, TourDocument
from indexer.scores import popular_score, trending_score

STREAM_BATCH = 5000


def _epoch(moment: datetime | None) -> float:
    if moment is None:
        return 0.0
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def listable_tours() -> Select[Tour, User, Creator]:
    return (
        select(Tour, User, Creator)
        .join(User, User.id == Tour.user_id)
        .outerjoin(Creator, Creator.user_id == Tour.user_id)
        .where(*LISTABLE)
    )


LISTABLE = (
    Tour.status == TourStatus.active,
    Tour.approval_state == ApprovalState.approved,
    User.is_active.is_(True),
    User.user_active.is_(True),
    User.is_deleted.is_(False),
)

# Plain columns, not ORM entities: a reindex reads every listable tour, and building three mapped
# objects per row costs more than everything else the rebuild does.
_DOCUMENT_COLUMNS = (
    Tour.id,
    Tour.guid,
    Tour.user_id,
    Tour.title,
    Tour.description,
    Tour.category_id,
    Tour.subcategory_id,
    Tour.media_type_id,
    Tour.vendor_id,
    Tour.address_country,
    Tour.address_city,
    Tour.address_str,
    Tour.address_id,
    Tour.lat,
    Tour.lng,
    Tour.created_at,
    Tour.views,
    Tour.likes,
    Tour.saves,
    Tour.shared,
    Tour.is_featured,
    Tour.featured_order,
    Tour.link,
    Tour.preview_picture,
    Tour.third_party_creator,
    Tour.creator_website,
    User.platform_username,
    Creator.id.label("creator_id"),
    Creator.creator_name,
    Creator.logo,
    Creator.img_settings,
)


def _document_rows() -> Select[Any]:
    return (
        select(*_DOCUMENT_COLUMNS)
        .join(User, User.id == Tour.user_id)
        .outerjoin(Creator, Creator.user_id == Tour.user_id)
        .where(*LISTABLE)
    )


def listable_tour_count(session: Session) -> int:
    return int(session.scalar(select(func.count()).select_from(listable_tours().subquery())) or 0)


def tour_documents(session: Session, ids: Iterable[int] | None) -> Iterator[TourDocument]:
    """Documents for the given ids, or every listable tour in views-descending order (streamed)."""
    now = datetime.now(UTC).timestamp()
    if ids is not None:
        id_list = sorted(ids)
        for start in range(0, len(id_list), STREAM_BATCH):
            chunk = id_list[start : start + STREAM_BATCH]
            rows = session.execute(_document_rows().where(Tour.id.in_(chunk))).all()
            yield from _tour_batch(session, rows, now)
        return
    statement = _document_rows().order_by(Tour.views.desc(), Tour.id.desc()).execution_options(yield_per=STREAM_BATCH)
    for partition in session.execute(statement).partitions():
        yield from _tour_batch(session, partition, now)


def _tour_batch(session: Session, rows: Sequence[Any], now: float) -> Iterator[TourDocument]:
    tags = _tags_of(session, [row.id for row in rows])
    for row in rows:
        yield _tour_document(row, tags.get(row.id, []), now)


def _tags_of(session: Session, tour_ids: Sequence[int]) -> dict[int, list[tuple[int, str]]]:
    tags: dict[int, list[tuple[int, str]]] = defaultdict(list)
    if not tour_ids:
        return tags
    rows = session.execute(
        select(TourTag.tour_id, Tag.id, Tag.name)
        .join(Tag, Tag.id == TourTag.tag_id)
        .where(TourTag.tour_id.in_(tour_ids))
        .order_by(TourTag.tour_id, TourTag.position)
    )
    for tour_id, tag_id, name in rows:
        tags[tour_id].append((tag_id, name))
    return tags


def _tour_document(row: Any, tags: list[tuple[int, str]], now: float) -> TourDocument:
    created = _epoch(row.created_at)
    age_hours = max(0.0, (now - created) / 3600)
    return TourDocument(
        id=row.id,
        guid=row.guid,
        user_id=row.user_id,
        creator_id=row.creator_id,
        title=row.title,
        description=row.description or "",
        category_id=row.category_id,
        subcategory_id=row.subcategory_id,
        media_type_id=row.media_type_id,
        vendor_id=row.vendor_id,
        country=row.address_country,
        city=row.address_city,
        address=row.address_str,
        address_id=row.address_id,
        lat=row.lat,
        lng=row.lng,
        tag_ids=tuple(tag_id for tag_id, _ in tags),
        tag_names=tuple(name for _, name in tags),
        created_at=created,
        views=row.views,
        likes=row.likes,
        saves=row.saves,
        shared=row.shared,
        trending=trending_score(
            views=row.views, likes=row.likes, saves=row.saves, shared=row.shared, age_hours=age_hours
        ),
        popular=popular_score(views=row.views, age_days=age_hours / 24),
        is_featured=bool(row.is_featured),
        featured_order=row.featured_order,
        link=row.link,
        preview_picture=row.preview_picture,
        third_party_creator=row.third_party_creator,
        creator_website=row.creator_website,
        creator_name=row.creator_name,
        platform_username=row.platform_username,
        logo=row.logo,
        img_settings=dict(row.img_settings or {}),
    )


def tour_counters(session: Session, ids: Iterable[int]) -> dict[int, dict[str, float]]:
    now = datetime.now(UTC).timestamp()
    counters: dict[int, dict[str, float]] = {}
    rows = session.execute(
        select(Tour.id, Tour.views, Tour.likes, Tour.saves, Tour.shared, Tour.created_at).where(Tour.id.in_(list(ids)))
    )
    for tour_id, views, likes, saves, shared, created_at in rows:
        age_hours = max(0.0, (now - _epoch(created_at)) / 3600)
        counters[tour_id] = {
            "views": views,
            "likes": likes,
            "saves": saves,
            "shared": shared,
            "trending": trending_score(views=views, likes=likes, saves=saves, shared=shared, age_hours=age_hours),
            "popular": popular_score(views=views, age_days=age_hours / 24),
        }
    return counters


def creator_documents(session: Session, ids: Iterable[int] | None) -> Iterator[CreatorDocument]:
    statement = (
        select(Creator, User)
        .join(User, User.id == Creator.user_id)
        .where(Creator.is_active.is_(True))
        .where(User.is_active.is_(True), User.user_active.is_(True), User.is_deleted.is_(False))
        .order_by(Creator.id)
    )
    if ids is not None:
        statement = statement.where(Creator.id.in_(list(ids)))
    rows = session.execute(statement).all()
    user_ids = [user.id for _, user in rows]
    stats = _creator_tour_stats(session, user_ids)
    for creator, user in rows:
        countries, categories, count = stats.get(user.id, ((), (), 0))
        yield CreatorDocument(
            id=creator.id,
            user_id=user.id,
            creator_name=creator.creator_name,
            platform_username=user.platform_username,
            description=creator.description or "",
            logo=creator.logo,
            img_settings=dict(creator.img_settings or {}),
            followers=creator.followers,
            vt_count=count,
            views=creator.views,
            likes=creator.likes,
            locations=tuple(creator.area_served or ()),
            countries=countries,
            category_ids=categories,
            created_at=_epoch(creator.created_at),
        )


def _creator_tour_stats(
    session: Session, user_ids: Sequence[int]
) -> dict[int, tuple[tuple[str, ...], tuple[int, ...], int]]:
    """Per creator user: the countries and categories of their listable tours, and how many."""
    found: dict[int, tuple[set[str], set[int], int]] = {}
    for start in range(0, len(user_ids), STREAM_BATCH):
        chunk = user_ids[start : start + STREAM_BATCH]
        rows = session.execute(
            select(Tour.user_id, Tour.address_country, Tour.category_id, func.count())
            .where(Tour.user_id.in_(chunk))
            .where(Tour.status == TourStatus.active, Tour.approval_state == ApprovalState.approved)
            .group_by(Tour.user_id, Tour.address_country, Tour.category_id)
        )
        for user_id, country, category_id, count in rows:
            countries, categories, total = found.get(user_id, (set(), set(), 0))
            if country:
                countries.add(country)
            categories.add(category_id)
            found[user_id] = (countries, categories, total + count)
    return {
        user_id: (tuple(sorted(countries)), tuple(sorted(categories)), total)
        for user_id, (countries, categories, total) in found.items()
    }


def ad_documents(session: Session, ids: Iterable[int] | None) -> Iterator[AdDocument]:
    statement = select(Ad).where(Ad.status == TourStatus.active, Ad.approval_state == ApprovalState.approved)
    if ids is not None:
        statement = statement.where(Ad.id.in_(list(ids)))
    for ad in session.scalars(statement):
        yield AdDocument(
            id=ad.id,
            guid=ad.guid,
            user_id=ad.user_id,
            title=ad.title,
            preview_picture=ad.preview_picture,
            link=ad.link,
            created_at=_epoch(ad.created_at),
        )


def tag_documents(session: Session, ids: Iterable[int] | None) -> Iterator[TagDocument]:
    counts = dict(
        session.execute(
            select(TourTag.tag_id, func.count())
            .join(Tour, Tour.id == TourTag.tour_id)
            .where(Tour.status == TourStatus.active, Tour.approval_state == ApprovalState.approved)
            .group_by(TourTag.tag_id)
        ).all()
    )
    statement = select(Tag).where(Tag.is_active.is_(True))
    if ids is not None:
        statement = statement.where(Tag.id.in_(list(ids)))
    for tag in session.scalars(statement):
        yield TagDocument(
            id=tag.id,
            name=tag.name,
            topic_type=str(tag.topic_type.value if hasattr(tag.topic_type, "value") else tag.topic_type),
            topic_id=tag.topic_id,
            vt_count=int(counts.get(tag.id, 0)),
        )


def place_documents(session: Session) -> Iterator[PlaceDocument]:
    """Countries and cities from the offline gazetteer, with how many listable tours each holds."""
    from app.locations.gazetteer import iter_places

    per_country = dict(
        session.execute(
            select(Tour.address_country, func.count())
            .where(Tour.status == TourStatus.active, Tour.approval_state == ApprovalState.approved)
            .group_by(Tour.address_country)
        ).all()
    )
    for place in iter_places():
        if place.kind == "country":
            yield PlaceDocument(
                id=place.id,
                name=place.name,
                kind=place.kind,
                country=place.country,
                lat=place.lat,
                lng=place.lng,
                bbox=place.bbox,
                population=place.population,
                vt_count=int(per_country.get(place.country, 0)),
            )
        else:
            yield place
