"""Typed queries the product asks the index, and what the index answers."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from indexer.cards import Card, MapPoint

# Elasticsearch answers 400 when `from + size` passes `index.max_result_window` (mappings/*.json set
# it to this). No adapter pages past it: a page reaching beyond it is cut at the window, and a page
# that starts beyond it is empty, with `total` still the true count. The API validates
# offset + limit against it.
MAX_RESULT_WINDOW = 100_000
# similar() ranks at most this many tours (Elasticsearch's ceiling for knn `num_candidates`): a
# larger `limit` is cut to it, and For You pages within it.
MAX_SIMILAR_RESULTS = 10_000
# Totals of text searches are exact below this and read this many above (README): counting a
# million matches costs more than the page.
TEXT_TOTAL_CAP = 1_000


def rows_in_window(offset: int, limit: int) -> int:
    """How many of the `limit` rows asked for from `offset` lie inside MAX_RESULT_WINDOW."""
    return max(0, min(limit, MAX_RESULT_WINDOW - offset))


def similar_in_window(count: int) -> int:
    """A similar() `limit` or `total` cut at MAX_SIMILAR_RESULTS."""
    return min(count, MAX_SIMILAR_RESULTS)


class Sort(StrEnum):
    AZ = "az"
    ZA = "za"
    NEWEST = "newest"
    RANDOM = "random"
    LIKES = "likes"
    SAVES = "saves"
    SHARES = "shares"
    VIEWS = "views"
    NEAR_ME = "near_me"
    TRENDING = "trending"
    FEATURED = "featured"
    FAVORITE = "favorite"  # likes + saves: what users keep coming back to
    POPULAR = "popular"  # half views, half recency: the `popular` score of a document
    RELEVANCE = "relevance"  # text match first, popularity second


@dataclass(frozen=True, slots=True)
class BBox:
    west: float
    south: float
    east: float
    north: float

    def crosses_antimeridian(self) -> bool:
        return self.west > self.east


@dataclass(frozen=True, slots=True)
class SavedOrFollowed:
    """Saves & Follows: a tour by any followed user, or any saved tour (either one lets it in).

    Filtering by the followed users themselves keeps the request small: a heavy follower's tours
    listed one by one would pass Elasticsearch's `index.max_terms_count` (65,536)."""

    followed_user_ids: tuple[int, ...] = ()
    saved_tour_ids: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TourFilter:
    categories: tuple[int, ...] = ()
    subcategories: tuple[int, ...] = ()
    countries: tuple[str, ...] = ()
    vendors: tuple[int, ...] = ()
    media_types: tuple[int, ...] = ()
    tags: tuple[int, ...] = ()
    text: str | None = None  # words; a leading quote asks for the exact phrase
    bounds: BBox | None = None
    user_ids: tuple[int, ...] | None = None  # creator-scoped pages
    tour_ids: tuple[int, ...] | None = None  # exactly these tours
    saved_or_followed: SavedOrFollowed | None = None  # Saves & Follows; None does not filter
    featured_only: bool = False
    # Added on or after `created_from` and before `created_before` (epoch seconds; None: open end).
    created_from: float | None = None
    created_before: float | None = None
    # The "360° only" switch: only tours of these media types (the panoramas and 360 video), on top of
    # `media_types`; None does not filter, an empty tuple matches nothing.
    only_media_types: tuple[int, ...] | None = None
    # Unlisted tours are left out of everything unless asked for: only their owner's pages (the
    # creator-scoped grid and map) ask. Feeds, map, search and recommendations never do.
    with_unlisted: bool = False

    def is_empty(self) -> bool:
        return self == TourFilter()


@dataclass(frozen=True, slots=True)
class FeedQuery:
    filter: TourFilter = field(default_factory=TourFilter)
    sort: Sort = Sort.NEWEST
    limit: int = 48
    offset: int = 0
    seed: str = ""  # Random: the same seed gives the same order, so pages never repeat
    near: tuple[float, float] | None = None  # (lat, lng) for Near Me


@dataclass(frozen=True, slots=True)
class Page:
    ids: list[int]
    total: int
    docs: list[Card] = field(default_factory=list)  # card payloads, same order as ids


@dataclass(frozen=True, slots=True)
class CreatorQuery:
    text: str | None = None
    countries: tuple[str, ...] = ()
    categories: tuple[int, ...] = ()
    user_ids: tuple[int, ...] | None = None
    sort: Sort = Sort.VIEWS
    limit: int = 48
    offset: int = 0


@dataclass(frozen=True, slots=True)
class MapQuery:
    filter: TourFilter
    bbox: BBox
    zoom: float
    max_points: int = 500


@dataclass(frozen=True, slots=True)
class Cluster:
    lat: float
    lng: float
    count: int
    expansion_zoom: int
    cell: str  # stable id of the cluster's cell, for keys on the client


@dataclass(frozen=True, slots=True)
class MapAnswer:
    points: list[MapPoint]  # map feature properties plus lat/lng
    clusters: list[Cluster]
    total: int


class SuggestKind(StrEnum):
    TOUR = "tour"
    CREATOR = "creator"
    TAG = "tag"
    PLACE = "place"


@dataclass(frozen=True, slots=True)
class SuggestQuery:
    text: str
    kinds: tuple[SuggestKind, ...] = (SuggestKind.TOUR, SuggestKind.CREATOR, SuggestKind.TAG, SuggestKind.PLACE)
    limit: int = 10
    category_id: int | None = None
    media_type_id: int | None = None


@dataclass(frozen=True, slots=True)
class Suggestion:
    type: SuggestKind
    id: str
    text: str
    creator_id: int | None = None
    category: int | None = None
    bbox: tuple[float, float, float, float] | None = None
    center: tuple[float, float] | None = None  # (lng, lat) as map libraries expect
    vt_count: int | None = None
    score: float = 0.0


@dataclass(frozen=True, slots=True)
class SimilarQuery:
    vector: list[float]
    limit: int = 12
    exclude_ids: tuple[int, ...] = ()
    filter: TourFilter = field(default_factory=TourFilter)


# ------------------------------------------------------------------ popular tags (issue 18 part 6)


@dataclass(frozen=True, slots=True)
class TagQuery:
    """The most used tags: tags carried by at least one listed tour, most tours first (ties: the older
    tag, by id, first), optionally only those of one category's or media type's topic."""

    limit: int = 48
    offset: int = 0
    category_id: int | None = None
    media_type_id: int | None = None


@dataclass(frozen=True, slots=True)
class TagCount:
    id: int
    name: str
    vt_count: int
    topic_type: str
    topic_id: int


@dataclass(frozen=True, slots=True)
class TagPage:
    tags: list[TagCount]
    total: int  # how many tags are used at all (under the topic filter)
