"""The embedded index's precomputed map pyramids (per category in `tiles`, per tag and category in
`tag_tiles`) must answer exactly as grouping the tours live does: the same clusters (cell, count,
centroid), the same single points and the same total, after a rebuild and after incremental
upserts and deletes. Embedded only: the pyramids are that adapter's own layout."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import indexer.embedded.pyramid as pyramid
import indexer.embedded.writes as writes
from indexer.documents import TourDocument
from indexer.embedded.adapter import EmbeddedIndex
from indexer.geo import mercator_xy, tile_bounds
from indexer.queries import BBox, MapAnswer, MapQuery, TourFilter
from tests.index.test_contract import ADS, PLACES, TAGS, make_creators, make_tours

WORLD = BBox(-180, -85, 180, 85)
FILTERS = [
    TourFilter(),
    TourFilter(categories=(1,)),
    TourFilter(tags=(1,)),
    TourFilter(tags=(2,)),
    TourFilter(tags=(5,)),
    TourFilter(tags=(2,), categories=(1,)),
    TourFilter(tags=(3,), categories=(2, 4)),
]


def inside_tile(lat: float, lng: float, level: int) -> BBox:
    """A box just inside one tile: the pyramid reads the tile's cells, the live query the box."""
    west, south, east, north = tile_bounds(*mercator_xy(lat, lng, level), level)
    return BBox(west + 1e-7, south + 1e-7, east - 1e-7, north - 1e-7)


# Views whose cells tile the box exactly (a screen is a few hundred cells; the world at zoom 10 would
# be 16 million). Zooms 11 and 12 are the tile pyramid's city levels and deeper than the tag pyramid
# (the tag's key against the tours, both live); zoom 13 is deeper than both.
VIEWS = (
    [(WORLD, zoom) for zoom in (0, 1, 2, 3)]
    + [(inside_tile(48.8566, 2.3522, 6), zoom) for zoom in (4, 6, 8, 10)]
    + [(inside_tile(48.8566, 2.3522, 9), zoom) for zoom in (11, 12, 13)]
    + [(inside_tile(35.6762, 139.6503, 3), zoom) for zoom in (1, 5)]
)


def scattered_tours() -> list[TourDocument]:
    """The city corpus plus lone tours around the globe, so deep levels hold single points too."""
    docs = make_tours()
    rng = random.Random(11)
    for number in range(60):
        docs.append(
            replace(
                docs[number],
                id=5_000 + number,
                guid=f"s{number}",
                lat=rng.uniform(-60, 70),
                lng=rng.uniform(-179, 179),
            )
        )
    return docs


@pytest.fixture
def index(tmp_path: Path) -> Iterator[EmbeddedIndex]:
    index = EmbeddedIndex(tmp_path / "index")
    docs = scattered_tours()
    index.rebuild(
        tours=sorted(docs, key=lambda d: (-d.views, -d.id)), creators=make_creators(), ads=ADS, tags=TAGS, places=PLACES
    )
    yield index


def live(index: EmbeddedIndex, query: MapQuery) -> MapAnswer:
    """The same query grouped live: with no pyramid level, map_area never reads the pyramids."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pyramid, "PYRAMID_LEVELS", range(0))
        patch.setattr(pyramid, "TAG_PYRAMID_LEVELS", range(0))
        patch.setattr(pyramid, "tag_pyramid_can_answer", lambda tour_filter: False)  # not tag_cells either
        return index.map_area(query)


def shape(answer: MapAnswer) -> dict[str, Any]:
    return {
        "total": answer.total,
        "clusters": sorted(
            (c.cell, c.count, pytest.approx(c.lat, abs=1e-9), pytest.approx(c.lng, abs=1e-9), c.expansion_zoom)
            for c in answer.clusters
        ),
        "points": sorted((p["id"], p["lat"], p["lng"]) for p in answer.points),
    }


def assert_pyramid_matches_live(index: EmbeddedIndex) -> None:
    for tour_filter in FILTERS:
        for bbox, zoom in VIEWS:
            for max_points in (0, 10):
                query = MapQuery(filter=tour_filter, bbox=bbox, zoom=zoom, max_points=max_points)
                assert shape(index.map_area(query)) == shape(live(index, query)), (tour_filter, zoom, max_points)


def test_pyramids_answer_as_live_grouping(index: EmbeddedIndex) -> None:
    assert_pyramid_matches_live(index)
    clustered = index.map_area(MapQuery(filter=TourFilter(tags=(2,)), bbox=WORLD, zoom=3, max_points=0))
    assert clustered.clusters and clustered.points  # both kinds are exercised


def test_tag_pyramid_follows_upserts_and_deletes(index: EmbeddedIndex) -> None:
    docs = scattered_tours()
    index.delete_tours([docs[0].id, docs[7].id, 5_003])
    index.upsert_tours(
        [
            replace(docs[1], lat=-54.8, lng=-68.3),  # moved to Ushuaia
            replace(docs[2], tag_ids=(2, 5), tag_names=("Architecture", "Drone")),  # retagged
            replace(docs[3], category_id=1, tag_ids=(2,), tag_names=("Architecture",)),  # recategorised
            replace(docs[4], lat=None, lng=None),  # lost its position
            replace(docs[9], id=9_000, guid="new", lat=35.0, lng=139.0),  # new
        ]
    )
    assert_pyramid_matches_live(index)
    _assert_tag_tiles_equal_a_rebuild(index)


def test_bulk_upsert_rebuilds_the_tag_pyramid(index: EmbeddedIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writes, "PYRAMID_INCREMENTAL_LIMIT", 2)
    docs = scattered_tours()
    index.upsert_tours([replace(doc, tag_ids=(1, 4), tag_names=("Sunset", "Night")) for doc in docs[:30]])
    assert_pyramid_matches_live(index)
    _assert_tag_tiles_equal_a_rebuild(index)


def test_an_index_without_the_tag_pyramid_fills_it_when_opened(index: EmbeddedIndex) -> None:
    connection = sqlite3.connect(index.path)
    connection.execute("DROP TABLE tag_tiles")
    connection.commit()
    connection.close()
    reopened = EmbeddedIndex(index.directory)
    assert_pyramid_matches_live(reopened)


def test_an_index_with_older_pyramid_levels_refills_them_when_opened(index: EmbeddedIndex) -> None:
    connection = sqlite3.connect(index.path)
    connection.execute("DELETE FROM tiles WHERE level > 12")
    connection.execute(
        "INSERT INTO tag_tiles SELECT 11, tag_id, key, category_id, n, sum_lat, sum_lng FROM tag_tiles WHERE level = 10"
    )
    connection.execute("UPDATE meta SET value = '2..12/2..12' WHERE key = 'pyramid.levels'")
    connection.commit()
    connection.close()
    reopened = EmbeddedIndex(index.directory)
    assert_pyramid_matches_live(reopened)
    connection = sqlite3.connect(reopened.path)
    try:
        levels = [row[0] for row in connection.execute("SELECT DISTINCT level FROM tiles ORDER BY level")]
        tag_levels = [row[0] for row in connection.execute("SELECT DISTINCT level FROM tag_tiles ORDER BY level")]
    finally:
        connection.close()
    assert levels == list(range(2, 15))
    assert tag_levels == list(range(2, 11))


def _assert_tag_tiles_equal_a_rebuild(index: EmbeddedIndex) -> None:
    """Incremental sums leave zero rows and float noise behind; otherwise they equal a fresh build."""

    def rows(connection: sqlite3.Connection) -> list[tuple[Any, ...]]:
        return [
            (level, tag, key, category, n, round(sum_lat, 6), round(sum_lng, 6))
            for level, tag, key, category, n, sum_lat, sum_lng in connection.execute(
                "SELECT * FROM tag_tiles WHERE n != 0 ORDER BY level, tag_id, key, category_id"
            )
        ]

    connection = sqlite3.connect(index.path)
    try:
        incremental = rows(connection)
        connection.execute("BEGIN")
        pyramid.rebuild_tag_pyramid(connection)
        rebuilt = rows(connection)
        connection.execute("ROLLBACK")
    finally:
        connection.close()
    assert incremental == rebuilt
