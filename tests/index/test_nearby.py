"""The tile distance bound behind the embedded index's Near Me walk: never above the distance of any
point of the tile (else a nearer tour could come out after a farther one), and close to the least one
(else the walk opens tiles it need not)."""

from __future__ import annotations

import math
import random

import pytest

from indexer.embedded.nearby import haversine_params, tile_distance_floor
from indexer.geo import tile_bounds


def _term(visitor: tuple[float, float, float], lat: float, lng: float) -> float:
    phi0, cos_phi0, lam0 = visitor
    phi = math.radians(lat)
    return math.sin((phi - phi0) / 2) ** 2 + cos_phi0 * math.cos(phi) * math.sin((math.radians(lng) - lam0) / 2) ** 2


def _tile_samples(x: int, y: int, level: int, steps: int = 60) -> list[tuple[float, float]]:
    west, south, east, north = tile_bounds(x, y, level)
    if y == 0:
        north = 90.0
    if y == (1 << level) - 1:
        south = -90.0
    return [
        (south + (north - south) * i / steps, west + (east - west) * j / steps)
        for i in range(steps + 1)
        for j in range(steps + 1)
    ]


@pytest.mark.parametrize("seed", range(6))
def test_the_bound_is_below_every_point_and_near_the_nearest(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        visitor = haversine_params(rng.uniform(-89, 89), rng.uniform(-180, 180))
        level = rng.randint(0, 8)
        x, y = rng.randrange(1 << level), rng.randrange(1 << level)
        floor = tile_distance_floor(visitor, x, y, level)
        nearest = min(_term(visitor, lat, lng) for lat, lng in _tile_samples(x, y, level))
        assert floor <= nearest
        # The grid misses the exact nearest point by at most a step, so allow that much.
        assert math.asin(math.sqrt(floor)) >= math.asin(math.sqrt(nearest)) - math.radians(360 / 60 / (1 << level))


def test_a_visitor_inside_the_tile_is_at_distance_zero() -> None:
    assert tile_distance_floor(haversine_params(48.85, 2.35), 1, 0, 1) == 0.0


def test_the_antimeridian_is_no_wall() -> None:
    """From Fiji (178.4° E) the tile starting at 180° W is 1.6° of longitude away, not 358°."""
    visitor = haversine_params(-18.1, 178.4)
    x, y = 0, 17  # level 5: the column starting at 180° W, rows around 18° S
    west, south, _east, north = tile_bounds(x, y, 5)
    assert west == -180.0 and south < -18.1 < north
    degrees = math.degrees(2 * math.asin(math.sqrt(tile_distance_floor(visitor, x, y, 5))))
    assert degrees == pytest.approx(1.6 * math.cos(math.radians(18.1)), abs=1e-3)
