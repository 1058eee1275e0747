"""Writing a fresh index file for a full rebuild, as fast as the machine allows.

- The new file is private until it is swapped in: no journal, no syncs, an exclusive lock, a large
  page cache and memory-mapped reads, and two sorter threads for CREATE INDEX.
- Tours are loaded in one transaction (FTS5 flushes its pending terms at every commit; one big
  flush per FTS_HASH_BYTES instead of one per batch leaves far fewer segments to merge).
- Documents are read and turned into rows on a helper thread while this one writes them: SQLite
  releases the GIL while it inserts and tokenises, so reading the database, building JSON and
  writing the index share the two cores.
- Secondary indexes, the tag key and the tile pyramid are built after the load, from sorted input.
"""

from __future__ import annotations

import queue
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from indexer.documents import TourDocument
from indexer.embedded.rows import TOUR_COLUMNS, card_row, tag_ids, text_row, tour_row
from indexer.phases import PhaseClock

_CELL_AT = [column.strip() for column in TOUR_COLUMNS.split(",")].index("cell")
FTS_HASH_BYTES = 64 << 20  # pending FTS terms held in memory before a segment is written
ROWS_AHEAD = 16  # batches of rows the helper thread may build ahead of the writer
BUILD_PRAGMAS = (
    "journal_mode=OFF",
    "synchronous=OFF",
    "locking_mode=EXCLUSIVE",
    "temp_store=MEMORY",
    "cache_size=-524288",  # 512 MB
    "mmap_size=2147418112",  # the most the stdlib build maps
    "threads=2",
    "secure_delete=OFF",  # the stdlib build turns it on; nothing here is ever deleted
)

T = TypeVar("T")


def open_build_file(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    for pragma in BUILD_PRAGMAS:
        connection.execute(f"PRAGMA {pragma}")
    return connection


@dataclass(slots=True)
class _TourRows:
    """ROWS_PER_INSERT tours as flat parameter lists, one multi-row INSERT per table."""

    count: int = 0
    tours: list[Any] = field(default_factory=list)
    cards: list[Any] = field(default_factory=list)
    texts: list[Any] = field(default_factory=list)
    links: list[Any] = field(default_factory=list)


def load_tours(connection: sqlite3.Connection, docs: Iterable[TourDocument], clock: PhaseClock | None = None) -> int:
    """Insert tours in arrival order as rid 1, 2, … (views order: see schema.py; unlisted ones as
    -1, -2, …) in one transaction. Tag links wait in a temporary table for `finish_tag_tables`.
    The clock gets: `read` (documents from the database, helper thread), `rows` (documents to rows,
    helper thread), `wait` (the writer waiting for rows) and one `insert <table>` per table."""
    clock = clock or PhaseClock()
    connection.execute(f"INSERT INTO tour_text (tour_text, rank) VALUES ('hashsize', {FTS_HASH_BYTES})")
    connection.execute(
        "CREATE TEMP TABLE build_tag_links (tag_id INTEGER NOT NULL, category_id INTEGER NOT NULL, "
        "country TEXT NOT NULL, rid INTEGER NOT NULL, cell INTEGER, lat REAL, lng REAL)"
    )
    statements = _MultiRowInserts()
    count = 0
    connection.execute("BEGIN")
    batches = _row_batches(clock.timed_iteration("read", docs), clock)
    for rows in clock.timed_iteration("wait", in_background(batches, ROWS_AHEAD)):
        with clock.phase("insert tours"):
            connection.execute(statements.sql(_TOUR_INSERT, rows.count), rows.tours)
        with clock.phase("insert cards"):
            connection.execute(statements.sql(_CARD_INSERT, rows.count), rows.cards)
        with clock.phase("insert fts"):
            connection.execute(statements.sql(_TEXT_INSERT, rows.count), rows.texts)
        with clock.phase("insert links"):
            width = _LINK_INSERT[1]
            step = LINKS_PER_INSERT * width
            for start in range(0, len(rows.links), step):
                chunk = rows.links[start : start + step]
                connection.execute(statements.sql(_LINK_INSERT, len(chunk) // width), chunk)
        count += rows.count
    with clock.phase("commit"):
        connection.execute("COMMIT")
    return count


# One statement inserts many rows: the writer then takes the GIL once per statement, not once per
# row as executemany does, so the thread building rows never stalls it (and it never stalls that one).
ROWS_PER_INSERT = 500
_TOUR_INSERT = (f"INSERT INTO tours ({TOUR_COLUMNS}) VALUES ", len(TOUR_COLUMNS.split(",")))
_CARD_INSERT = ("INSERT INTO tour_cards (tour_rid, card, feature) VALUES ", 3)
_TEXT_INSERT = ("INSERT INTO tour_text (rowid, title, body, keys) VALUES ", 4)
_LINK_INSERT = ("INSERT INTO build_tag_links (tag_id, category_id, country, rid, cell, lat, lng) VALUES ", 7)
LINKS_PER_INSERT = 4000  # 28,000 parameters: under SQLite's 32,766 a statement


class _MultiRowInserts:
    def __init__(self) -> None:
        self._cache: dict[tuple[str, int], str] = {}

    def sql(self, insert: tuple[str, int], rows: int) -> str:
        head, width = insert
        key = (head, rows)
        if key not in self._cache:
            self._cache[key] = head + ",".join(["(" + ",".join("?" * width) + ")"] * rows)
        return self._cache[key]


def _row_batches(docs: Iterable[TourDocument], clock: PhaseClock) -> Iterator[_TourRows]:
    rows = _TourRows()
    listed, unlisted = 0, 0
    for doc in docs:
        wall, cpu = time.perf_counter(), time.thread_time()
        # Listed tours are numbered 1, 2, … in arrival (views) order, unlisted ones -1, -2, … (schema.py).
        if doc.unlisted:
            unlisted -= 1
            rid = unlisted
        else:
            listed += 1
            rid = listed
        tour = tour_row(rid, doc)
        rows.tours += tour
        rows.cards += card_row(rid, doc)
        rows.texts += text_row(rid, doc)
        # Each link carries what the tag key and the tag cells sort by, so neither joins `tours`.
        cell, country = tour[_CELL_AT], doc.country or ""
        for tag_id in tag_ids(doc):
            rows.links += (tag_id, doc.category_id, country, rid, cell, doc.lat, doc.lng)
        rows.count += 1
        clock.add("rows", time.perf_counter() - wall, time.thread_time() - cpu)
        if rows.count >= ROWS_PER_INSERT:
            yield rows
            rows = _TourRows()
    if rows.count:
        yield rows


def finish_tag_tables(connection: sqlite3.Connection, clock: PhaseClock | None = None) -> None:
    """Fill the tag key and the tag cells from the staged links, each in its key order: appending to
    a b-tree is several times cheaper than inserting 4 million keys at random places while the tours
    stream in. (pyramid.fill_tag_cells does the same from `tours` for a file already built.)"""
    clock = clock or PhaseClock()
    with clock.phase("tag key"):
        connection.execute(
            "INSERT INTO tour_tags (tag_id, category_id, country, rid) "
            "SELECT tag_id, category_id, country, rid FROM build_tag_links ORDER BY 1, 2, 3, 4"
        )
    with clock.phase("tag cells"):
        connection.execute("DELETE FROM tag_cells")
        connection.execute(
            "INSERT INTO tag_cells (tag_id, cell, rid, category_id, lat, lng) "
            "SELECT tag_id, cell, rid, category_id, lat, lng FROM build_tag_links "
            "WHERE cell IS NOT NULL AND rid > 0 ORDER BY 1, 2, 3"
        )
    connection.execute("DROP TABLE build_tag_links")


def in_background(items: Iterator[T], ahead: int) -> Iterator[T]:
    """Yield what `items` yields, produced on a helper thread up to `ahead` items in advance.
    The producer's exception is raised here; leaving the loop early stops the producer."""
    buffer: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=ahead)
    stop = threading.Event()

    def offer(kind: str, value: Any) -> bool:
        while not stop.is_set():
            try:
                buffer.put((kind, value), timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not offer("item", item):
                    return
            offer("done", None)
        except BaseException as exc:  # noqa: BLE001 - handed to the consuming thread, which raises it
            offer("error", exc)
        finally:
            close = getattr(items, "close", None)
            if close is not None:
                close()

    producer = threading.Thread(target=produce, name="index-build-rows", daemon=True)
    producer.start()
    try:
        while True:
            kind, value = buffer.get()
            if kind == "done":
                return
            if kind == "error":
                raise value
            yield value
    finally:
        stop.set()
        producer.join()
