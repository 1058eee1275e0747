"""Discovery: the feed, the map, search and recommendations.

Everything that lists or ranks is asked of the search index; the database answers only the
per-user flags (is_save, is_owned, is_follow) of the ids on the page, and the user's own lists
(saves, follows, interests) that some feeds start from.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

from babel.dates import format_timedelta
from pydantic import TypeAdapter
from pydantic_core import to_json
from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from app.ads import serving
from app.classifications import service as classifications
from app.classifications.models import DictionaryKind, Tag
from app.classifications.names import localized_names
from app.core.db import FixedInList
from app.core.errors import NotFound
from app.core.locale import DEFAULT_LOCALE
from app.core.locale import locale_of as locale_of  # re-exported: discovery/router.py reads it here
from app.core.vector_tiles import TileAddress
from app.creators.models import Creator, Follow
from app.discovery import signals, tiles
from app.discovery.params import FeedParams
from app.discovery.schemas import (
    AdCard,
    CreatorCard,
    FeedChoice,
    MapAreaAnswer,
    MapCluster,
    MapFeature,
    MapFeatureProperties,
    MediaCard,
    Mode,
    PointGeometry,
    PopularTagsPage,
    RankedBy,
    SearchAnswer,
    SearchResult,
    Sorting,
    TagList,
    TagOut,
)
from app.discovery.schemas import (
    Card as WireCard,
)
from app.engagement.models import TourSave
from app.engagement.service import Viewer, user_viewer_key
from app.search.embeddings import vectors_of
from app.tours.models import Tour, TourTag
from app.tours.queries import visible_tour
from app.users.models import User, UserRef
from indexer.cards import Card as IndexCard
from indexer.port import SearchIndex
from indexer.queries import (
    BBox,
    CreatorQuery,
    FeedQuery,
    MapQuery,
    Page,
    SavedOrFollowed,
    SimilarQuery,
    Sort,
    SuggestQuery,
    TagQuery,
    TourFilter,
)

# One creator card in every CREATOR_EVERY cards when the mode is Media & Creators.
CREATOR_EVERY = 6
# A Sponsored card after every ADS_EVERY cards of the tour grid (not counted in offsets or totals).
ADS_EVERY = 24
MAP_MAX_POINTS = 500
NO_DATA_MESSAGE = "No data found"

SORTING_TO_SORT: dict[Sorting, Sort] = {
    Sorting.az: Sort.AZ,
    Sorting.za: Sort.ZA,
    Sorting.newest: Sort.NEWEST,
    Sorting.random: Sort.RANDOM,
    Sorting.likes: Sort.LIKES,
    Sorting.saves: Sort.SAVES,
    Sorting.shares: Sort.SHARES,
    Sorting.views: Sort.VIEWS,
    Sorting.near_me: Sort.NEAR_ME,
}

FEED_DEFAULT_SORT: dict[FeedChoice, Sort] = {
    FeedChoice.featured: Sort.FEATURED,
    FeedChoice.user_favorite: Sort.FAVORITE,
    FeedChoice.popular: Sort.POPULAR,
    FeedChoice.trending: Sort.TRENDING,
    FeedChoice.new: Sort.NEWEST,
    FeedChoice.for_you: Sort.TRENDING,
    FeedChoice.saves_follows: Sort.NEWEST,
}

CREATOR_SORT: dict[Sort, Sort] = {Sort.AZ: Sort.AZ, Sort.ZA: Sort.ZA, Sort.NEWEST: Sort.NEWEST, Sort.LIKES: Sort.LIKES}


# ------------------------------------------------------------------ the grid


def grid_page(
    db: Session,
    index: SearchIndex,
    user: UserRef | None,
    params: FeedParams,
    locale: str = DEFAULT_LOCALE,
    viewer_key: str | None = None,
    tastes: signals.AdTasteCache | None = None,
) -> bytes:
    """One page of the tour grid as the JSON of `GridPage` (the documented answer of the feed and of
    the creator-scoped grid), written from the index's card payloads by `card_payloads` without a
    pydantic model per card: the feed is the hottest call, and 48 models were a third of its time.
    tests/unit/test_grid_json.py holds the bytes to those GridPage gives for the same page."""
    cards, total, ranked_by = grid_cards(db, index, user, params, viewer_key, tastes)
    page = {
        "total_items": total,
        "limit": params.limit,
        "offset": params.offset,
        "ranked_by": ranked_by.value,
        "data": card_payloads(db, user, cards, locale),
    }
    return to_json(page)


def grid_cards(
    db: Session,
    index: SearchIndex,
    user: UserRef | None,
    params: FeedParams,
    viewer_key: str | None = None,
    tastes: signals.AdTasteCache | None = None,
) -> tuple[list[IndexCard], int, RankedBy]:
    """The index payloads of one grid page (tours, creators, ads in order), the total and what the
    page is ordered by. `viewer_key` names a signed-out viewer for the ads' frequency cap
    (engagement.Viewer.key); `tastes` keeps the viewers' ad tastes a while (signals.AdTasteCache),
    without it they are read for this page."""
    tour_filter, sort, vector = resolve_feed(db, index, user, params)
    near = params.near or _stored_location(user) if sort is Sort.NEAR_ME else None
    if sort is Sort.NEAR_ME and near is None:
        sort = Sort.VIEWS  # no location known: the closest honest order is popularity
    ranked_by = _ranked_by(params, tour_filter, sort, vector)
    feed_query = FeedQuery(
        filter=tour_filter, sort=sort, limit=params.limit, offset=params.offset, seed=params.seed, near=near
    )
    cards: list[IndexCard]
    if params.mode is Mode.media:
        page = _tour_page(index, feed_query, vector)
        cards, total = page.docs, page.total
    elif params.mode is Mode.creators:
        creator_page = index.creators(_creator_query(tour_filter, sort, params.limit, params.offset))
        cards, total = creator_page.docs, creator_page.total
    else:
        cards, total = _mixed_page(index, feed_query, vector)
    if params.mode is not Mode.creators and params.feed is not FeedChoice.saves_follows:
        cards = _with_ads(db, index, user, viewer_key, cards, params.offset, params.seed, tastes)
    return cards, total, ranked_by


def _ranked_by(params: FeedParams, tour_filter: TourFilter, sort: Sort, vector: list[float] | None) -> RankedBy:
    """What the page is ordered by, as the client says it above the grid."""
    if params.mode is Mode.creators:
        return RankedBy(CREATOR_SORT.get(sort, Sort.VIEWS).value)
    if vector is not None:
        return RankedBy.taste
    for_you = params.feed is FeedChoice.for_you and params.sorting is None
    if for_you and tour_filter.categories and not params.filter.categories:
        return RankedBy.interests
    return RankedBy(sort.value)


def resolve_feed(
    db: Session, index: SearchIndex, user: UserRef | None, params: FeedParams
) -> tuple[TourFilter, Sort, list[float] | None]:
    """The filter, order and (For You) taste vector that a feed choice stands for."""
    tour_filter = params.filter
    feed = params.feed
    sort = (
        SORTING_TO_SORT[params.sorting]
        if params.sorting
        else FEED_DEFAULT_SORT.get(feed, Sort.NEWEST)
        if feed
        else Sort.NEWEST
    )
    if tour_filter.text and params.sorting is None and feed is None:
        sort = Sort.RELEVANCE
    vector: list[float] | None = None
    if params.only_360:
        tour_filter = replace(tour_filter, only_media_types=classifications.media_type_ids_360(db))
    if feed is FeedChoice.featured:
        tour_filter = replace(tour_filter, featured_only=True)
    if feed is FeedChoice.saves_follows or params.saves_follow:
        tour_filter = replace(tour_filter, saved_or_followed=saved_and_followed(db, user))
    if feed is FeedChoice.for_you and user is not None:
        vector = taste_vector(db, user)
        if vector is None and not tour_filter.categories:
            tour_filter = replace(tour_filter, categories=interest_categories(db, user))
    return tour_filter, sort, vector


def _tour_page(index: SearchIndex, query: FeedQuery, vector: list[float] | None) -> Page:
    if vector is None:
        return index.feed(query)
    # For You: nearest tours to the user's taste, paged over a bounded candidate list.
    found = index.similar(SimilarQuery(vector=vector, limit=query.offset + query.limit, filter=query.filter))
    ids = found.ids[query.offset : query.offset + query.limit]
    docs = found.docs[query.offset : query.offset + query.limit]
    return Page(ids=ids, total=found.total, docs=docs)


def _creator_query(tour_filter: TourFilter, sort: Sort, limit: int, offset: int) -> CreatorQuery:
    return CreatorQuery(
        text=tour_filter.text,
        countries=tour_filter.countries,
        categories=tour_filter.categories,
        sort=CREATOR_SORT.get(sort, Sort.VIEWS),
        limit=limit,
        offset=offset,
    )


def mixed_offsets(offset: int, tours_total: int, creators_total: int) -> tuple[int, int]:
    """How many tours and creators come before `offset` in the mixed sequence, where every
    CREATOR_EVERY-th slot is a creator while creators last, and tours fill everything else."""
    creators_before = min(creators_total, offset // CREATOR_EVERY)
    tours_before = offset - creators_before
    if tours_before > tours_total:
        tours_before = tours_total
        creators_before = min(creators_total, offset - tours_total)
    return tours_before, creators_before


def _tour_only_filter(tour_filter: TourFilter) -> bool:
    return bool(
        tour_filter.bounds
        or tour_filter.tags
        or tour_filter.vendors
        or tour_filter.media_types
        or tour_filter.subcategories
        or tour_filter.tour_ids is not None
        or tour_filter.saved_or_followed is not None
        or tour_filter.user_ids is not None
        or tour_filter.featured_only
        or tour_filter.only_media_types is not None
        or tour_filter.created_from is not None
        or tour_filter.created_before is not None
    )


def _mixed_page(index: SearchIndex, query: FeedQuery, vector: list[float] | None) -> tuple[list[IndexCard], int]:
    creator_query = _creator_query(query.filter, query.sort, 1, 0)
    # Creators are matched by name, country and category only: under a filter that only tours have
    # (a place on the map, tags, hosts, media types, added dates, a list of tours) the mix shows tours alone
    # rather than creators the filter does not describe.
    creators_total = 0 if _tour_only_filter(query.filter) else index.creators(creator_query).total
    tours_total = _tour_page(index, replace(query, limit=1, offset=0), vector).total
    tours_before, creators_before = mixed_offsets(query.offset, tours_total, creators_total)
    tours = _tour_page(index, replace(query, offset=tours_before), vector).docs
    # While tours last, creators take only their own slots: read just those (a creator card costs
    # more to read than a tour's), or a whole page when the tours may run out before its end.
    window = range(query.offset, query.offset + query.limit)
    creator_slots = sum(1 for position in window if position % CREATOR_EVERY == CREATOR_EVERY - 1)
    wanted = creator_slots if len(tours) >= query.limit else query.limit
    creators = (
        index.creators(replace(creator_query, limit=wanted, offset=creators_before)).docs
        if creators_total and wanted
        else []
    )
    cards: list[IndexCard] = []
    for position in range(query.offset, query.offset + query.limit):
        wants_creator = position % CREATOR_EVERY == CREATOR_EVERY - 1
        if (wants_creator and creators) or not tours:
            if not creators:
                break
            cards.append(creators.pop(0))
        else:
            cards.append(tours.pop(0))
    return cards, tours_total + creators_total


def ad_viewer_key(user: UserRef | None, guest_id: str | None, ip: str | None) -> str:
    """Whom the ads' frequency cap counts: the key GET /v2/ads/show counts impressions under."""
    if user is not None:
        return user_viewer_key(user.id)
    return Viewer(user=None, guest_id=guest_id, ip=ip).key


def _ad_taste(db: Session, user_id: int) -> signals.AdTaste:
    """One statement for everything the ads match the viewer on (app/discovery/signals.py)."""
    viewer = signals.viewer_signals(db, user_id)
    return signals.AdTaste(tag_ids=viewer.tag_ids, vector=mean_taste(db, viewer.taste_tours))


def _with_ads(
    db: Session,
    index: SearchIndex,
    user: UserRef | None,
    viewer_key: str | None,
    cards: list[IndexCard],
    offset: int,
    seed: str,
    tastes: signals.AdTasteCache | None = None,
) -> list[IndexCard]:
    """A Sponsored card after every ADS_EVERY cards, chosen for the viewer (app/ads/serving.py)."""
    slots = len(cards) // ADS_EVERY
    if slots == 0:
        return cards
    taste = serving.ViewerTaste(viewer_key=viewer_key)
    if user is not None:
        user_id = user.id
        ad_taste = tastes.taste(user_id, lambda: _ad_taste(db, user_id)) if tastes else _ad_taste(db, user_id)
        taste = serving.ViewerTaste(
            viewer_key=viewer_key or user_viewer_key(user.id), tag_ids=ad_taste.tag_ids, vector=ad_taste.vector
        )
    ads = serving.choose_ads(db, index, taste, slots=slots, seed=seed or "ads", page=offset)
    if not ads:
        return cards
    mixed: list[IndexCard] = []
    for position, card in enumerate(cards, start=1):
        mixed.append(card)
        if position % ADS_EVERY == 0 and ads:
            mixed.append(ads.pop(0))
    return mixed


# ------------------------------------------------------------------ cards and per-user flags


def card_payloads(
    db: Session, user: UserRef | None, cards: Sequence[Mapping[str, Any]], locale: str = DEFAULT_LOCALE
) -> list[dict[str, Any]]:
    """The one card builder: spec §3 Media, Creator and Ad cards of index payloads, with the caller's
    flags, each as the dict of its JSON (its model's fields, in the model's order, with the types the
    model would give), ready for `to_json`."""
    tour_ids = [card["id"] for card in cards if card.get("type") == "vt"]
    creator_ids = [card["id"] for card in cards if card.get("type") == "creator"]
    saved = saved_among(db, user, tour_ids)
    followed = followed_among(db, user, creator_ids)
    now = datetime.now(UTC).timestamp()
    user_id = user.id if user is not None else None
    shaped: list[dict[str, Any]] = []
    for card in cards:
        kind = card.get("type")
        if kind == "vt":
            shaped.append(media_payload(card, saved=card["id"] in saved, user_id=user_id, now=now, locale=locale))
        elif kind == "creator":
            shaped.append(creator_payload(card, followed=card["id"] in followed))
        elif kind == "ad":
            shaped.append(ad_payload(card))
    return shaped


CARD: TypeAdapter[MediaCard | CreatorCard | AdCard] = TypeAdapter(WireCard)


def shape_cards(
    db: Session, user: User | None, cards: Sequence[Mapping[str, Any]], locale: str = DEFAULT_LOCALE
) -> list[MediaCard | CreatorCard | AdCard]:
    """`card_payloads` as models, for answers that embed cards in a model of their own."""
    return [CARD.validate_python(payload) for payload in card_payloads(db, user, cards, locale)]


def media_card(card: Mapping[str, Any], *, saved: bool, user: User | None, now: datetime, locale: str) -> MediaCard:
    user_id = user.id if user is not None else None
    payload = media_payload(card, saved=saved, user_id=user_id, now=now.timestamp(), locale=locale)
    return MediaCard.model_validate(payload)


def media_payload(
    card: Mapping[str, Any], *, saved: bool, user_id: int | None, now: float, locale: str
) -> dict[str, Any]:
    """Spec §3 Media card as the dict of its JSON (counters folded in by the index may arrive as
    floats: int() them). `now` in epoch seconds, taken once for a page's 48 cards."""
    age = now - float(card.get("created_at") or 0)
    return {
        "type": "vt",
        "guid": card["guid"],
        "title": card["title"],
        "preview_picture": card.get("preview_picture"),
        "views": int(card.get("views", 0)),
        "saves": int(card.get("saves", 0)),
        "is_save": saved,
        "is_owned": user_id is not None and card.get("userid") == user_id,
        "created_ago": age_text(age, locale),
        "media_type_id": int(card["media_type_id"]),
        "userid": int(card["userid"]),
    }


def creator_payload(card: Mapping[str, Any], *, followed: bool) -> dict[str, Any]:
    """Spec §3 Creator card as the dict of its JSON."""
    return {
        "type": "creator",
        "id": int(card["id"]),
        "creator_name": card["creator_name"],
        "platform_username": card.get("platform_username"),
        "logo": card.get("logo"),
        "img_settings": _img_settings(card.get("img_settings")),
        "followers": int(card.get("followers", 0)),
        "vt_count": int(card.get("vt_count", 0)),
        "views": int(card.get("views", 0)),
        "is_follow": followed,
        "locations": [{"location": _location_text(item)} for item in card.get("locations", [])],
        "userid": int(card["userid"]),
    }


def ad_payload(card: Mapping[str, Any]) -> dict[str, Any]:
    """Spec §3 Ad card as the dict of its JSON (the index's guid stays out: the spec's card has none)."""
    return {
        "type": "ad",
        "id": int(card["id"]),
        "title": card["title"],
        "preview_picture": card.get("preview_picture"),
        "link": card["link"],
        "user_id": int(card["user_id"]),
    }


def _img_settings(raw: Any) -> dict[str, Any]:
    """ImgSettings as JSON: a creator's stored settings may lack either value, or hold the wrong type."""
    settings = raw if isinstance(raw, dict) else {}
    color, scale = settings.get("bgColor"), settings.get("logoScale")
    return {
        "bgColor": color if isinstance(color, str) else "black",
        "logoScale": float(scale) if isinstance(scale, int | float) and not isinstance(scale, bool) else 10.0,
    }


def _location_text(item: Any) -> str:
    return str(item.get("location", "")) if isinstance(item, dict) else str(item)


def created_ago(created: datetime, now: datetime, locale: str = DEFAULT_LOCALE) -> str:
    """'3 days ago' / '3 дня назад': Babel knows each language's plural forms."""
    return age_text((now - created).total_seconds(), locale)


def age_text(age_seconds: float, locale: str = DEFAULT_LOCALE) -> str:
    """`created_ago` of an age in seconds: 48 times a feed page, so plain arithmetic, no datetimes."""
    seconds = max(0, int(age_seconds))
    # Babel shows only the largest unit, so ages within one unit read alike: cache per unit.
    for unit in AGE_UNITS:
        if seconds >= unit:
            return _age_text(seconds // unit * unit, locale)
    return _age_text(0, locale)


AGE_UNITS = (31_536_000, 2_592_000, 604_800, 86_400, 3_600, 60, 1)


@lru_cache(maxsize=4096)
def _age_text(seconds: int, locale: str) -> str:
    return str(format_timedelta(timedelta(seconds=-seconds), add_direction=True, locale=locale, threshold=1))


# Built once: every card page asks them, and building a statement costs more than running it. Of the
# tables' columns, not the models' attributes: a statement of ORM attributes runs through the ORM's
# compile and result steps as well (54 against 23 µs here), for rows that are plain values anyway.
_saves, _follows = TourSave.__table__.c, Follow.__table__.c
_SAVED_AMONG = FixedInList(
    lambda ids: select(_saves.tour_id).where(_saves.user_id == bindparam("user_id"), _saves.tour_id.in_(ids))
)
_FOLLOWED_AMONG = FixedInList(
    lambda ids: select(_follows.creator_id).where(
        _follows.user_id == bindparam("user_id"), _follows.creator_id.in_(ids)
    )
)


def saved_among(db: Session, user: UserRef | None, tour_ids: Sequence[int]) -> set[int]:
    if user is None or not tour_ids:
        return set()
    return {row[0] for row in _SAVED_AMONG.rows(db, tour_ids, {"user_id": user.id})}


def followed_among(db: Session, user: UserRef | None, creator_ids: Sequence[int]) -> set[int]:
    if user is None or not creator_ids:
        return set()
    return {row[0] for row in _FOLLOWED_AMONG.rows(db, creator_ids, {"user_id": user.id})}


# ------------------------------------------------------------------ user lists behind some feeds


def saved_and_followed(db: Session, user: UserRef | None) -> SavedOrFollowed:
    """The users whose tours a visitor follows and the tours they saved: the index lets in either
    (listing every followed creator's tours would outgrow a search request)."""
    if user is None:
        return SavedOrFollowed()
    saved = select(TourSave.tour_id).where(TourSave.user_id == user.id)
    followed_users = (
        select(Creator.user_id).join(Follow, Follow.creator_id == Creator.id).where(Follow.user_id == user.id)
    )
    return SavedOrFollowed(
        followed_user_ids=tuple(sorted(set(db.scalars(followed_users)))),
        saved_tour_ids=tuple(sorted(db.scalars(saved))),
    )


def interest_categories(db: Session, user: UserRef) -> tuple[int, ...]:
    return tuple(db.scalars(signals.INTERESTS, {"user_id": user.id}))


def taste_vector(db: Session, user: UserRef) -> list[float] | None:
    """The mean embedding of what the user liked and saved (their taste), when embeddings exist.
    Vectors come from the database's stored embeddings (see app.search.embeddings.vectors_of)."""
    liked = db.scalars(signals.TASTE_LIKES, {"user_id": user.id})
    saved = db.scalars(signals.TASTE_SAVES, {"user_id": user.id})
    return mean_taste(db, {*liked, *saved})


def mean_taste(db: Session, tour_ids: Iterable[int]) -> list[float] | None:
    """The normalised mean of these tours' stored embeddings; None when none has one."""
    vectors = list(vectors_of(db, tour_ids).values())
    if not vectors:
        return None
    dimensions = len(vectors[0])
    mean = [sum(vector[i] for vector in vectors) / len(vectors) for i in range(dimensions)]
    norm = math.sqrt(sum(value * value for value in mean)) or 1.0
    return [value / norm for value in mean]


def _stored_location(user: UserRef | None) -> tuple[float, float] | None:
    location = user.last_location if user else None
    center = location.get("center") if isinstance(location, dict) else None
    if isinstance(center, list | tuple) and len(center) == 2:
        return float(center[1]), float(center[0])
    return None


# ------------------------------------------------------------------ map


def map_area(
    db: Session,
    index: SearchIndex,
    user: User | None,
    tour_filter: TourFilter,
    bbox: BBox,
    zoom: float,
    locale: str = DEFAULT_LOCALE,
) -> MapAreaAnswer:
    answer = index.map_area(MapQuery(filter=tour_filter, bbox=bbox, zoom=zoom, max_points=MAP_MAX_POINTS))
    saved = saved_among(db, user, [point["id"] for point in answer.points])
    now = datetime.now(UTC)
    features = []
    for point in answer.points:
        properties: dict[str, Any] = {
            key: value for key, value in point.items() if key not in ("lat", "lng", "created_at")
        }
        created = datetime.fromtimestamp(float(point["created_at"] or 0), UTC)
        properties.setdefault("created_date", created.date().isoformat())
        properties["created_ago"] = created_ago(created, now, locale)
        properties["is_save"] = point["id"] in saved
        features.append(
            MapFeature(
                geometry=PointGeometry(coordinates=(point["lng"], point["lat"])),
                properties=MapFeatureProperties.model_validate(properties),
            )
        )
    clusters = [
        MapCluster(
            id=cluster.cell,
            count=cluster.count,
            center=(cluster.lng, cluster.lat),
            expansion_zoom=cluster.expansion_zoom,
        )
        for cluster in answer.clusters
    ]
    return MapAreaAnswer(total_items=answer.total, features=features, clusters=clusters)


def map_tile(db: Session, index: SearchIndex, user: User | None, params: FeedParams, tile: TileAddress) -> bytes:
    """One vector tile of the map: the feed's filters (as the map-area calls resolve them) over the
    tile's area, clustered by the index at the tile's zoom. A searched place's bounds do not narrow
    the map: the tile is the area, as the visible area is for filtered-map."""
    tour_filter, _sort, _vector = resolve_feed(db, index, user, params)
    query = MapQuery(
        filter=replace(tour_filter, bounds=None),
        bbox=tiles.tile_bbox(tile),
        zoom=tile.z,
        max_points=tiles.tile_max_points(tile.z),
    )
    return tiles.encode_tours(tile, index.map_area(query))


def feed_is_personal(params: FeedParams, user: User | None) -> bool:
    """Whether the caller's own lists shape the answer (Saves & Follows, For You's interests): then
    no shared cache may keep it. Must name every user-dependent branch of `resolve_feed`."""
    if user is None:
        return False
    return params.saves_follow or params.feed in (FeedChoice.saves_follows, FeedChoice.for_you)


# ------------------------------------------------------------------ search and tags


def search(
    index: SearchIndex, text: str, *, limit: int = 10, category_id: int | None = None, media_type_id: int | None = None
) -> SearchAnswer:
    found = index.suggest(SuggestQuery(text=text, limit=limit, category_id=category_id, media_type_id=media_type_id))
    data = [
        SearchResult(
            type=item.type.value,
            id=item.id,
            text=item.text,
            creator_id=item.creator_id,
            category=item.category,
            bbox=list(item.bbox) if item.bbox else None,
            center=list(item.center) if item.center else None,
            vt_count=item.vt_count,
        )
        for item in found
    ]
    return SearchAnswer(data=data, message=None if data else NO_DATA_MESSAGE)


def similar_media(
    db: Session, index: SearchIndex, user: User | None, guid: str, limit: int, locale: str = DEFAULT_LOCALE
) -> bytes:
    """The JSON of the cards of the tours most like this one (a list of cards, as documented)."""
    tour = visible_tour(db, viewer=user, guid=guid)
    vector = vectors_of(db, (tour.id,)).get(tour.id)
    if vector is not None:
        page = index.similar(SimilarQuery(vector=vector, limit=limit, exclude_ids=(tour.id,)))
        docs = page.docs
    else:
        # Without embeddings: the same category and shared tags, most viewed first.
        tag_ids = tuple(db.scalars(select(TourTag.tag_id).where(TourTag.tour_id == tour.id)))
        query = FeedQuery(
            filter=TourFilter(categories=(tour.category_id,), tags=tag_ids), sort=Sort.VIEWS, limit=limit + 1
        )
        docs = [doc for doc in index.feed(query).docs if doc["id"] != tour.id][:limit]
        if len(docs) < limit:
            more = index.feed(
                FeedQuery(filter=TourFilter(categories=(tour.category_id,)), sort=Sort.VIEWS, limit=limit + 1)
            )
            seen = {doc["id"] for doc in docs} | {tour.id}
            docs += [doc for doc in more.docs if doc["id"] not in seen][: limit - len(docs)]
    return to_json(card_payloads(db, user, docs, locale))


def tags_with_counts(
    db: Session, tour_ids: Sequence[int] | None, *, category_ids: Sequence[int] = (), limit: int = 30
) -> TagList:
    statement = (
        select(Tag.id, Tag.name, func.count(TourTag.tour_id))
        .join(TourTag, TourTag.tag_id == Tag.id)
        .where(Tag.is_active.is_(True))
        .group_by(Tag.id, Tag.name)
        .order_by(func.count(TourTag.tour_id).desc(), Tag.name)
        .limit(limit)
    )
    if tour_ids is not None:
        statement = statement.where(TourTag.tour_id.in_(tour_ids))
    if category_ids:
        statement = statement.join(Tour, Tour.id == TourTag.tour_id).where(Tour.category_id.in_(category_ids))
    return TagList(data=[TagOut(id=tag_id, name=name, vt_count=count) for tag_id, name, count in db.execute(statement)])


def popular_tags(
    db: Session,
    index: SearchIndex,
    *,
    limit: int,
    offset: int,
    category_id: int | None = None,
    media_type_id: int | None = None,
    locale: str = DEFAULT_LOCALE,
) -> PopularTagsPage:
    """The Popular tags page: the index ranks the tags by their listed tours; names in the caller's
    language where the tag has one."""
    page = index.popular_tags(
        TagQuery(limit=limit, offset=offset, category_id=category_id, media_type_id=media_type_id)
    )
    names = localized_names(db, DictionaryKind.tag, [tag.id for tag in page.tags], locale)
    return PopularTagsPage(
        total_items=page.total,
        limit=limit,
        offset=offset,
        data=[TagOut(id=tag.id, name=names.get(tag.id, tag.name), vt_count=tag.vt_count) for tag in page.tags],
    )


def user_tags(db: Session, user: User | None) -> TagList:
    """Tags for the chips above a user's feed: from their interests, or the most used overall."""
    categories = interest_categories(db, user) if user else ()
    return tags_with_counts(db, None, category_ids=categories)


def media_tags(db: Session, guids: Sequence[str]) -> TagList:
    ids = list(db.scalars(select(Tour.id).where(Tour.guid.in_(guids)))) if guids else []
    return tags_with_counts(db, ids, limit=50)


def creator_user(db: Session, user_id: int) -> User:
    owner = db.get(User, user_id)
    if owner is None or owner.is_deleted:
        raise NotFound("User not found")
    return owner
