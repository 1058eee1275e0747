"""Mapbox Vector Tiles over HTTP: the tile address and its 400s, Web-Mercator tile units, encoding
with `mapbox-vector-tile`, and answers that a browser or a CDN may keep (`ETag`, `Cache-Control`,
304 on `If-None-Match`). Used by the map's tours (app/discovery/tiles.py) and the offline basemap
(app/locations/basemap.py)."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import mapbox_vector_tile
import numpy as np
import numpy.typing as npt
from fastapi.responses import Response

from app.core.errors import field_error
from indexer.geo import MAX_LAT, tile_bounds

MVT_MEDIA_TYPE = "application/vnd.mapbox-vector-tile"
TILE_EXTENT = 4096

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class TileAddress:
    z: int
    x: int
    y: int

    @property
    def side(self) -> int:
        """Tiles per side of the world at this zoom."""
        return 1 << self.z

    def bounds(self) -> tuple[float, float, float, float]:
        """(west, south, east, north) in degrees."""
        return tile_bounds(self.x, self.y, self.z)


def tile_address(z: int, x: int, y: int, *, max_zoom: int) -> TileAddress:
    """The tile z/x/y, or a 400 naming the coordinate that no tile has."""
    if not 0 <= z <= max_zoom:
        raise field_error("z", f"Zoom must be from 0 to {max_zoom}")
    side = 1 << z
    if not 0 <= x < side:
        raise field_error("x", f"At zoom {z}, x must be from 0 to {side - 1}")
    if not 0 <= y < side:
        raise field_error("y", f"At zoom {z}, y must be from 0 to {side - 1}")
    return TileAddress(z, x, y)


def world_y(lat: float) -> float:
    """A latitude's Web-Mercator row as a share of the world's height, 0 at the top."""
    lat = max(-MAX_LAT, min(MAX_LAT, lat))
    sin_lat = math.sin(math.radians(lat))
    return 0.5 - math.log((1 + sin_lat) / (1 - sin_lat)) / (4 * math.pi)


def latitude_of(row: float) -> float:
    """The inverse of `world_y`: the latitude at a share of the world's height."""
    return math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * row))))


def tile_pixel(tile: TileAddress, lng: float, lat: float) -> tuple[int, int]:
    """Where a point falls in the tile's grid of TILE_EXTENT units, y growing downwards."""
    world_x = (lng + 180.0) / 360.0
    return (
        round((world_x * tile.side - tile.x) * TILE_EXTENT),
        round((world_y(lat) * tile.side - tile.y) * TILE_EXTENT),
    )


def project(tile: TileAddress, coordinates: FloatArray) -> FloatArray:
    """Longitude/latitude pairs (an N-by-2 array) in the tile's units, y down: for shapely.transform."""
    lngs = coordinates[:, 0]
    lats = np.radians(np.clip(coordinates[:, 1], -MAX_LAT, MAX_LAT))
    sin_lat = np.sin(lats)
    xs = ((lngs + 180.0) / 360.0 * tile.side - tile.x) * TILE_EXTENT
    ys = ((0.5 - np.log((1 + sin_lat) / (1 - sin_lat)) / (4 * math.pi)) * tile.side - tile.y) * TILE_EXTENT
    return np.column_stack((xs, ys))


def buffered_bounds(tile: TileAddress, units: float) -> tuple[float, float, float, float]:
    """The tile's (west, south, east, north) grown by `units` tile units on every side."""
    share = units / TILE_EXTENT
    west = (tile.x - share) / tile.side * 360.0 - 180.0
    east = (tile.x + 1 + share) / tile.side * 360.0 - 180.0
    north = latitude_of(max(0.0, (tile.y - share) / tile.side))
    south = latitude_of(min(1.0, (tile.y + 1 + share) / tile.side))
    return west, south, east, north


def encode_layers(layers: Sequence[tuple[str, Sequence[dict[str, Any]]]]) -> bytes:
    """Layers of features in tile units (y down) as MVT bytes; layers without features are left out,
    and a tile with none is empty (a valid tile: MapLibre draws nothing there)."""
    kept = [{"name": name, "features": list(features)} for name, features in layers if features]
    if not kept:
        return b""
    encoded: bytes = mapbox_vector_tile.encode(
        kept, default_options={"extents": TILE_EXTENT, "y_coord_down": True, "check_winding_order": True}
    )
    return encoded


def etag_of(content: bytes, *salt: str) -> str:
    """A weak validator of an answer's bytes: the same tile gives the same tag in every process (weak,
    since the compression middleware may send the same tile gzipped or not)."""
    digest = hashlib.blake2b(content, digest_size=12)
    for part in salt:
        digest.update(part.encode())
    return f'W/"{digest.hexdigest()}"'


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    """`If-None-Match` against our tag, compared weakly (RFC 9110 §13.1.2): `*` or any listed tag."""
    if not if_none_match:
        return False
    wanted = etag.removeprefix("W/")
    for candidate in if_none_match.split(","):
        candidate = candidate.strip()
        if candidate == "*" or candidate.removeprefix("W/") == wanted:
            return True
    return False


def tile_response(
    content: bytes,
    *,
    if_none_match: str | None,
    cache_control: str,
    etag: str | None = None,
    vary: str | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    """The tile, or 304 when the caller already holds this version; both carry the validator and
    how long it may be kept."""
    tag = etag or etag_of(content)
    answer_headers = {"ETag": tag, "Cache-Control": cache_control}
    if vary:
        answer_headers["Vary"] = vary
    if etag_matches(if_none_match, tag):
        return Response(status_code=304, headers=answer_headers)
    return Response(content, media_type=MVT_MEDIA_TYPE, headers={**answer_headers, **(headers or {})})


TILE_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The tile (Mapbox Vector Tile); empty when nothing is in it",
        "content": {MVT_MEDIA_TYPE: {"schema": {"type": "string", "format": "binary"}}},
    },
    304: {"description": "Not modified: the tile named in If-None-Match is still current"},
}
