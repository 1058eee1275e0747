"""Reading what a query answers: totals (counted once per index generation, see CountCache) and the
stored card and map feature JSON of the tours, creators and ads a query picked."""

from __future__ import annotations

import json
import sqlite3
from array import array
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import orjson

from indexer.cards import AdCard, MapPoint, TourCard
from indexer.embedded.rows import fraction
from indexer.embedded.schema import listing_generation
from indexer.embedded.sql import chunks
from indexer.queries import Page

COUNT_CACHE_LIMIT = 4096
AD_ROTATION_LIMIT = 20_000  # ads held decoded per process (a few kB each); past it, SQL per request

# The stored cards are compact JSON (rows.compact_json), decoded 48 times a feed page: orjson reads them
# to the same dicts as json.loads (every card of the 100k corpus compared: values, their types, the
# keys' order) in 27 µs a page, against 43 for pydantic-core's parser and 116 for json.loads.
decode_card = orjson.loads


# Text searches whose matching rows are kept (at most TEXT_TOTAL_CAP row ids each, 8 kB).
MATCH_CACHE_LIMIT = 1024


class CountCache:
    """Totals by (listing generation, query): a page of the same filter counts once until a write
    changes what filters match (every write but counter updates: schema.listing_generation). A text
    search keeps the rows it counted (`matches`)."""

    def __init__(self) -> None:
        self._cache: dict[tuple[int, str, tuple[Any, ...]], int] = {}
        self._matches: dict[tuple[int, str, tuple[Any, ...]], array[int]] = {}

    def clear(self) -> None:
        self._cache.clear()
        self._matches.clear()

    def matches(
        self, connection: sqlite3.Connection, row_id: str, table: str, where: str, params: Sequence[Any], cap: int
    ) -> array[int]:
        """`row_id` of the first `cap` rows of `table` that pass `where`, in that order (a text match:
        FTS5 streams its posting lists in row id order). A text search's total is their number, and
        below the cap they are its whole candidate set; above it, the rows of its first pages in
        popularity order. One pass over the posting lists per search and generation, where the count
        and every page each made one."""
        key = (listing_generation(connection), f"{row_id}:{table}:{where}", tuple(params))
        cached = self._matches.get(key)
        if cached is None:
            # One JSON array rather than a row each: a thousand rows cost 0.4 ms through the driver,
            # their array 0.15 ms more than counting them (sorted again: an aggregate's input order
            # is not promised).
            rows = f"SELECT {row_id} AS id FROM {table} WHERE {where} ORDER BY {row_id} LIMIT ?"
            found = connection.execute(f"SELECT json_group_array(id) FROM ({rows})", (*params, cap)).fetchone()[0]
            cached = array("q", sorted(orjson.loads(found)))
            if len(self._matches) > MATCH_CACHE_LIMIT:
                self._matches.clear()
            self._matches[key] = cached
        return cached

    def count(
        self, connection: sqlite3.Connection, table: str, where: str, params: Sequence[Any], cap: int | None = None
    ) -> int:
        """Exact, or at most `cap` (text matches: counting a million hits costs more than the page)."""
        key = (listing_generation(connection), f"{table}:{where}:{cap}", tuple(params))
        cached = self._cache.get(key)
        if cached is None:
            if cap is None:
                sql, args = f"SELECT count(*) FROM {table} WHERE {where}", tuple(params)
            else:
                sql, args = f"SELECT count(*) FROM (SELECT 1 FROM {table} WHERE {where} LIMIT ?)", (*params, cap)
            cached = int(connection.execute(sql, args).fetchone()[0])
            if len(self._cache) > COUNT_CACHE_LIMIT:
                self._cache.clear()
            self._cache[key] = cached
        return cached


def page_of_rows(connection: sqlite3.Connection, rows: Sequence[tuple[int, int]], total: int) -> Page:
    """A page from (id, rid) rows in page order: the cards are read by key once the page is known."""
    cards: dict[int, str] = {}
    for chunk in chunks([row[1] for row in rows], 500):
        cards.update(
            connection.execute(
                f"SELECT tour_rid, card FROM tour_cards WHERE tour_rid IN ({','.join('?' * len(chunk))})", chunk
            ).fetchall()
        )
    return Page(ids=[row[0] for row in rows], total=total, docs=[decode_card(cards[row[1]]) for row in rows])


def cards_by_ids(connection: sqlite3.Connection, ids: Sequence[int]) -> dict[int, TourCard]:
    """The cards of these tours by id; tours the index does not hold are absent."""
    cards: dict[int, TourCard] = {}
    for chunk in chunks(list(ids), 500):
        for tour_id, card in connection.execute(
            f"SELECT id, card FROM tours JOIN tour_cards ON tour_rid = rid WHERE id IN ({','.join('?' * len(chunk))})",
            chunk,
        ):
            cards[tour_id] = decode_card(card)
    return cards


# Decoded map points kept per process: about 2.5 KB each, so some 20 MB, a few dozen city views.
POINT_CACHE_LIMIT = 8192

# A located tour as a map read lists it: (rid, version, lat, lng), `version` from `tours` (schema.py).
Located = tuple[int, int, float, float]
LOCATED_COLUMNS = "rid, version, lat, lng"


class PointCache:
    """Map points already decoded from their stored feature JSON, by row id, each with the version of
    the row it was decoded from (`tours.version`, which every write of the row changes). A map read
    lists the located rows with their versions, which its key walk reads anyway, and decodes only the
    features it has not seen in that version: decoding is most of a view of a few hundred points
    (284 points, 272 KB of JSON at 1M tours), and JSON cannot be made cheaper to turn into these
    dicts (orjson beat arrays of values, marshal and pickle). The answer is the stored feature either
    way: a point is served only in the version it was decoded from, and as a copy. Versions restart
    with a new file, so a rebuild or reset clears the cache."""

    def __init__(self, limit: int = POINT_CACHE_LIMIT) -> None:
        self._limit = limit
        self._points: OrderedDict[int, tuple[int, MapPoint]] = OrderedDict()

    def clear(self) -> None:
        self._points.clear()

    def points(self, connection: sqlite3.Connection, located: Sequence[Located]) -> list[MapPoint]:
        """The map points of these rows, in their order."""
        decoded: dict[int, MapPoint] = {}
        for rid, version, _lat, _lng in located:
            kept = self._points.get(rid)
            if kept is not None and kept[0] == version:
                self._points.move_to_end(rid)
                decoded[rid] = kept[1]
        missing = [row for row in located if row[0] not in decoded]
        for row, point in zip(missing, _decode_features(connection, missing), strict=True):
            decoded[row[0]] = point
            self._points[row[0]] = (row[1], point)
        while len(self._points) > self._limit:
            self._points.popitem(last=False)
        return [_copy_point(decoded[row[0]]) for row in located]


def _decode_features(connection: sqlite3.Connection, located: Sequence[Located]) -> list[MapPoint]:
    """Each row's stored feature with its position, in the rows' order. The JSON is read as bytes:
    as text the driver decodes it into a str and orjson encodes that back to UTF-8 (titles hold
    non-ASCII dashes, so no shortcut), about 40% of a cold view's decoding."""
    features: dict[int, bytes] = {}
    for chunk in chunks([row[0] for row in located], 500):
        features.update(
            connection.execute(
                "SELECT tour_rid, CAST(feature AS BLOB) FROM tour_cards "
                f"WHERE tour_rid IN ({','.join('?' * len(chunk))})",
                chunk,
            ).fetchall()
        )
    return [map_point_of_row((features[rid], lat, lng)) for rid, _version, lat, lng in located]


def _copy_point(point: MapPoint) -> MapPoint:
    """A copy a caller may change without changing the cache (img_settings is the one nested value)."""
    copy = point.copy()
    copy["img_settings"] = dict(point["img_settings"])
    return copy


def features_by_rids(connection: sqlite3.Connection, point_cache: PointCache, rids: Sequence[int]) -> list[MapPoint]:
    located: list[Located] = []
    for chunk in chunks(list(rids), 500):
        located += connection.execute(
            f"SELECT {LOCATED_COLUMNS} FROM tours WHERE rid IN ({','.join('?' * len(chunk))})", chunk
        ).fetchall()
    return point_cache.points(connection, located)


def map_point_of_row(row: tuple[str | bytes, float, float]) -> MapPoint:
    """A stored map feature (JSON) with the tour's position: the feature is decoded into the point."""
    feature: MapPoint = orjson.loads(row[0])  # a map of 500 points decodes 600 KB of JSON
    feature["lat"], feature["lng"] = row[1], row[2]
    return feature


class AdRotation:
    """Every served ad, decoded once per listing generation and kept in random-key order. A seed's page
    of candidates is that list rotated at the seed's start, as `feed.ads_page`'s SQL reads them: the
    feed asks on every page, so no query and no JSON decoding per request. Past AD_ROTATION_LIMIT ads
    the SQL answers (memory stays bounded)."""

    def __init__(self) -> None:
        self._held: tuple[int, list[float], list[tuple[int, AdCard]]] | None = None

    def page(self, connection: sqlite3.Connection, limit: int, seed: str) -> Page | None:
        """The page, or None when there are too many ads to hold (the caller asks SQL)."""
        current = listing_generation(connection)
        held = self._held
        if held is None or held[0] != current:
            held = self._held = (current, *self._load(connection))
        _, keys, ads = held
        if len(ads) > AD_ROTATION_LIMIT:
            return None
        start = bisect_left(keys, fraction(seed or "ads"))
        chosen = (ads[start:] + ads[:start])[:limit]
        return Page(ids=[ad_id for ad_id, _ in chosen], total=len(chosen), docs=[card for _, card in chosen])

    @staticmethod
    def _load(connection: sqlite3.Connection) -> tuple[list[float], list[tuple[int, AdCard]]]:
        rows = connection.execute(
            "SELECT random_key, id, card FROM ads ORDER BY random_key, id LIMIT ?", (AD_ROTATION_LIMIT + 1,)
        ).fetchall()
        return [row[0] for row in rows], [(row[1], json.loads(row[2])) for row in rows]
