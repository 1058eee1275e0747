"""The map as Mapbox Vector Tiles (issue 18 part 3): the tours of one Web-Mercator tile, grouped by
the index as the map-area calls group them.

One tile answers the same at any viewport, so a browser or a CDN can share it between visitors
(`Cache-Control`, `ETag`, 304 on `If-None-Match`: app/core/vector_tiles.py), which the per-viewport
JSON of the map-area calls never could.

Below zoom 18 the index groups every tile into cells of a quarter of its side
(`indexer.geo.cluster_level`: 128 px of a 512-px tile, about the spec's 60-px cluster radius): a cell
with one tour is that tour's point, a cell with more is a cluster — what MapLibre's own clustering
did with the JSON, now done once on the server for everybody. From zoom 18 on (spec §9: no clusters
above 18) a tile holds its tours as points, up to POINTS_TILE_MAX of them.

What a feature carries (layer `tours`):
- a cluster: `tours` (how many), `server_cluster` (the cell's id), `expansion_zoom`;
- a tour: `tours` = 1, `guid`, `title` (the label drawn beside it), and the tour's id as the
  feature id. The popup's picture, counters and localised age are asked for when a point is opened,
  so a tile stays small and the same in every language.
"""

from __future__ import annotations

from typing import Any

from app.core.vector_tiles import TileAddress, encode_layers, tile_pixel
from indexer.queries import BBox, Cluster, MapAnswer

TOUR_LAYER = "tours"
# The deepest tile the server makes. MapLibre asks for no tile past zoom 18 (its source's maxzoom)
# and draws deeper zooms from those; deeper tiles are still answered for other clients.
MAX_TILE_ZOOM = 22
# The last zoom with clusters (spec §9); a cluster there opens the list view rather than zooming.
MAX_CLUSTER_ZOOM = 18
# Tours a tile from zoom 18 on shows one by one (a tile is 150 m wide there); past that, even there
# its cells are clusters, and a click on one lists its tours.
POINTS_TILE_MAX = 500
# A shared cache may keep a tile this long: a new or edited tour shows on the map within a minute.
TILE_MAX_AGE_SECONDS = 60
# The tile's own box, shrunk by this share of its side, so that a tour exactly on a tile's edge is
# in one tile only, and the cells the index groups are this tile's own.
EDGE_INSET = 1e-9


def tile_max_points(zoom: int) -> int:
    """How many tours a tile may show one by one before the index groups it into its cells."""
    return POINTS_TILE_MAX if zoom >= MAX_CLUSTER_ZOOM else 0


def tile_bbox(tile: TileAddress) -> BBox:
    """The tile's area in degrees, a hair inside its edges (see EDGE_INSET)."""
    west, south, east, north = tile.bounds()
    width, height = (east - west) * EDGE_INSET, (north - south) * EDGE_INSET
    return BBox(west=west + width, south=south + height, east=east - width, north=north - height)


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
    """The index's answer for one tile as a vector tile with one layer, `tours`."""
    features: list[dict[str, Any]] = [_cluster_feature(tile, cluster) for cluster in answer.clusters]
    features += [_tour_feature(tile, dict(point)) for point in answer.points]
    return encode_layers(((TOUR_LAYER, features),))
