"""Writing a fresh index file for a full rebuild, as fast as the machine allows.

- The new file is private until it is swapped in: no journal, no syncs, an exclusive lock, a large
  page cache and memory-mapped reads. Sorts (CREATE INDEX, the ORDER BY that fills a key) run in
  `threaded_sorter`: SQLite's sorter uses its worker threads only with temporary files (never under
  temp_store=MEMORY) and only once its keys outgrow a run of the page cache's size, so the cache
  shrinks to SORTER_CACHE_KIB there: sorted runs are written by a worker thread while the scan goes
  on, then merged (also less CPU than one in-memory sort of a million keys).
- Two writers share the work, each on its own thread, connection and file, so both cores write
  (SQLite releases the GIL while it inserts, tokenises and sorts). The index file's writer stores the
  tours and their cards, then builds their keys (sort orders, geo, creators' tours). The side file's
  writer (`SideBuild`) takes each batch's text, tag links and positions, then builds everything else:
  the FTS5 text and its term list, the tag key, tag cells and tag pyramid, the tile pyramid, the
  creators, ads and suggestions. At the end the index file takes the side file's tables whole
  (`copy_side_tables`: SQLite copies their b-tree cells without decoding or re-sorting them).
- Tours are loaded in one transaction (FTS5 flushes its pending terms at every commit; one big
  flush per FTS_HASH_BYTES instead of one per batch leaves far fewer segments to merge).
- Documents are read and turned into rows while the two write them: in a child process when the
  tours come as a `TourDocumentReader` (the app's reindex), else on a third thread. Reading the
  database and building JSON is Python: on a thread it holds the GIL the writers need between their
  statements (~50 s of CPU at a million tours); in a process it costs the writers only unpickling.
- Secondary indexes, the tag key and the tile pyramid are built after the load, from sorted input.
"""

from __future__ import annotations

import itertools
import multiprocessing
import queue
import sqlite3
import threading
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from indexer.documents import TourDocument, TourDocumentReader
from indexer.embedded.pyramid import rebuild_tag_pyramid, rebuild_tiles
from indexer.embedded.rows import TOUR_COLUMNS, card_row, tag_ids, text_row, tour_row
from indexer.embedded.schema import TABLES, index_statements, index_table
from indexer.embedded.terms import fill_text_terms
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

# The page cache while sorting: SQLite writes a sorted run (a "PMA") each time its keys reach the
# cache's size. 4 MB runs: measured on a million rows, a 512 MB cache (one in-memory sort, no thread)
# took ~1.6x the CPU.
SORTER_CACHE_KIB = 4096
SORTER_THREADS = 2

T = TypeVar("T")


def open_build_file(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    for pragma in BUILD_PRAGMAS:
        connection.execute(f"PRAGMA {pragma}")
    return connection


@contextmanager
def threaded_sorter(connection: sqlite3.Connection) -> Generator[None, None, None]:
    """Sort on SORTER_THREADS threads inside the block: temporary files and a small page cache (see
    the module's docstring), both put back after it."""
    (temp_store,) = connection.execute("PRAGMA temp_store").fetchone()
    (cache_size,) = connection.execute("PRAGMA cache_size").fetchone()
    connection.execute("PRAGMA temp_store=FILE")
    connection.execute(f"PRAGMA cache_size=-{SORTER_CACHE_KIB}")
    connection.execute(f"PRAGMA threads={SORTER_THREADS}")
    try:
        yield
    finally:
        connection.execute(f"PRAGMA temp_store={temp_store}")
        connection.execute(f"PRAGMA cache_size={cache_size}")


@dataclass(slots=True)
class _TourRows:
    """ROWS_PER_INSERT tours as flat parameter lists, one multi-row INSERT per table."""

    count: int = 0
    tours: list[Any] = field(default_factory=list)
    cards: list[Any] = field(default_factory=list)
    texts: list[Any] = field(default_factory=list)
    links: list[Any] = field(default_factory=list)
    cells: list[Any] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _SideRows:
    """What the side writer takes of a batch (flat parameter lists): the FTS rows, the tag links and
    the listed, located tours' positions (for the tile pyramid)."""

    count: int
    texts: list[Any]
    links: list[Any]
    cells: list[Any]


def load_tours(
    connection: sqlite3.Connection,
    docs: Iterable[TourDocument],
    side: SideBuild,
    clock: PhaseClock | None = None,
    on_rows: Callable[[int], None] | None = None,
) -> int:
    """Insert tours in arrival order as rid 1, 2, … (views order: see schema.py; unlisted ones as
    -1, -2, …) in one transaction, and hand each batch's text and tag links to the side writer, which
    hears when the last batch is in (and the documents, read on a helper thread, are all read).
    The clock gets: `read` (documents from the database, helper thread), `rows` (documents to rows,
    helper thread), `wait` (this writer waiting for rows) and one `insert <table>` per table.
    `on_rows` hears the number of tours read so far when a child process reads them (the caller
    counts the documents it hands over itself otherwise)."""
    clock = clock or PhaseClock()
    statements = _MultiRowInserts()
    count = 0
    connection.execute("BEGIN")
    if isinstance(docs, TourDocumentReader):
        batches = _rows_from_process(docs, clock, on_rows or (lambda count: None))
    else:
        batches = _row_batches(docs, clock)
    for rows in clock.timed_iteration("wait", in_background(batches, ROWS_AHEAD)):
        with clock.phase("hand to side"):
            side.add(_SideRows(rows.count, rows.texts, rows.links, rows.cells))
        with clock.phase("insert tours"):
            connection.execute(statements.sql(_TOUR_INSERT, rows.count), rows.tours)
        with clock.phase("insert cards"):
            connection.execute(statements.sql(_CARD_INSERT, rows.count), rows.cards)
        count += rows.count
    side.finish()
    with clock.phase("commit"):
        connection.execute("COMMIT")
    return count


# One statement inserts many rows: the writer then takes the GIL once per statement, not once per
# row as executemany does, so the thread building rows never stalls it (and it never stalls that one).
ROWS_PER_INSERT = 500
# The side writer inserts the text of exactly this many tours a statement (insert_text_statements),
# their links as many as arrived (SIDE_ROWS_PER_INSERT x 4 parameters: the most SQLite's default
# limit allows).
SIDE_ROWS_PER_INSERT = 8000
MAX_PARAMETERS = 32_766  # SQLite's default limit a statement (SQLITE_MAX_VARIABLE_NUMBER)
_TOUR_INSERT = (f"INSERT INTO tours ({TOUR_COLUMNS}) VALUES ", len(TOUR_COLUMNS.split(",")))
_CARD_INSERT = ("INSERT INTO tour_cards (tour_rid, card, feature) VALUES ", 3)
_TEXT_INSERT = ("INSERT INTO tour_text (rowid, title, body, keys) VALUES ", 4)
_LINK_INSERT = ("INSERT INTO build_tag_links (tag_id, category_id, country, rid, cell, lat, lng) VALUES ", 7)
_CELL_INSERT = ("INSERT INTO build_cells (rid, id, category_id, cell, lat, lng) VALUES ", 6)
# The staged positions, keyed like `ix_tours_cat_cell` (pyramid.rebuild_tiles says why).
_STAGED_CELLS = (
    "CREATE TABLE build_cells (rid INTEGER PRIMARY KEY, id INTEGER NOT NULL, category_id INTEGER NOT NULL, "
    "cell INTEGER NOT NULL, lat REAL NOT NULL, lng REAL NOT NULL)"
)
_STAGED_CELLS_KEY = "CREATE INDEX ix_build_cells ON build_cells (category_id, cell, lat, lng, id)"


class _MultiRowInserts:
    def __init__(self) -> None:
        self._cache: dict[tuple[str, int], str] = {}

    def sql(self, insert: tuple[str, int], rows: int) -> str:
        head, width = insert
        key = (head, rows)
        if key not in self._cache:
            self._cache[key] = head + ",".join(["(" + ",".join("?" * width) + ")"] * rows)
        return self._cache[key]


def _insert_rows(
    connection: sqlite3.Connection, statements: _MultiRowInserts, insert: tuple[str, int], values: list[Any]
) -> None:
    """Insert flat parameter `values` with as few statements as the parameter limit allows."""
    width = insert[1]
    step = MAX_PARAMETERS // width * width
    for start in range(0, len(values), step):
        chunk = values[start : start + step]
        connection.execute(statements.sql(insert, len(chunk) // width), chunk)


def insert_text_statements(
    connection: sqlite3.Connection, statements: _MultiRowInserts, texts: list[Any], *, last: bool
) -> list[Any]:
    """Insert the FTS rows of `texts` (flat parameters) SIDE_ROWS_PER_INSERT tours a statement, never
    fewer but in the last statement; what is left over (fewer than that) is returned for the next
    call. FTS5 writes its pending terms as segments per statement as well as per FTS_HASH_BYTES: a
    fixed size makes every rebuild of the same tours write the same segments (the same file) whatever
    the threads' timing, and fewer, larger statements take 45.9 -> 34-38 s of FTS CPU at a million."""
    width = _TEXT_INSERT[1]
    step = SIDE_ROWS_PER_INSERT * width
    whole = len(texts) if last else len(texts) - len(texts) % step
    for start in range(0, whole, step):
        chunk = texts[start : start + step]
        connection.execute(statements.sql(_TEXT_INSERT, len(chunk) // width), chunk)
    return texts[whole:]


def _row_batches(docs: Iterable[TourDocument], clock: PhaseClock) -> Iterator[_TourRows]:
    """ROWS_PER_INSERT documents at a time: read (`read`), then turned into rows (`rows`). Timed per
    batch: a thread's CPU clock is a system call, which per document cost a second at a million."""
    documents = iter(docs)
    listed, unlisted = 0, 0
    while True:
        with clock.phase("read"):
            batch = list(itertools.islice(documents, ROWS_PER_INSERT))
        if not batch:
            return
        with clock.phase("rows"):
            rows = _TourRows(count=len(batch))
            for doc in batch:
                # Listed tours are numbered 1, 2, … in arrival (views) order, unlisted ones -1, -2, …
                # (schema.py).
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
                if rid > 0 and cell is not None:  # what the tile pyramid counts
                    rows.cells += (rid, doc.id, doc.category_id, cell, doc.lat, doc.lng)
        yield rows


def _rows_from_process(
    reader: TourDocumentReader, clock: PhaseClock, on_rows: Callable[[int], None]
) -> Iterator[_TourRows]:
    """The batches of `_row_batches` over `reader.documents()`, read and built in a child process
    (started with 'spawn': no copy of this process's threads, locks or database connections) and
    handed over pickled: this process only unpickles flat lists, and the writers keep the GIL to
    themselves. The child's `read` and `rows` phases join the clock at the end. The child's error is
    raised here; leaving early (or an error here) ends the child."""
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_read_rows, args=(reader, sender), name="index-build-read", daemon=True)
    try:
        child.start()
    except (AssertionError, OSError):
        # No child here (a daemonic process, e.g. a Celery prefork worker, may not have one; or no
        # process left): the documents as this process reads them, on the helper thread.
        receiver.close()
        sender.close()
        yield from _row_batches(reader, clock)
        return
    sender.close()  # the child holds the only writing end: its exit ends the pipe
    heard, received = False, 0
    try:
        while True:
            try:
                kind, value = receiver.recv()
            except EOFError:
                if heard:
                    raise RuntimeError("the rebuild's reading process ended before its last rows") from None
                break  # it never started (e.g. a main module without the `__main__` guard spawn needs)
            heard = True
            if kind == "rows":
                received += value[0]
                on_rows(received)
                yield _TourRows(*value)
            elif kind == "done":
                for phase, (wall, cpu) in value.items():
                    clock.add(phase, wall, cpu)
                return
            else:
                raise value
    finally:
        receiver.close()
        if child.is_alive():
            child.terminate()
        child.join()
    # Nothing came from the child: the documents as this process reads them, on the helper thread.
    yield from _row_batches(reader, clock)


def _read_rows(reader: TourDocumentReader, sender: Any) -> None:
    """The child process: every batch of rows, then the phases' times (or the error) to the parent."""
    clock = PhaseClock()
    try:
        for rows in _row_batches(reader.documents(), clock):
            sender.send(("rows", (rows.count, rows.tours, rows.cards, rows.texts, rows.links, rows.cells)))
        sender.send(("done", clock.seconds))
    except BaseException as exc:  # noqa: BLE001 - raised again in the parent
        try:
            sender.send(("error", exc))
        except Exception:  # noqa: BLE001 - an error that does not pickle: its text then
            sender.send(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))
    finally:
        sender.close()


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


# What the side writer fills, copied whole into the index file at the end: plain tables, and the
# FTS5 tables as their shadow tables (FTS5 keeps everything in those).
SIDE_TABLES = (
    "text_terms",
    "tiles",
    "tour_tags",
    "tag_cells",
    "tag_tiles",
    "creators",
    "ads",
    "suggest_items",
    "suggest_prefixes",
)
SIDE_FTS_TABLES = ("tour_text", "creator_text", "suggest_text")
_FTS5_SHADOWS = ("data", "idx", "content", "docsize", "config")
# Batches of text and tag links the index writer may hand over before it waits: enough that it never
# waits for the side writer (which has the longer load: FTS5), and may start its CREATE INDEX phase
# while the side writer catches up (about 0.5 MB a batch).
SIDE_BATCHES_AHEAD = 1000


def side_file_tables() -> tuple[str, ...]:
    """The tables copied from the side file: SIDE_TABLES and the FTS5 tables' shadow tables."""
    return (*SIDE_TABLES, *(f"{table}_{shadow}" for table in SIDE_FTS_TABLES for shadow in _FTS5_SHADOWS))


def side_index_statements() -> list[str]:
    """The secondary indexes of the side writer's tables: built there, copied with their tables."""
    return [statement for statement in index_statements() if index_table(statement) in SIDE_TABLES]


def main_index_statements() -> list[str]:
    """The secondary indexes the index file's writer builds (on `tours`)."""
    return [statement for statement in index_statements() if index_table(statement) not in SIDE_TABLES]


class SideBuild:
    """The rebuild's second writer: a thread with its own connection and file. It takes the text, tag
    links and positions of each batch of tours (`add`) while the index writer stores the tours and
    cards, then builds everything that does not need the `tours` table: the FTS5 text, `text_terms`,
    the tag key and tag cells, the tag and tile pyramids, and what `then` loads (creators, ads,
    suggestions), which may read the database: it starts only after `finish`, when the tour
    documents are all read.
    `result` waits for it; `close` stops it if still running and deletes its file.

    The clock gets the side's phases under their own names: `insert fts`, `insert links`, `text terms`,
    `tag key`, `tag cells`, `tag pyramid`, `pyramid`, `others`, `side indexes`, `side analyze`, and
    `side wait` (waiting for text)."""

    def __init__(self, path: Path, clock: PhaseClock, then: Callable[[sqlite3.Connection], dict[str, int]]) -> None:
        self.path = path
        self._clock = clock
        self._then = then
        self._batches: queue.Queue[_SideRows | None] = queue.Queue(maxsize=SIDE_BATCHES_AHEAD)
        self._stop = threading.Event()
        self._counts: dict[str, int] = {}
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="index-build-side", daemon=True)
        self._thread.start()

    def add(self, rows: _SideRows) -> None:
        self._offer(rows)

    def finish(self) -> None:
        """No more batches: the side writer builds the rest."""
        self._offer(None)

    def result(self) -> dict[str, int]:
        """What `then` counted, once the side file is complete (the side writer's error is raised here)."""
        self._thread.join()
        if self._failure is not None:
            raise self._failure
        return self._counts

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.path.unlink(missing_ok=True)

    def _offer(self, item: _SideRows | None) -> None:
        while True:
            if not self._thread.is_alive():
                # It failed (or was closed): say why now rather than after the whole load.
                raise self._failure or RuntimeError("the rebuild's side writer has stopped")
            try:
                self._batches.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def _take(self) -> tuple[list[Any], list[Any], list[Any], bool]:
        """The text, links and positions of every batch waiting (at least one; up to
        SIDE_ROWS_PER_INSERT tours), and whether the last batch is among them. While the load lasts,
        this thread takes the GIL from the one reading documents once per statement, after waiting
        up to the interpreter's switch interval: the fewer and longer its statements, the less it
        waits."""
        texts: list[Any] = []
        links: list[Any] = []
        cells: list[Any] = []
        count = 0
        rows = self._next(block=True)
        while rows is not None:
            texts += rows.texts
            links += rows.links
            cells += rows.cells
            count += rows.count
            if count >= SIDE_ROWS_PER_INSERT:
                return texts, links, cells, False
            try:
                rows = self._next(block=False)
            except queue.Empty:
                return texts, links, cells, False
        return texts, links, cells, True

    def _next(self, *, block: bool) -> _SideRows | None:
        if not block:
            return self._batches.get_nowait()
        while not self._stop.is_set():
            try:
                return self._batches.get(timeout=0.1)
            except queue.Empty:
                continue
        raise _Stopped

    def _run(self) -> None:
        try:
            connection = open_build_file(self.path)
            try:
                self._build(connection)
            finally:
                connection.close()
        except _Stopped:
            return
        except BaseException as exc:  # noqa: BLE001 - raised on the index writer's thread by result()
            self._failure = exc

    def _build(self, connection: sqlite3.Connection) -> None:
        clock = self._clock
        connection.executescript(TABLES)
        connection.execute(f"INSERT INTO tour_text (tour_text, rank) VALUES ('hashsize', {FTS_HASH_BYTES})")
        connection.execute(
            "CREATE TABLE build_tag_links (tag_id INTEGER NOT NULL, category_id INTEGER NOT NULL, "
            "country TEXT NOT NULL, rid INTEGER NOT NULL, cell INTEGER, lat REAL, lng REAL)"
        )
        connection.execute(_STAGED_CELLS)
        statements = _MultiRowInserts()
        connection.execute("BEGIN")
        finished = False
        texts: list[Any] = []
        while not finished:
            arrived, links, cells, finished = clock.timed_call("side wait", self._take)
            texts += arrived
            with clock.phase("insert fts"):
                texts = insert_text_statements(connection, statements, texts, last=finished)
            with clock.phase("insert links"):
                _insert_rows(connection, statements, _LINK_INSERT, links)
                _insert_rows(connection, statements, _CELL_INSERT, cells)
        with clock.phase("side commit"):
            connection.execute("COMMIT")
        with clock.phase("text terms"):
            connection.execute("BEGIN")
            fill_text_terms(connection)
            connection.execute("COMMIT")
        with threaded_sorter(connection):
            finish_tag_tables(connection, clock)
        with clock.phase("tag pyramid"):
            rebuild_tag_pyramid(connection)
        with clock.phase("pyramid"):
            with threaded_sorter(connection):
                connection.execute(_STAGED_CELLS_KEY)
            rebuild_tiles(connection, "build_cells INDEXED BY ix_build_cells")
            connection.execute("DROP TABLE build_cells")
        with clock.phase("others"):
            self._counts = self._then(connection)
        with clock.phase("side indexes"), threaded_sorter(connection):
            for statement in side_index_statements():
                connection.execute(statement)
        with clock.phase("side analyze"):
            for table in side_file_tables():
                connection.execute(f"ANALYZE {table}")


class _Stopped(Exception):
    """The side writer was closed before it finished."""


def analyze_main_tables(connection: sqlite3.Connection) -> None:
    """The planner's statistics (ANALYZE) of the tables the index writer built; the side writer
    gathers those of its own tables, which `copy_side_tables` brings over with them."""
    side = set(side_file_tables())
    tables = connection.execute(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name"
    ).fetchall()
    for (table,) in tables:
        if table not in side:
            connection.execute(f"ANALYZE {table}")


def copy_side_tables(connection: sqlite3.Connection, side_path: Path) -> None:
    """Fill the index file's side tables (empty until now) from the side file: `INSERT INTO t SELECT *
    FROM side.t` between tables of the same layout is SQLite's transfer optimisation, a copy of each
    b-tree's cells in key order, indexes included (they exist empty here first), without decoding a
    row or sorting a key. The FTS5 tables are copied as their shadow tables, the FTS5 tables' own
    rows as the side file wrote them (their few initial rows are replaced). Their statistics come
    too: call it after `analyze_main_tables`, which creates the statistics table."""
    connection.execute("ATTACH DATABASE ? AS side", (str(side_path),))
    try:
        connection.execute("BEGIN")
        for statement in side_index_statements():
            connection.execute(statement)
        for table in side_file_tables():
            connection.execute(f"DELETE FROM main.{table}")
            connection.execute(f"INSERT INTO main.{table} SELECT * FROM side.{table}")
        connection.execute("INSERT INTO main.sqlite_stat1 SELECT * FROM side.sqlite_stat1")
        connection.execute("COMMIT")
    finally:
        connection.execute("DETACH DATABASE side")


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
