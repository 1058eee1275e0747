"""The port's typed queries as Elasticsearch request bodies. Pure functions: no client, no I/O, so
every body is unit-tested without a server.

Semantics shared with the embedded adapter (the contract suite holds both to them):
- every TourFilter field narrows (AND); a multi-valued field matches any of its values; an empty
  `user_ids` / `tour_ids` / `only_media_types` tuple matches nothing, None does not filter;
  `saved_or_followed` lets in a tour by a followed user or a saved one; unlisted tours only with
  `with_unlisted`; the added-date range includes its start and excludes its end;
- no page reaches past MAX_RESULT_WINDOW (Elasticsearch's `index.max_result_window`);
- text: every word is a prefix of a word in the title or the body (description, tag names, city,
  address, country); a leading quote asks for the exact phrase;
- ties are broken by id descending, so pages are stable.
"""

from __future__ import annotations

import hashlib
import math
import re
from typing import Any

import indexer.queries as port
from indexer.elasticsearch.sources import VECTOR_FIELD
from indexer.geo import MAX_LEVEL, cluster_level, mercator_xy
from indexer.queries import (
    BBox,
    CreatorQuery,
    FeedQuery,
    MapQuery,
    SavedOrFollowed,
    SimilarQuery,
    Sort,
    SuggestKind,
    SuggestQuery,
    TagQuery,
    TourFilter,
)

Body = dict[str, Any]
Clause = dict[str, Any]

MAX_CLUSTER_ZOOM = 18  # spec §9: max cluster zoom 18; above it the client lists the points
# One bucket per quarter tile on screen: a 4K screen shows about 2,000; the rest is headroom.
MAX_CLUSTER_CELLS = 10_000
# knn looks at this many candidates per wanted hit (recall against latency), at least 100.
KNN_CANDIDATES_PER_HIT = 10
KNN_MIN_CANDIDATES = 100
KNN_MAX_CANDIDATES = 10_000  # Elasticsearch's own ceiling for num_candidates (k may not exceed it)
# `index.max_terms_count`: the most values one `terms` query may hold; longer lists are split.
MAX_TERMS_COUNT = 65_536
# Suggestions fetch a few more candidates per kind than asked, then rank all kinds together.
SUGGEST_CANDIDATES_PER_SLOT = 3

SOURCE_WITHOUT_VECTOR: Body = {"excludes": [VECTOR_FIELD]}
# Unlisted tours are left out (`must_not`) unless a filter asks for them (TourFilter.with_unlisted). A
# document written before the field existed (mapping tours.v1) has none and counts as listed.
UNLISTED: Clause = {"term": {"unlisted": True}}
BY_ID_DESC: Clause = {"id": {"order": "desc"}}
_QUOTES = ("'", '"')
_WORD = re.compile(r"\w+", re.UNICODE)

TOUR_PREFIX_FIELDS = ["title.prefix^3", "body_prefix"]
TOUR_PHRASE_FIELDS = ["title^3", "body"]
CREATOR_PREFIX_FIELDS = ["creator_name.prefix^3", "platform_username.prefix^3", "body_prefix"]
CREATOR_PHRASE_FIELDS = ["creator_name^3", "body"]

# (field, order) of each field sort; FEATURED, NEAR_ME, RANDOM and RELEVANCE are built by tour_sort.
TOUR_SORT_FIELDS: dict[Sort, tuple[str, str]] = {
    Sort.AZ: ("title.sort", "asc"),
    Sort.ZA: ("title.sort", "desc"),
    Sort.NEWEST: ("created_at", "desc"),
    Sort.LIKES: ("likes", "desc"),
    Sort.SAVES: ("saves", "desc"),
    Sort.SHARES: ("shared", "desc"),
    Sort.VIEWS: ("views", "desc"),
    Sort.TRENDING: ("trending", "desc"),
    Sort.FAVORITE: ("favorite", "desc"),
    Sort.POPULAR: ("popular", "desc"),
}
# Creators have no saves, shares, trend or place of their own: those sorts fall back to views.
CREATOR_SORT_FIELDS: dict[Sort, tuple[str, str]] = {
    Sort.AZ: ("creator_name.sort", "asc"),
    Sort.ZA: ("creator_name.sort", "desc"),
    Sort.NEWEST: ("created_at", "desc"),
    Sort.LIKES: ("likes", "desc"),
    Sort.VIEWS: ("views", "desc"),
    Sort.POPULAR: ("followers", "desc"),
    Sort.FAVORITE: ("followers", "desc"),
}
# The field each kind of suggestion is ranked by before the final ranking across kinds.
SUGGEST_WEIGHT_FIELDS: dict[SuggestKind, str] = {
    SuggestKind.TOUR: "views",
    SuggestKind.CREATOR: "weight",
    SuggestKind.TAG: "vt_count",
    SuggestKind.PLACE: "weight",
}


# --------------------------------------------------------------------------- building blocks


def seed_number(seed: str) -> int:
    """A stable 31-bit integer from the visitor's seed: random_score wants a number, and the same seed
    must give the same order on every page and every API process (Python's hash() is salted)."""
    return int.from_bytes(hashlib.sha256(seed.encode("utf-8")).digest()[:4], "big") & 0x7FFFFFFF


def has_words(text: str) -> bool:
    return _WORD.search(text) is not None


def text_clause(text: str, *, prefix_fields: list[str], phrase_fields: list[str]) -> Clause | None:
    """Every word as a prefix, all required (each in any field); a leading quote asks for the exact
    phrase. None when nothing searchable is left (only punctuation)."""
    stripped = text.strip()
    if stripped.startswith(_QUOTES):
        phrase = stripped.strip("'\"").strip()
        if not has_words(phrase):
            return None
        return {"multi_match": {"query": phrase, "type": "phrase", "fields": phrase_fields}}
    if not has_words(stripped):
        return None
    # cross_fields with `and`: each word must be found, in whichever field; the prefix sub-fields
    # index edge n-grams, so a word matches every indexed word it begins.
    return {"multi_match": {"query": stripped, "type": "cross_fields", "operator": "and", "fields": prefix_fields}}


def _wrap_longitude(lng: float) -> float:
    if -180.0 <= lng <= 180.0:
        return lng
    return (lng + 180.0) % 360.0 - 180.0


def bounding_boxes(bbox: BBox) -> list[tuple[float, float, float, float]]:
    """(west, south, east, north) boxes that cover `bbox` without crossing the antimeridian.

    Map libraries report longitudes past ±180 after panning around the world; they are wrapped, and a
    box whose west is east of its east crosses the antimeridian and becomes two boxes."""
    south, north = sorted((max(-90.0, min(90.0, bbox.south)), max(-90.0, min(90.0, bbox.north))))
    if not bbox.crosses_antimeridian() and bbox.east - bbox.west >= 360.0:
        return [(-180.0, south, 180.0, north)]
    west, east = _wrap_longitude(bbox.west), _wrap_longitude(bbox.east)
    if west <= east:
        return [(west, south, east, north)]
    return [(west, south, 180.0, north), (-180.0, south, east, north)]


def bounds_clause(bbox: BBox, field: str = "location") -> Clause:
    boxes = [
        {
            "geo_bounding_box": {
                field: {"top_left": {"lat": north, "lon": west}, "bottom_right": {"lat": south, "lon": east}}
            }
        }
        for west, south, east, north in bounding_boxes(bbox)
    ]
    if len(boxes) == 1:
        return boxes[0]
    return {"bool": {"should": boxes, "minimum_should_match": 1}}


def _terms_chunks(field: str, values: tuple[Any, ...]) -> list[Clause]:
    """`terms` queries of at most `index.max_terms_count` values each (one query past it is refused)."""
    if len(values) <= MAX_TERMS_COUNT:
        return [{"terms": {field: list(values)}}]
    return [
        {"terms": {field: list(values[start : start + MAX_TERMS_COUNT])}}
        for start in range(0, len(values), MAX_TERMS_COUNT)
    ]


def _terms(field: str, values: tuple[Any, ...]) -> Clause:
    """Any of `values`, however many."""
    chunks = _terms_chunks(field, values)
    if len(chunks) == 1:
        return chunks[0]
    return {"bool": {"should": chunks, "minimum_should_match": 1}}


def saved_or_followed_clause(either: SavedOrFollowed) -> Clause:
    """A tour by a followed user, or a saved one; neither given matches nothing."""
    should = [
        _terms(field, values)
        for field, values in (("user_id", either.followed_user_ids), ("id", either.saved_tour_ids))
        if values
    ]
    if not should:
        return {"match_none": {}}
    return {"bool": {"should": should, "minimum_should_match": 1}}


def tour_filter_clauses(tour_filter: TourFilter) -> list[Clause]:
    """Filter context (cached, unscored) clauses for everything a TourFilter asks, text included."""
    clauses: list[Clause] = []
    for field, values in (
        ("category_id", tour_filter.categories),
        ("subcategory_id", tour_filter.subcategories),
        ("country", tour_filter.countries),
        ("vendor_id", tour_filter.vendors),
        ("media_type_id", tour_filter.media_types),
        ("tag_ids", tour_filter.tags),
    ):
        if values:
            clauses.append(_terms(field, values))
    # None means "anyone"; an empty tuple means "no one" (a visitor following nobody sees nothing).
    if tour_filter.user_ids is not None:
        clauses.append(_terms("user_id", tour_filter.user_ids))
    if tour_filter.tour_ids is not None:
        clauses.append(_terms("id", tour_filter.tour_ids))
    if tour_filter.saved_or_followed is not None:
        clauses.append(saved_or_followed_clause(tour_filter.saved_or_followed))
    if tour_filter.featured_only:
        clauses.append({"term": {"is_featured": True}})
    if tour_filter.only_media_types is not None:
        only = tour_filter.only_media_types
        clauses.append(_terms("media_type_id", only) if only else {"match_none": {}})
    if tour_filter.created_from is not None or tour_filter.created_before is not None:
        created: dict[str, float] = {}
        if tour_filter.created_from is not None:
            created["gte"] = tour_filter.created_from
        if tour_filter.created_before is not None:
            created["lt"] = tour_filter.created_before
        clauses.append({"range": {"created_at": created}})
    if tour_filter.bounds is not None:
        clauses.append(bounds_clause(tour_filter.bounds))
    if tour_filter.text:
        matched = text_clause(tour_filter.text, prefix_fields=TOUR_PREFIX_FIELDS, phrase_fields=TOUR_PHRASE_FIELDS)
        if matched is not None:
            clauses.append(matched)
    return clauses


def tour_exclusions(tour_filter: TourFilter) -> list[Clause]:
    """The `must_not` clauses of a TourFilter: unlisted tours, unless it asks for them."""
    return [] if tour_filter.with_unlisted else [UNLISTED]


def title_hit_clause(text: str) -> Clause | None:
    """Relevance: a tour whose title holds the words scores 1, any other match 0; views break ties."""
    matched = text_clause(text, prefix_fields=["title.prefix"], phrase_fields=["title"])
    if matched is None:
        return None
    return {"constant_score": {"filter": matched, "boost": 1.0}}


def random_scored(query: Clause, seed: str) -> Clause:
    """Seeded random order from the document's id: unique, and never changed by an update (a score
    on `_seq_no` would move a tour at each counter update and reshuffle a visitor's pages)."""
    return {
        "function_score": {
            "query": query,
            "functions": [{"random_score": {"seed": seed_number(seed), "field": "id"}}],
            "boost_mode": "replace",
        }
    }


def _field_sort(field: str, order: str) -> list[Clause]:
    # Ties follow the sort's direction (A-Z ties by id ascending), as the embedded adapter's indexes do.
    return [{field: {"order": order}}, {"id": {"order": order}}]


def tour_sort(sort: Sort, near: tuple[float, float] | None = None) -> list[Clause]:
    if sort is Sort.NEAR_ME and near is not None:
        lat, lng = near
        distance = {"location": {"lat": lat, "lon": lng}, "order": "asc", "unit": "km", "distance_type": "arc"}
        return [{"_geo_distance": distance}, BY_ID_DESC]
    if sort is Sort.FEATURED:
        return [{"featured_order": {"order": "asc", "missing": "_last"}}, BY_ID_DESC]
    if sort is Sort.RANDOM:
        return [{"_score": {"order": "desc"}}, BY_ID_DESC]
    if sort is Sort.RELEVANCE:
        return [{"_score": {"order": "desc"}}, {"views": {"order": "desc"}}, BY_ID_DESC]
    # Near Me without a position has nothing to measure from: newest first, like the embedded adapter.
    field, order = TOUR_SORT_FIELDS.get(sort, TOUR_SORT_FIELDS[Sort.NEWEST])
    return _field_sort(field, order)


def _check_page(limit: int, offset: int) -> None:
    if limit < 0 or offset < 0:
        raise ValueError(f"limit and offset must not be negative (limit={limit}, offset={offset})")


def _page_within_window(offset: int, limit: int) -> Body:
    """`from` and `size` inside `index.max_result_window`: a page across it is cut; one beyond it
    asks for no hits (from 0), so the search only counts and the total stays true."""
    size = port.rows_in_window(offset, limit)
    return {"from": offset if size else 0, "size": size}


def _feed_total_hits(query: FeedQuery) -> bool | int:
    """Exact, as the feed's `total_items` promises, except text searches: exact below
    TEXT_TOTAL_CAP and that many above (README). Near Me counts its text matches exactly, as the
    embedded index does."""
    near_me = query.sort is Sort.NEAR_ME and query.near is not None
    if query.filter.text and not near_me:
        return port.TEXT_TOTAL_CAP
    return True


def _bool(filters: list[Clause], should: list[Clause] | None = None, must_not: list[Clause] | None = None) -> Clause:
    query: dict[str, Any] = {"filter": filters}
    if should:
        query["should"] = should
    if must_not:
        query["must_not"] = must_not
    return {"bool": query}


# --------------------------------------------------------------------------- feed and creators


def feed_body(query: FeedQuery) -> Body:
    _check_page(query.limit, query.offset)
    filters = tour_filter_clauses(query.filter)
    if query.sort is Sort.FEATURED and not query.filter.featured_only:
        filters.append({"term": {"is_featured": True}})
    if query.sort is Sort.NEAR_ME and query.near is not None:
        filters.append({"exists": {"field": "location"}})  # tours without a place have no distance
    should: list[Clause] = []
    if query.sort is Sort.RELEVANCE and query.filter.text:
        title_hit = title_hit_clause(query.filter.text)
        if title_hit is not None:
            should.append(title_hit)
    search: Clause = _bool(filters, should, tour_exclusions(query.filter))
    if query.sort is Sort.RANDOM:
        search = random_scored(search, query.seed)
    return {
        "query": search,
        "sort": tour_sort(query.sort, query.near),
        **_page_within_window(query.offset, query.limit),
        "track_total_hits": _feed_total_hits(query),
        "_source": SOURCE_WITHOUT_VECTOR,
    }


def creators_body(query: CreatorQuery) -> Body:
    _check_page(query.limit, query.offset)
    filters: list[Clause] = []
    if query.countries:
        filters.append(_terms("countries", query.countries))
    if query.categories:
        filters.append(_terms("category_ids", query.categories))
    if query.user_ids is not None:
        filters.append(_terms("user_id", query.user_ids))
    search: Clause = _bool(filters)
    if query.text is not None and query.text.strip():
        matched = text_clause(
            query.text.strip().lstrip("@"), prefix_fields=CREATOR_PREFIX_FIELDS, phrase_fields=CREATOR_PHRASE_FIELDS
        )
        # Text that holds no word cannot match any creator: an empty page, not every creator.
        search = {"match_none": {}} if matched is None else _bool([*filters, matched])
    field, order = CREATOR_SORT_FIELDS.get(query.sort, CREATOR_SORT_FIELDS[Sort.VIEWS])
    return {
        "query": search,
        "sort": _field_sort(field, order),
        **_page_within_window(query.offset, query.limit),
        "track_total_hits": True,
    }


def ads_body(limit: int, seed: str = "") -> Body:
    _check_page(limit, 0)
    return {
        "query": random_scored({"match_all": {}}, seed),
        "sort": [{"_score": {"order": "desc"}}, BY_ID_DESC],
        "size": limit,
        "track_total_hits": False,  # the ads are spliced into a page: their total is not read
    }


# --------------------------------------------------------------------------- map


def map_query(query: MapQuery) -> Clause:
    filters = [*tour_filter_clauses(query.filter), bounds_clause(query.bbox)]
    return _bool(filters, must_not=tour_exclusions(query.filter))


def map_clusters_body(query: MapQuery) -> Body:
    """The count in the box and one geotile cell per quarter tile (precision zoom + 2, the embedded
    adapter's cluster level), each with its centroid, extent (for the expansion zoom) and lowest id
    (to fetch the tour of a one-tour cell)."""
    return {
        "query": map_query(query),
        "size": 0,
        "track_total_hits": True,  # decides points or clusters, and is the map's exact total
        "aggs": {
            "cells": {
                "geotile_grid": {
                    "field": "location",
                    "precision": cluster_level(query.zoom),
                    "size": MAX_CLUSTER_CELLS,
                },
                "aggs": {
                    "centroid": {"geo_centroid": {"field": "location"}},
                    "extent": {"geo_bounds": {"field": "location", "wrap_longitude": False}},
                    "first_id": {"min": {"field": "id"}},
                },
            }
        },
    }


def map_points_body(query: MapQuery, size: int) -> Body:
    return {
        "query": map_query(query),
        "size": size,
        "sort": _field_sort("views", "desc"),
        "track_total_hits": False,  # counted by map_clusters_body already
        "_source": SOURCE_WITHOUT_VECTOR,
    }


def tours_by_ids_body(ids: list[int]) -> Body:
    return {
        "query": _bool([_terms("id", tuple(ids))]),
        "size": len(ids),
        "sort": [BY_ID_DESC],
        "track_total_hits": False,
        "_source": SOURCE_WITHOUT_VECTOR,
    }


def expansion_zoom(precision: int, top_left: tuple[float, float], bottom_right: tuple[float, float]) -> int:
    """The zoom at which a cell's tours stop sharing one cluster cell: the first level where the
    corners of their extent (lat, lng) fall in different tiles, minus the 2 levels of quarter tiles.
    Never before the next zoom; tours on one spot expand to the deepest cluster zoom."""
    for level in range(precision + 1, MAX_LEVEL + 1):
        if mercator_xy(*top_left, level) != mercator_xy(*bottom_right, level):
            return min(max(level - 2, precision - 1), MAX_CLUSTER_ZOOM)
    return MAX_CLUSTER_ZOOM


# --------------------------------------------------------------------------- suggestions


def suggest_plan(query: SuggestQuery) -> tuple[str, tuple[SuggestKind, ...]]:
    """What to look for and in which kinds: `#` asks for tags only, `@` for creators only."""
    text = query.text.strip()
    if text.startswith("#"):
        return text[1:].strip(), (SuggestKind.TAG,)
    if text.startswith("@"):
        return text[1:].strip(), (SuggestKind.CREATOR,)
    return text, query.kinds


def _prefix_match(field: str, text: str) -> Clause:
    return {"match": {field: {"query": text, "operator": "and"}}}


def suggest_body(kind: SuggestKind, text: str, query: SuggestQuery) -> Body:
    """One kind's candidates: every typed word a prefix of the name, best weighted first."""
    filters: list[Clause] = []
    if kind is SuggestKind.TOUR:
        filters.append(_prefix_match("title.prefix", text))
        if query.category_id is not None:
            filters.append({"term": {"category_id": query.category_id}})
        if query.media_type_id is not None:
            filters.append({"term": {"media_type_id": query.media_type_id}})
    elif kind is SuggestKind.CREATOR:
        # Name and username read as one text ("Studio North @north"): each word may be in either.
        fields = ["creator_name.prefix", "platform_username.prefix"]
        filters.append({"multi_match": {"query": text, "type": "cross_fields", "operator": "and", "fields": fields}})
    elif kind is SuggestKind.TAG:
        filters.append(_prefix_match("name.prefix", text))
        topics = _tag_topics(query)
        if topics:
            filters.append({"bool": {"should": topics, "minimum_should_match": 1}})
    else:
        filters.append(_prefix_match("name.prefix", text))
    return {
        # Unlisted tours are never suggested; the other kinds have no such field.
        "query": _bool(filters, must_not=[UNLISTED] if kind is SuggestKind.TOUR else None),
        "sort": _field_sort(SUGGEST_WEIGHT_FIELDS[kind], "desc"),
        "size": query.limit * SUGGEST_CANDIDATES_PER_SLOT,
        "track_total_hits": False,  # suggestions are ranked, never counted
        "_source": SOURCE_WITHOUT_VECTOR,
    }


def popular_tags_body(query: TagQuery) -> Body:
    """Tags carried by listed tours, most first, ties by id (the embedded adapter's order)."""
    filters: list[Clause] = [{"range": {"vt_count": {"gte": 1}}}]
    topics = _tag_topics(query)
    if topics:
        filters.append({"bool": {"should": topics, "minimum_should_match": 1}})
    return {
        "query": _bool(filters),
        "sort": [{"vt_count": "desc"}, {"id": "asc"}],
        **_page_within_window(query.offset, query.limit),
        "track_total_hits": True,
    }


def _tag_topics(query: SuggestQuery | TagQuery) -> list[Clause]:
    """Tags belong to one category or one media type; the picker narrows to either."""
    topics: list[Clause] = []
    for topic_type, topic_id in (("category", query.category_id), ("media_type", query.media_type_id)):
        if topic_id is not None:
            topics.append(_bool([{"term": {"topic_type": topic_type}}, {"term": {"topic_id": topic_id}}]))
    return topics


def suggest_score(text: str, typed: str, weight: float) -> float:
    """Exact name 3, name starting with the typed text 2, other match 1; plus a little for weight.
    The same ranking as the embedded adapter, so both merge the kinds alike."""
    lowered = text.lower()
    if lowered == typed:
        closeness = 3.0
    elif lowered.startswith(typed):
        closeness = 2.0
    else:
        closeness = 1.0
    return closeness + 0.1 * math.log1p(max(weight, 0.0))


def typed_words(text: str) -> str:
    return " ".join(word.lower() for word in _WORD.findall(text))


# --------------------------------------------------------------------------- similar


def similar_neighbours(limit: int) -> int:
    """k: the neighbours asked for, cut at MAX_SIMILAR_RESULTS (For You pages within it)."""
    return min(limit, port.MAX_SIMILAR_RESULTS, KNN_MAX_CANDIDATES)


def knn_candidates(k: int) -> int:
    """num_candidates: KNN_CANDIDATES_PER_HIT per neighbour, at least KNN_MIN_CANDIDATES, never
    below k (Elasticsearch refuses k > num_candidates) nor above its 10,000 ceiling."""
    return min(KNN_MAX_CANDIDATES, max(k, KNN_MIN_CANDIDATES, k * KNN_CANDIDATES_PER_HIT))


def _similar_filter(query: SimilarQuery, *extra: Clause) -> Clause:
    excluded = [*tour_exclusions(query.filter), *(_terms_chunks("id", query.exclude_ids) if query.exclude_ids else [])]
    return _bool([*tour_filter_clauses(query.filter), *extra], must_not=excluded)


def similar_body(query: SimilarQuery) -> Body:
    """Approximate nearest neighbours over the HNSW graph; the filter runs inside knn, so the k
    neighbours returned all pass it (a post-filter would return fewer). Nothing is counted here:
    a knn search's hits.total would be k, and similar_count_body counts the candidates."""
    if not query.vector:
        raise ValueError("similar tours need a query vector")
    if query.limit < 1:
        raise ValueError(f"knn needs at least one neighbour (limit={query.limit})")
    k = similar_neighbours(query.limit)
    return {
        "knn": {
            "field": VECTOR_FIELD,
            "query_vector": [float(value) for value in query.vector],
            "k": k,
            "num_candidates": knn_candidates(k),
            "filter": _similar_filter(query),
        },
        "size": k,
        "track_total_hits": False,
        "_source": SOURCE_WITHOUT_VECTOR,
    }


def similar_count_body(query: SimilarQuery) -> Body:
    """similar().total: the tours the ranking draws from (they pass the filter, are not excluded
    and have an embedding), counted up to MAX_SIMILAR_RESULTS, as far as anyone can page."""
    return {
        "query": _similar_filter(query, {"exists": {"field": VECTOR_FIELD}}),
        "size": 0,
        "track_total_hits": port.MAX_SIMILAR_RESULTS,
    }
