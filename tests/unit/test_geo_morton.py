"""Morton keys by table lookup against the bit-by-bit definition."""

from __future__ import annotations

import random

from indexer.geo import MAX_LEVEL, interleave, morton


def morton_by_bits(x: int, y: int) -> int:
    """Bit i of x to bit 2i, bit i of y to bit 2i + 1, for the MAX_LEVEL low bits of each."""
    key = 0
    for bit in range(MAX_LEVEL):
        key |= ((x >> bit) & 1) << (2 * bit)
        key |= ((y >> bit) & 1) << (2 * bit + 1)
    return key


EDGES = [0, 1, 2, 3, 0x1FF, 0x200, 0x3FF, 0x400, 0x401, 0x7FFFF, 0x80000, 0xFFFFE, 0xFFFFF]


def test_edge_values_match_the_definition() -> None:
    for x in EDGES:
        for y in EDGES:
            assert interleave(x, y) == morton_by_bits(x, y), (x, y)


def test_random_values_match_the_definition() -> None:
    generator = random.Random(18)
    for _ in range(20_000):
        x, y = generator.getrandbits(MAX_LEVEL), generator.getrandbits(MAX_LEVEL)
        assert interleave(x, y) == morton_by_bits(x, y), (x, y)


def test_bits_above_the_level_are_ignored() -> None:
    assert interleave(0xFFFFF | (1 << 20), 5 | (1 << 23)) == morton_by_bits(0xFFFFF, 5)


def test_known_points() -> None:
    assert morton(85.06, -180.0) == 0  # north-west corner, clamped
    assert morton(-85.06, 179.9999999) == morton_by_bits(0xFFFFF, 0xFFFFF)
    assert interleave(1, 0) == 1 and interleave(0, 1) == 2 and interleave(1, 1) == 3
