"""The contract for Unlisted tours and the added-date and 360° filters (issue 18 parts 4 and 5), run on
every adapter like tests/index/test_contract.py, on the same corpus with every seventh tour unlisted.

Unlisted: reachable by its link and on its owner's pages (a filter with `with_unlisted`), never in a
feed, the map, suggestions or similar tours. Dates: `created_from` inclusive, `created_before`
exclusive. 360°: `only_media_types` narrows on top of `media_types`; an empty tuple matches nothing.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from indexer.documents import TourDocument
from indexer.port import SearchIndex
from indexer.queries import BBox, FeedQuery, MapQuery, SimilarQuery, Sort, SuggestKind, SuggestQuery, TourFilter
from tests.index.test_contract import ADS, PLACES, SORT_KEYS, TAGS, expected_ids, make_creators, make_tours

WORLD = BBox(-180, -85, 180, 85)
DAY = 86_400
START = 1_700_000_000


def _unlisted(doc: TourDocument) -> bool:
    return doc.id % 7 == 0


@pytest.fixture
def corpus(index: SearchIndex) -> list[TourDocument]:
    docs = [replace(doc, unlisted=_unlisted(doc)) for doc in make_tours()]
    index.rebuild(
        tours=sorted(docs, key=lambda d: (-d.views, -d.id)), creators=make_creators(), ads=ADS, tags=TAGS, places=PLACES
    )
    return docs


def listed(doc: TourDocument) -> bool:
    return not doc.unlisted


def _map_count(index: SearchIndex, query: MapQuery) -> tuple[int, int]:
    """(total, tours drawn as clusters and points)."""
    answer = index.map_area(query)
    return answer.total, sum(cluster.count for cluster in answer.clusters) + len(answer.points)


# --------------------------------------------------------------------------- unlisted


@pytest.mark.parametrize("sort", [*SORT_KEYS, Sort.RANDOM])
def test_feeds_leave_unlisted_tours_out(index: SearchIndex, corpus: list[TourDocument], sort: Sort) -> None:
    expected = [doc.id for doc in corpus if listed(doc)]
    seen: list[int] = []
    for offset in range(0, 300, 48):
        page = index.feed(FeedQuery(sort=sort, limit=48, offset=offset, seed="s"))
        assert page.total == len(expected)
        seen += page.ids
    assert sorted(seen) == sorted(expected)
    if sort in SORT_KEYS:
        assert index.feed(FeedQuery(sort=sort, limit=500)).ids == expected_ids(corpus, listed, SORT_KEYS[sort])


FILTERED: list[tuple[str, TourFilter, Any]] = [
    ("category", TourFilter(categories=(2,)), lambda d: d.category_id == 2),
    ("country", TourFilter(countries=("FR",)), lambda d: d.country == "FR"),
    ("tag", TourFilter(tags=(3,)), lambda d: 3 in d.tag_ids),
    ("text", TourFilter(text="castle"), lambda d: "castle" in d.title.lower()),
    ("text and category", TourFilter(text="of", categories=(1,)), lambda d: d.category_id == 1),
    ("bounds", TourFilter(bounds=BBox(west=-1, south=44, east=6, north=50)), lambda d: d.country == "FR"),
    ("featured", TourFilter(featured_only=True), lambda d: d.is_featured),
    ("a creator's tours", TourFilter(user_ids=(107,)), lambda d: d.user_id == 107),
]


@pytest.mark.parametrize(("name", "tour_filter", "keep"), FILTERED, ids=[case[0] for case in FILTERED])
def test_filters_leave_unlisted_tours_out_unless_asked(
    index: SearchIndex, corpus: list[TourDocument], name: str, tour_filter: TourFilter, keep: Any
) -> None:
    page = index.feed(FeedQuery(filter=tour_filter, sort=Sort.VIEWS, limit=500))
    expected = expected_ids(corpus, lambda d: keep(d) and listed(d), SORT_KEYS[Sort.VIEWS])
    assert page.ids == expected and page.total == len(expected)
    assert any(d.unlisted and keep(d) for d in corpus), "the case must have an unlisted tour to leave out"
    everything = index.feed(FeedQuery(filter=replace(tour_filter, with_unlisted=True), sort=Sort.VIEWS, limit=500))
    expected_all = expected_ids(corpus, keep, SORT_KEYS[Sort.VIEWS])
    assert everything.ids == expected_all and everything.total == len(expected_all)


def test_an_owners_page_lists_the_unlisted_tours_in_every_order(index: SearchIndex, corpus: list[TourDocument]) -> None:
    owner = TourFilter(user_ids=(105,), with_unlisted=True)
    mine = [doc for doc in corpus if doc.user_id == 105]
    assert any(doc.unlisted for doc in mine) and any(not doc.unlisted for doc in mine)
    for sort, key in SORT_KEYS.items():
        page = index.feed(FeedQuery(filter=owner, sort=sort, limit=100))
        assert page.ids == expected_ids(mine, lambda d: True, key), sort
        assert page.total == len(mine)
    shuffled = index.feed(FeedQuery(filter=owner, sort=Sort.RANDOM, seed="x", limit=100)).ids
    assert sorted(shuffled) == sorted(doc.id for doc in mine)


def test_an_owners_page_by_views_follows_counters_and_moves(index: SearchIndex, corpus: list[TourDocument]) -> None:
    """A creator's page by views reads its own key on the embedded index (user, views, id): new view
    counts, a tour given to another creator, one unlisted and one removed reach it, with and without
    the unlisted tours, deep pages included."""
    mine = sorted((doc for doc in corpus if doc.user_id == 105), key=lambda d: d.id)
    index.update_counters({mine[0].id: {"views": 10**6}, mine[1].id: {"views": 0}})
    given = replace(mine[2], user_id=106)
    hidden = replace(mine[3], unlisted=True, views=10**5)
    index.upsert_tours([given, hidden])
    index.delete_tours([mine[4].id])
    views = {mine[0].id: 10**6, mine[1].id: 0, hidden.id: 10**5}
    now = [
        replace(doc, views=views.get(doc.id, doc.views), unlisted=doc.unlisted or doc.id == hidden.id) for doc in mine
    ]
    now = [doc for doc in now if doc.id not in (given.id, mine[4].id)]
    for with_unlisted, keep in ((True, lambda d: True), (False, listed)):
        owner = TourFilter(user_ids=(105,), with_unlisted=with_unlisted)
        expected = expected_ids(now, keep, SORT_KEYS[Sort.VIEWS])
        pages = [index.feed(FeedQuery(filter=owner, sort=Sort.VIEWS, limit=4, offset=offset)) for offset in (0, 4, 8)]
        assert [tour_id for page in pages for tour_id in page.ids] == expected[:12]
        assert pages[0].total == len(expected)


def test_near_me_leaves_unlisted_tours_out(
    index: SearchIndex, corpus: list[TourDocument], monkeypatch: pytest.MonkeyPatch
) -> None:
    import indexer.embedded.feed as feed_planner

    query = FeedQuery(sort=Sort.NEAR_ME, near=(48.85, 2.35), limit=500)
    expected = {doc.id for doc in corpus if listed(doc)}
    assert set(index.feed(query).ids) == expected and index.feed(query).total == len(expected)
    monkeypatch.setattr(feed_planner, "NEAR_SORT_WHOLE_SET", 0)  # the embedded index's tile walk
    monkeypatch.setattr(feed_planner, "NEAR_SORT_WHOLE_SET_IN_KEY", 0)
    assert set(index.feed(query).ids) == expected


def test_text_in_popularity_order_leaves_unlisted_tours_out(
    index: SearchIndex, corpus: list[TourDocument], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large text match is read in posting-list order on the embedded index; the small one sorted."""
    import indexer.embedded.feed as feed_planner

    query = FeedQuery(filter=TourFilter(text="of"), sort=Sort.VIEWS, limit=500)
    expected = expected_ids(corpus, listed, SORT_KEYS[Sort.VIEWS])
    assert index.feed(query).ids == expected
    monkeypatch.setattr(feed_planner, "CANDIDATE_SORT_LIMIT", 0)
    page = index.feed(query)
    assert sorted(page.ids) == sorted(expected) and page.total == len(expected)
    owner = index.feed(replace(query, filter=TourFilter(text="of", user_ids=(105,), with_unlisted=True)))
    assert sorted(owner.ids) == sorted(doc.id for doc in corpus if doc.user_id == 105)


def test_the_map_leaves_unlisted_tours_out_at_every_zoom(index: SearchIndex, corpus: list[TourDocument]) -> None:
    public = sum(1 for doc in corpus if listed(doc))
    for zoom in (0, 3, 6, 9, 12, 15):
        for tour_filter, expected in (
            (TourFilter(), public),
            (TourFilter(categories=(2,)), sum(1 for d in corpus if listed(d) and d.category_id == 2)),
            (TourFilter(tags=(4,)), sum(1 for d in corpus if listed(d) and 4 in d.tag_ids)),
        ):
            total, drawn = _map_count(index, MapQuery(filter=tour_filter, bbox=WORLD, zoom=zoom, max_points=20))
            assert (total, drawn) == (expected, expected), (zoom, tour_filter)
    paris = BBox(west=2.2, south=48.7, east=2.5, north=48.95)
    city = index.map_area(MapQuery(filter=TourFilter(), bbox=paris, zoom=12, max_points=500))
    assert sorted(p["id"] for p in city.points) == sorted(d.id for d in corpus if d.city == "Paris" and listed(d))
    owner = TourFilter(user_ids=(105,), with_unlisted=True)
    assert (
        _map_count(index, MapQuery(filter=owner, bbox=WORLD, zoom=2, max_points=500))
        == (sum(1 for d in corpus if d.user_id == 105),) * 2
    )


def test_a_tour_unlisted_and_listed_again_moves_everywhere(index: SearchIndex, corpus: list[TourDocument]) -> None:
    public = sum(1 for doc in corpus if listed(doc))
    world = MapQuery(filter=TourFilter(), bbox=WORLD, zoom=1, max_points=5)
    tagged = MapQuery(filter=TourFilter(tags=(corpus[0].tag_ids[0],)), bbox=WORLD, zoom=1, max_points=5)
    tagged_before = _map_count(index, tagged)
    top = max((doc for doc in corpus if listed(doc)), key=lambda d: (d.views, d.id))
    hidden = replace(top, unlisted=True)
    index.upsert_tours([hidden])
    assert top.id not in index.feed(FeedQuery(sort=Sort.VIEWS, limit=500)).ids
    assert index.feed(FeedQuery()).total == public - 1
    assert _map_count(index, world) == (public - 1, public - 1)
    if top.tag_ids and corpus[0].tag_ids[0] in top.tag_ids:
        assert _map_count(index, tagged)[0] == tagged_before[0] - 1
    owner_page = index.feed(FeedQuery(filter=TourFilter(user_ids=(top.user_id,), with_unlisted=True), limit=500))
    assert top.id in owner_page.ids
    index.upsert_tours([replace(hidden, title="Unlisted and edited")])  # an edit keeps it unlisted
    assert index.feed(FeedQuery()).total == public - 1
    index.upsert_tours([replace(hidden, unlisted=False)])
    assert index.feed(FeedQuery(sort=Sort.VIEWS, limit=1)).ids == [top.id]
    assert _map_count(index, world) == (public, public)
    assert _map_count(index, tagged) == tagged_before
    new_unlisted = replace(corpus[3], id=30_000, guid="fresh", unlisted=True)
    index.upsert_tours([new_unlisted])
    assert index.feed(FeedQuery()).total == public
    assert 30_000 in index.feed(FeedQuery(filter=TourFilter(tour_ids=(30_000,), with_unlisted=True))).ids
    index.delete_tours([30_000, next(doc.id for doc in corpus if doc.unlisted)])
    assert index.feed(FeedQuery()).total == public
    assert _map_count(index, world) == (public, public)


def test_unlisted_tours_are_never_suggested(index: SearchIndex, corpus: list[TourDocument]) -> None:
    secret = next(doc for doc in corpus if doc.unlisted)
    index.upsert_tours([replace(secret, title="Quixotic hideaway")])
    assert index.suggest(SuggestQuery(text="quixot", kinds=(SuggestKind.TOUR,))) == []
    index.upsert_tours([replace(secret, title="Quixotic hideaway", unlisted=False)])
    assert [s.id for s in index.suggest(SuggestQuery(text="quixot", kinds=(SuggestKind.TOUR,)))] == [secret.guid]


def test_similar_tours_are_never_unlisted(index: SearchIndex, corpus: list[TourDocument]) -> None:
    rng = random.Random(11)
    vectors = {doc.id: [rng.gauss(0, 1) for _ in range(384)] for doc in corpus[:120]}
    index.set_vectors(vectors)
    secret = next(doc for doc in corpus[:120] if doc.unlisted)
    near_secret = [value + rng.gauss(0, 0.01) for value in vectors[secret.id]]
    page = index.similar(SimilarQuery(vector=near_secret, limit=30))
    assert page.ids and secret.id not in page.ids
    assert not any(_unlisted(doc) for doc in corpus if doc.id in page.ids)
    assert page.total == sum(1 for doc in corpus[:120] if listed(doc))
    filtered = index.similar(SimilarQuery(vector=near_secret, limit=30, filter=TourFilter(countries=(secret.country,))))  # type: ignore[arg-type]
    assert filtered.ids and secret.id not in filtered.ids


# --------------------------------------------------------------------------- added date


DATE_CASES: list[tuple[str, TourFilter, Any]] = [
    ("from", TourFilter(created_from=START + 5 * DAY), lambda d: d.created_at >= START + 5 * DAY),
    ("before", TourFilter(created_before=START + 3 * DAY), lambda d: d.created_at < START + 3 * DAY),
    (
        "a range",
        TourFilter(created_from=START + 2 * DAY, created_before=START + 6 * DAY),
        lambda d: START + 2 * DAY <= d.created_at < START + 6 * DAY,
    ),
    (
        "the start is inside, the end outside",
        TourFilter(created_from=START + 7 * 3_600, created_before=START + 9 * 3_600),
        lambda d: START + 7 * 3_600 <= d.created_at < START + 9 * 3_600,
    ),
    ("an empty range", TourFilter(created_from=START + 5 * DAY, created_before=START + 5 * DAY), lambda d: False),
    (
        "with category and tag",
        TourFilter(created_from=START + 4 * DAY, categories=(3,), tags=(2,)),
        lambda d: d.created_at >= START + 4 * DAY and d.category_id == 3 and 2 in d.tag_ids,
    ),
    (
        "with text",
        TourFilter(created_before=START + 5 * DAY, text="museum"),
        lambda d: d.created_at < START + 5 * DAY and "museum" in d.title.lower(),
    ),
    (
        "on an owner's page",
        TourFilter(created_from=START + 3 * DAY, user_ids=(105,), with_unlisted=True),
        lambda d: d.created_at >= START + 3 * DAY and d.user_id == 105,
    ),
]


@pytest.mark.parametrize(("name", "tour_filter", "keep"), DATE_CASES, ids=[case[0] for case in DATE_CASES])
@pytest.mark.parametrize("sort", [Sort.NEWEST, Sort.VIEWS, Sort.AZ])
def test_the_added_date_range(
    index: SearchIndex, corpus: list[TourDocument], sort: Sort, name: str, tour_filter: TourFilter, keep: Any
) -> None:
    wanted = (lambda d: keep(d)) if tour_filter.with_unlisted else (lambda d: keep(d) and listed(d))
    expected = expected_ids(corpus, wanted, SORT_KEYS[sort])
    page = index.feed(FeedQuery(filter=tour_filter, sort=sort, limit=500))
    assert page.ids == expected and page.total == len(expected)


def test_the_added_date_range_on_the_map_and_near_me(index: SearchIndex, corpus: list[TourDocument]) -> None:
    recent = TourFilter(created_from=START + 6 * DAY)
    expected = sum(1 for d in corpus if listed(d) and d.created_at >= START + 6 * DAY)
    assert 0 < expected < sum(1 for d in corpus if listed(d))
    for zoom in (1, 8, 14):
        assert _map_count(index, MapQuery(filter=recent, bbox=WORLD, zoom=zoom, max_points=10)) == (expected, expected)
    near = index.feed(FeedQuery(filter=recent, sort=Sort.NEAR_ME, near=(35.6, 139.7), limit=500))
    assert near.total == expected and len(near.ids) == expected


# --------------------------------------------------------------------------- 360° only


ONLY_CASES: list[tuple[str, TourFilter, Any]] = [
    ("one type", TourFilter(only_media_types=(2,)), lambda d: d.media_type_id == 2),
    ("both types", TourFilter(only_media_types=(1, 2)), lambda d: True),
    ("no 360 type exists", TourFilter(only_media_types=()), lambda d: False),
    ("chosen type inside", TourFilter(media_types=(1, 2), only_media_types=(1, 5)), lambda d: d.media_type_id == 1),
    ("chosen type outside", TourFilter(media_types=(2,), only_media_types=(1,)), lambda d: False),
    (
        "with text and date",
        TourFilter(only_media_types=(1,), text="garden", created_from=START + DAY),
        lambda d: d.media_type_id == 1 and "garden" in d.title.lower() and d.created_at >= START + DAY,
    ),
]


@pytest.mark.parametrize(("name", "tour_filter", "keep"), ONLY_CASES, ids=[case[0] for case in ONLY_CASES])
def test_only_media_types(
    index: SearchIndex, corpus: list[TourDocument], name: str, tour_filter: TourFilter, keep: Any
) -> None:
    expected = expected_ids(corpus, lambda d: keep(d) and listed(d), SORT_KEYS[Sort.VIEWS])
    page = index.feed(FeedQuery(filter=tour_filter, sort=Sort.VIEWS, limit=500))
    assert page.ids == expected and page.total == len(expected)
    total, drawn = _map_count(index, MapQuery(filter=tour_filter, bbox=WORLD, zoom=3, max_points=10))
    assert total == drawn == len(expected)
