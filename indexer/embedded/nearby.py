"""Near Me for the embedded index: tours in great-circle distance order from the visitor, exactly.

The order is that of the haversine term hav(d) = sin²(Δφ/2) + cos φ1 · cos φ2 · sin²(Δλ/2), which
grows with the distance d along the sphere (as Elasticsearch's `arc` distance does), then id
descending. SQL computes it for every path, so a whole-set sort and the tile walk agree to the bit.

The tile walk (`nearest_ids`) is a best-first search over the Morton quadtree: `cell` is the zoom-20
Morton code, so a tile at level L is one key range of a `(prefix, cell, …)` index. A heap holds tiles,
keyed by the least distance any point inside can have from the visitor, and tours, keyed by their
own distance. A popped tile is probed for up to PROBE_ROWS + 1 matching rows: at most PROBE_ROWS
become tours in the heap, more split the tile into its four children. A tour popped before every
tile left in the heap is the next nearest. An empty tile costs one index seek, so a country filter on
the other side of the world (US tours seen from Paris) costs about as much as one next door, where a
box grown around the visitor would hold none of them and end up sorting the whole country.
"""

from __future__ import annotations

import heapq
import math
import sqlite3
from collections.abc import Sequence
from typing import Any

from indexer.geo import MAX_LEVEL, interleave

# A tile holding at most this many matching tours is read whole; more, and it is split in four.
PROBE_ROWS = 64
# Rounding in the bound may not make a tile look farther than a tour inside it.
_BOUND_SLACK = 1e-9

HAVERSINE_SQL = (
    "(pow(sin((radians(lat) - ?) * 0.5), 2) + ? * cos(radians(lat)) * pow(sin((radians(lng) - ?) * 0.5), 2))"
)

# (distance term, 0 for a tile / 1 for a tour, -tour id, level, x, y): ties put tiles first, so a
# tour is only final once no tile can still hold one as near; equally near tours go by id descending.
_Entry = tuple[float, int, int, int, int, int]


def haversine_params(lat: float, lng: float) -> tuple[float, float, float]:
    """Parameters of HAVERSINE_SQL for a visitor at (lat, lng)."""
    phi = math.radians(lat)
    return phi, math.cos(phi), math.radians(lng)


def ensure_math_functions(connection: sqlite3.Connection) -> None:
    """HAVERSINE_SQL needs SQLite's math functions; a build without them gets Python ones (slower)."""
    try:
        connection.execute("SELECT pow(sin(radians(1.0)), 2) + cos(0.0)").fetchone()
    except sqlite3.OperationalError:
        connection.create_function("sin", 1, math.sin, deterministic=True)
        connection.create_function("cos", 1, math.cos, deterministic=True)
        connection.create_function("radians", 1, math.radians, deterministic=True)
        connection.create_function("pow", 2, math.pow, deterministic=True)


def cell_index_for(countries: Sequence[str], categories: Sequence[int]) -> str:
    """The Morton index whose leading columns are the filter's most selective plain columns."""
    if countries and categories:
        return "ix_tours_country_cat_cell"
    if countries:
        return "ix_tours_country_cell"
    if categories:
        return "ix_tours_cat_cell"
    return "ix_tours_cell"


def nearest_ids(
    connection: sqlite3.Connection,
    *,
    index: str,
    where: str,
    params: Sequence[Any],
    lat: float,
    lng: float,
    count: int,
) -> list[int]:
    """Ids of the `count` tours nearest to (lat, lng) among those matching `where` (which must
    exclude tours without a position), nearest first."""
    visitor = haversine_params(lat, lng)
    probe = f"SELECT id, {HAVERSINE_SQL} FROM tours INDEXED BY {index} WHERE {where} AND cell BETWEEN ? AND ? LIMIT ?"
    heap: list[_Entry] = [(0.0, 0, 0, 0, 0, 0)]
    found: list[int] = []
    while heap and len(found) < count:
        _distance, kind, negative_id, level, x, y = heapq.heappop(heap)
        if kind == 1:
            found.append(-negative_id)
            continue
        shift = 2 * (MAX_LEVEL - level)
        key = interleave(x, y)
        deepest = level == MAX_LEVEL
        rows = connection.execute(
            probe, (*visitor, *params, key << shift, ((key + 1) << shift) - 1, -1 if deepest else PROBE_ROWS + 1)
        ).fetchall()
        if deepest or len(rows) <= PROBE_ROWS:
            for tour_id, distance in rows:
                heapq.heappush(heap, (distance, 1, -tour_id, 0, 0, 0))
            continue
        for bound, child_x, child_y in _child_floors(visitor, x, y, level):
            heapq.heappush(heap, (bound, 0, 0, level + 1, child_x, child_y))
    return found


# Terms of one tile edge, computed once and shared by the tiles on either side of it:
# a parallel (φ, sin²((φ - φ0) / 2), cos φ0 · cos φ) and a meridian (λ, sin²(Δλ / 2), least term on it).
_Parallel = tuple[float, float, float]
_Meridian = tuple[float, float, float, float]


def tile_distance_floor(visitor: tuple[float, float, float], x: int, y: int, level: int) -> float:
    """The least haversine term between the visitor and any point of tile (x, y) at `level` (a
    lat/lng rectangle; the top and bottom rows reach the poles, as `cell` clamps points there)."""
    side = 1 << level
    return _rectangle_floor(
        visitor,
        _parallel(visitor, _row_edge(y + 1, side)),
        _parallel(visitor, _row_edge(y, side)),
        _meridian(visitor, _column_edge(x, side)),
        _meridian(visitor, _column_edge(x + 1, side)),
    )


def _child_floors(visitor: tuple[float, float, float], x: int, y: int, level: int) -> list[tuple[float, int, int]]:
    """Bounds of the four children of tile (x, y): three parallels and three meridians between them."""
    side = 2 << level
    rows = [_parallel(visitor, _row_edge(2 * y + step, side)) for step in range(3)]
    columns = [_meridian(visitor, _column_edge(2 * x + step, side)) for step in range(3)]
    return [
        (_rectangle_floor(visitor, rows[j + 1], rows[j], columns[i], columns[i + 1]), 2 * x + i, 2 * y + j)
        for i in (0, 1)
        for j in (0, 1)
    ]


def _row_edge(row: int, side: int) -> float:
    """Latitude (radians) of the northern edge of a tile row; the outer edges reach the poles."""
    if row <= 0:
        return math.pi / 2
    if row >= side:
        return -math.pi / 2
    return math.atan(math.sinh(math.pi * (1 - 2 * row / side)))


def _column_edge(column: int, side: int) -> float:
    return column / side * 2 * math.pi - math.pi


def _parallel(visitor: tuple[float, float, float], phi: float) -> _Parallel:
    phi0, cos_phi0, _lam0 = visitor
    return phi, math.sin((phi - phi0) / 2) ** 2, cos_phi0 * math.cos(phi)


def _meridian(visitor: tuple[float, float, float], lam: float) -> _Meridian:
    phi0, cos_phi0, lam0 = visitor
    d_lam = lam - lam0
    spread = math.sin(d_lam / 2) ** 2
    # Along a meridian, cos d = sin φ0 sin φ + cos φ0 cos φ cos Δλ peaks at φ = atan2(sin φ0, cos φ0 cos Δλ).
    peak = math.atan2(math.sin(phi0), cos_phi0 * math.cos(d_lam))
    return lam, spread, peak, math.sin((peak - phi0) / 2) ** 2 + cos_phi0 * math.cos(peak) * spread


def _rectangle_floor(
    visitor: tuple[float, float, float], south: _Parallel, north: _Parallel, west: _Meridian, east: _Meridian
) -> float:
    phi0, _cos_phi0, lam0 = visitor
    if (
        west[0] <= lam0 <= east[0]
        or west[0] <= lam0 + 2 * math.pi <= east[0]
        or west[0] <= lam0 - 2 * math.pi <= east[0]
    ):
        # The visitor's own meridian crosses the tile: the nearest point is straight north or south.
        if phi0 < south[0]:
            return _lowered(south[1])
        if phi0 > north[0]:
            return _lowered(north[1])
        return 0.0
    # Otherwise the nearest point lies on a meridian edge: along a parallel, distance grows away from
    # the visitor's meridian, so the parallel edges are nearest at the corners, which meridians hold.
    best = math.inf
    for _lam, spread, peak, at_peak in (west, east):
        best = min(best, south[1] + south[2] * spread, north[1] + north[2] * spread)
        if south[0] <= peak <= north[0]:
            best = min(best, at_peak)
    return _lowered(best)


def _lowered(value: float) -> float:
    return max(0.0, value * (1 - _BOUND_SLACK) - 1e-18)
