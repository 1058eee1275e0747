"""Database rows → index documents. Only what may be listed becomes a document: active, approved
tours of active, undeleted users (an unlisted one too, marked so: the index shows it on its owner's
pages only); active creators of active users; active, approved ads. The counts discovery shows (a tag's
or a country's tours, a creator's countries and categories) count discoverable tours only."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np
from sqlalchemy import Select, bindparam, func, select
from sqlalchemy.orm import Session

from app.ads.models import Ad, AdTag
from app.ads.queries import served_clause as ad_served_clause
from app.classifications.models import Rank, RankEntityType, Tag
from app.creators.models import Creator
from app.tours.models import Tour, TourTag, TourVisibility
from app.tours.queries import discoverable_clause, in_good_standing_clause, published_clause
from app.users.models import User
from indexer.documents import AdDocument, CreatorDocument, PlaceDocument, TagDocument, TourDocument
from indexer.scores import popular_score

STREAM_BATCH = 5000


def _epoch(moment: datetime | str | None) -> float:
    """Epoch seconds of a stored moment: a datetime, or the ISO text a driver returns for SQLite
    when no type processing runs (the full reindex reads driver rows; naive moments are UTC)."""
    if moment is None:
        return 0.0
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
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


# The listed rule (app/tours/queries.py) for statements that join the owner themselves.
LISTABLE = (published_clause(), in_good_standing_clause())

# Plain columns, not ORM entities, unpacked by position: a reindex reads every listable tour, and
# building mapped objects (or looking columns up by name) per row costs more than the rest of the
# rebuild. Creator columns come from a per-user lookup instead of the join (a creator's JSON would
# be decoded again for each of its tours). Keep _tour_document's unpacking in this order.
_DOCUMENT_COLUMNS: tuple[Any, ...] = (
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
    Tour.trending_score,
    Tour.is_featured,
    Tour.featured_order,
    Tour.link,
    Tour.preview_picture,
    Tour.third_party_creator,
    Tour.creator_website,
    User.platform_username,
    Tour.visibility,
)

# (creator id, creator name, logo, img_settings) per creator user
_CreatorFields = tuple[int, str, str | None, dict[str, Any]]
_NO_CREATOR: tuple[None, None, None, dict[str, Any]] = (None, None, None, {})


def _document_rows() -> Select[Any]:
    return select(*_DOCUMENT_COLUMNS).join(User, User.id == Tour.user_id).where(*LISTABLE)


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
            creators = _creators_of(session, {row[2] for row in rows})
            yield from _tour_batch(session, rows, now, creators, _tag_names(session, [row[0] for row in rows]))
        return
    creators = _creators_of(session, None)
    names = _tag_names(session, None)
    every_tag = _TagTable.read(session)
    statement = _document_rows().order_by(Tour.views.desc(), Tour.id.desc())
    # Driver rows on the session's connection, streamed (a server-side cursor on PostgreSQL): no
    # ORM, and no result type processing, which cost as much as the fetch itself (SQLite's datetime
    # text parsed by a regex per row); `_tour_document` takes the driver's values as they come. The
    # parameters are enum values and booleans, so the statement carries them as literals.
    sql = str(statement.compile(dialect=session.get_bind().dialect, compile_kwargs={"literal_binds": True}))
    result = session.connection().execution_options(stream_results=True).exec_driver_sql(sql)
    for partition in result.yield_per(STREAM_BATCH).partitions():
        tags = every_tag.of([row[0] for row in partition])
        for row in partition:
            yield _tour_document(row, tags.get(row[0], ()), now, creators.get(row[2], _NO_CREATOR), names)


class _TagTable:
    """Every tour's tag ids, read in one pass (3 s for the 4 million links of the 1M bench corpus)
    instead of a query per batch of tours: tours stream in views order, so a batch's `IN` query
    pays a random index descent per tour (11 s in all at a million tours)."""

    def __init__(self, links: np.ndarray) -> None:
        # links: (tour_id, position, tag_id) rows; ordered by tour, then position within a tour.
        links = links[np.lexsort((links[:, 1], links[:, 0]))]
        self.tour_ids, self.starts = np.unique(links[:, 0], return_index=True)
        self.ends = np.append(self.starts[1:], len(links))
        self.tag_ids = links[:, 2].copy()

    @classmethod
    def read(cls, session: Session) -> _TagTable:
        statement = select(TourTag.tour_id, TourTag.position, TourTag.tag_id)
        # The DB-API cursor straight: three integer columns need no type processing, and building
        # millions of Row objects would triple the read.
        cursor = session.connection().connection.driver_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.execute(str(statement.compile(dialect=session.get_bind().dialect)))
            chunks = []
            while rows := cursor.fetchmany(100_000):
                chunks.append(np.array(rows, dtype=np.int64).reshape(-1, 3))
        finally:
            cursor.close()
        return cls(np.concatenate(chunks) if chunks else np.zeros((0, 3), dtype=np.int64))

    def of(self, tour_ids: Sequence[int]) -> dict[int, list[int]]:
        if len(self.tour_ids) == 0:
            return {}
        wanted = np.asarray(tour_ids, dtype=np.int64)
        slots = np.minimum(np.searchsorted(self.tour_ids, wanted), len(self.tour_ids) - 1)
        present = self.tour_ids[slots] == wanted
        return {
            tour_id: self.tag_ids[self.starts[slot] : self.ends[slot]].tolist()
            for tour_id, slot in zip(wanted[present].tolist(), slots[present].tolist(), strict=True)
        }


def _creators_of(session: Session, user_ids: set[int] | None) -> dict[int, _CreatorFields]:
    statement = select(Creator.user_id, Creator.id, Creator.creator_name, Creator.logo, Creator.img_settings)
    if user_ids is not None:
        statement = statement.where(Creator.user_id.in_(sorted(user_ids)))
    return {
        user_id: (creator_id, name, logo, dict(settings or {}))
        for user_id, creator_id, name, logo, settings in session.execute(statement)
    }


def _tag_names(session: Session, tour_ids: Sequence[int] | None) -> dict[int, str]:
    """Names of every tag, or of the tags of these tours."""
    statement = select(Tag.id, Tag.name)
    if tour_ids is not None:
        statement = statement.where(Tag.id.in_(select(TourTag.tag_id).where(TourTag.tour_id.in_(tour_ids))))
    return {tag_id: name for tag_id, name in session.execute(statement)}


def _tour_batch(
    session: Session, rows: Sequence[Any], now: float, creators: dict[int, _CreatorFields], names: dict[int, str]
) -> Iterator[TourDocument]:
    tags = _tags_of(session, [row[0] for row in rows])
    for row in rows:
        yield _tour_document(row, tags.get(row[0], ()), now, creators.get(row[2], _NO_CREATOR), names)


def _tags_of(session: Session, tour_ids: Sequence[int]) -> dict[int, list[int]]:
    """Tag ids per tour, in the tour's order. Ids go into the SQL as literals: they are integers from
    the database, and binding thousands of parameters costs more than the query."""
    tags: dict[int, list[int]] = defaultdict(list)
    if not tour_ids:
        return tags
    rows = session.execute(
        select(TourTag.tour_id, TourTag.tag_id)
        .where(TourTag.tour_id.in_(bindparam("ids", [int(tour_id) for tour_id in tour_ids], literal_execute=True)))
        .order_by(TourTag.tour_id, TourTag.position)
    )
    for tour_id, tag_id in rows:
        tags[tour_id].append(tag_id)
    return tags


def _tour_document(
    row: Any, tag_ids: Sequence[int], now: float, creator: tuple[Any, ...], names: dict[int, str]
) -> TourDocument:
    (
        tour_id,
        guid,
        user_id,
        title,
        description,
        category_id,
        subcategory_id,
        media_type_id,
        vendor_id,
        country,
        city,
        address,
        address_id,
        lat,
        lng,
        created_at,
        views,
        likes,
        saves,
        shared,
        trending,
        is_featured,
        featured_order,
        link,
        preview_picture,
        third_party_creator,
        creator_website,
        platform_username,
        visibility,
    ) = row
    creator_id, creator_name, logo, img_settings = creator
    created = _epoch(created_at)
    return TourDocument(
        id=tour_id,
        guid=guid,
        user_id=user_id,
        creator_id=creator_id,
        title=title,
        description=description or "",
        category_id=category_id,
        subcategory_id=subcategory_id,
        media_type_id=media_type_id,
        vendor_id=vendor_id,
        country=country,
        city=city,
        address=address,
        address_id=address_id,
        lat=lat,
        lng=lng,
        tag_ids=tuple(tag_ids),
        tag_names=tuple(names.get(tag_id, "") for tag_id in tag_ids),
        created_at=created,
        views=views,
        likes=likes,
        saves=saves,
        shared=shared,
        # The rank calculation (app/discovery/rank_calculation.py) keeps the stored score current.
        trending=trending or 0.0,
        popular=popular_score(views=views, age_days=max(0.0, now - created) / 86400),
        is_featured=bool(is_featured),
        featured_order=featured_order,
        link=link,
        preview_picture=preview_picture,
        third_party_creator=third_party_creator,
        creator_website=creator_website,
        creator_name=creator_name,
        platform_username=platform_username,
        logo=logo,
        # Tours of one creator share its settings: a copy each, so no document changes another.
        img_settings=dict(img_settings),
        unlisted=visibility == TourVisibility.unlisted,  # the enum, or its value from a driver row
    )


def tour_counters(session: Session, ids: Iterable[int]) -> dict[int, dict[str, float]]:
    now = datetime.now(UTC).timestamp()
    counters: dict[int, dict[str, float]] = {}
    rows = session.execute(
        select(Tour.id, Tour.views, Tour.likes, Tour.saves, Tour.shared, Tour.trending_score, Tour.created_at).where(
            Tour.id.in_(list(ids))
        )
    )
    for tour_id, views, likes, saves, shared, trending, created_at in rows:
        age_hours = max(0.0, (now - _epoch(created_at)) / 3600)
        counters[tour_id] = {
            "views": views,
            "likes": likes,
            "saves": saves,
            "shared": shared,
            "trending": trending or 0.0,
            "popular": popular_score(views=views, age_days=age_hours / 24),
        }
    return counters


def creator_documents(session: Session, ids: Iterable[int] | None) -> Iterator[CreatorDocument]:
    statement = (
        select(Creator, User)
        .join(User, User.id == Creator.user_id)
        .where(Creator.is_active.is_(True))
        .where(in_good_standing_clause())
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
            trusted=creator.trusted,
            services=tuple(creator.services or ()),
            website=creator.website,
            instagram=creator.social_instagram,
            twitter=creator.social_twitter,
            youtube=creator.social_youtube,
            facebook=creator.social_facebook,
            linkedin=creator.social_linkedin,
            default_view=creator.default_view.value,
            joined_fb_group=creator.joined_fb_group,
        )


def _creator_tour_stats(
    session: Session, user_ids: Sequence[int]
) -> dict[int, tuple[tuple[str, ...], tuple[int, ...], int]]:
    """Per creator user: the countries and categories of their discoverable tours (what creators are
    found by), and how many listable tours they have (unlisted ones too: the creator page lists them)."""
    found: dict[int, tuple[set[str], set[int], int]] = {}
    for start in range(0, len(user_ids), STREAM_BATCH):
        chunk = user_ids[start : start + STREAM_BATCH]
        rows = session.execute(
            select(Tour.user_id, Tour.address_country, Tour.category_id, Tour.visibility, func.count())
            .where(Tour.user_id.in_(chunk))
            .where(published_clause())  # the owner's standing: creator_documents keeps only creators in good standing
            .group_by(Tour.user_id, Tour.address_country, Tour.category_id, Tour.visibility)
        )
        for user_id, country, category_id, visibility, count in rows:
            countries, categories, total = found.get(user_id, (set(), set(), 0))
            if visibility == TourVisibility.public:
                if country:
                    countries.add(country)
                categories.add(category_id)
            found[user_id] = (countries, categories, total + count)
    return {
        user_id: (tuple(sorted(countries)), tuple(sorted(categories)), total)
        for user_id, (countries, categories, total) in found.items()
    }


def ad_documents(session: Session, ids: Iterable[int] | None) -> Iterator[AdDocument]:
    """Served ads (app/ads/queries.py), with their tags and rank (the sum of their rank values)."""
    statement = select(Ad).where(ad_served_clause())
    if ids is not None:
        statement = statement.where(Ad.id.in_(list(ids)))
    ads = list(session.scalars(statement))
    ad_ids = [ad.id for ad in ads]
    tags: dict[int, list[int]] = defaultdict(list)
    ranks: dict[int, float] = {}
    if ad_ids:
        for ad_id, tag_id in session.execute(
            select(AdTag.ad_id, AdTag.tag_id).where(AdTag.ad_id.in_(ad_ids)).order_by(AdTag.ad_id, AdTag.position)
        ):
            tags[ad_id].append(tag_id)
        ranks = {
            ad_id: float(total or 0)
            for ad_id, total in session.execute(
                select(Rank.entity_id, func.sum(Rank.value))
                .where(Rank.entity_type == RankEntityType.ad, Rank.entity_id.in_(ad_ids))
                .group_by(Rank.entity_id)
            )
        }
    for ad in ads:
        yield AdDocument(
            id=ad.id,
            guid=ad.guid,
            user_id=ad.user_id,
            title=ad.title,
            preview_picture=ad.preview_picture,
            link=ad.link,
            created_at=_epoch(ad.created_at),
            tag_ids=tuple(tags.get(ad.id, ())),
            rank=ranks.get(ad.id, 0.0),
        )


def tags_of_tours(session: Session, tour_ids: Iterable[int]) -> set[int]:
    """The tags these tours carry (listed or not)."""
    ids = sorted(set(tour_ids))
    found: set[int] = set()
    for start in range(0, len(ids), STREAM_BATCH):
        chunk = ids[start : start + STREAM_BATCH]
        found.update(session.scalars(select(TourTag.tag_id).where(TourTag.tour_id.in_(chunk)).distinct()))
    return found


def tag_documents(session: Session, ids: Iterable[int] | None) -> Iterator[TagDocument]:
    """Active tags with how many listed tours carry each (`vt_count`: the popular tags and the
    search suggestions rank by it). Asked for some tags, only theirs are counted."""
    wanted = sorted(set(ids)) if ids is not None else None
    counting = (
        select(TourTag.tag_id, func.count())
        .join(Tour, Tour.id == TourTag.tour_id)
        .where(discoverable_clause())
        .group_by(TourTag.tag_id)
    )
    if wanted is not None:
        counting = counting.where(TourTag.tag_id.in_(wanted))
    counts = dict(session.execute(counting).all())
    statement = select(Tag).where(Tag.is_active.is_(True))
    if wanted is not None:
        statement = statement.where(Tag.id.in_(wanted))
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
    from app.locations.gazetteer import iter_places  # scipy and the gazetteer load only when asked

    per_country = dict(
        session.execute(
            select(Tour.address_country, func.count()).where(discoverable_clause()).group_by(Tour.address_country)
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
