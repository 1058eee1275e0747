"""The map as vector tiles against the map-area JSON (issue 18 part 3): time per tile and per JSON answer,
and the bytes a visitor downloads for one view and after panning it by half a screen.

For each view (a 1440 x 900 screen at a zoom, centred on a place) it measures, on the corpus that
bench_index prepares (data/bench/<N>/):
- one tile: the feed's filters resolved, the index's grouping for the tile, MVT encoding (the work the
  route does; `service.map_tile`), p50 / p99 over the view's tiles, repeated;
- the JSON of filtered-map for the same view (`service.map_area` + serialisation, the work that route
  does), p50 / p99;
- over HTTP in-process (FastAPI's TestClient: parsing, middleware, gzip), one tile and the JSON;
- the bytes of the view: every tile MapLibre asks for (512-px tiles at the floor of the zoom) against
  the one JSON answer, raw and gzipped as the server sends them (level 1); and the bytes a pan of half a
  screen costs — the tiles not yet held against a new JSON answer.

    .venv/bin/python -m bench.bench_tiles --tours 100000 --runs 30
"""

from __future__ import annotations

import argparse
import gzip
import math
import os
import platform
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.bench_index import percentile, prepare

SCREEN = (1440, 900)
TILE_PX = 512  # MapLibre's vector tiles: a tile at zoom z is drawn 512 px wide at map zoom z
VIEWS = {
    "world z2 (Europe)": ((15.0, 45.0), 2.0),
    "country z5 (France)": ((2.5, 46.5), 5.0),
    "region z8 (Île-de-France)": ((2.35, 48.86), 8.0),
    "city z12 (Paris)": ((2.35, 48.86), 12.0),
    "street z15 (Paris)": ((2.35, 48.86), 15.0),
}
GZIP_LEVEL = 1  # app/core/static.py JSON_GZIP_LEVEL: what the compression middleware sends


def world_px(lng: float, lat: float, zoom: float) -> tuple[float, float]:
    size = TILE_PX * 2**zoom
    sin_lat = math.sin(math.radians(max(-85.05, min(85.05, lat))))
    return (lng + 180) / 360 * size, (0.5 - math.log((1 + sin_lat) / (1 - sin_lat)) / (4 * math.pi)) * size


def lng_lat(x: float, y: float, zoom: float) -> tuple[float, float]:
    size = TILE_PX * 2**zoom
    lng = x / size * 360 - 180
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y / size))))
    return lng, lat


def view_tiles(center: tuple[float, float], zoom: float, shift_px: float = 0.0) -> list[tuple[int, int, int]]:
    """The tiles MapLibre asks for to fill the screen (tile zoom = floor of the map zoom)."""
    cx, cy = world_px(*center, zoom)
    cx += shift_px
    z = math.floor(zoom)
    scale = 2 ** (zoom - z)  # a tile of zoom z is this many times 512 px wide at the map's zoom
    side = TILE_PX * scale
    n = 1 << z
    x0, x1 = math.floor((cx - SCREEN[0] / 2) / side), math.floor((cx + SCREEN[0] / 2) / side)
    y0, y1 = math.floor((cy - SCREEN[1] / 2) / side), math.floor((cy + SCREEN[1] / 2) / side)
    return [(z, x % n, y) for x in range(x0, x1 + 1) for y in range(max(0, y0), min(n - 1, y1) + 1)]


def view_bounds(center: tuple[float, float], zoom: float, shift_px: float = 0.0) -> tuple[float, float, float, float]:
    cx, cy = world_px(*center, zoom)
    cx += shift_px
    west, north = lng_lat(cx - SCREEN[0] / 2, cy - SCREEN[1] / 2, zoom)
    east, south = lng_lat(cx + SCREEN[0] / 2, cy + SCREEN[1] / 2, zoom)
    return max(-180.0, west), max(-85.0, south), min(180.0, east), min(85.0, north)


def timings(function: Any, items: list[Any], runs: int) -> tuple[float, float]:
    for item in items[:3]:
        function(item)
    samples = []
    for _ in range(runs):
        for item in items:
            started = time.perf_counter()
            function(item)
            samples.append((time.perf_counter() - started) * 1000)
    return percentile(samples, 0.5), percentile(samples, 0.99)


def gz(content: bytes) -> int:
    return len(gzip.compress(content, compresslevel=GZIP_LEVEL)) if len(content) >= 1024 else len(content)


def run(tours: int, runs: int) -> str:
    index, _figures = prepare(tours, rebuild=False)

    from fastapi.testclient import TestClient

    from app.core.db import get_sessionmaker
    from app.core.vector_tiles import TileAddress
    from app.discovery import service
    from app.discovery.params import feed_params_from
    from app.main import create_app
    from indexer.queries import BBox, MapQuery, TourFilter

    category = next(
        (
            int(doc["category_id"])
            for doc in index.map_area(
                MapQuery(filter=TourFilter(), bbox=BBox(-10, 35, 30, 60), zoom=14, max_points=500)
            ).points
            if doc.get("category_id")
        ),
        1,
    )
    filters: dict[str, dict[str, str]] = {"": {}, ", category": {"categories": str(category)}}
    rows: list[str] = []
    client = TestClient(create_app())
    session_factory = get_sessionmaker()
    with session_factory() as db:
        for view, (center, zoom) in VIEWS.items():
            for filter_label, query in filters.items():
                params = feed_params_from(query)
                tiles = view_tiles(center, zoom)
                tile_bytes = {tile: service.map_tile(db, index, None, params, TileAddress(*tile)) for tile in tiles}
                tile_p50, tile_p99 = timings(
                    lambda tile, p=params: service.map_tile(db, index, None, p, TileAddress(*tile)), tiles, runs
                )
                west, south, east, north = view_bounds(center, zoom)
                bbox = BBox(west=west, south=south, east=east, north=north)

                def json_answer(box: BBox, p: Any = params, at_zoom: float = zoom) -> bytes:
                    tour_filter, _sort, _vector = service.resolve_feed(db, index, None, p)
                    answer = service.map_area(db, index, None, tour_filter, box, at_zoom)
                    return answer.model_dump_json().encode()

                json_p50, json_p99 = timings(json_answer, [bbox], runs * max(1, len(tiles)))
                json_bytes = json_answer(bbox)
                # Over HTTP (in-process), one tile of the view and the view's JSON.
                z, x, y = tiles[len(tiles) // 2]
                tile_path = f"/v2/locations/tiles/{z}/{x}/{y}.mvt"
                http_tile_p50, http_tile_p99 = timings(
                    lambda _, q=query, path=tile_path: client.get(path, params=q),
                    [None],
                    runs * 3,
                )
                json_query = {**query, "leftX": west, "leftY": south, "rightX": east, "rightY": north, "zoom": zoom}
                http_json_p50, http_json_p99 = timings(
                    lambda _, q=json_query: client.get("/v2/user-recomendations/filtered-map", params=q),
                    [None],
                    runs * 3,
                )
                # A pan of half a screen: the tiles not yet held, against a new JSON answer.
                panned = [tile for tile in view_tiles(center, zoom, SCREEN[0] / 2) if tile not in tile_bytes]
                pan_tiles = [service.map_tile(db, index, None, params, TileAddress(*tile)) for tile in panned]
                pw, ps, pe, pn = view_bounds(center, zoom, SCREEN[0] / 2)
                pan_json = json_answer(BBox(west=pw, south=ps, east=pe, north=pn))
                tiles_raw = sum(len(content) for content in tile_bytes.values())
                tiles_gz = sum(gz(content) for content in tile_bytes.values())
                rows.append(
                    f"| {view}{filter_label} | {len(tiles)} | {tile_p50:.2f} / {tile_p99:.2f} | "
                    f"{json_p50:.2f} / {json_p99:.2f} | {http_tile_p50:.2f} / {http_tile_p99:.2f} | "
                    f"{http_json_p50:.2f} / {http_json_p99:.2f} | "
                    f"{tiles_raw / 1000:.1f} / {tiles_gz / 1000:.1f} | "
                    f"{len(json_bytes) / 1000:.1f} / {gz(json_bytes) / 1000:.1f} | "
                    f"{len(panned)}: {sum(gz(content) for content in pan_tiles) / 1000:.1f} | "
                    f"{gz(pan_json) / 1000:.1f} |"
                )
                print(rows[-1], flush=True)
    load = os.getloadavg()
    header = [
        f"### Map tiles against the map-area JSON, {tours:,} tours — {datetime.now(UTC):%Y-%m-%d}",
        "",
        f"`python -m bench.bench_tiles --tours {tours} --runs {runs}`. Machine: {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}; load average at the end "
        f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (1 / 5 / 15 min; the machine is shared). "
        f"Screen {SCREEN[0]} x {SCREEN[1]}; times in ms (p50 / p99), bytes in kB (raw / gzip level {GZIP_LEVEL}, "
        "as the server sends them).",
        "",
        "| view | tiles | tile: index + MVT | JSON: index + serialise | tile over HTTP | JSON over HTTP "
        "| view in tiles kB | view as JSON kB | pan ½ screen: new tiles, kB gz | pan: new JSON kB gz |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    return "\n".join(header + rows)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tours", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--out", type=Path, help="also write the markdown table here")
    args = parser.parse_args()
    table = run(args.tours, args.runs)
    print("\n" + table)
    if args.out:
        args.out.write_text(table + "\n")


if __name__ == "__main__":
    main()
