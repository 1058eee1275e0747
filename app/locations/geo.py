"""Small spherical-geometry helpers shared by the gazetteer and the service.

Coordinates travel as (longitude, latitude), the order of GeoJSON and of the spec's
'longitude,latitude' parameters. A bbox is (west, south, east, north); following RFC 7946 §5.2 a box
that crosses the antimeridian has west > east.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

LngLat = tuple[float, float]
BBox = tuple[float, float, float, float]

EARTH_RADIUS_KM = 6371.0088
KM_PER_DEGREE_LAT = 111.2

FloatArray = npt.NDArray[np.float64]


def unit_vectors(lats: FloatArray, lngs: FloatArray) -> FloatArray:
    """Points on the unit sphere, so a KD-tree's Euclidean nearest is also the great-circle nearest."""
    lat_r = np.radians(lats)
    lng_r = np.radians(lngs)
    cos_lat = np.cos(lat_r)
    return np.column_stack((cos_lat * np.cos(lng_r), cos_lat * np.sin(lng_r), np.sin(lat_r)))


def chord_to_km(chord: float | FloatArray) -> float | FloatArray:
    """Great-circle distance for a chord length measured between unit vectors."""
    clipped = np.clip(np.asarray(chord, dtype=np.float64) / 2.0, 0.0, 1.0)
    distance: FloatArray = 2.0 * np.arcsin(clipped) * EARTH_RADIUS_KM
    return float(distance) if distance.ndim == 0 else distance


def haversine_km(origin: LngLat, lngs: FloatArray, lats: FloatArray) -> FloatArray:
    """Distances in km from one point to many (vectorised: used to bias search by proximity)."""
    lng0, lat0 = np.radians(origin[0]), np.radians(origin[1])
    lng_r, lat_r = np.radians(lngs), np.radians(lats)
    half = np.sin((lat_r - lat0) / 2.0) ** 2 + np.cos(lat0) * np.cos(lat_r) * np.sin((lng_r - lng0) / 2.0) ** 2
    distances: FloatArray = 2.0 * EARTH_RADIUS_KM * np.arcsin(np.sqrt(np.clip(half, 0.0, 1.0)))
    return distances


def wrap_longitude(lng: float) -> float:
    wrapped = (lng + 180.0) % 360.0 - 180.0
    # Keep +180 as itself rather than folding it onto -180: both are valid, +180 reads naturally as an east edge.
    return 180.0 if wrapped == -180.0 and lng > 0 else wrapped


def longitude_span(lngs: Sequence[float]) -> tuple[float, float]:
    """The shortest longitude interval covering every point, as (west, east) with east possibly > 180.

    The widest empty gap between sorted longitudes (including the wrap-around gap) is what lies
    outside the interval, so Russia or Fiji get a box across the antimeridian instead of -180..180.
    """
    ordered = sorted(lngs)
    if len(ordered) == 1:
        return ordered[0], ordered[0]
    gaps = [(ordered[i + 1] - ordered[i], i) for i in range(len(ordered) - 1)]
    gaps.append((ordered[0] + 360.0 - ordered[-1], len(ordered) - 1))
    _widest, index = max(gaps)
    if index == len(ordered) - 1:
        return ordered[0], ordered[-1]
    return ordered[index + 1], ordered[index] + 360.0


def bbox_around_points(lngs: Sequence[float], lats: Sequence[float], padding_deg: float) -> BBox:
    """A padded box around places (cities lie inside borders, so a little padding reaches the edges)."""
    west, east = longitude_span(lngs)
    west, east = west - padding_deg, east + padding_deg
    south = max(-90.0, min(lats) - padding_deg)
    north = min(90.0, max(lats) + padding_deg)
    if east - west >= 360.0:
        return (-180.0, south, 180.0, north)
    return (round(wrap_longitude(west), 4), round(south, 4), round(wrap_longitude(east), 4), round(north, 4))


def median_center(lngs: Sequence[float], lats: Sequence[float]) -> LngLat:
    """A representative point: the median of the places, with longitudes unwrapped across the antimeridian."""
    west, _ = longitude_span(lngs)
    unwrapped = [lng if lng >= west else lng + 360.0 for lng in lngs]
    return (round(wrap_longitude(float(np.median(unwrapped))), 5), round(float(np.median(lats)), 5))


def bbox_around(center: LngLat, radius_km: float) -> BBox:
    """A square box of the given radius around a point, for places known only by their centre."""
    lng, lat = center
    delta_lat = radius_km / KM_PER_DEGREE_LAT
    delta_lng = radius_km / (KM_PER_DEGREE_LAT * max(math.cos(math.radians(lat)), 0.01))
    return (
        round(wrap_longitude(lng - delta_lng), 5),
        round(max(-90.0, lat - delta_lat), 5),
        round(wrap_longitude(lng + delta_lng), 5),
        round(min(90.0, lat + delta_lat), 5),
    )


def bbox_contains(bbox: BBox, lngs: FloatArray, lats: FloatArray) -> npt.NDArray[np.bool_]:
    west, south, east, north = bbox
    inside_lat = (lats >= south) & (lats <= north)
    if west <= east:
        return inside_lat & (lngs >= west) & (lngs <= east)
    return inside_lat & ((lngs >= west) | (lngs <= east))
