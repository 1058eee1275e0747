"""The embedded search index: one SQLite file under data/index, laid out for a million tours.

Reads use one connection per thread; writes are serialised by a lock. A full rebuild writes a new
file and swaps it in, so readers never see a half-built index.
"""

from __future__ import annotations

import itertools
import json
import math
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from indexer.cards import ad_card, creator_card
from indexer.documents import AdDocument, CreatorDocument, PlaceDocument, TagDocument, TourDocument
from indexer.embedded.build import finish_tag_key, load_tours, open_build_file
from indexer.embedded.nearby import (
    HAVERSINE_SQL,
    cell_index_for,
    ensure_math_functions,
    haversine_params,
    nearest_ids,
)
from indexer.embedded.rows import (
    INSERT_CARD,
    INSERT_TEXT,
    INSERT_TOUR,
    card_row,
    compact_json,
    fraction,
    tag_ids,
    text_row,
    tour_row,
)
from indexer.embedded.schema import PYRAMID_LEVELS, TABLES, TAG_PYRAMID_LEVELS, index_statements
from indexer.embedded.text import match_expression, words
from indexer.embedded.vectors import (
    FILTER_EXACT_LIMIT,
    FILTER_EXACT_MAX_SHARE,
    HnswVectors,
    VectorSearch,
    exact_ranking,
    read_vectors,
    unit_rows,
    unit_vector,
)
from indexer.geo import MAX_LEVEL, cluster_level, interleave, mercator_xy
from indexer.queries import (
    TEXT_TOTAL_CAP,
    BBox,
    Cluster,
    CreatorQuery,
    FeedQuery,
    MapAnswer,
    MapQuery,
    Page,
    SimilarQuery,
    Sort,
    Suggestion,
    SuggestKind,
    SuggestQuery,
    TourFilter,
    rows_in_window,
    similar_in_window,
)

BATCH = 5000
# Above this many documents in one call, maintain the tile pyramid wholesale instead of per row.
PYRAMID_INCREMENTAL_LIMIT = 500
MAX_CLUSTER_ZOOM = 18
NEAR_SORT_WHOLE_SET = 20_000
# Candidate sets up to this size are read whole and sorted instead of walking a sort index.
CANDIDATE_SORT_LIMIT = 20_000
TEXT_COUNT_CAP = TEXT_TOTAL_CAP  # text totals read "at least 1,000": more than anyone scrolls
VECTOR_DIMENSIONS = 384

ORDER_BY: dict[Sort, str] = {
    Sort.AZ: "title_key ASC, id ASC",
    Sort.ZA: "title_key DESC, id DESC",
    Sort.NEWEST: "created_at DESC, id DESC",
    Sort.LIKES: "likes DESC, id DESC",
    Sort.SAVES: "saves DESC, id DESC",
    Sort.SHARES: "shared DESC, id DESC",
    Sort.VIEWS: "views DESC, id DESC",
    Sort.TRENDING: "trending DESC, id DESC",
    Sort.FAVORITE: "favorite DESC, id DESC",
    Sort.POPULAR: "popular DESC, id DESC",
    Sort.FEATURED: "featured_order ASC, id DESC",
    Sort.RELEVANCE: "views DESC, id DESC",
}

CREATOR_ORDER_BY: dict[Sort, str] = {
    Sort.AZ: "name_key ASC, id ASC",
    Sort.ZA: "name_key DESC, id DESC",
    Sort.NEWEST: "created_at DESC, id DESC",
    Sort.LIKES: "likes DESC, id DESC",
    Sort.VIEWS: "views DESC, id DESC",
    Sort.POPULAR: "followers DESC, id DESC",
    Sort.FAVORITE: "followers DESC, id DESC",
}


class EmbeddedIndex:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.directory.mkdir(parents=True, exist_ok=True)
        self._write_lock = threading.RLock()
        self._local = threading.local()
        self._epoch = 0
        self._count_cache: dict[tuple[int, str, tuple[Any, ...]], int] = {}
        self._vectors: tuple[int, np.ndarray, np.ndarray] | None = None  # (vector change seq, ids, unit vectors)
        self._vector_search = VectorSearch()  # exact or HNSW, see indexer/embedded/vectors.py
        self._ensure_schema(self._connection())

    # ----------------------------------------------------------------- storage

    @property
    def path(self) -> Path:
        pointer = self.directory / "CURRENT"
        name = pointer.read_text().strip() if pointer.exists() else "index.db"
        return self.directory / name

    def _open(self, path: Path) -> sqlite3.Connection:
        connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
        connection.execute("PRAGMA temp_store=MEMORY")
        connection.execute("PRAGMA cache_size=-65536")
        connection.execute("PRAGMA mmap_size=1073741824")
        ensure_math_functions(connection)
        return connection

    def _connection(self) -> sqlite3.Connection:
        cached = getattr(self._local, "connection", None)
        if cached is not None and cached[0] == self._epoch:
            return cached[1]  # type: ignore[no-any-return]
        connection = self._open(self.path)
        self._local.connection = (self._epoch, connection)
        return connection

    def _ensure_schema(self, connection: sqlite3.Connection) -> None:
        with self._write_lock:
            had_tag_tiles = _has_table(connection, "tag_tiles") and _has_table(connection, "tag_cells")
            connection.executescript(TABLES)
            _move_cards_out_of_tours(connection)
            for statement in index_statements():
                connection.execute(statement)
            if not had_tag_tiles and _has_table(connection, "tours"):
                # A file written before the tag pyramid existed: fill it once (seconds at 1M tours)
                # rather than answer tag maps from an empty table until the next rebuild.
                connection.execute("BEGIN IMMEDIATE")
                _fill_tag_cells(connection)
                _rebuild_tag_pyramid(connection)
                connection.execute("COMMIT")

    def _generation(self, connection: sqlite3.Connection) -> int:
        row = connection.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        return int(row[0]) if row else 0

    def _bump_generation(self, connection: sqlite3.Connection) -> None:
        connection.execute(
            "INSERT INTO meta (key, value) VALUES ('generation', '1') "
            "ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
        )

    def health(self) -> str:
        try:
            count = self._connection().execute("SELECT count(*) FROM tours").fetchone()[0]
        except sqlite3.Error as exc:
            return f"error: {exc}"
        return f"ok (embedded, {count} tours)"

    def document_count(self) -> int:
        return int(self._connection().execute("SELECT count(*) FROM tours").fetchone()[0])

    def tour_ids(self) -> set[int]:
        return {row[0] for row in self._connection().execute("SELECT id FROM tours")}

    def reset(self) -> None:
        with self._write_lock:
            connection = self._connection()
            connection.execute("BEGIN IMMEDIATE")
            for table in (
                "tours",
                "tour_cards",
                "tour_tags",
                "tour_text",
                "tiles",
                "tag_tiles",
                "tag_cells",
                "creators",
                "creator_text",
                "ads",
            ):
                connection.execute(f"DELETE FROM {table}")
            for table in ("suggest_items", "suggest_text", "vectors"):
                connection.execute(f"DELETE FROM {table}")
            self._bump_generation(connection)
            connection.execute("COMMIT")
            self._count_cache.clear()
            self._vectors = None

    def rebuild(
        self,
        *,
        tours: Iterable[TourDocument],
        creators: Iterable[CreatorDocument],
        ads: Iterable[AdDocument],
        tags: Iterable[TagDocument],
        places: Iterable[PlaceDocument],
    ) -> dict[str, int]:
        """Build a fresh file (build.py: no journal, one transaction, indexes after the load), then swap
        it in, so readers never see a half-built index. `tours` is consumed on a helper thread."""
        with self._write_lock:
            name = f"index-{int(time.time() * 1000)}.db"
            path = self.directory / name
            connection = open_build_file(path)
            connection.executescript(TABLES)
            vectors = self._read_all_vectors()
            counts = {"tours": load_tours(connection, tours)}
            counts["tags"] = _load_suggestions(connection, (_tag_suggestion(tag) for tag in tags))
            counts["places"] = _load_suggestions(connection, (_place_suggestion(place) for place in places))
            counts["creators"] = self._write_creators(connection, creators)
            counts["ads"] = self._write_ads(connection, ads)
            connection.execute("BEGIN")
            connection.executemany(
                "INSERT INTO vectors (id, vec) SELECT ?, ? WHERE EXISTS (SELECT 1 FROM tours WHERE id = ?)",
                ((tour_id, blob, tour_id) for tour_id, blob in vectors),
            )
            connection.execute("COMMIT")
            finish_tag_key(connection)
            _fill_tag_cells(connection)
            for statement in index_statements():
                connection.execute(statement)
            self._rebuild_pyramid(connection)
            self._bump_generation(connection)
            connection.execute("ANALYZE")
            connection.execute("PRAGMA journal_mode=WAL")
            connection.close()
            old = self.path
            pointer = self.directory / "CURRENT.tmp"
            pointer.write_text(name)
            pointer.replace(self.directory / "CURRENT")
            self._epoch += 1
            self._count_cache.clear()
            self._vectors = None
            if old != path:
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{old}{suffix}").unlink(missing_ok=True)
            return counts

    def _read_all_vectors(self) -> list[tuple[int, bytes]]:
        try:
            return list(self._connection().execute("SELECT id, vec FROM vectors"))
        except sqlite3.Error:
            return []

    # ----------------------------------------------------------------- writing tours

    def upsert_tours(self, docs: Iterable[TourDocument]) -> int:
        count = 0
        with self._write_lock:
            connection = self._connection()
            for batch in _batches(docs, BATCH):
                incremental = len(batch) <= PYRAMID_INCREMENTAL_LIMIT
                connection.execute("BEGIN IMMEDIATE")
                for doc in batch:
                    self._upsert_tour(connection, doc, maintain_pyramid=incremental)
                if not incremental:
                    self._rebuild_pyramid(connection)
                self._bump_generation(connection)
                connection.execute("COMMIT")
                count += len(batch)
            self._count_cache.clear()
        return count

    def _upsert_tour(self, connection: sqlite3.Connection, doc: TourDocument, *, maintain_pyramid: bool) -> None:
        existing = connection.execute(
            "SELECT rid, category_id, cell, lat, lng FROM tours WHERE id = ?", (doc.id,)
        ).fetchone()
        if existing is not None:
            rid = existing[0]
            if maintain_pyramid:
                _pyramid_add(
                    connection, existing[1], existing[2], existing[3], existing[4], _tags_of(connection, rid), -1
                )
            _delete_tour_rows(connection, rid)
        else:
            rid = (connection.execute("SELECT coalesce(max(rid), 0) FROM tours").fetchone()[0]) + 1
        row = tour_row(rid, doc)
        connection.execute(INSERT_TOUR, row)
        connection.execute(INSERT_CARD, card_row(rid, doc))
        connection.executemany(
            "INSERT INTO tour_tags (tag_id, category_id, country, rid) VALUES (?, ?, ?, ?)",
            [(tag_id, doc.category_id, doc.country or "", rid) for tag_id in tag_ids(doc)],
        )
        if row[10] is not None:
            connection.executemany(
                "INSERT INTO tag_cells (tag_id, cell, rid, category_id, lat, lng) VALUES (?, ?, ?, ?, ?, ?)",
                [(tag_id, row[10], rid, doc.category_id, doc.lat, doc.lng) for tag_id in tag_ids(doc)],
            )
        connection.execute(INSERT_TEXT, text_row(rid, doc))
        if maintain_pyramid:
            _pyramid_add(connection, doc.category_id, row[10], doc.lat, doc.lng, tag_ids(doc), +1)

    def delete_tours(self, ids: Sequence[int]) -> None:
        with self._write_lock:
            connection = self._connection()
            connection.execute("BEGIN IMMEDIATE")
            for tour_id in ids:
                existing = connection.execute(
                    "SELECT rid, category_id, cell, lat, lng FROM tours WHERE id = ?", (tour_id,)
                ).fetchone()
                if existing is None:
                    continue
                rid = existing[0]
                _pyramid_add(
                    connection, existing[1], existing[2], existing[3], existing[4], _tags_of(connection, rid), -1
                )
                _delete_tour_rows(connection, rid)
                connection.execute("DELETE FROM vectors WHERE id = ?", (tour_id,))
            self._bump_generation(connection)
            connection.execute("COMMIT")
            self._count_cache.clear()
            self._vectors = None

    def update_counters(self, counters: dict[int, dict[str, float]]) -> None:
        """Counters change often: update the columns and the card in place, no text or geo work."""
        allowed = ("views", "likes", "saves", "shared", "trending", "popular")
        with self._write_lock:
            connection = self._connection()
            connection.execute("BEGIN IMMEDIATE")
            for tour_id, values in counters.items():
                row = connection.execute(
                    "SELECT card, feature, rid FROM tours JOIN tour_cards ON tour_rid = rid WHERE id = ?", (tour_id,)
                ).fetchone()
                if row is None:
                    continue
                changes = {key: value for key, value in values.items() if key in allowed}
                if not changes:
                    continue
                card, feature = json.loads(row[0]), json.loads(row[1])
                for key, value in changes.items():
                    if key in card:
                        card[key] = value
                    if key in feature:
                        feature[key] = value
                assignments = ", ".join(f"{key} = ?" for key in changes)
                # SET sees the old row on its right-hand side, so favorite adds the new values.
                connection.execute(
                    f"UPDATE tours SET {assignments}, favorite = coalesce(?, likes) + coalesce(?, saves) WHERE rid = ?",
                    (*changes.values(), changes.get("likes"), changes.get("saves"), row[2]),
                )
                connection.execute(
                    "UPDATE tour_cards SET card = ?, feature = ? WHERE tour_rid = ?",
                    (compact_json(card), compact_json(feature), row[2]),
                )
            self._bump_generation(connection)
            connection.execute("COMMIT")

    def _rebuild_pyramid(self, connection: sqlite3.Connection) -> None:
        """Group the tours once, at the deepest pyramid level; every coarser level sums the one below
        (a tile's key is its children's key >> 2), which is a few thousand rows instead of a scan."""
        connection.execute("DELETE FROM tiles")
        levels = sorted(PYRAMID_LEVELS, reverse=True)
        shift = 2 * (MAX_LEVEL - levels[0])
        connection.execute(
            "INSERT INTO tiles (level, category_id, key, n, sum_lat, sum_lng) "
            "SELECT ?, category_id, cell >> ?, count(*), sum(lat), sum(lng) FROM tours "
            "WHERE cell IS NOT NULL GROUP BY category_id, cell >> ?",
            (levels[0], shift, shift),
        )
        for finer, level in itertools.pairwise(levels):
            connection.execute(
                "INSERT INTO tiles (level, category_id, key, n, sum_lat, sum_lng) "
                "SELECT ?, category_id, key >> 2, sum(n), sum(sum_lat), sum(sum_lng) FROM tiles "
                "WHERE level = ? GROUP BY category_id, key >> 2",
                (level, finer),
            )
        for level in levels:
            connection.execute(
                "INSERT INTO tiles (level, category_id, key, n, sum_lat, sum_lng) "
                "SELECT level, 0, key, sum(n), sum(sum_lat), sum(sum_lng) FROM tiles "
                "WHERE level = ? GROUP BY key",
                (level,),
            )
        _rebuild_tag_pyramid(connection)

    # ----------------------------------------------------------------- other documents

    def upsert_creators(self, docs: Iterable[CreatorDocument]) -> int:
        with self._write_lock:
            connection = self._connection()
            count = self._write_creators(connection, docs)
            self._count_cache.clear()
            return count

    def _write_creators(self, connection: sqlite3.Connection, docs: Iterable[CreatorDocument]) -> int:
        count = 0
        for batch in _batches(docs, BATCH):
            connection.execute("BEGIN IMMEDIATE")
            for doc in batch:
                existing = connection.execute("SELECT rid FROM creators WHERE id = ?", (doc.id,)).fetchone()
                if existing:
                    connection.execute("DELETE FROM creators WHERE rid = ?", existing)
                    connection.execute("DELETE FROM creator_text WHERE rowid = ?", existing)
                cursor = connection.execute(
                    "INSERT INTO creators (id, user_id, name_key, created_at, followers, views, likes, vt_count, "
                    "countries, categories, card) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        doc.id,
                        doc.user_id,
                        doc.creator_name.lower(),
                        doc.created_at,
                        doc.followers,
                        doc.views,
                        doc.likes,
                        doc.vt_count,
                        _key_list(doc.countries),
                        _key_list(doc.category_ids),
                        json.dumps(creator_card(doc)),
                    ),
                )
                connection.execute(
                    "INSERT INTO creator_text (rowid, name, body) VALUES (?, ?, ?)",
                    (cursor.lastrowid, f"{doc.creator_name} {doc.platform_username or ''}", " ".join(doc.locations)),
                )
                _upsert_suggestion(connection, _creator_suggestion(doc))
            self._bump_generation(connection)
            connection.execute("COMMIT")
            count += len(batch)
        return count

    def delete_creators(self, ids: Sequence[int]) -> None:
        with self._write_lock:
            connection = self._connection()
            connection.execute("BEGIN IMMEDIATE")
            for creator_id in ids:
                existing = connection.execute("SELECT rid FROM creators WHERE id = ?", (creator_id,)).fetchone()
                if existing:
                    connection.execute("DELETE FROM creators WHERE rid = ?", existing)
                    connection.execute("DELETE FROM creator_text WHERE rowid = ?", existing)
                _delete_suggestion(connection, SuggestKind.CREATOR, str(creator_id))
            self._bump_generation(connection)
            connection.execute("COMMIT")
            self._count_cache.clear()

    def upsert_ads(self, docs: Iterable[AdDocument]) -> int:
        with self._write_lock:
            return self._write_ads(self._connection(), docs)

    def _write_ads(self, connection: sqlite3.Connection, docs: Iterable[AdDocument]) -> int:
        rows = [(doc.id, fraction(f"ad:{doc.guid}"), doc.created_at, json.dumps(ad_card(doc))) for doc in docs]
        connection.execute("BEGIN IMMEDIATE")
        connection.executemany(
            "INSERT INTO ads (id, random_key, created_at, card) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET random_key = excluded.random_key, created_at = excluded.created_at, "
            "card = excluded.card",
            rows,
        )
        connection.execute("COMMIT")
        return len(rows)

    def delete_ads(self, ids: Sequence[int]) -> None:
        with self._write_lock:
            connection = self._connection()
            connection.executemany("DELETE FROM ads WHERE id = ?", [(ad_id,) for ad_id in ids])

    def upsert_tags(self, docs: Iterable[TagDocument]) -> int:
        with self._write_lock:
            return self._write_suggestions(self._connection(), (_tag_suggestion(doc) for doc in docs))

    def delete_tags(self, ids: Sequence[int]) -> None:
        with self._write_lock:
            connection = self._connection()
            connection.execute("BEGIN IMMEDIATE")
            for tag_id in ids:
                _delete_suggestion(connection, SuggestKind.TAG, str(tag_id))
            connection.execute("COMMIT")

    def upsert_places(self, docs: Iterable[PlaceDocument]) -> int:
        with self._write_lock:
            return self._write_suggestions(self._connection(), (_place_suggestion(doc) for doc in docs))

    def _write_suggestions(self, connection: sqlite3.Connection, items: Iterable[_SuggestionRow]) -> int:
        count = 0
        for batch in _batches(items, BATCH):
            connection.execute("BEGIN IMMEDIATE")
            for item in batch:
                _upsert_suggestion(connection, item)
            connection.execute("COMMIT")
            count += len(batch)
        return count

    def set_vectors(self, vectors: dict[int, list[float]]) -> None:
        """Store tour embeddings. Unchanged vectors are skipped, so reloading every stored embedding
        (reindex) touches neither the change log nor the HNSW graph."""
        rows = _vector_rows(vectors)
        with self._write_lock:
            connection = self._connection()
            self._vector_search.seq(connection, self._write_lock)  # the change log must exist first
            connection.execute("BEGIN IMMEDIATE")
            changed = _changed_vector_rows(connection, rows)
            connection.executemany("INSERT OR REPLACE INTO vectors (id, vec) VALUES (?, ?)", changed)
            connection.execute("COMMIT")
        if changed:
            self._vector_graph(connection)  # the writer pays for updating the graph, not the next reader

    # ----------------------------------------------------------------- reading

    def feed(self, query: FeedQuery) -> Page:
        # No page past MAX_RESULT_WINDOW, as on Elasticsearch: cut there, the total stays true.
        query = replace(query, limit=rows_in_window(query.offset, query.limit))
        connection = self._connection()
        tour_filter = query.filter
        if query.sort is Sort.FEATURED and not tour_filter.featured_only:
            tour_filter = _with(tour_filter, featured_only=True)
        where, params = _tour_where(tour_filter)
        if query.sort is Sort.NEAR_ME and query.near is not None:
            return self._near_me(connection, tour_filter, where, params, query)
        selective = bool(tour_filter.tags or tour_filter.text)
        if tour_filter.text:
            total = self._text_count(connection, tour_filter)
        else:
            total = self._count(connection, "tours", where, params)
        # A small candidate set (a tag, a search) is cheapest read whole and sorted; a large text
        # match is read in posting-list order, which is popularity order (rid = views rank).
        capped = bool(tour_filter.text) and total >= TEXT_COUNT_CAP
        small = selective and not capped and total <= CANDIDATE_SORT_LIMIT
        if query.sort is Sort.RANDOM:
            rows = self._random_page(connection, where, params, query)
        elif tour_filter.text and not small and query.sort in (Sort.VIEWS, Sort.RELEVANCE):
            rows = self._text_in_popularity_order(connection, tour_filter, query)
        else:
            order = ORDER_BY.get(query.sort, ORDER_BY[Sort.NEWEST])
            order_params: list[Any] = []
            if query.sort is Sort.RELEVANCE and tour_filter.text:
                title_match = match_expression(tour_filter.text, column="title")
                if title_match:
                    order = "rid IN (SELECT rowid FROM tour_text WHERE tour_text MATCH ?) DESC, " + order
                    order_params.append(title_match)
            if small:
                order = _without_index(order)
            rows = connection.execute(
                f"SELECT id, rid FROM tours WHERE {where} ORDER BY {order} LIMIT ? OFFSET ?",
                (*params, *order_params, query.limit, query.offset),
            ).fetchall()
        return _page(connection, rows, total)

    def _text_count(self, connection: sqlite3.Connection, tour_filter: TourFilter) -> int:
        """How many tours match the text and the other filters, counted up to TEXT_COUNT_CAP by
        streaming the posting list (an `IN (MATCH …)` subquery would read every match first)."""
        expression = _text_match(tour_filter)
        if expression is None:
            return 0
        where, params = _tour_where(_without_token_filters(tour_filter))
        if where == "1":  # every indexed tour is listable: the posting list alone counts
            return self._count(connection, "tour_text", "tour_text MATCH ?", (expression,), cap=TEXT_COUNT_CAP)
        return self._count(
            connection,
            "tour_text JOIN tours ON tours.rid = tour_text.rowid",
            f"tour_text MATCH ? AND {where}",
            (expression, *params),
            cap=TEXT_COUNT_CAP,
        )

    def _text_in_popularity_order(
        self, connection: sqlite3.Connection, tour_filter: TourFilter, query: FeedQuery
    ) -> list[Any]:
        expression = _text_match(tour_filter)
        if expression is None:
            return []
        where, params = _tour_where(_without_token_filters(tour_filter))
        return connection.execute(
            "SELECT id, rid FROM tour_text JOIN tours ON tours.rid = tour_text.rowid "
            f"WHERE tour_text MATCH ? AND {where} ORDER BY tour_text.rowid LIMIT ? OFFSET ?",
            (expression, *params, query.limit, query.offset),
        ).fetchall()

    def _count(
        self, connection: sqlite3.Connection, table: str, where: str, params: Sequence[Any], cap: int | None = None
    ) -> int:
        """Exact, or at most `cap` (text matches: counting a million hits costs more than the page)."""
        key = (self._generation(connection), f"{table}:{where}:{cap}", tuple(params))
        cached = self._count_cache.get(key)
        if cached is None:
            if cap is None:
                sql, args = f"SELECT count(*) FROM {table} WHERE {where}", tuple(params)
            else:
                sql, args = f"SELECT count(*) FROM (SELECT 1 FROM {table} WHERE {where} LIMIT ?)", (*params, cap)
            cached = int(connection.execute(sql, args).fetchone()[0])
            if len(self._count_cache) > 4096:
                self._count_cache.clear()
            self._count_cache[key] = cached
        return cached

    def _random_page(
        self, connection: sqlite3.Connection, where: str, params: Sequence[Any], query: FeedQuery
    ) -> list[Any]:
        """A rotation of the stored random key from a seed-derived start: stable for a seed, and
        every row appears exactly once across pages ([start, 1) first, then [0, start))."""
        start = fraction(query.seed or "default")
        first = connection.execute(
            f"SELECT id, rid FROM tours WHERE {where} AND random_key >= ? ORDER BY random_key, id LIMIT ? OFFSET ?",
            (*params, start, query.limit, query.offset),
        ).fetchall()
        if len(first) == query.limit:
            return first
        in_first = self._count(connection, "tours", f"{where} AND random_key >= ?", (*params, start))
        remaining = query.limit - len(first)
        second_offset = max(0, query.offset - in_first)
        second = connection.execute(
            f"SELECT id, rid FROM tours WHERE {where} AND random_key < ? ORDER BY random_key, id LIMIT ? OFFSET ?",
            (*params, start, remaining, second_offset),
        ).fetchall()
        return first + second

    def _near_me(
        self,
        connection: sqlite3.Connection,
        tour_filter: TourFilter,
        where: str,
        params: Sequence[Any],
        query: FeedQuery,
    ) -> Page:
        """Tours by great-circle distance from the visitor (nearby.py), then id descending."""
        assert query.near is not None
        lat, lng = query.near
        located = f"{where} AND lat IS NOT NULL"
        total = self._count(connection, "tours", located, params)
        needed = query.offset + query.limit
        if total > NEAR_SORT_WHOLE_SET and not (tour_filter.tags or tour_filter.text):
            index = cell_index_for(tour_filter.countries, tour_filter.categories)
            nearest = nearest_ids(connection, index=index, where=located, params=params, lat=lat, lng=lng, count=needed)
            page_ids = nearest[query.offset :]
            cards = self._cards_by_ids(connection, page_ids)
            return Page(ids=page_ids, total=total, docs=[cards[tour_id] for tour_id in page_ids])
        box_where, box_params = located, list(params)
        if total > NEAR_SORT_WHOLE_SET:
            # Tags and text filter through subqueries a tile walk would re-run at every probe: widen a
            # 3x3 block of tiles around the visitor until it holds the page, then sort that block.
            for level in (13, 11, 9, 7, 5):
                ranges = _neighbourhood_ranges(lat, lng, level)
                cells = "(" + " OR ".join("cell BETWEEN ? AND ?" for _ in ranges) + ")"
                candidate_where = f"{located} AND {cells}"
                candidate_params = [*params, *(value for cell_range in ranges for value in cell_range)]
                inside = connection.execute(
                    f"SELECT count(*) FROM (SELECT 1 FROM tours WHERE {candidate_where} LIMIT ?)",
                    (*candidate_params, needed),
                ).fetchone()[0]
                if inside >= needed:
                    box_where, box_params = candidate_where, candidate_params
                    break
        rows = connection.execute(
            f"SELECT id, rid FROM tours WHERE {box_where} ORDER BY {HAVERSINE_SQL}, id DESC LIMIT ? OFFSET ?",
            (*box_params, *haversine_params(lat, lng), query.limit, query.offset),
        ).fetchall()
        return _page(connection, rows, total)

    def creators(self, query: CreatorQuery) -> Page:
        connection = self._connection()
        clauses, params = ["1"], []
        if query.text:
            expression = match_expression(query.text.lstrip("@"))
            if expression is None:
                return Page(ids=[], total=0)
            clauses.append("rid IN (SELECT rowid FROM creator_text WHERE creator_text MATCH ?)")
            params.append(expression)
        if query.countries:
            clauses.append("(" + " OR ".join("countries LIKE ?" for _ in query.countries) + ")")
            params.extend(f"%|{code}|%" for code in query.countries)
        if query.categories:
            clauses.append("(" + " OR ".join("categories LIKE ?" for _ in query.categories) + ")")
            params.extend(f"%|{category}|%" for category in query.categories)
        if query.user_ids is not None:
            clauses.append(_in_clause("user_id", query.user_ids, params))
        where = " AND ".join(clauses)
        total = self._count(connection, "creators", where, params)
        order = CREATOR_ORDER_BY.get(query.sort, CREATOR_ORDER_BY[Sort.VIEWS])
        rows = connection.execute(
            f"SELECT id, card FROM creators WHERE {where} ORDER BY {order} LIMIT ? OFFSET ?",
            (*params, rows_in_window(query.offset, query.limit), query.offset),
        ).fetchall()
        return Page(ids=[row[0] for row in rows], total=total, docs=[json.loads(row[1]) for row in rows])

    def ads(self, limit: int, seed: str = "") -> Page:
        start = fraction(seed or "ads")
        rows = (
            self._connection()
            .execute("SELECT id, card FROM ads ORDER BY (random_key - ? + 1.0) % 1.0 LIMIT ?", (start, limit))
            .fetchall()
        )
        return Page(ids=[row[0] for row in rows], total=len(rows), docs=[json.loads(row[1]) for row in rows])

    # ----------------------------------------------------------------- map

    def map_area(self, query: MapQuery) -> MapAnswer:
        connection = self._connection()
        level = cluster_level(query.zoom)
        cells: list[tuple[int, int, float, float]] | None = None
        if _pyramid_can_answer(query.filter) and level in PYRAMID_LEVELS:
            cells = self._pyramid_cells(connection, query, level)
        elif _tag_pyramid_can_answer(query.filter) and level in TAG_PYRAMID_LEVELS:
            cells = self._tag_pyramid_cells(connection, query, level)
        if cells is not None:
            total = sum(cell[1] for cell in cells)
            if total > query.max_points:
                return self._clusters_from_cells(connection, query, level, cells, total)
        if _tag_pyramid_can_answer(query.filter):
            # One tag: the tag's own Morton key holds everything the grouping reads.
            table, where, params = "tag_cells", *_tag_cells_where(query.filter, query.bbox)
        else:
            table, (where, params) = "tours", _tour_where(_with(query.filter, bounds=query.bbox))
            where = f"{where} AND lat IS NOT NULL"
        total = self._count(connection, table, where, params)
        if total <= query.max_points:
            rids = [row[0] for row in connection.execute(f"SELECT rid FROM {table} WHERE {where}", params)]
            return MapAnswer(points=self._features_by_rids(connection, rids), clusters=[], total=total)
        shift = 2 * (MAX_LEVEL - level)
        grouped = connection.execute(
            f"SELECT cell >> ?, count(*), avg(lat), avg(lng), min(rid) FROM {table} WHERE {where} GROUP BY cell >> ?",
            (shift, *params, shift),
        ).fetchall()
        singles = [row[4] for row in grouped if row[1] == 1]
        points = self._features_by_rids(connection, singles)
        clusters = [
            Cluster(
                lat=row[2], lng=row[3], count=row[1], expansion_zoom=_expansion_zoom(level), cell=f"{level}/{row[0]}"
            )
            for row in grouped
            if row[1] > 1
        ]
        return MapAnswer(points=points, clusters=clusters, total=total)

    def _pyramid_cells(
        self, connection: sqlite3.Connection, query: MapQuery, level: int
    ) -> list[tuple[int, int, float, float]]:
        keys = _cell_keys(query.bbox, level)
        categories = query.filter.categories or (0,)
        rows: list[tuple[int, int, float, float]] = []
        for chunk in _chunks(keys, 500):
            rows += connection.execute(
                f"SELECT key, sum(n), sum(sum_lat), sum(sum_lng) FROM tiles WHERE level = ? "
                f"AND category_id IN ({','.join('?' * len(categories))}) AND key IN ({','.join('?' * len(chunk))}) "
                "GROUP BY key HAVING sum(n) > 0",
                (level, *categories, *chunk),
            ).fetchall()
        return rows

    def _tag_pyramid_cells(
        self, connection: sqlite3.Connection, query: MapQuery, level: int
    ) -> list[tuple[int, int, float, float]]:
        keys = _cell_keys(query.bbox, level)
        category_clause, category_params = "1", list[Any]()
        if query.filter.categories:
            category_clause = _in_clause("category_id", query.filter.categories, category_params)
        rows: list[tuple[int, int, float, float]] = []
        for chunk in _chunks(keys, 500):
            rows += connection.execute(
                "SELECT key, sum(n), sum(sum_lat), sum(sum_lng) FROM tag_tiles WHERE level = ? AND tag_id = ? "
                f"AND key IN ({','.join('?' * len(chunk))}) AND {category_clause} GROUP BY key HAVING sum(n) > 0",
                (level, query.filter.tags[0], *chunk, *category_params),
            ).fetchall()
        return rows

    def _clusters_from_cells(
        self,
        connection: sqlite3.Connection,
        query: MapQuery,
        level: int,
        cells: list[tuple[int, int, float, float]],
        total: int,
    ) -> MapAnswer:
        shift = 2 * (MAX_LEVEL - level)
        points: list[dict[str, Any]] = []
        clusters: list[Cluster] = []
        # A tag's lone tour in a wide tile may sit among thousands of others: find it in the tag's key.
        table, where, params = "tours", "1", list[Any]()
        if query.filter.tags:
            table, where, params = "tag_cells", *_tag_cells_where(query.filter, None)
        elif query.filter.categories:
            where = _in_clause("category_id", query.filter.categories, params)
        for key, count, sum_lat, sum_lng in cells:
            if count == 1:
                row = connection.execute(
                    "SELECT feature, tours.lat, tours.lng FROM tours JOIN tour_cards ON tour_rid = tours.rid "
                    f"WHERE tours.rid = (SELECT rid FROM {table} WHERE cell >= ? AND cell < ? AND {where} LIMIT 1)",
                    (key << shift, (key + 1) << shift, *params),
                ).fetchone()
                if row is not None:
                    points.append(_point(row))
                continue
            clusters.append(
                Cluster(
                    lat=sum_lat / count,
                    lng=sum_lng / count,
                    count=count,
                    expansion_zoom=_expansion_zoom(level),
                    cell=f"{level}/{key}",
                )
            )
        return MapAnswer(points=points, clusters=clusters, total=total)

    def _features_by_rids(self, connection: sqlite3.Connection, rids: Sequence[int]) -> list[dict[str, Any]]:
        points: list[dict[str, Any]] = []
        for chunk in _chunks(list(rids), 500):
            rows = connection.execute(
                "SELECT feature, lat, lng FROM tours JOIN tour_cards ON tour_rid = rid "
                f"WHERE rid IN ({','.join('?' * len(chunk))})",
                chunk,
            ).fetchall()
            points += [_point(row) for row in rows]
        return points

    # ----------------------------------------------------------------- search as you type

    def suggest(self, query: SuggestQuery) -> list[Suggestion]:
        text = query.text.strip()
        kinds = query.kinds
        if text.startswith("#"):
            kinds, text = (SuggestKind.TAG,), text[1:]
        elif text.startswith("@"):
            kinds, text = (SuggestKind.CREATOR,), text[1:]
        expression = match_expression(text)
        if expression is None:
            return []
        connection = self._connection()
        found: list[Suggestion] = []
        typed = " ".join(words(text))
        for kind in kinds:
            if kind is SuggestKind.TOUR:
                found += self._suggest_tours(connection, expression, query.limit, typed)
            else:
                found += self._suggest_items(connection, kind, expression, query, typed)
        found.sort(key=lambda item: item.score, reverse=True)
        return found[: query.limit]

    def _suggest_tours(
        self, connection: sqlite3.Connection, expression: str, limit: int, typed: str
    ) -> list[Suggestion]:
        # rowid order is popularity order (rid = views rank at build), so the first hits are the best.
        rows = connection.execute(
            "SELECT t.id, c.card, t.category_id, t.user_id, t.views FROM tour_text "
            "JOIN tours t ON t.rid = tour_text.rowid JOIN tour_cards c ON c.tour_rid = t.rid "
            "WHERE tour_text MATCH ? LIMIT ?",
            (f"title : ({expression})", limit * 3),
        ).fetchall()
        suggestions = []
        for tour_id, card_json, category_id, user_id, views in rows:
            card = json.loads(card_json)
            suggestions.append(
                Suggestion(
                    type=SuggestKind.TOUR,
                    id=str(card.get("guid", tour_id)),
                    text=card.get("title", ""),
                    creator_id=user_id,
                    category=category_id,
                    score=_text_score(card.get("title", ""), typed) + 0.1 * math.log1p(views),
                )
            )
        return suggestions

    def _suggest_items(
        self, connection: sqlite3.Connection, kind: SuggestKind, expression: str, query: SuggestQuery, typed: str
    ) -> list[Suggestion]:
        clauses: list[str] = ["s.kind = ?"]
        params: list[Any] = [kind.value]
        if kind is SuggestKind.TAG and (query.category_id is not None or query.media_type_id is not None):
            topics = []
            if query.category_id is not None:
                topics.append("(s.topic_type = 'category' AND s.topic_id = ?)")
                params.append(query.category_id)
            if query.media_type_id is not None:
                topics.append("(s.topic_type = 'media_type' AND s.topic_id = ?)")
                params.append(query.media_type_id)
            clauses.append("(" + " OR ".join(topics) + ")")
        rows = connection.execute(
            "SELECT s.ref, s.text, s.weight, s.payload FROM suggest_text "
            "JOIN suggest_items s ON s.sid = suggest_text.rowid "
            f"WHERE suggest_text MATCH ? AND {' AND '.join(clauses)} ORDER BY s.weight DESC LIMIT ?",
            (expression, *params, query.limit * 3),
        ).fetchall()
        suggestions = []
        for ref, text, weight, payload_json in rows:
            payload = json.loads(payload_json)
            suggestions.append(
                Suggestion(
                    type=kind,
                    id=ref,
                    text=text,
                    creator_id=payload.get("creator_id"),
                    category=payload.get("category"),
                    bbox=tuple(payload["bbox"]) if payload.get("bbox") else None,  # type: ignore[arg-type]
                    center=tuple(payload["center"]) if payload.get("center") else None,  # type: ignore[arg-type]
                    vt_count=payload.get("vt_count"),
                    score=_text_score(text, typed) + 0.1 * math.log1p(weight),
                )
            )
        return suggestions

    # ----------------------------------------------------------------- vectors

    def similar(self, query: SimilarQuery) -> Page:
        """Nearest tours by cosine similarity: exact below vectors.HNSW_MIN_VECTORS, HNSW above. With a
        filter on a graph, few allowed tours are ranked exactly, many by HNSW and then filtered.
        At most MAX_SIMILAR_RESULTS, as on Elasticsearch."""
        query = replace(query, limit=similar_in_window(query.limit))
        connection = self._connection()
        vector = unit_vector(query.vector)
        exclude = np.unique(np.asarray(query.exclude_ids, dtype=np.int64))
        graph = self._vector_graph(connection)
        if query.filter.is_empty():
            if graph is not None:
                ranked = partial(graph.search, vector, exclude=exclude)
                return self._similar_page(connection, ranked, query, len(graph) - exclude.size)
            ids, matrix = self._vector_matrix(connection)
            mask = ~np.isin(ids, exclude)
            ranked = partial(exact_ranking, ids, matrix, vector, mask=mask)
            return self._similar_page(connection, ranked, query, int(mask.sum()))
        where, params = _tour_where(query.filter)
        allowed_count = self._count(connection, "tours", where, params)
        if allowed_count == 0:
            return Page(ids=[], total=0)
        if graph is not None and allowed_count > min(FILTER_EXACT_LIMIT, FILTER_EXACT_MAX_SHARE * len(graph)):
            ranked = partial(
                graph.search,
                vector,
                exclude=exclude,
                keep=partial(_ids_matching, connection, where=where, params=params),
                share=allowed_count / len(graph),
            )
            return self._similar_page(connection, ranked, query, allowed_count)
        rows = connection.execute(f"SELECT id FROM tours WHERE {where}", params)
        allowed = np.setdiff1d(np.fromiter((row[0] for row in rows), dtype=np.int64), exclude)
        if graph is not None:
            ids, matrix = _unit_vectors_of(connection, allowed)
            mask = np.ones(len(ids), dtype=bool)
        else:
            ids, matrix = self._vector_matrix(connection)
            mask = np.isin(ids, allowed)
        ranked = partial(exact_ranking, ids, matrix, vector, mask=mask)
        return self._similar_page(connection, ranked, query, int(mask.sum()))

    def _similar_page(
        self, connection: sqlite3.Connection, ranking: Callable[[int], list[int]], query: SimilarQuery, total: int
    ) -> Page:
        """The first `limit` ranked tours that have a card: a vector may arrive before its tour is
        indexed, so ask the ranking for more until enough of them are listed. `total` is exact for
        exact search and an estimate for the graph."""
        count = query.limit + 8
        while True:
            ranked = ranking(count)
            cards = self._cards_by_ids(connection, ranked)
            chosen = [tour_id for tour_id in ranked if tour_id in cards][: query.limit]
            if len(chosen) >= query.limit or len(ranked) < count:
                counted = similar_in_window(max(total, len(chosen)))
                return Page(ids=chosen, total=counted, docs=[cards[tour_id] for tour_id in chosen])
            count *= 4

    def _vector_graph(self, connection: sqlite3.Connection) -> HnswVectors | None:
        return self._vector_search.graph(connection, self._write_lock)

    def _vector_matrix(self, connection: sqlite3.Connection) -> tuple[np.ndarray, np.ndarray]:
        """Every stored vector as unit rows, cached until a vector changes (not on counter updates)."""
        seq = self._vector_search.seq(connection, self._write_lock)
        if self._vectors is None or self._vectors[0] != seq:
            batches = list(read_vectors(connection))
            ids = np.concatenate([batch[0] for batch in batches]) if batches else np.zeros(0, dtype=np.int64)
            matrix = (
                unit_rows(np.concatenate([batch[1] for batch in batches]))
                if batches
                else np.zeros((0, VECTOR_DIMENSIONS), dtype=np.float32)
            )
            self._vectors = (seq, ids, matrix)
        return self._vectors[1], self._vectors[2]

    def vector_of(self, tour_id: int) -> list[float] | None:
        row = self._connection().execute("SELECT vec FROM vectors WHERE id = ?", (tour_id,)).fetchone()
        return np.frombuffer(row[0], dtype=np.float32).tolist() if row else None

    def _cards_by_ids(self, connection: sqlite3.Connection, ids: Sequence[int]) -> dict[int, dict[str, Any]]:
        cards: dict[int, dict[str, Any]] = {}
        for chunk in _chunks(list(ids), 500):
            for tour_id, card in connection.execute(
                "SELECT id, card FROM tours JOIN tour_cards ON tour_rid = rid "
                f"WHERE id IN ({','.join('?' * len(chunk))})",
                chunk,
            ):
                cards[tour_id] = json.loads(card)
        return cards


# --------------------------------------------------------------------- helpers


def _page(connection: sqlite3.Connection, rows: Sequence[tuple[int, int]], total: int) -> Page:
    """A page from (id, rid) rows in page order: the cards are read by key once the page is known."""
    cards: dict[int, str] = {}
    for chunk in _chunks([row[1] for row in rows], 500):
        cards.update(
            connection.execute(
                f"SELECT tour_rid, card FROM tour_cards WHERE tour_rid IN ({','.join('?' * len(chunk))})", chunk
            ).fetchall()
        )
    return Page(ids=[row[0] for row in rows], total=total, docs=[json.loads(cards[row[1]]) for row in rows])


def _delete_tour_rows(connection: sqlite3.Connection, rid: int) -> None:
    connection.execute(
        "DELETE FROM tag_cells WHERE tag_id IN (SELECT tag_id FROM tour_tags WHERE rid = ?) "
        "AND cell = (SELECT cell FROM tours WHERE rid = ?) AND rid = ?",
        (rid, rid, rid),
    )
    connection.execute("DELETE FROM tours WHERE rid = ?", (rid,))
    connection.execute("DELETE FROM tour_cards WHERE tour_rid = ?", (rid,))
    connection.execute("DELETE FROM tour_tags WHERE rid = ?", (rid,))
    connection.execute("DELETE FROM tour_text WHERE rowid = ?", (rid,))


def _move_cards_out_of_tours(connection: sqlite3.Connection) -> None:
    """Files written before the cards had their own table carry them in `tours`: move them once."""
    if "card" not in {row[1] for row in connection.execute("PRAGMA table_info(tours)")}:
        return
    connection.execute("BEGIN IMMEDIATE")
    try:
        if "card" in {row[1] for row in connection.execute("PRAGMA table_info(tours)")}:
            connection.execute("INSERT INTO tour_cards (tour_rid, card, feature) SELECT rid, card, feature FROM tours")
            connection.execute("ALTER TABLE tours DROP COLUMN card")
            connection.execute("ALTER TABLE tours DROP COLUMN feature")
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise


def _pyramid_add(
    connection: sqlite3.Connection,
    category_id: int,
    cell: int | None,
    lat: float | None,
    lng: float | None,
    tags: Sequence[int],
    sign: int,
) -> None:
    if cell is None or lat is None or lng is None:
        return
    for level in PYRAMID_LEVELS:
        key = cell >> (2 * (MAX_LEVEL - level))
        for category in (0, category_id):
            connection.execute(
                "INSERT INTO tiles (level, category_id, key, n, sum_lat, sum_lng) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (level, category_id, key) DO UPDATE SET n = n + excluded.n, "
                "sum_lat = sum_lat + excluded.sum_lat, sum_lng = sum_lng + excluded.sum_lng",
                (level, category, key, sign, sign * lat, sign * lng),
            )
    connection.executemany(
        "INSERT INTO tag_tiles (level, tag_id, key, category_id, n, sum_lat, sum_lng) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (level, tag_id, key, category_id) DO UPDATE SET n = n + excluded.n, "
        "sum_lat = sum_lat + excluded.sum_lat, sum_lng = sum_lng + excluded.sum_lng",
        [
            (level, tag_id, cell >> (2 * (MAX_LEVEL - level)), category_id, sign, sign * lat, sign * lng)
            for level in TAG_PYRAMID_LEVELS
            for tag_id in tags
        ],
    )


def _tags_of(connection: sqlite3.Connection, rid: int) -> list[int]:
    return [row[0] for row in connection.execute("SELECT tag_id FROM tour_tags WHERE rid = ?", (rid,))]


def _fill_tag_cells(connection: sqlite3.Connection) -> None:
    connection.execute("DELETE FROM tag_cells")
    connection.execute(
        "INSERT INTO tag_cells (tag_id, cell, rid, category_id, lat, lng) "
        "SELECT tag.tag_id, tours.cell, tag.rid, tag.category_id, tours.lat, tours.lng "
        "FROM tour_tags AS tag JOIN tours ON tours.rid = tag.rid WHERE tours.cell IS NOT NULL ORDER BY 1, 2, 3"
    )


def _rebuild_tag_pyramid(connection: sqlite3.Connection) -> None:
    """As the tile pyramid: group the tag links once at the deepest level, sum each coarser one."""
    connection.execute("DELETE FROM tag_tiles")
    levels = sorted(TAG_PYRAMID_LEVELS, reverse=True)
    shift = 2 * (MAX_LEVEL - levels[0])
    connection.execute(
        "INSERT INTO tag_tiles (level, tag_id, key, category_id, n, sum_lat, sum_lng) "
        "SELECT ?, tag_id, cell >> ?, category_id, count(*), sum(lat), sum(lng) FROM tag_cells "
        "GROUP BY tag_id, cell >> ?, category_id",
        (levels[0], shift, shift),
    )
    for finer, level in itertools.pairwise(levels):
        connection.execute(
            "INSERT INTO tag_tiles (level, tag_id, key, category_id, n, sum_lat, sum_lng) "
            "SELECT ?, tag_id, key >> 2, category_id, sum(n), sum(sum_lat), sum(sum_lng) FROM tag_tiles "
            "WHERE level = ? GROUP BY tag_id, key >> 2, category_id",
            (level, finer),
        )


def _has_table(connection: sqlite3.Connection, name: str) -> bool:
    row = connection.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone()
    return row is not None


def _pyramid_can_answer(tour_filter: TourFilter) -> bool:
    """The pyramid holds counts per category only; any other filter groups live."""
    return _with(tour_filter, categories=()).is_empty()


def _tag_pyramid_can_answer(tour_filter: TourFilter) -> bool:
    """The tag pyramid holds counts per tag and category. Several tags stay live: a tour holding
    two of them would be counted twice by a sum."""
    return len(tour_filter.tags) == 1 and _with(tour_filter, categories=(), tags=()).is_empty()


def _cell_keys(bbox: BBox, level: int) -> list[int]:
    """Morton keys of the cells at `level` that the box touches (about a screenful: a few hundred)."""
    north, south = min(bbox.north, 85.0511), max(bbox.south, -85.0511)
    spans = [(bbox.west, 180.0), (-180.0, bbox.east)] if bbox.crosses_antimeridian() else [(bbox.west, bbox.east)]
    keys: list[int] = []
    for west, east in spans:
        x0, y0 = mercator_xy(north, max(-180.0, west), level)
        x1, y1 = mercator_xy(south, min(180.0, east) - 1e-9, level)
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                keys.append(interleave(x, y))
    return keys


def _expansion_zoom(level: int) -> int:
    return min(level, MAX_CLUSTER_ZOOM)


def _point(row: tuple[str, float, float]) -> dict[str, Any]:
    feature: dict[str, Any] = json.loads(row[0])
    feature["lat"], feature["lng"] = row[1], row[2]
    return feature


def _tour_where(tour_filter: TourFilter) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    for column, values in (
        ("category_id", tour_filter.categories),
        ("subcategory_id", tour_filter.subcategories),
        ("country", tour_filter.countries),
        ("vendor_id", tour_filter.vendors),
        ("media_type_id", tour_filter.media_types),
    ):
        if values:
            clauses.append(_in_clause(column, values, params))
    if tour_filter.user_ids is not None:
        clauses.append(_in_clause("user_id", tour_filter.user_ids, params))
    if tour_filter.tour_ids is not None:
        clauses.append(_in_clause("id", tour_filter.tour_ids, params))
    if (either := tour_filter.saved_or_followed) is not None:
        followed = _in_clause("user_id", either.followed_user_ids, params)
        saved = _in_clause("id", either.saved_tour_ids, params)
        clauses.append(f"({followed} OR {saved})")
    if tour_filter.tags:
        # The tag key (tag, category, country, rid) answers the commonest combinations as one range read.
        tag_params: list[Any] = []
        tag_clauses = [_in_clause("tag_id", tour_filter.tags, tag_params)]
        if tour_filter.categories:
            tag_clauses.append(_in_clause("category_id", tour_filter.categories, tag_params))
        if tour_filter.countries:
            tag_clauses.append(_in_clause("country", tour_filter.countries, tag_params))
        clauses.append(f"rid IN (SELECT rid FROM tour_tags WHERE {' AND '.join(tag_clauses)})")
        params.extend(tag_params)
    if tour_filter.text:
        expression = _text_match(tour_filter)
        if expression is not None:
            clauses.append("rid IN (SELECT rowid FROM tour_text WHERE tour_text MATCH ?)")
            params.append(expression)
    if tour_filter.bounds is not None:
        clauses += _bounds_clauses(tour_filter.bounds, params)
    if tour_filter.featured_only:
        clauses.append("featured_order IS NOT NULL")
    return (" AND ".join(clauses) or "1"), params


def _bounds_clauses(bounds: BBox, params: list[Any]) -> list[str]:
    clauses: list[str] = []
    ranges = _cell_ranges_for_box(bounds)
    if ranges:
        clauses.append("(" + " OR ".join("cell BETWEEN ? AND ?" for _ in ranges) + ")")
        params += [value for cell_range in ranges for value in cell_range]
    clauses.append("lat BETWEEN ? AND ?")
    params += [bounds.south, bounds.north]
    if bounds.crosses_antimeridian():
        clauses.append("(lng >= ? OR lng <= ?)")
    else:
        clauses.append("lng BETWEEN ? AND ?")
    params += [bounds.west, bounds.east]
    return clauses


def _tag_cells_where(tour_filter: TourFilter, bounds: BBox | None) -> tuple[str, list[Any]]:
    """The `tag_cells` conditions of a one-tag filter (with categories, inside `bounds`)."""
    params: list[Any] = [tour_filter.tags[0]]
    clauses = ["tag_id = ?"]
    if tour_filter.categories:
        clauses.append(_in_clause("category_id", tour_filter.categories, params))
    if bounds is not None:
        clauses += _bounds_clauses(bounds, params)
    return " AND ".join(clauses), params


def _in_clause(column: str, values: Sequence[Any], params: list[Any]) -> str:
    if not values:
        return "0"
    params.extend(values)
    return f"{column} IN ({','.join('?' * len(values))})"


def _with(tour_filter: TourFilter, **changes: Any) -> TourFilter:
    return replace(tour_filter, **changes)


def _key_list(values: Iterable[Any]) -> str:
    return "|" + "|".join(str(value) for value in values) + "|"


def _text_score(text: str, typed: str) -> float:
    lowered = text.lower()
    if lowered == typed:
        return 3.0
    if lowered.startswith(typed):
        return 2.0
    return 1.0


def _batches(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    batch: list[Any] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _chunks(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


# --------------------------------------------------------------------- suggestions

_SuggestionRow = tuple[str, str, str, float, str | None, int | None, dict[str, Any]]


def _tag_suggestion(doc: TagDocument) -> _SuggestionRow:
    return ("tag", str(doc.id), doc.name, float(doc.vt_count), doc.topic_type, doc.topic_id, {"vt_count": doc.vt_count})


def _place_suggestion(doc: PlaceDocument) -> _SuggestionRow:
    payload = {"center": [doc.lng, doc.lat], "bbox": list(doc.bbox) if doc.bbox else None, "vt_count": doc.vt_count}
    weight = float(doc.population) + (1e9 if doc.kind == "country" else 0.0)
    return ("place", doc.id, doc.name, weight, None, None, payload)


def _creator_suggestion(doc: CreatorDocument) -> _SuggestionRow:
    payload = {"creator_id": doc.id, "vt_count": doc.vt_count}
    text = doc.creator_name if not doc.platform_username else f"{doc.creator_name} @{doc.platform_username}"
    return ("creator", str(doc.id), text, float(doc.followers * 10 + doc.views), None, None, payload)


def _upsert_suggestion(connection: sqlite3.Connection, item: _SuggestionRow) -> None:
    kind, ref, text, weight, topic_type, topic_id, payload = item
    existing = connection.execute("SELECT sid FROM suggest_items WHERE kind = ? AND ref = ?", (kind, ref)).fetchone()
    if existing:
        connection.execute("DELETE FROM suggest_text WHERE rowid = ?", existing)
        connection.execute(
            "UPDATE suggest_items SET text = ?, weight = ?, topic_type = ?, topic_id = ?, payload = ? WHERE sid = ?",
            (text, weight, topic_type, topic_id, json.dumps(payload), existing[0]),
        )
        sid = existing[0]
    else:
        cursor = connection.execute(
            "INSERT INTO suggest_items (kind, ref, text, weight, topic_type, topic_id, payload) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (kind, ref, text, weight, topic_type, topic_id, json.dumps(payload)),
        )
        sid = cursor.lastrowid
    connection.execute("INSERT INTO suggest_text (rowid, text) VALUES (?, ?)", (sid, text))


def _load_suggestions(connection: sqlite3.Connection, items: Iterable[_SuggestionRow]) -> int:
    """Suggestions of one kind into a file that holds none of that kind yet (a rebuild): the items
    in one statement, then their text rows in another, instead of a lookup and two writes each."""
    rows = [
        (kind, ref, text, weight, topic_type, topic_id, json.dumps(payload))
        for kind, ref, text, weight, topic_type, topic_id, payload in items
    ]
    if not rows:
        return 0
    connection.execute("BEGIN")
    connection.executemany(
        "INSERT INTO suggest_items (kind, ref, text, weight, topic_type, topic_id, payload) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (kind, ref) DO UPDATE SET text = excluded.text, "
        "weight = excluded.weight, topic_type = excluded.topic_type, topic_id = excluded.topic_id, "
        "payload = excluded.payload",
        rows,
    )
    connection.execute(
        "INSERT INTO suggest_text (rowid, text) SELECT sid, text FROM suggest_items WHERE kind = ?", (rows[0][0],)
    )
    connection.execute("COMMIT")
    return len(rows)


def _delete_suggestion(connection: sqlite3.Connection, kind: SuggestKind, ref: str) -> None:
    existing = connection.execute(
        "SELECT sid FROM suggest_items WHERE kind = ? AND ref = ?", (kind.value, ref)
    ).fetchone()
    if existing:
        connection.execute("DELETE FROM suggest_text WHERE rowid = ?", existing)
        connection.execute("DELETE FROM suggest_items WHERE sid = ?", existing)


# --------------------------------------------------------------------- vectors


def _vector_rows(vectors: dict[int, list[float]]) -> list[tuple[int, bytes]]:
    rows = []
    for tour_id, vector in vectors.items():
        array = np.asarray(vector, dtype=np.float32)
        if array.shape != (VECTOR_DIMENSIONS,):
            raise ValueError(f"tour {tour_id}: a vector has {VECTOR_DIMENSIONS} numbers, not {array.size}")
        rows.append((int(tour_id), array.tobytes()))
    return rows


def _changed_vector_rows(connection: sqlite3.Connection, rows: list[tuple[int, bytes]]) -> list[tuple[int, bytes]]:
    stored: dict[int, bytes] = {}
    for chunk in _chunks(rows, 500):
        stored.update(
            connection.execute(
                f"SELECT id, vec FROM vectors WHERE id IN ({','.join('?' * len(chunk))})", [row[0] for row in chunk]
            ).fetchall()
        )
    return [row for row in rows if stored.get(row[0]) != row[1]]


def _ids_matching(connection: sqlite3.Connection, ids: np.ndarray, *, where: str, params: Sequence[Any]) -> np.ndarray:
    """A mask over `ids`: which of these tours pass the filter (checks only the graph's candidates)."""
    passing: set[int] = set()
    for chunk in _chunks([int(tour_id) for tour_id in ids], 500):
        rows = connection.execute(
            f"SELECT id FROM tours WHERE id IN ({','.join('?' * len(chunk))}) AND ({where})", [*chunk, *params]
        )
        passing.update(row[0] for row in rows)
    return np.fromiter((int(tour_id) in passing for tour_id in ids), dtype=bool, count=len(ids))


def _unit_vectors_of(connection: sqlite3.Connection, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The stored vectors of these tours as unit rows (exact, unlike the graph's f16 copies)."""
    batches = list(read_vectors(connection, ids))
    if not batches:
        return np.zeros(0, dtype=np.int64), np.zeros((0, VECTOR_DIMENSIONS), dtype=np.float32)
    return np.concatenate([batch[0] for batch in batches]), unit_rows(np.concatenate([batch[1] for batch in batches]))


def _without_index(order: str) -> str:
    """`views DESC, id DESC` → `+views DESC, +id DESC`: a unary plus keeps SQLite from walking a sort
    index, so it drives the query from the (small) candidate set and sorts that instead."""
    terms = []
    for term in order.split(","):
        term = term.strip()
        terms.append(term if term.startswith(("rid IN", "+")) else f"+{term}")
    return ", ".join(terms)


def _cell_ranges_for_box(bounds: BBox, max_tiles: int = 16) -> list[tuple[int, int]]:
    """Morton ranges (zoom-20 cells) of the tiles covering a box, at the deepest level where the box
    spans at most `max_tiles` tiles; empty when the box is large (then a range scan helps nothing)."""
    if bounds.crosses_antimeridian():
        return []
    for level in range(14, 3, -1):
        x0, y0 = mercator_xy(min(bounds.north, 85.0511), bounds.west, level)
        x1, y1 = mercator_xy(max(bounds.south, -85.0511), bounds.east, level)
        if (x1 - x0 + 1) * (y1 - y0 + 1) <= max_tiles:
            shift = 2 * (MAX_LEVEL - level)
            return _merge_ranges(
                sorted(
                    (interleave(x, y) << shift, ((interleave(x, y) + 1) << shift) - 1)
                    for x in range(x0, x1 + 1)
                    for y in range(y0, y1 + 1)
                )
            )
    return []


def _merge_ranges(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in ranges:
        if merged and start <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _neighbourhood_ranges(lat: float, lng: float, level: int) -> list[tuple[int, int]]:
    """Morton ranges of the 3x3 tiles at `level` centred on the tile holding the point."""
    x, y = mercator_xy(lat, lng, level)
    side = 1 << level
    shift = 2 * (MAX_LEVEL - level)
    keys = {interleave((x + dx) % side, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if 0 <= y + dy < side}
    return _merge_ranges(sorted((key << shift, ((key + 1) << shift) - 1) for key in keys))


# Filters that also live in the FTS index as tokens of the `keys` column, so a text search with
# filters is one posting-list intersection instead of a row check per text match.
_TOKEN_FILTERS = (
    ("categories", "xc"),
    ("subcategories", "xs"),
    ("countries", "xn"),
    ("vendors", "xv"),
    ("media_types", "xm"),
    ("tags", "xt"),
)


def _text_match(tour_filter: TourFilter) -> str | None:
    """The visitor's words in title and body, AND every token filter in the keys column."""
    words_expression = match_expression(tour_filter.text or "", column="{title body}")
    if words_expression is None:
        return None
    parts = [words_expression]
    for field, prefix in _TOKEN_FILTERS:
        values = getattr(tour_filter, field)
        if values:
            alternatives = " OR ".join(f"{prefix}{str(value).lower()}" for value in values)
            parts.append(f"keys : ({alternatives})")
    return " AND ".join(parts)


def _without_token_filters(tour_filter: TourFilter) -> TourFilter:
    return _with(tour_filter, text=None, **{field: () for field, _prefix in _TOKEN_FILTERS})
