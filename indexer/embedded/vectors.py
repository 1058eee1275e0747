"""Vector search for the embedded index: exact (numpy) for small sets, HNSW (usearch) for large ones.

The `vectors` table of the index file stays the truth. An HNSW graph over it is kept in memory,
persisted next to the SQLite file (`<file>.hnsw` plus a `.json` note of how far it reflects the
table) and rebuilt from the table when missing, unreadable or too far behind.

How the graph learns of changes: triggers on `vectors` append every inserted, updated or deleted id
to `vector_log`, whatever wrote it (set_vectors, a tour delete, a reset), and a graph catches up by
re-reading the ids logged after the sequence number it reflects. The log is trimmed up to the last
saved graph; a graph that finds a gap (another process trimmed past it) rebuilds.
"""

from __future__ import annotations

import json
import math
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from usearch.index import Index

from indexer.embedded.locking import WriteLock

DIMENSIONS = 384
# Below this many vectors, brute force is exact and takes a few milliseconds: no graph at all.
HNSW_MIN_VECTORS = 20_000
# A filter that leaves at most this many tours, and at most this share of the graph, is answered
# exactly over their vectors (read from SQLite, ~2.5 µs each); a broader one searches the graph for
# more neighbours and keeps the allowed ones (cheap when they are a good share of the graph).
FILTER_EXACT_LIMIT = 50_000
FILTER_EXACT_MAX_SHARE = 0.1
# Graph parameters chosen by bench/bench_vectors.py on real MiniLM embeddings (recall@10 ≥ 0.95).
CONNECTIVITY = 16
EXPANSION_ADD = 128
EXPANSION_SEARCH = 96
STORAGE_DTYPE = "f16"  # half the memory of f32 at no measurable recall cost on unit vectors
# Save the graph (and trim the log) after this share of changes, at least SAVE_MIN_CHANGES. A graph
# growing from nothing is saved at geometric steps, so writing it costs a few times its size in all;
# a crash loses at most this share, replayed from the log at the next start.
SAVE_FRACTION = 0.2
SAVE_MIN_CHANGES = 2_000
# usearch only marks removed nodes; past this share of removals the graph is rebuilt clean.
REBUILD_REMOVED_FRACTION = 0.25
READ_BATCH = 20_000
FORMAT_VERSION = 1

CHANGE_LOG_SCHEMA = """
CREATE TABLE IF NOT EXISTS vector_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, id INTEGER NOT NULL);
CREATE TRIGGER IF NOT EXISTS vector_log_insert AFTER INSERT ON vectors
    BEGIN INSERT INTO vector_log (id) VALUES (new.id); END;
CREATE TRIGGER IF NOT EXISTS vector_log_update AFTER UPDATE ON vectors
    BEGIN INSERT INTO vector_log (id) VALUES (new.id); END;
CREATE TRIGGER IF NOT EXISTS vector_log_delete AFTER DELETE ON vectors
    BEGIN INSERT INTO vector_log (id) VALUES (old.id); END;
"""


# --------------------------------------------------------------------- the change log


def ensure_change_log(connection: sqlite3.Connection) -> None:
    """Create the log and its triggers (idempotent; a rebuilt index file starts without them)."""
    connection.executescript(CHANGE_LOG_SCHEMA)


def change_seq(connection: sqlite3.Connection) -> int:
    """The sequence number of the last logged change (AUTOINCREMENT keeps it after trims)."""
    row = connection.execute("SELECT seq FROM sqlite_sequence WHERE name = 'vector_log'").fetchone()
    return int(row[0]) if row else 0


def trim_change_log(connection: sqlite3.Connection, through_seq: int) -> None:
    connection.execute("DELETE FROM vector_log WHERE seq <= ?", (through_seq,))


def vector_count(connection: sqlite3.Connection) -> int:
    return int(connection.execute("SELECT count(*) FROM vectors").fetchone()[0])


@contextmanager
def snapshot(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One read transaction, so the sequence number and the rows read agree (WAL snapshot)."""
    connection.execute("BEGIN")
    try:
        yield connection
    finally:
        connection.execute("COMMIT")


# --------------------------------------------------------------------- exact search


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return (matrix / np.where(norms == 0, 1, norms)).astype(np.float32, copy=False)


def unit_vector(vector: list[float] | np.ndarray) -> np.ndarray:
    array = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(array))
    return array / norm if norm else array


def exact_ranking(ids: np.ndarray, matrix: np.ndarray, vector: np.ndarray, count: int, mask: np.ndarray) -> list[int]:
    """The `count` best ids among rows where `mask` holds, best first (matrix rows are unit vectors)."""
    allowed = int(mask.sum())
    if allowed == 0 or count <= 0:
        return []
    scores = matrix @ vector
    if allowed < len(ids):
        scores = np.where(mask, scores, -np.inf)  # cheaper than copying the allowed rows out
    take = min(count, allowed)
    best = np.argpartition(-scores, take - 1)[:take]
    best = best[np.argsort(-scores[best], kind="stable")]
    return [int(tour_id) for tour_id in ids[best]]


def read_vectors(
    connection: sqlite3.Connection, ids: np.ndarray | None = None
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(ids, float32 matrix) batches of the vectors table, all of it or the given ids."""
    if ids is None:
        cursor = connection.execute("SELECT id, vec FROM vectors")
        while rows := cursor.fetchmany(READ_BATCH):
            yield _as_arrays(rows)
        return
    for start in range(0, len(ids), 500):
        chunk = [int(tour_id) for tour_id in ids[start : start + 500]]
        found = connection.execute(
            f"SELECT id, vec FROM vectors WHERE id IN ({','.join('?' * len(chunk))})", chunk
        ).fetchall()
        if found:
            yield _as_arrays(found)


def _as_arrays(rows: list[tuple[int, bytes]]) -> tuple[np.ndarray, np.ndarray]:
    ids = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
    matrix = np.frombuffer(b"".join(row[1] for row in rows), dtype=np.float32).reshape(len(rows), DIMENSIONS)
    return ids, matrix


# --------------------------------------------------------------------- the HNSW graph


class HnswVectors:
    """The HNSW graph of one index file's `vectors` table. Thread-safe: one lock around the graph."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.graph_path = Path(f"{database}.hnsw")
        self.note_path = Path(f"{database}.hnsw.json")
        self._lock = threading.Lock()
        self._graph: Index | None = None
        self._seq = 0  # the last logged change the graph reflects
        self._saved_seq = 0
        self._removed = 0  # nodes removed since the graph was built (usearch keeps them as tombstones)

    def __len__(self) -> int:
        return len(self._graph) if self._graph is not None else 0

    # ---- keeping up with the table

    def refresh(self, connection: sqlite3.Connection) -> int | None:
        """Bring the graph up to the table (loading or building it when needed). Returns the sequence
        number it was saved at when this call saved it, so the caller can trim the log."""
        with self._lock:
            if self._graph is None and not self._load(connection):
                return self._build(connection)
            changed = self._catch_up(connection)
            if self._graph is not None and self._removed > REBUILD_REMOVED_FRACTION * max(1, len(self._graph)):
                return self._build(connection)
            if changed and self._seq - self._saved_seq >= max(SAVE_MIN_CHANGES, SAVE_FRACTION * len(self)):
                return self._save()
            return None

    def _catch_up(self, connection: sqlite3.Connection) -> bool:
        """Apply the logged changes after our sequence number; rebuild when the log has a gap."""
        with snapshot(connection):
            current = change_seq(connection)
            if current == self._seq:
                return False
            first = connection.execute("SELECT min(seq) FROM vector_log WHERE seq > ?", (self._seq,)).fetchone()[0]
            trimmed_past_us = first != self._seq + 1
            changed = np.fromiter(
                (
                    row[0]
                    for row in connection.execute(
                        "SELECT DISTINCT id FROM vector_log WHERE seq > ? AND seq <= ?", (self._seq, current)
                    )
                ),
                dtype=np.int64,
            )
            present = [] if trimmed_past_us else list(read_vectors(connection, changed))
        if trimmed_past_us:
            # Another process saved its graph and trimmed the log past our position: start again.
            self._build(connection)
            return True
        self._apply(changed, present)
        self._seq = current
        return True

    def _apply(self, changed: np.ndarray, present: list[tuple[np.ndarray, np.ndarray]]) -> None:
        assert self._graph is not None
        keys = changed.astype(np.uint64)
        known = keys[self._graph.contains(keys)] if len(keys) else keys
        if len(known):
            # usearch refuses duplicate keys: an update is a remove and an add.
            self._graph.remove(known)
            self._removed += len(known)
        for ids, matrix in present:
            self._graph.add(ids.astype(np.uint64), unit_rows(matrix))

    def _build(self, connection: sqlite3.Connection) -> int:
        graph = _new_graph()
        with snapshot(connection):
            seq = change_seq(connection)
            for ids, matrix in read_vectors(connection):
                graph.add(ids.astype(np.uint64), unit_rows(matrix))
        self._graph, self._seq, self._removed = graph, seq, 0
        return self._save()

    # ---- persistence

    def _save(self) -> int:
        assert self._graph is not None
        # Graph first, note second: a crash in between leaves an older note, and catching up from an
        # older sequence number only re-applies changes (idempotent).
        temporary = self.graph_path.with_suffix(".hnsw.tmp")
        self._graph.save(str(temporary))
        temporary.replace(self.graph_path)
        note = {
            "format": FORMAT_VERSION,
            "seq": self._seq,
            "removed": self._removed,
            "params": _params(),
            "database": self.database.name,
        }
        temporary_note = self.note_path.with_suffix(".json.tmp")
        temporary_note.write_text(json.dumps(note))
        temporary_note.replace(self.note_path)
        self._saved_seq = self._seq
        return self._seq

    def _load(self, connection: sqlite3.Connection) -> bool:
        """Load the persisted graph when it was made with today's parameters and the log still holds
        every change since; False means build."""
        try:
            note = json.loads(self.note_path.read_text())
        except (OSError, ValueError):
            return False
        if note.get("format") != FORMAT_VERSION or note.get("params") != _params() or not self.graph_path.exists():
            return False
        seq = int(note["seq"])
        current = change_seq(connection)
        first = connection.execute("SELECT min(seq) FROM vector_log WHERE seq > ?", (seq,)).fetchone()[0]
        if seq > current or (current > seq and first != seq + 1):
            return False
        try:
            graph = Index.restore(str(self.graph_path))
        except (OSError, RuntimeError, ValueError):
            return False
        if graph is None:
            return False
        _set_expansion_search(graph, EXPANSION_SEARCH)
        self._graph, self._seq, self._saved_seq, self._removed = graph, seq, seq, int(note.get("removed", 0))
        return True

    def discard(self) -> None:
        """Forget the graph and its files (the index fell below the size where a graph pays)."""
        with self._lock:
            self._graph = None
            self._seq = self._saved_seq = self._removed = 0
            for path in (self.graph_path, self.note_path):
                path.unlink(missing_ok=True)

    # ---- searching

    def search(
        self,
        vector: np.ndarray,
        count: int,
        *,
        exclude: np.ndarray,
        keep: Callable[[np.ndarray], np.ndarray] | None = None,
        share: float = 1.0,
    ) -> list[int]:
        """The `count` nearest ids not in `exclude` and, with a filter, for which `keep` (a mask over
        candidate ids) holds; `share` estimates how many ids pass the filter, to size the search.
        The filter is applied after the search, widening it until enough neighbours pass."""
        with self._lock:
            graph = self._graph
            if graph is None or len(graph) == 0 or count <= 0:
                return []
            size = len(graph)
            wanted = math.ceil((count + len(exclude)) / max(share, 1e-6) * (1.5 if keep else 1.0))
            while True:
                k = min(size, wanted)
                _set_expansion_search(graph, max(EXPANSION_SEARCH, k))
                keys = np.asarray(graph.search(vector, k).keys, dtype=np.int64)
                _set_expansion_search(graph, EXPANSION_SEARCH)
                passing = ~np.isin(keys, exclude) if len(exclude) else np.ones(len(keys), dtype=bool)
                if keep is not None and len(keys):
                    passing &= keep(keys)
                if passing.sum() >= count or k >= size:
                    return [int(key) for key in keys[passing][:count]]
                wanted = k * 4

    # ---- figures for the benchmark

    def memory_mb(self) -> float:
        return self._graph.memory_usage / 1e6 if self._graph is not None else 0.0

    def file_mb(self) -> float:
        return self.graph_path.stat().st_size / 1e6 if self.graph_path.exists() else 0.0


def describe() -> str:
    return f"usearch, M={CONNECTIVITY}, ef_add={EXPANSION_ADD}, ef={EXPANSION_SEARCH}, {STORAGE_DTYPE}"


def remove_orphan_graphs(directory: Path) -> None:
    """Delete graphs whose index file is gone (a full rebuild swapped in a new file)."""
    for graph_file in directory.glob("*.hnsw*"):
        database = Path(str(graph_file).split(".hnsw", 1)[0])
        if not database.exists():
            graph_file.unlink(missing_ok=True)


def _new_graph() -> Index:
    return Index(
        ndim=DIMENSIONS,
        metric="ip",
        dtype=STORAGE_DTYPE,
        connectivity=CONNECTIVITY,
        expansion_add=EXPANSION_ADD,
        expansion_search=EXPANSION_SEARCH,
    )


def _params() -> dict[str, Any]:
    return {
        "dimensions": DIMENSIONS,
        "metric": "ip",
        "dtype": STORAGE_DTYPE,
        "connectivity": CONNECTIVITY,
        "expansion_add": EXPANSION_ADD,
    }


def _set_expansion_search(graph: Index, value: int) -> None:
    # usearch's setter is unannotated, so mypy sees a read-only property.
    graph.expansion_search = value  # type: ignore[misc]


# --------------------------------------------------------------------- choosing exact or HNSW


class VectorSearch:
    """Per index adapter: decides whether the vectors of the connection's file are many enough for a
    graph, keeps that graph (one per index file) up to date, and trims the change log it no longer
    needs. The file is read from the connection, so a rebuild swapping files midway cannot mix them."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._graph: HnswVectors | None = None
        self._database: Path | None = None  # the file seen last: a new one means a rebuild swapped it in
        self._logged: set[Path] = set()  # files whose change log and triggers exist
        self._count: tuple[Path, int, int] | None = None  # (file, seq, vectors) cached per change
        self._trimmed: tuple[Path, int] | None = None

    def seq(self, connection: sqlite3.Connection, write_lock: WriteLock) -> int:
        """The file's change sequence number, creating its change log first when needed."""
        database = database_file(connection)
        if database not in self._logged:
            with write_lock:
                ensure_change_log(connection)
            self._logged.add(database)
        return change_seq(connection)

    def graph(self, connection: sqlite3.Connection, write_lock: WriteLock) -> HnswVectors | None:
        """The up-to-date graph of the connection's file, or None while brute force is the better answer."""
        with self._lock:
            seq = self.seq(connection, write_lock)
            database = database_file(connection)
            if database != self._database:
                self._database = database
                self._graph = None
                remove_orphan_graphs(database.parent)
            if self._graph is None:
                if self._vector_count(connection, database, seq) <= HNSW_MIN_VECTORS:
                    self._drop_log(connection, database, seq, write_lock)
                    return None
                self._graph = HnswVectors(database)
            saved_seq = self._graph.refresh(connection)
            if saved_seq is not None:
                with write_lock:
                    trim_change_log(connection, saved_seq)
            if len(self._graph) < HNSW_MIN_VECTORS * 0.9:
                # Shrunk well below the threshold (the margin stops flapping around it).
                self._graph.discard()
                self._graph = None
                return None
            return self._graph

    def _vector_count(self, connection: sqlite3.Connection, database: Path, seq: int) -> int:
        if self._count is None or self._count[:2] != (database, seq):
            self._count = (database, seq, vector_count(connection))
        return self._count[2]

    def _drop_log(self, connection: sqlite3.Connection, database: Path, seq: int, write_lock: WriteLock) -> None:
        """Without a graph nobody reads the log: trim it (and remove a graph file left behind)."""
        if self._trimmed == (database, seq):
            return
        with write_lock:
            trim_change_log(connection, seq)
        for path in (Path(f"{database}.hnsw"), Path(f"{database}.hnsw.json")):
            path.unlink(missing_ok=True)
        self._trimmed = (database, seq)


def database_file(connection: sqlite3.Connection) -> Path:
    """The file behind the connection's main database."""
    for _, name, file in connection.execute("PRAGMA database_list"):
        if name == "main":
            return Path(file)
    raise RuntimeError("the index connection has no main database")
