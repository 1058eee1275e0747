"""The map of the embedded index: map areas answered from the tile pyramids (per category, and per
tag and category) or grouped live, and the upkeep of those pyramids on writes and rebuilds."""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from indexer.embedded.pages import LOCATED_COLUMNS, CountCache, Located, PointCache, features_by_rids
from indexer.embedded.schema import PYRAMID_LEVELS, TAG_PYRAMID_LEVELS
from indexer.embedded.sql import LISTED_ONLY, chunks, in_clause, tag_cells_where, tour_where
from indexer.geo import MAX_LEVEL, cluster_level, interleave, mercator_xy
from indexer.phases import PhaseClock
from indexer.queries import BBox, Cluster, MapAnswer, MapQuery, TourFilter

MAX_CLUSTER_ZOOM = 18
# A screen at its zoom covers a few hundred cells; a box far larger than the screen (the world at
# zoom 12 is 268 million cells) is grouped live instead of listing its cells.
MAX_PYRAMID_KEYS = 20_000


def area_answer(
    connection: sqlite3.Connection, counts: CountCache, point_cache: PointCache, query: MapQuery
) -> MapAnswer:
    """Points when the view holds at most `max_points` tours, otherwise clusters: from a pyramid when
    one holds the filter at this zoom, otherwise grouped live. Points come decoded from
    `point_cache` when their rows have not changed since it decoded them."""
    level = cluster_level(query.zoom)
    if tag_pyramid_can_answer(query.filter):
        # One tag: the tag's own Morton key holds everything the grouping reads.
        table, where, params = "tag_cells", *tag_cells_where(query.filter, query.bbox)
    else:
        table, (where, params) = "tours", tour_where(replace(query.filter, bounds=query.bbox))
        where = f"{where} AND lat IS NOT NULL"
    # Whether the view shows points is a count that stops past max_points (a range of the view's
    # key), so a view of a few hundred tours never reads the pyramid it will not use.
    if counts.count(connection, table, where, params, cap=query.max_points + 1) <= query.max_points:
        # One statement walks the view's index range and lists the rows with their versions (rid
        # order, as a lookup by rids returns them); only features not decoded yet are read.
        located = connection.execute(_located_sql(table, where), params).fetchall()
        return MapAnswer(points=point_cache.points(connection, located), clusters=[], total=len(located))
    cells: list[tuple[int, int, float, float]] | None = None
    screenful = cell_count(query.bbox, level) <= MAX_PYRAMID_KEYS
    if screenful and pyramid_can_answer(query.filter) and level in PYRAMID_LEVELS:
        cells = _pyramid_cells(connection, query, level)
    elif screenful and tag_pyramid_can_answer(query.filter) and level in TAG_PYRAMID_LEVELS:
        cells = _tag_pyramid_cells(connection, query, level)
    if cells is not None:
        # The cells cover the box and a little more: at least the view's count, so clusters.
        return _clusters_from_cells(connection, point_cache, query, level, cells, sum(cell[1] for cell in cells))
    total = counts.count(connection, table, where, params)
    shift = 2 * (MAX_LEVEL - level)
    grouped = connection.execute(
        f"SELECT cell >> ?, count(*), avg(lat), avg(lng), min(rid) FROM {table} WHERE {where} GROUP BY cell >> ?",
        (shift, *params, shift),
    ).fetchall()
    singles = [row[4] for row in grouped if row[1] == 1]
    clusters = [
        Cluster(lat=row[2], lng=row[3], count=row[1], expansion_zoom=expansion_zoom(level), cell=f"{level}/{row[0]}")
        for row in grouped
        if row[1] > 1
    ]
    return MapAnswer(points=features_by_rids(connection, point_cache, singles), clusters=clusters, total=total)


def _located_sql(table: str, where: str) -> str:
    """The located rows of a view in rid order; `tag_cells` rows take their version from `tours`."""
    if table == "tours":
        return f"SELECT {LOCATED_COLUMNS} FROM tours WHERE {where} ORDER BY rid"
    version = "(SELECT version FROM tours WHERE tours.rid = located.rid)"  # a join would make `where` ambiguous
    return f"SELECT rid, {version}, lat, lng FROM {table} AS located WHERE {where} ORDER BY rid"


def _pyramid_cells(connection: sqlite3.Connection, query: MapQuery, level: int) -> list[tuple[int, int, float, float]]:
    keys = cell_keys(query.bbox, level)
    categories = query.filter.categories or (0,)
    rows: list[tuple[int, int, float, float]] = []
    for chunk in chunks(keys, 500):
        rows += connection.execute(
            f"SELECT key, sum(n), sum(sum_lat), sum(sum_lng) FROM tiles WHERE level = ? "
            f"AND category_id IN ({','.join('?' * len(categories))}) AND key IN ({','.join('?' * len(chunk))}) "
            "GROUP BY key HAVING sum(n) > 0",
            (level, *categories, *chunk),
        ).fetchall()
    return rows


def _tag_pyramid_cells(
    connection: sqlite3.Connection, query: MapQuery, level: int
) -> list[tuple[int, int, float, float]]:
    keys = cell_keys(query.bbox, level)
    category_clause, category_params = "1", list[Any]()
    if query.filter.categories:
        category_clause = in_clause("category_id", query.filter.categories, category_params)
    rows: list[tuple[int, int, float, float]] = []
    for chunk in chunks(keys, 500):
        rows += connection.execute(
            "SELECT key, sum(n), sum(sum_lat), sum(sum_lng) FROM tag_tiles WHERE level = ? AND tag_id = ? "
            f"AND key IN ({','.join('?' * len(chunk))}) AND {category_clause} GROUP BY key HAVING sum(n) > 0",
            (level, query.filter.tags[0], *chunk, *category_params),
        ).fetchall()
    return rows


def _clusters_from_cells(
    connection: sqlite3.Connection,
    point_cache: PointCache,
    query: MapQuery,
    level: int,
    cells: list[tuple[int, int, float, float]],
    total: int,
) -> MapAnswer:
    shift = 2 * (MAX_LEVEL - level)
    singles: list[Located] = []
    clusters: list[Cluster] = []
    # A tag's lone tour in a wide tile may sit among thousands of others: find it in the tag's key.
    table, where, params = "tours", LISTED_ONLY, list[Any]()
    if query.filter.tags:
        table, where, params = "tag_cells", *tag_cells_where(query.filter, None)
    elif query.filter.categories:
        where = f"{LISTED_ONLY} AND {in_clause('category_id', query.filter.categories, params)}"
    for key, count, sum_lat, sum_lng in cells:
        if count == 1:
            row = connection.execute(
                f"SELECT {LOCATED_COLUMNS} FROM tours "
                f"WHERE rid = (SELECT rid FROM {table} WHERE cell >= ? AND cell < ? AND {where} LIMIT 1)",
                (key << shift, (key + 1) << shift, *params),
            ).fetchone()
            if row is not None:
                singles.append(row)
            continue
        clusters.append(
            Cluster(
                lat=sum_lat / count,
                lng=sum_lng / count,
                count=count,
                expansion_zoom=expansion_zoom(level),
                cell=f"{level}/{key}",
            )
        )
    return MapAnswer(points=point_cache.points(connection, singles), clusters=clusters, total=total)


def pyramid_can_answer(tour_filter: TourFilter) -> bool:
    """The pyramid holds counts per category only; any other filter groups live."""
    return replace(tour_filter, categories=()).is_empty()


def tag_pyramid_can_answer(tour_filter: TourFilter) -> bool:
    """The tag pyramid holds counts per tag and category. Several tags stay live: a tour holding
    two of them would be counted twice by a sum."""
    return len(tour_filter.tags) == 1 and replace(tour_filter, categories=(), tags=()).is_empty()


def cell_count(bbox: BBox, level: int) -> int:
    """How many cells `cell_keys` would list, without listing them."""
    return sum((x1 - x0 + 1) * (y1 - y0 + 1) for x0, y0, x1, y1 in _cell_spans(bbox, level))


def _cell_spans(bbox: BBox, level: int) -> list[tuple[int, int, int, int]]:
    north, south = min(bbox.north, 85.0511), max(bbox.south, -85.0511)
    spans = [(bbox.west, 180.0), (-180.0, bbox.east)] if bbox.crosses_antimeridian() else [(bbox.west, bbox.east)]
    corners = []
    for west, east in spans:
        x0, y0 = mercator_xy(north, max(-180.0, west), level)
        x1, y1 = mercator_xy(south, min(180.0, east) - 1e-9, level)
        corners.append((x0, y0, x1, y1))
    return corners


def cell_keys(bbox: BBox, level: int) -> list[int]:
    """Morton keys of the cells at `level` that the box touches (about a screenful: a few hundred)."""
    keys: list[int] = []
    for x0, y0, x1, y1 in _cell_spans(bbox, level):
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                keys.append(interleave(x, y))
    return keys


def expansion_zoom(level: int) -> int:
    return min(level, MAX_CLUSTER_ZOOM)


def rebuild_pyramid(connection: sqlite3.Connection, clock: PhaseClock | None = None, *, tags_too: bool = True) -> None:
    """Group the tours once, at the deepest pyramid level; every coarser level sums the one below
    (a tile's key is its children's key >> 2), which is a few thousand rows instead of a scan."""
    clock = clock or PhaseClock()
    with clock.phase("pyramid"):
        rebuild_tiles(connection)
    if tags_too:
        with clock.phase("tag pyramid"):
            rebuild_tag_pyramid(connection)


def rebuild_tiles(connection: sqlite3.Connection, located: str = "tours") -> None:
    """The tile pyramid from `located`: `tours`, or what a rebuild's side writer reads instead, a
    staged copy of the listed, located tours (build.py). The sums of positions depend on the order
    the GROUP BY meets the rows, so that copy is read through a key of the same columns as
    `ix_tours_cat_cell`, the covering index this scan of `tours` takes: the same sums, to the bit."""
    connection.execute("DELETE FROM tiles")
    levels = sorted(PYRAMID_LEVELS, reverse=True)
    shift = 2 * (MAX_LEVEL - levels[0])
    connection.execute(
        "INSERT INTO tiles (level, category_id, key, n, sum_lat, sum_lng) "
        f"SELECT ?, category_id, cell >> ?, count(*), sum(lat), sum(lng) FROM {located} "
        "WHERE cell IS NOT NULL AND +rid > 0 GROUP BY category_id, cell >> ?",
        (levels[0], shift, shift),
    )
    for finer, level in itertools.pairwise(levels):
        connection.execute(
            "INSERT INTO tiles (level, category_id, key, n, sum_lat, sum_lng) "
            "SELECT ?, category_id, key >> 2, sum(n), sum(sum_lat), sum(sum_lng) FROM tiles "
            "WHERE level = ? GROUP BY category_id, key >> 2",
            (level, finer),
        )
    for level in levels:
        connection.execute(
            "INSERT INTO tiles (level, category_id, key, n, sum_lat, sum_lng) "
            "SELECT level, 0, key, sum(n), sum(sum_lat), sum(sum_lng) FROM tiles "
            "WHERE level = ? GROUP BY key",
            (level,),
        )


def pyramid_add(
    connection: sqlite3.Connection,
    category_id: int,
    cell: int | None,
    lat: float | None,
    lng: float | None,
    tags: Sequence[int],
    sign: int,
) -> None:
    if cell is None or lat is None or lng is None:
        return
    for level in PYRAMID_LEVELS:
        key = cell >> (2 * (MAX_LEVEL - level))
        for category in (0, category_id):
            connection.execute(
                "INSERT INTO tiles (level, category_id, key, n, sum_lat, sum_lng) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (level, category_id, key) DO UPDATE SET n = n + excluded.n, "
                "sum_lat = sum_lat + excluded.sum_lat, sum_lng = sum_lng + excluded.sum_lng",
                (level, category, key, sign, sign * lat, sign * lng),
            )
    connection.executemany(
        "INSERT INTO tag_tiles (level, tag_id, key, category_id, n, sum_lat, sum_lng) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (level, tag_id, key, category_id) DO UPDATE SET n = n + excluded.n, "
        "sum_lat = sum_lat + excluded.sum_lat, sum_lng = sum_lng + excluded.sum_lng",
        [
            (level, tag_id, cell >> (2 * (MAX_LEVEL - level)), category_id, sign, sign * lat, sign * lng)
            for level in TAG_PYRAMID_LEVELS
            for tag_id in tags
        ],
    )


def fill_tag_cells(connection: sqlite3.Connection) -> None:
    connection.execute("DELETE FROM tag_cells")
    connection.execute(
        "INSERT INTO tag_cells (tag_id, cell, rid, category_id, lat, lng) "
        "SELECT tag.tag_id, tours.cell, tag.rid, tag.category_id, tours.lat, tours.lng "
        "FROM tour_tags AS tag JOIN tours ON tours.rid = tag.rid WHERE tours.cell IS NOT NULL AND tag.rid > 0 "
        "ORDER BY 1, 2, 3"
    )


def rebuild_tag_pyramid(connection: sqlite3.Connection) -> None:
    """As the tile pyramid: group the tag links once at the deepest level, sum each coarser one."""
    connection.execute("DELETE FROM tag_tiles")
    levels = sorted(TAG_PYRAMID_LEVELS, reverse=True)
    shift = 2 * (MAX_LEVEL - levels[0])
    connection.execute(
        "INSERT INTO tag_tiles (level, tag_id, key, category_id, n, sum_lat, sum_lng) "
        "SELECT ?, tag_id, cell >> ?, category_id, count(*), sum(lat), sum(lng) FROM tag_cells "
        "GROUP BY tag_id, cell >> ?, category_id",
        (levels[0], shift, shift),
    )
    for finer, level in itertools.pairwise(levels):
        connection.execute(
            "INSERT INTO tag_tiles (level, tag_id, key, category_id, n, sum_lat, sum_lng) "
            "SELECT ?, tag_id, key >> 2, category_id, sum(n), sum(sum_lat), sum(sum_lng) FROM tag_tiles "
            "WHERE level = ? GROUP BY tag_id, key >> 2, category_id",
            (level, finer),
        )
