"""Web-Mercator tile maths shared by the index adapters: a point's Morton (Z-order) code at zoom 20,
the cells a bounding box covers, and great-circle distance."""

from __future__ import annotations

import math

MAX_LEVEL = 20  # cells of 1/4 tile at zoom 18, the deepest cluster zoom
MAX_LAT = 85.05112878
EARTH_RADIUS_KM = 6371.0088


def mercator_xy(lat: float, lng: float, level: int = MAX_LEVEL) -> tuple[int, int]:
    """Integer tile coordinates of a point at `level` (2**level tiles per side)."""
    lat = max(-MAX_LAT, min(MAX_LAT, lat))
    n = 1 << level
    x = (lng + 180.0) / 360.0
    sin_lat = math.sin(math.radians(lat))
    y = 0.5 - math.log((1 + sin_lat) / (1 - sin_lat)) / (4 * math.pi)
    return min(n - 1, max(0, int(x * n))), min(n - 1, max(0, int(y * n)))


def tile_bounds(x: int, y: int, level: int) -> tuple[float, float, float, float]:
    """(west, south, east, north) of a tile."""
    n = 1 << level

    def lat_of(row: int) -> float:
        return math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * row / n))))

    return x / n * 360.0 - 180.0, lat_of(y + 1), (x + 1) / n * 360.0 - 180.0, lat_of(y)


def _spread(value: int) -> int:
    value &= 0xFFFFF
    value = (value | (value << 16)) & 0x0000FFFF0000FFFF
    value = (value | (value << 8)) & 0x00FF00FF00FF00FF
    value = (value | (value << 4)) & 0x0F0F0F0F0F0F0F0F
    value = (value | (value << 2)) & 0x3333333333333333
    value = (value | (value << 1)) & 0x5555555555555555
    return value


def interleave(x: int, y: int) -> int:
    """The Morton (Z-order) key of tile (x, y)."""
    return _spread(x) | (_spread(y) << 1)


def morton(lat: float, lng: float) -> int:
    return interleave(*mercator_xy(lat, lng, MAX_LEVEL))


def cluster_level(zoom: float) -> int:
    """Cells of a quarter tile (64 px) at this zoom: about the cluster radius of 60 px."""
    return max(2, min(MAX_LEVEL, math.floor(zoom) + 2))


def haversine_km(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(a)))
