"""The benchmark's query set: every call the product makes of the index, named, as the typed query
objects of indexer/queries.py. bench_index.py times them on the embedded index; bench_peers.py asks
the same objects of PostgreSQL and tantivy, so both benches measure one set.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from indexer.queries import (
    BBox,
    FeedQuery,
    MapQuery,
    Sort,
    SuggestKind,
    SuggestQuery,
    TourFilter,
)

BenchQuery = FeedQuery | MapQuery | SuggestQuery

FEED_SORTS = (
    Sort.NEWEST,
    Sort.VIEWS,
    Sort.LIKES,
    Sort.SAVES,
    Sort.SHARES,
    Sort.AZ,
    Sort.ZA,
    Sort.TRENDING,
    Sort.POPULAR,
    Sort.FAVORITE,
    Sort.RANDOM,
)
TEXT_SEARCHES = ("museum", "sunset harbour", "'old town")
MAP_VIEWS = {
    "world z2": (BBox(-180, -85, 180, 85), 2.0),
    "country z5": (BBox(-5, 41, 10, 51.5), 5.0),
    "city z12": (BBox(2.2, 48.78, 2.5, 48.93), 12.0),
}
TYPED_PREFIXES = ("pa", "mus", "#sun", "@a", "new yo")
PARIS = (48.85, 2.35)


@dataclass(frozen=True, slots=True)
class CorpusFacts:
    """What the query set needs to know about the corpus: a category that has tours in Europe, one
    creator with tours, and the media types the 360° switch keeps (read from the database)."""

    category: int
    owner: int
    only_360: tuple[int, ...]
    year_ago: float


def year_ago() -> float:
    return time.time() - 365 * 86_400


def query_set(facts: CorpusFacts) -> list[tuple[str, BenchQuery]]:
    """(name, query) for every call of the benchmark, in report order."""
    category = facts.category
    filters = {
        "no filter": TourFilter(),
        "category": TourFilter(categories=(category,)),
        "country": TourFilter(countries=("US",)),
        "category + country": TourFilter(categories=(category,), countries=("US",)),
        "country + tag": TourFilter(countries=("FR",), tags=(1,)),
    }
    queries: list[tuple[str, BenchQuery]] = []
    for sort in FEED_SORTS:
        for label, tour_filter in filters.items():
            for offset in (0, 960):
                query = FeedQuery(filter=tour_filter, sort=sort, limit=48, offset=offset, seed="bench")
                queries.append((f"feed {sort.value}, {label}, offset {offset}", query))
    for label, tour_filter in filters.items():
        queries.append(
            (f"feed near me, {label}", FeedQuery(filter=tour_filter, sort=Sort.NEAR_ME, near=PARIS, limit=48))
        )
    # Issue 18 part 5: the added-date range and the 360° switch; part 4: an owner's page with its
    # unlisted tours.
    for label, tour_filter in new_filters(facts).items():
        for sort in (Sort.NEWEST, Sort.VIEWS):
            queries.append((f"feed {sort.value}, {label}", FeedQuery(filter=tour_filter, sort=sort, limit=48)))
    for word in TEXT_SEARCHES:
        in_category = TourFilter(text=word, categories=(category,))
        queries.append((f"full text '{word}' + category, by views", FeedQuery(filter=in_category, sort=Sort.VIEWS)))
        queries.append((f"full text '{word}', relevance", FeedQuery(filter=TourFilter(text=word), sort=Sort.RELEVANCE)))
    for label, (bbox, zoom) in MAP_VIEWS.items():
        for filter_label, tour_filter in (
            ("", TourFilter()),
            (", category", TourFilter(categories=(category,))),
            (", tag", TourFilter(tags=(1,))),
        ):
            queries.append((f"map {label}{filter_label}", MapQuery(filter=tour_filter, bbox=bbox, zoom=zoom)))
    for prefix in TYPED_PREFIXES:
        queries.append((f"search-as-you-type '{prefix}'", SuggestQuery(text=prefix, limit=10)))
    queries.append(("typeahead top tours for 'bar'", SuggestQuery(text="bar", kinds=(SuggestKind.TOUR,), limit=10)))
    return queries


def new_filters(facts: CorpusFacts) -> dict[str, TourFilter]:
    """The filters issue 18 added: a year of additions, the 360° media types, both with a category,
    and one creator's page with its unlisted tours."""
    return {
        "added in the past year": TourFilter(created_from=facts.year_ago),
        "category + added in the past year": TourFilter(categories=(facts.category,), created_from=facts.year_ago),
        "360 only": TourFilter(only_media_types=facts.only_360),
        "category + 360 only": TourFilter(categories=(facts.category,), only_media_types=facts.only_360),
        "a creator's page, unlisted included": TourFilter(user_ids=(facts.owner,), with_unlisted=True),
    }


def ask(index: Any, query: BenchQuery) -> Any:
    """The index call a query object stands for (feed, map_area or suggest)."""
    if isinstance(query, FeedQuery):
        return index.feed(query)
    if isinstance(query, MapQuery):
        return index.map_area(query)
    return index.suggest(query)


def corpus_facts(index: Any, only_360: tuple[int, ...]) -> CorpusFacts:
    """The corpus facts read from a built index: the first category with tours in western Europe
    (so its map views hold tours), the creator of the most viewed tour."""
    sample = index.feed(FeedQuery(sort=Sort.VIEWS, limit=1)).docs
    europe = MapQuery(filter=TourFilter(), bbox=BBox(-10, 35, 30, 60), zoom=14, max_points=500)
    categories = sorted({point["category_id"] for point in index.map_area(europe).points if point.get("category_id")})
    return CorpusFacts(
        category=categories[0] if categories else 1,
        owner=int(sample[0]["userid"]) if sample else 1,
        only_360=only_360,
        year_ago=year_ago(),
    )
