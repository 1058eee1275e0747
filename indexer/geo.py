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


def _spread_bits(value: int) -> int:
    """The bits of `value` moved to the even positions (bit i to bit 2i): the definition."""
    spread = 0
    for bit in range(MAX_LEVEL):
        spread |= ((value >> bit) & 1) << (2 * bit)
    return spread


# Every 10-bit half spread once: a 20-bit coordinate is then two lookups, about four times faster
# than spreading it with shifts and masks (a million Morton keys a full rebuild).
_SPREAD_10 = tuple(_spread_bits(value) for value in range(1 << 10))


def interleave(x: int, y: int) -> int:
    """The Morton (Z-order) key of tile (x, y) (coordinates of up to MAX_LEVEL bits)."""
    table = _SPREAD_10
    return (
        table[x & 0x3FF] | (table[(x >> 10) & 0x3FF] << 20) | (table[y & 0x3FF] << 1) | (table[(y >> 10) & 0x3FF] << 21)
    )


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
