"""Tour vectors in the embedded index: storing embeddings, and ranking tours by cosine similarity to a
query vector (exact below vectors.HNSW_MIN_VECTORS, the HNSW graph of vectors.py above)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np

from indexer.embedded.locking import WriteLock
from indexer.embedded.pages import CountCache, cards_by_ids
from indexer.embedded.sql import chunks, tour_where
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
from indexer.queries import Page, SimilarQuery, similar_in_window

VECTOR_DIMENSIONS = 384


class TourVectors:
    """The vectors of one EmbeddedIndex: the `vectors` table, its HNSW graph and, for exact search,
    every vector as unit rows in memory (cached until a vector changes, not on counter updates)."""

    def __init__(self, write_lock: WriteLock) -> None:
        self._write_lock = write_lock
        self._matrix: tuple[int, np.ndarray, np.ndarray] | None = None  # (vector change seq, ids, unit vectors)
        self._search = VectorSearch()  # exact or HNSW, see indexer/embedded/vectors.py

    def forget(self) -> None:
        """Tours (and so vectors) left or the file was swapped: rebuild the matrix on next use."""
        self._matrix = None

    def store(self, connection: sqlite3.Connection, vectors: dict[int, list[float]]) -> None:
        """Store tour embeddings. Unchanged vectors are skipped, so reloading every stored embedding
        (reindex) touches neither the change log nor the HNSW graph."""
        rows = vector_rows(vectors)
        with self._write_lock:
            self._search.seq(connection, self._write_lock)  # the change log must exist first
            connection.execute("BEGIN IMMEDIATE")
            changed = changed_vector_rows(connection, rows)
            connection.executemany("INSERT OR REPLACE INTO vectors (id, vec) VALUES (?, ?)", changed)
            connection.execute("COMMIT")
        if changed:
            self.graph(connection)  # the writer pays for updating the graph, not the next reader

    def vector_of(self, connection: sqlite3.Connection, tour_id: int) -> list[float] | None:
        """The stored vector of one tour (an inspection of this adapter's storage, not on the port:
        the application reads query vectors from its database)."""
        row = connection.execute("SELECT vec FROM vectors WHERE id = ?", (tour_id,)).fetchone()
        return np.frombuffer(row[0], dtype=np.float32).tolist() if row else None

    def graph(self, connection: sqlite3.Connection) -> HnswVectors | None:
        return self._search.graph(connection, self._write_lock)

    def similar(self, connection: sqlite3.Connection, counts: CountCache, query: SimilarQuery) -> Page:
        """Nearest tours by cosine similarity: exact below vectors.HNSW_MIN_VECTORS, HNSW above. With a
        filter on a graph, few allowed tours are ranked exactly, many by HNSW and then filtered.
        At most MAX_SIMILAR_RESULTS, as on Elasticsearch."""
        query = replace(query, limit=similar_in_window(query.limit))
        vector = unit_vector(query.vector)
        exclude = np.unique(np.asarray(query.exclude_ids, dtype=np.int64))
        graph = self.graph(connection)
        if query.filter.is_empty():
            # Every vector but those of unlisted tours (the negative row ids: a short range read).
            unlisted = [row[0] for row in connection.execute("SELECT id FROM tours WHERE rid < 0")]
            if unlisted:
                exclude = np.union1d(exclude, np.asarray(unlisted, dtype=np.int64))
            if graph is not None:
                ranked = partial(graph.search, vector, exclude=exclude)
                return _similar_page(connection, ranked, query, len(graph) - exclude.size)
            ids, matrix = self._unit_matrix(connection)
            mask = ~np.isin(ids, exclude)
            ranked = partial(exact_ranking, ids, matrix, vector, mask=mask)
            return _similar_page(connection, ranked, query, int(mask.sum()))
        where, params = tour_where(query.filter)
        allowed_count = counts.count(connection, "tours", where, params)
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
            return _similar_page(connection, ranked, query, allowed_count)
        rows = connection.execute(f"SELECT id FROM tours WHERE {where}", params)
        allowed = np.setdiff1d(np.fromiter((row[0] for row in rows), dtype=np.int64), exclude)
        if graph is not None:
            ids, matrix = _unit_vectors_of(connection, allowed)
            mask = np.ones(len(ids), dtype=bool)
        else:
            ids, matrix = self._unit_matrix(connection)
            mask = np.isin(ids, allowed)
        ranked = partial(exact_ranking, ids, matrix, vector, mask=mask)
        return _similar_page(connection, ranked, query, int(mask.sum()))

    def _unit_matrix(self, connection: sqlite3.Connection) -> tuple[np.ndarray, np.ndarray]:
        """Every stored vector as unit rows, cached until a vector changes (not on counter updates)."""
        seq = self._search.seq(connection, self._write_lock)
        if self._matrix is None or self._matrix[0] != seq:
            batches = list(read_vectors(connection))
            ids = np.concatenate([batch[0] for batch in batches]) if batches else np.zeros(0, dtype=np.int64)
            matrix = (
                unit_rows(np.concatenate([batch[1] for batch in batches]))
                if batches
                else np.zeros((0, VECTOR_DIMENSIONS), dtype=np.float32)
            )
            self._matrix = (seq, ids, matrix)
        return self._matrix[1], self._matrix[2]


def _similar_page(
    connection: sqlite3.Connection, ranking: Callable[[int], list[int]], query: SimilarQuery, total: int
) -> Page:
    """The first `limit` ranked tours that have a card: a vector may arrive before its tour is
    indexed, so ask the ranking for more until enough of them are listed. `total` is exact for
    exact search and an estimate for the graph."""
    count = query.limit + 8
    while True:
        ranked = ranking(count)
        cards = cards_by_ids(connection, ranked)
        chosen = [tour_id for tour_id in ranked if tour_id in cards][: query.limit]
        if len(chosen) >= query.limit or len(ranked) < count:
            counted = similar_in_window(max(total, len(chosen)))
            return Page(ids=chosen, total=counted, docs=[cards[tour_id] for tour_id in chosen])
        count *= 4


def vector_rows(vectors: dict[int, list[float]]) -> list[tuple[int, bytes]]:
    rows = []
    for tour_id, vector in vectors.items():
        array = np.asarray(vector, dtype=np.float32)
        if array.shape != (VECTOR_DIMENSIONS,):
            raise ValueError(f"tour {tour_id}: a vector has {VECTOR_DIMENSIONS} numbers, not {array.size}")
        rows.append((int(tour_id), array.tobytes()))
    return rows


def changed_vector_rows(connection: sqlite3.Connection, rows: list[tuple[int, bytes]]) -> list[tuple[int, bytes]]:
    stored: dict[int, bytes] = {}
    for chunk in chunks(rows, 500):
        stored.update(
            connection.execute(
                f"SELECT id, vec FROM vectors WHERE id IN ({','.join('?' * len(chunk))})", [row[0] for row in chunk]
            ).fetchall()
        )
    return [row for row in rows if stored.get(row[0]) != row[1]]


def _ids_matching(connection: sqlite3.Connection, ids: np.ndarray, *, where: str, params: Sequence[Any]) -> np.ndarray:
    """A mask over `ids`: which of these tours pass the filter (checks only the graph's candidates)."""
    passing: set[int] = set()
    for chunk in chunks([int(tour_id) for tour_id in ids], 500):
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
