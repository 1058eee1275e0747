"""The embedded index keeps the map points it decoded (pages.PointCache) and serves one again only
while its row is unchanged (`tours.version`). Every answer must equal the stored features of the
tours as they are now: after upserts, counter updates, deletes and a row id taken by a new tour,
whichever path lists the points (a view of few tours, lone tours among clusters, a tag's view).
Embedded only: the cache and the row versions are that adapter's own."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from indexer.cards import MapPoint, map_point
from indexer.documents import TourDocument
from indexer.embedded.adapter import EmbeddedIndex
from indexer.embedded.pages import PointCache
from indexer.queries import BBox, MapQuery, TourFilter
from tests.index.test_contract import ADS, PLACES, TAGS, make_creators
from tests.index.test_map_pyramid import scattered_tours

WORLD = BBox(-180, -85, 180, 85)
# Every listed located tour as a point (the view holds fewer than max_points) ...
ALL_POINTS = MapQuery(filter=TourFilter(), bbox=WORLD, zoom=3, max_points=1_000)
# ... and views that cluster, with the lone tours as points: from the pyramid (zoom 3), grouped live
# (zoom 14, deeper than the pyramid) and from a tag's key.
CLUSTERED = [
    MapQuery(filter=TourFilter(), bbox=WORLD, zoom=3, max_points=0),
    MapQuery(filter=TourFilter(categories=(2,)), bbox=WORLD, zoom=14, max_points=0),
    MapQuery(filter=TourFilter(tags=(2,)), bbox=WORLD, zoom=8, max_points=0),
]


def rebuilt(directory: Path, docs: list[TourDocument]) -> EmbeddedIndex:
    index = EmbeddedIndex(directory)
    index.rebuild(
        tours=sorted(docs, key=lambda d: (-d.views, -d.id)), creators=make_creators(), ads=ADS, tags=TAGS, places=PLACES
    )
    return index


@pytest.fixture
def docs() -> list[TourDocument]:
    tours = scattered_tours()  # cities and lone tours around the globe
    # Creator display settings: the one nested value of a point.
    return [replace(doc, img_settings={"bgColor": "white", "logoScale": doc.id % 7}) for doc in tours]


@pytest.fixture
def index(tmp_path: Path, docs: list[TourDocument]) -> Iterator[EmbeddedIndex]:
    yield rebuilt(tmp_path / "index", docs)


def by_id(points: list[MapPoint]) -> dict[int, MapPoint]:
    return {point["id"]: point for point in points}


def expected_points(docs: list[TourDocument]) -> dict[int, MapPoint]:
    return {doc.id: map_point(doc) for doc in docs if doc.lat is not None and doc.lng is not None and not doc.unlisted}


def warm(index: EmbeddedIndex) -> None:
    for query in [ALL_POINTS, *CLUSTERED]:
        index.map_area(query)
        index.map_area(query)


def assert_answers_are_the_stored_features(index: EmbeddedIndex, docs: list[TourDocument]) -> None:
    current = expected_points(docs)
    assert by_id(index.map_area(ALL_POINTS).points) == current
    fresh = EmbeddedIndex(index.directory)  # nothing decoded yet
    for query in CLUSTERED:
        points = index.map_area(query).points
        assert points, query  # the view has lone tours
        assert points == fresh.map_area(query).points, query
        assert all(point == current[point["id"]] for point in points), query


def test_points_are_the_stored_features_cold_and_warm(index: EmbeddedIndex, docs: list[TourDocument]) -> None:
    assert_answers_are_the_stored_features(index, docs)
    warm(index)
    assert_answers_are_the_stored_features(index, docs)


def test_points_follow_every_write_after_they_were_decoded(index: EmbeddedIndex, docs: list[TourDocument]) -> None:
    warm(index)
    last = max(docs, key=lambda d: (-d.views, -d.id))  # the highest row id: a new tour takes it again
    changed = [
        replace(docs[0], title="Renamed", description="Another text", img_settings={"bgColor": "black"}),
        replace(docs[1], lat=-54.8, lng=-68.3),  # moved to Ushuaia
        replace(docs[2], category_id=2),
        replace(docs[3], lat=None, lng=None),  # no longer on the map
        replace(docs[4], unlisted=True),
    ]
    index.upsert_tours(changed)
    index.delete_tours([last.id])
    newcomer = replace(last, id=9_000, guid="new", title="Newcomer", views=0)
    index.upsert_tours([newcomer])
    index.update_counters({docs[5].id: {"views": 123_456, "likes": 7.0}, docs[6].id: {"saves": 99}})

    current = {doc.id: doc for doc in docs if doc.id != last.id}
    current.update({doc.id: doc for doc in changed})
    current[newcomer.id] = newcomer
    current[docs[5].id] = replace(docs[5], views=123_456, likes=7.0)  # type: ignore[arg-type]  # as update_counters stores it
    current[docs[6].id] = replace(docs[6], saves=99)
    assert_answers_are_the_stored_features(index, list(current.values()))


def test_points_handed_out_are_copies(index: EmbeddedIndex, docs: list[TourDocument]) -> None:
    first = index.map_area(ALL_POINTS).points
    for point in first:
        point["title"] = "changed by a caller"
        point["img_settings"]["bgColor"] = "changed by a caller"
    assert by_id(index.map_area(ALL_POINTS).points) == expected_points(docs)


def test_a_cache_smaller_than_the_view_answers_the_same(index: EmbeddedIndex, docs: list[TourDocument]) -> None:
    index._points = PointCache(limit=5)
    warm(index)
    assert_answers_are_the_stored_features(index, docs)


def test_a_file_from_before_row_versions_gets_them_on_opening(tmp_path: Path, docs: list[TourDocument]) -> None:
    index = rebuilt(tmp_path / "index", docs)
    connection = sqlite3.connect(index.path)
    connection.execute("ALTER TABLE tours DROP COLUMN version")
    connection.commit()
    connection.close()

    reopened = EmbeddedIndex(tmp_path / "index")
    assert reopened.outdated() == []  # nothing for a reindex to fill: every row starts at 0
    warm(reopened)
    moved = replace(docs[0], lat=10.0, lng=10.0, title="Moved")
    reopened.upsert_tours([moved])
    assert_answers_are_the_stored_features(reopened, [moved, *docs[1:]])
