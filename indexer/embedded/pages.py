"""Reading what a query answers: totals (counted once per index generation, see CountCache) and the
stored card and map feature JSON of the tours, creators and ads a query picked."""

from __future__ import annotations

import json
import sqlite3
from bisect import bisect_left
from collections.abc import Sequence
from typing import Any

import orjson
from pydantic_core import from_json

from indexer.cards import AdCard, MapPoint, TourCard
from indexer.embedded.rows import fraction
from indexer.embedded.schema import generation
from indexer.embedded.sql import chunks
from indexer.queries import Page

COUNT_CACHE_LIMIT = 4096
AD_ROTATION_LIMIT = 20_000  # ads held decoded per process (a few kB each); past it, SQL per request

# The stored cards are compact JSON (rows.compact_json): pydantic-core's parser reads them to the same
# dicts as json.loads at a third of the CPU (60 against 160 µs for a page of 48), on every feed page.
decode_card = from_json


class CountCache:
    """Totals by (index generation, query): a page of the same filter counts once until the index
    changes (every write bumps the generation)."""

    def __init__(self) -> None:
        self._cache: dict[tuple[int, str, tuple[Any, ...]], int] = {}

    def clear(self) -> None:
        self._cache.clear()

    def count(
        self, connection: sqlite3.Connection, table: str, where: str, params: Sequence[Any], cap: int | None = None
    ) -> int:
        """Exact, or at most `cap` (text matches: counting a million hits costs more than the page)."""
        key = (generation(connection), f"{table}:{where}:{cap}", tuple(params))
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


def features_by_rids(connection: sqlite3.Connection, rids: Sequence[int]) -> list[MapPoint]:
    points: list[MapPoint] = []
    for chunk in chunks(list(rids), 500):
        rows = connection.execute(
            "SELECT feature, lat, lng FROM tours JOIN tour_cards ON tour_rid = rid "
            f"WHERE rid IN ({','.join('?' * len(chunk))})",
            chunk,
        ).fetchall()
        points += [map_point_of_row(row) for row in rows]
    return points


def map_point_of_row(row: tuple[str, float, float]) -> MapPoint:
    """A stored map feature (JSON) with the tour's position: the feature is decoded into the point."""
    feature: MapPoint = orjson.loads(row[0])  # a map of 500 points decodes 600 KB of JSON
    feature["lat"], feature["lng"] = row[1], row[2]
    return feature


class AdRotation:
    """Every served ad, decoded once per index generation and kept in random-key order. A seed's page
    of candidates is that list rotated at the seed's start, as `feed.ads_page`'s SQL reads them: the
    feed asks on every page, so no query and no JSON decoding per request. Past AD_ROTATION_LIMIT ads
    the SQL answers (memory stays bounded)."""

    def __init__(self) -> None:
        self._held: tuple[int, list[float], list[tuple[int, AdCard]]] | None = None

    def page(self, connection: sqlite3.Connection, limit: int, seed: str) -> Page | None:
        """The page, or None when there are too many ads to hold (the caller asks SQL)."""
        current = generation(connection)
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
