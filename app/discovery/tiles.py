"""The map as Mapbox Vector Tiles (issue 18 part 3): the tours of one Web-Mercator tile, grouped by
the index as the map-area calls group them, encoded with `mapbox-vector-tile`.

One tile answers the same at any viewport, so a browser or a CDN can share it between visitors
(`Cache-Control`, `ETag`, 304 on `If-None-Match`), which the per-viewport JSON of the map-area calls
never could. A tile holds at most TILE_MAX_POINTS single tours; above that the index groups it into
cells of a quarter tile side (`indexer.geo.cluster_level`), each cell a cluster feature.

What a feature carries (layer `tours`):
- a cluster: `tours` (how many), `server_cluster` (the cell's id), `expansion_zoom`;
- a tour: `tours` = 1, `guid`, `title` (the label drawn beside it). The popup's picture, counters
  and localised age are asked for when a point is opened, so a tile stays small and the same in
  every language.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import mapbox_vector_tile

from app.core.errors import field_error
from indexer.geo import MAX_LAT, tile_bounds
from indexer.queries import BBox, Cluster, MapAnswer

TOUR_LAYER = "tours"
MVT_MEDIA_TYPE = "application/vnd.mapbox-vector-tile"
TILE_EXTENT = 4096
# The deepest tile the server makes: MapLibre draws deeper zooms from zoom-18 tiles (every tour is a
# point there unless hundreds share one spot), so a city is a few dozen cacheable tiles.
MAX_TILE_ZOOM = 22
# Single tours per tile before the index groups the tile into clusters. A 512-px tile with this many
# points is still legible; past it the quarter-tile cells (128 px, the spec's 60-px cluster radius)
# say more than a carpet of dots.
TILE_MAX_POINTS = 120
# A shared cache may keep a tile this long: a new or edited tour shows on the map within a minute.
TILE_MAX_AGE_SECONDS = 60
# The tile's own box, shrunk by this share of a cell, so that a tour exactly on a tile's edge is in
# one tile only, and the cells the index groups are this tile's own.
EDGE_INSET = 1e-9


@dataclass(frozen=True, slots=True)
class TileAddress:
    z: int
    x: int
    y: int

    @property
    def side(self) -> int:
        return 1 << self.z


def tile_address(z: int, x: int, y: int) -> TileAddress:
    """The tile z/x/y, or a 400 naming the coordinate that no tile has."""
    if not 0 <= z <= MAX_TILE_ZOOM:
        raise field_error("z", f"Zoom must be from 0 to {MAX_TILE_ZOOM}")
    side = 1 << z
    if not 0 <= x < side:
        raise field_error("x", f"At zoom {z}, x must be from 0 to {side - 1}")
    if not 0 <= y < side:
        raise field_error("y", f"At zoom {z}, y must be from 0 to {side - 1}")
    return TileAddress(z, x, y)


def tile_bbox(tile: TileAddress) -> BBox:
    """The tile's area in degrees, a hair inside its edges (see EDGE_INSET)."""
    west, south, east, north = tile_bounds(tile.x, tile.y, tile.z)
    width, height = (east - west) * EDGE_INSET, (north - south) * EDGE_INSET
    return BBox(west=west + width, south=south + height, east=east - width, north=north - height)


def tile_pixel(tile: TileAddress, lng: float, lat: float) -> tuple[int, int]:
    """Where a point falls in the tile's grid of TILE_EXTENT units, y growing downwards."""
    lat = max(-MAX_LAT, min(MAX_LAT, lat))
    world_x = (lng + 180.0) / 360.0
    sin_lat = math.sin(math.radians(lat))
    world_y = 0.5 - math.log((1 + sin_lat) / (1 - sin_lat)) / (4 * math.pi)
    return (
        round((world_x * tile.side - tile.x) * TILE_EXTENT),
        round((world_y * tile.side - tile.y) * TILE_EXTENT),
    )


def _point(tile: TileAddress, lng: float, lat: float) -> str:
    x, y = tile_pixel(tile, lng, lat)
    return f"POINT({x} {y})"


def _cluster_feature(tile: TileAddress, cluster: Cluster) -> dict[str, Any]:
    return {
        "geometry": _point(tile, cluster.lng, cluster.lat),
        "properties": {
            "tours": cluster.count,
            "server_cluster": cluster.cell,
            "expansion_zoom": cluster.expansion_zoom,
        },
    }


def _tour_feature(tile: TileAddress, point: dict[str, Any]) -> dict[str, Any]:
    return {
        "geometry": _point(tile, float(point["lng"]), float(point["lat"])),
        "properties": {"tours": 1, "guid": str(point["guid"]), "title": str(point.get("title") or "")},
        "id": int(point["id"]),
    }


def encode_tours(tile: TileAddress, answer: MapAnswer) -> bytes:
    """The index's answer for one tile as a vector tile with one layer, `tours` (an empty tile is a
    valid tile with no layer: MapLibre draws nothing there and asks no more)."""
    features: list[dict[str, Any]] = [_cluster_feature(tile, cluster) for cluster in answer.clusters]
    features += [_tour_feature(tile, dict(point)) for point in answer.points]
    return encode_layers(((TOUR_LAYER, features),))


def encode_layers(layers: Sequence[tuple[str, Sequence[dict[str, Any]]]]) -> bytes:
    """Layers of features in tile units (y down) as MVT bytes; layers without features are left out."""
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
