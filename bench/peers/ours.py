"""The embedded index of a bench corpus opened read-only, so a run never writes into a corpus it
borrows (the lead's 1M corpus): the adapter's connections use a read-only URI and skip the schema
upkeep its constructor does on a writable file."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from indexer.embedded.adapter import EmbeddedIndex
from indexer.embedded.nearby import ensure_math_functions
from indexer.embedded.pages import AdRotation, CountCache, PointCache
from indexer.embedded.similar import TourVectors

READ_PRAGMAS = ("temp_store=MEMORY", "cache_size=-65536", "mmap_size=1073741824")  # as EmbeddedIndex._open


class ReadOnlyIndex(EmbeddedIndex):
    """Pinned to one index file: the peers were loaded from its rows, and a reindex of the corpus
    meanwhile (a new file named by CURRENT) must not change the answers compared."""

    def __init__(self, file: Path) -> None:  # EmbeddedIndex's state, without its writes
        self.file = file
        self.directory = file.parent
        self.identity = "read-only bench"
        self._write_lock = threading.RLock()
        self._local = threading.local()
        self._file_seen: tuple[int, int] | None = None
        self._counts = CountCache()
        self._points = PointCache()
        self._ads = AdRotation()
        self._vectors = TourVectors(self._write_lock)

    @property
    def path(self) -> Path:
        return self.file

    def _open(self, path: Path) -> sqlite3.Connection:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False, isolation_level=None)
        for pragma in READ_PRAGMAS:
            connection.execute(f"PRAGMA {pragma}")
        ensure_math_functions(connection)
        return connection


def open_read_only_index(file: Path) -> ReadOnlyIndex:
    return ReadOnlyIndex(file)
