"""Checking that a peer's answer is ours: the same page bar ties, the same total, the same map.

Ties, precisely: two tours tie when their sort key is equal — the sorted column's stored value (for
Near Me the haversine term of indexer/embedded/nearby.py from the stored position; for relevance,
whether the title matches, then views; for suggestions, the score). Ours and PostgreSQL break ties by
id; tantivy by its own document order. A page matches when it holds as many tours as ours, the key
at every position equals ours, and every group of equal keys lies wholly inside the page holds the
same tours as ours. A tie group cut by the page's first or last row may hold other tours of that key.
Keys are read from the reference (the embedded index's rows) for both answers, so a peer cannot
excuse a wrong tour by reporting a right key.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from indexer.embedded.nearby import haversine_params
from indexer.embedded.text import match_expression
from indexer.queries import TEXT_TOTAL_CAP, FeedQuery, MapAnswer, Page, Sort, Suggestion

SORT_COLUMN: dict[Sort, str] = {
    Sort.AZ: "title_key",
    Sort.ZA: "title_key",
    Sort.NEWEST: "created_at",
    Sort.LIKES: "likes",
    Sort.SAVES: "saves",
    Sort.SHARES: "shared",
    Sort.VIEWS: "views",
    Sort.TRENDING: "trending",
    Sort.FAVORITE: "favorite",
    Sort.POPULAR: "popular",
    Sort.RANDOM: "random_key",
    Sort.RELEVANCE: "views",
}
# Centroids are sums of the same floats in another order on each side.
CENTROID_TOLERANCE = 1e-7
# Near Me: the peers compute the distance another way (a chord on the unit sphere, a float sum).
DISTANCE_TOLERANCE = 1e-12


def compare_ranked(ours: Sequence[tuple[Any, Any]], theirs: Sequence[tuple[Any, Any]], close: bool = False) -> str:
    """'same', 'same bar ties (n)' or 'MISMATCH: …' for two pages of (id, sort key) in page order."""
    if [row[0] for row in ours] == [row[0] for row in theirs]:
        return "same"
    if len(ours) != len(theirs):
        return f"MISMATCH: {len(theirs)} rows, ours {len(ours)}"
    for position, ((_, key), (_, their_key)) in enumerate(zip(ours, theirs, strict=True)):
        if not _equal(key, their_key, close):
            return f"MISMATCH at row {position}: key {their_key!r}, ours {key!r}"
    boundary = {_rounded(ours[0][1], close), _rounded(ours[-1][1], close)}
    groups: dict[Any, tuple[set[Any], set[Any]]] = {}
    for (tour, key), (their_tour, _) in zip(ours, theirs, strict=True):
        mine, other = groups.setdefault(_rounded(key, close), (set(), set()))
        mine.add(tour)
        other.add(their_tour)
    for key, (mine, other) in groups.items():
        if key not in boundary and mine != other:
            return f"MISMATCH in the tie group {key!r}: {sorted(other - mine)} instead of {sorted(mine - other)}"
    differing = sum(1 for a, b in zip(ours, theirs, strict=True) if a[0] != b[0])
    return f"same bar ties ({differing})"


def _equal(a: Any, b: Any, close: bool) -> bool:
    if close and isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=DISTANCE_TOLERANCE, abs_tol=1e-15)
    return bool(a == b)


def _rounded(key: Any, close: bool) -> Any:
    return round(key, 12) if close and isinstance(key, float) else key


def compare_pages(reference: sqlite3.Connection, query: FeedQuery, ours: Page, theirs: Page) -> str:
    if ours.total != theirs.total:
        return f"MISMATCH: total {theirs.total:,}, ours {ours.total:,}"
    key_of = sort_keys(reference, query, ours, [*ours.ids, *theirs.ids])
    return compare_ranked(
        [(tour, key_of[tour]) for tour in ours.ids],
        [(tour, key_of.get(tour)) for tour in theirs.ids],
        close=query.sort is Sort.NEAR_ME,
    )


def sort_keys(reference: sqlite3.Connection, query: FeedQuery, ours: Page, ids: Sequence[int]) -> dict[int, Any]:
    """Each tour's sort key under the query, read from the reference rows."""
    marks = ",".join("?" * len(ids)) or "NULL"
    if query.sort is Sort.NEAR_ME and query.near is not None:
        distance = haversine(*query.near)
        rows = reference.execute(f"SELECT id, lat, lng FROM tours WHERE id IN ({marks})", list(ids))
        return {tour: distance(lat, lng) for tour, lat, lng in rows}
    column = SORT_COLUMN.get(query.sort, "views")
    keys = dict(reference.execute(f"SELECT id, {column} FROM tours WHERE id IN ({marks})", list(ids)).fetchall())
    if query.sort is Sort.RELEVANCE and query.filter.text and ours.total < TEXT_TOTAL_CAP:
        # Below the cap ours puts title matches first (feed.py); at the cap it reads popularity order.
        in_title = _title_matches(reference, query.filter.text, ids)
        return {tour: (tour in in_title, value) for tour, value in keys.items()}
    return keys


def _title_matches(reference: sqlite3.Connection, text: str, ids: Sequence[int]) -> set[int]:
    expression = match_expression(text, column="title")
    if expression is None:
        return set()
    marks = ",".join("?" * len(ids)) or "NULL"
    rows = reference.execute(
        f"SELECT id FROM tours WHERE id IN ({marks}) AND rid IN (SELECT rowid FROM tour_text WHERE tour_text MATCH ?)",
        (*ids, expression),
    )
    return {row[0] for row in rows}


def haversine(lat: float, lng: float) -> Callable[[float, float], float]:
    """The haversine term of nearby.HAVERSINE_SQL, from a visitor at (lat, lng)."""
    phi, cos_phi, lam = haversine_params(lat, lng)

    def term(tour_lat: float, tour_lng: float) -> float:
        return (
            math.sin((math.radians(tour_lat) - phi) * 0.5) ** 2
            + cos_phi * math.cos(math.radians(tour_lat)) * math.sin((math.radians(tour_lng) - lam) * 0.5) ** 2
        )

    return term


def compare_maps(ours: MapAnswer, theirs: MapAnswer) -> str:
    """Totals, the clusters (cell, count, centroid) and the tours shown as points."""
    if ours.total != theirs.total:
        return f"MISMATCH: total {theirs.total:,}, ours {ours.total:,}"
    mine = {cluster.cell: cluster for cluster in ours.clusters}
    other = {cluster.cell: cluster for cluster in theirs.clusters}
    if mine.keys() != other.keys():
        return f"MISMATCH: clusters {len(other)}, ours {len(mine)} ({len(mine.keys() ^ other.keys())} cells differ)"
    for cell, cluster in mine.items():
        peer = other[cell]
        if cluster.count != peer.count:
            return f"MISMATCH: cluster {cell} holds {peer.count}, ours {cluster.count}"
        if abs(cluster.lat - peer.lat) > CENTROID_TOLERANCE or abs(cluster.lng - peer.lng) > CENTROID_TOLERANCE:
            return f"MISMATCH: cluster {cell} centre ({peer.lat}, {peer.lng}), ours ({cluster.lat}, {cluster.lng})"
    points, their_points = {p["id"] for p in ours.points}, {p["id"] for p in theirs.points}
    if points != their_points:
        return f"MISMATCH: points {len(their_points)}, ours {len(points)} ({len(points ^ their_points)} differ)"
    return "same"


def compare_suggestions(ours: Sequence[Suggestion], theirs: Sequence[Suggestion]) -> str:
    """The suggestions in order, bar ties of equal score."""
    return compare_ranked(
        [(f"{item.type.value}:{item.id}", round(item.score, 9)) for item in ours],
        [(f"{item.type.value}:{item.id}", round(item.score, 9)) for item in theirs],
    )


def compare(reference: sqlite3.Connection, query: Any, ours: Any, theirs: Any) -> str:
    if isinstance(ours, Page):
        return compare_pages(reference, query, ours, theirs)
    if isinstance(ours, MapAnswer):
        return compare_maps(ours, theirs)
    return compare_suggestions(ours, theirs)
