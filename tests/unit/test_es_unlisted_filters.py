"""Unlisted tours and the added-date and 360° filters in the Elasticsearch adapter's request bodies.

No Elasticsearch server can run on this machine (tests/index runs the contract there whenever
ELASTICSEARCH_URL answers), so besides the shape of each body, the clauses these filters add are
evaluated here over the `_source` of a corpus laid out like the contract suite's, with Elasticsearch's semantics for
the few query types involved (a `keyword` field matches the string of a number; `must_not` on a
missing field lets the document in), and must pick the tours the contract expects.
"""

from __future__ import annotations

from typing import Any

import pytest

from indexer.elasticsearch import queries as q
from indexer.elasticsearch.sources import tour_source
from indexer.queries import BBox, FeedQuery, MapQuery, SimilarQuery, Sort, SuggestKind, SuggestQuery, TourFilter
from tests.unit.test_es_queries import tour

START = 1_700_000_000
DAY = 86_400
KEYWORDS = {"user_id", "category_id", "subcategory_id", "media_type_id", "vendor_id", "country", "tag_ids", "guid"}


def _values(source: dict[str, Any], field: str) -> list[Any]:
    value = source.get(field)
    if value is None:
        return []
    values = list(value) if isinstance(value, list | tuple) else [value]
    return [str(item) for item in values] if field in KEYWORDS else values


def matches(clause: dict[str, Any], source: dict[str, Any]) -> bool:
    """Elasticsearch's answer for the query types the tour filters use (anything else fails loudly)."""
    ((kind, spec),) = clause.items()
    if kind == "match_all":
        return True
    if kind == "match_none":
        return False
    if kind == "bool":
        musts = [*spec.get("filter", []), *spec.get("must", [])]
        if not all(matches(part, source) for part in musts):
            return False
        if any(matches(part, source) for part in spec.get("must_not", [])):
            return False
        should = spec.get("should", [])
        needed = spec.get("minimum_should_match", 0 if musts else 1)
        return not should or sum(matches(part, source) for part in should) >= needed
    if kind == "term":
        ((field, wanted),) = spec.items()
        expected = str(wanted) if field in KEYWORDS else wanted
        return expected in _values(source, field)
    if kind == "terms":
        ((field, wanted),) = spec.items()
        expected = {str(item) if field in KEYWORDS else item for item in wanted}
        return bool(expected & set(_values(source, field)))
    if kind == "range":
        ((field, bounds),) = spec.items()
        checks = {"gte": float.__ge__, "gt": float.__gt__, "lte": float.__le__, "lt": float.__lt__}
        return any(
            all(checks[op](float(value), float(limit)) for op, limit in bounds.items())
            for value in _values(source, field)
        )
    raise AssertionError(f"not evaluated here: {kind}")


CORPUS = [
    tour(
        id=number,
        user_id=100 + number % 12,
        category_id=1 + number % 4,
        media_type_id=1 + number % 2,
        created_at=START + number * 3_600 + (number % 7) * DAY,
        unlisted=number % 7 == 0,
    )
    for number in range(1, 241)
]
SOURCES = [tour_source(doc) for doc in CORPUS]


def selected(query: dict[str, Any]) -> set[int]:
    return {source["id"] for source in SOURCES if matches(query, source)}


CASES: list[tuple[str, TourFilter, Any]] = [
    ("nothing", TourFilter(), lambda d: True),
    ("category", TourFilter(categories=(2,)), lambda d: d.category_id == 2),
    ("an owner's page", TourFilter(user_ids=(105,), with_unlisted=True), lambda d: d.user_id == 105),
    ("from", TourFilter(created_from=START + 5 * DAY), lambda d: d.created_at >= START + 5 * DAY),
    ("before", TourFilter(created_before=START + 3 * DAY), lambda d: d.created_at < START + 3 * DAY),
    (
        "range",
        TourFilter(created_from=START + 2 * DAY, created_before=START + 6 * DAY),
        lambda d: START + 2 * DAY <= d.created_at < START + 6 * DAY,
    ),
    ("360 only", TourFilter(only_media_types=(2,)), lambda d: d.media_type_id == 2),
    ("no 360 type", TourFilter(only_media_types=()), lambda d: False),
    ("360 and chosen types", TourFilter(media_types=(1, 2), only_media_types=(1,)), lambda d: d.media_type_id == 1),
]


@pytest.mark.parametrize(("name", "tour_filter", "keep"), CASES, ids=[case[0] for case in CASES])
def test_feed_and_map_bodies_select_what_the_contract_expects(name: str, tour_filter: TourFilter, keep: Any) -> None:
    expected = {d.id for d in CORPUS if keep(d) and (tour_filter.with_unlisted or not d.unlisted)}
    for sort in (Sort.VIEWS, Sort.NEWEST, Sort.AZ):
        assert selected(q.feed_body(FeedQuery(filter=tour_filter, sort=sort))["query"]) == expected
    world = MapQuery(filter=tour_filter, bbox=BBox(-180, -85, 180, 85), zoom=3)
    without_box = q.map_query(world)["bool"]
    assert q.bounds_clause(world.bbox) in without_box["filter"]
    without_box = {**without_box, "filter": [c for c in without_box["filter"] if c != q.bounds_clause(world.bbox)]}
    assert selected({"bool": without_box}) == expected


def test_unlisted_tours_are_left_out_by_must_not() -> None:
    body = q.feed_body(FeedQuery(filter=TourFilter(categories=(2,))))
    assert body["query"]["bool"]["must_not"] == [{"term": {"unlisted": True}}]
    owner = q.feed_body(FeedQuery(filter=TourFilter(user_ids=(1,), with_unlisted=True)))
    assert "must_not" not in owner["query"]["bool"]
    random = q.feed_body(FeedQuery(sort=Sort.RANDOM, seed="s"))["query"]["function_score"]["query"]
    assert random["bool"]["must_not"] == [q.UNLISTED]
    # A document of the older mapping has no `unlisted` field: it counts as listed.
    legacy = {key: value for key, value in tour_source(CORPUS[0]).items() if key != "unlisted"}
    assert matches(q.feed_body(FeedQuery())["query"], legacy)


def test_suggestions_and_similar_tours_never_hold_unlisted_tours() -> None:
    tours = q.suggest_body(SuggestKind.TOUR, "cas", SuggestQuery(text="cas"))
    assert tours["query"]["bool"]["must_not"] == [q.UNLISTED]
    for kind in (SuggestKind.CREATOR, SuggestKind.TAG, SuggestKind.PLACE):
        assert "must_not" not in q.suggest_body(kind, "cas", SuggestQuery(text="cas"))["query"]["bool"]
    similar = q.similar_body(SimilarQuery(vector=[1.0] * 384, limit=5))["knn"]["filter"]
    assert selected(similar) == {d.id for d in CORPUS if not d.unlisted}
    counted = q.similar_count_body(SimilarQuery(vector=[1.0] * 384, filter=TourFilter(created_from=START + 5 * DAY)))
    assert counted["query"]["bool"]["must_not"] == [q.UNLISTED]
    assert {"range": {"created_at": {"gte": START + 5 * DAY}}} in counted["query"]["bool"]["filter"]


def test_the_date_and_360_clauses() -> None:
    both = q.tour_filter_clauses(TourFilter(created_from=10.0, created_before=20.0, only_media_types=(3, 4)))
    assert both == [{"terms": {"media_type_id": [3, 4]}}, {"range": {"created_at": {"gte": 10.0, "lt": 20.0}}}]
    assert q.tour_filter_clauses(TourFilter(only_media_types=())) == [{"match_none": {}}]
    assert q.tour_filter_clauses(TourFilter()) == []
