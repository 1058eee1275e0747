"""The embedded search index: one SQLite file under data/index, laid out for a million tours.

Reads use one connection per thread; writes are serialised by a lock shared with every process that
opens the folder (locking.py). A full rebuild writes a new file and swaps it in (the CURRENT file
names it), so readers never see a half-built index; every process's readers and writers move to the
new file on their next call.

`EmbeddedIndex` is the SearchIndex facade; each concern lives in its own module, along the lines of
the Elasticsearch adapter: writes.py (documents one by one), build.py (the full rebuild's load),
feed.py (the feed planner, creators, ads), pyramid.py (the map and its tile pyramids),
suggestions.py (search as you type), similar.py (vectors and similar tours). The facade holds what
they share: the file, the per-thread connections, the write lock and the cached totals.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from indexer.documents import AdDocument, CreatorDocument, PlaceDocument, TagDocument, TourDocument
from indexer.embedded import writes
from indexer.embedded.build import (
    SideBuild,
    analyze_main_tables,
    copy_side_tables,
    load_tours,
    main_index_statements,
    open_build_file,
    threaded_sorter,
)
from indexer.embedded.counts import rebuild_counts
from indexer.embedded.feed import ads_page, creator_page, tour_page
from indexer.embedded.locking import FolderWriteLock
from indexer.embedded.nearby import ensure_math_functions
from indexer.embedded.pages import AdRotation, CountCache, PointCache
from indexer.embedded.pyramid import area_answer, fill_tag_cells, rebuild_pyramid, rebuild_tag_pyramid
from indexer.embedded.schema import (
    TABLES,
    TAG_PYRAMID_LEVELS,
    bump_generation,
    index_group,
    index_statements,
    note_current_layouts,
    note_pyramid_levels,
    outdated_kinds,
    pyramid_levels_current,
)
from indexer.embedded.similar import TourVectors
from indexer.embedded.suggestions import (
    fill_suggest_prefixes,
    load_suggestions,
    place_suggestion,
    popular_tags,
    suggestions_for,
    tag_suggestion,
    write_suggestions,
)
from indexer.embedded.terms import fill_text_terms
from indexer.embedded.vectors import HnswVectors
from indexer.phases import PhaseClock, report_phases
from indexer.queries import (
    CreatorQuery,
    FeedQuery,
    MapAnswer,
    MapQuery,
    Page,
    SimilarQuery,
    Suggestion,
    SuggestQuery,
    TagPage,
    TagQuery,
)

# Tables a reset empties (the file itself stays).
_DOCUMENT_TABLES = (
    "tours",
    "tour_cards",
    "tour_tags",
    "tour_text",
    "tour_counts",
    "tiles",
    "tag_tiles",
    "tag_cells",
    "creators",
    "creator_text",
    "ads",
    "suggest_items",
    "suggest_text",
    "suggest_prefixes",
    "text_terms",
    "vectors",
)


@dataclass(frozen=True, slots=True)
class _OtherDocuments:
    """What a rebuild loads besides the tours, on the side writer (build.SideBuild)."""

    creators: Iterable[CreatorDocument]
    ads: Iterable[AdDocument]
    tags: Iterable[TagDocument]
    places: Iterable[PlaceDocument]

    def load(self, connection: sqlite3.Connection) -> dict[str, int]:
        return {
            "tags": load_suggestions(connection, (tag_suggestion(tag) for tag in self.tags)),
            "places": load_suggestions(connection, (place_suggestion(place) for place in self.places)),
            "creators": writes.write_creators(connection, self.creators),
            "ads": writes.write_ads(connection, self.ads),
        }


# Names the folder (not the file: a rebuild swaps files), so processes can tell whether they share it.
IDENTITY_FILE = "IDENTITY"


class EmbeddedIndex:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.directory.mkdir(parents=True, exist_ok=True)
        self.identity = folder_identity(directory)
        self._write_lock = FolderWriteLock(directory)
        self._local = threading.local()
        self._file_seen: tuple[int, int] | None = None  # the CURRENT pointer's stamp the caches describe
        self._counts = CountCache()
        self._ads = AdRotation()
        self._points = PointCache()
        self._vectors = TourVectors(self._write_lock)
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

    def _pointer_stamp(self) -> tuple[int, int]:
        """Which file CURRENT names, cheaply: a rebuild (in any process) replaces the pointer file, so
        its inode and time change. A stat is ~1 µs, against reading the file on every call."""
        try:
            stat = os.stat(self.directory / "CURRENT")
        except FileNotFoundError:
            return (0, 0)
        return (stat.st_ino, stat.st_mtime_ns)

    def _connection(self) -> sqlite3.Connection:
        """This thread's connection to the file CURRENT names. Another process's rebuild swaps the
        file under us: the connection then moves to the new file, and the cached totals, map points,
        ads and vectors, which describe the old one, are dropped."""
        stamp = self._pointer_stamp()
        cached = getattr(self._local, "connection", None)
        if cached is not None and cached[0] == stamp:
            return cached[1]  # type: ignore[no-any-return]
        if stamp != self._file_seen:
            self._file_seen = stamp
            self._forget_file_caches()
        if cached is not None:
            cached[1].close()
        connection = self._open(self.path)
        self._local.connection = (stamp, connection)
        return connection

    def _forget_file_caches(self) -> None:
        self._counts.clear()
        self._points.clear()  # row versions start again in a new file
        self._ads = AdRotation()
        self._vectors.forget()

    def _ensure_schema(self, connection: sqlite3.Connection) -> None:
        with self._write_lock:
            had_tag_tiles = writes.has_table(connection, "tag_tiles") and writes.has_table(connection, "tag_cells")
            had_prefixes = writes.has_table(connection, "suggest_prefixes")
            had_terms = writes.has_table(connection, "text_terms")
            had_counts = writes.has_table(connection, "tour_counts")
            new_file = not writes.has_table(connection, "creators")
            connection.executescript(TABLES)
            if new_file:
                note_current_layouts(connection)
            writes.move_cards_out_of_tours(connection)
            writes.add_creator_documents(connection)
            writes.add_tour_versions(connection)
            for statement in index_statements():
                connection.execute(statement)
            if not new_file and not pyramid_levels_current(connection):
                # A file written with other pyramid levels (before the city levels): refill the
                # tiles once (seconds at 1M tours) rather than serve the new levels empty, and drop
                # tag levels that writes no longer keep up to date.
                connection.execute("BEGIN IMMEDIATE")
                rebuild_pyramid(connection, tags_too=False)
                connection.execute(
                    "DELETE FROM tag_tiles WHERE level NOT BETWEEN ? AND ?",
                    (TAG_PYRAMID_LEVELS.start, TAG_PYRAMID_LEVELS.stop - 1),
                )
                note_pyramid_levels(connection)
                connection.execute("COMMIT")
            if not had_tag_tiles and writes.has_table(connection, "tours"):
                # A file written before the tag pyramid existed: fill it once (seconds at 1M tours)
                # rather than answer tag maps from an empty table until the next rebuild.
                connection.execute("BEGIN IMMEDIATE")
                fill_tag_cells(connection)
                rebuild_tag_pyramid(connection)
                connection.execute("COMMIT")
            if not had_counts and not new_file:
                # A file from before the kept counts: group them once (a second at 1M tours), or
                # every total they answer would read zero until a rebuild.
                connection.execute("BEGIN IMMEDIATE")
                rebuild_counts(connection)
                connection.execute("COMMIT")
            if not had_terms and writes.has_table(connection, "tours"):
                # A file from before the term list: fill it from the FTS vocabulary (seconds at 1M).
                connection.execute("BEGIN IMMEDIATE")
                fill_text_terms(connection)
                connection.execute("COMMIT")
            if not had_prefixes and writes.has_table(connection, "suggest_items"):
                # A file from before the prefix table: fill it from the FTS vocabulary (a second at
                # most), or one- and two-letter suggestions would find nothing until a rebuild.
                connection.execute("BEGIN IMMEDIATE")
                fill_suggest_prefixes(connection)
                connection.execute("COMMIT")

    def health(self) -> str:
        try:
            count = self._connection().execute("SELECT count(*) FROM tours").fetchone()[0]
            outdated = self.outdated()
        except sqlite3.Error as exc:
            return f"error: {exc}"
        if outdated:
            return f"layout changed for {', '.join(outdated)}: run a reindex"
        return f"ok (embedded, {count} tours)"

    def outdated(self) -> list[str]:
        return outdated_kinds(self._connection())

    def document_count(self) -> int:
        return int(self._connection().execute("SELECT count(*) FROM tours").fetchone()[0])

    def tour_ids(self) -> set[int]:
        return {row[0] for row in self._connection().execute("SELECT id FROM tours")}

    def creator_document(self, creator_id: int) -> CreatorDocument | None:
        return writes.read_creator(self._connection(), creator_id)

    def reset(self) -> None:
        with self._write_lock:
            connection = self._connection()
            connection.execute("BEGIN IMMEDIATE")
            for table in _DOCUMENT_TABLES:
                connection.execute(f"DELETE FROM {table}")
            note_current_layouts(connection)  # nothing of an older layout is left
            bump_generation(connection)
            connection.execute("COMMIT")
            self._counts.clear()
            self._points.clear()
            self._vectors.forget()

    def rebuild(
        self,
        *,
        tours: Iterable[TourDocument],
        creators: Iterable[CreatorDocument],
        ads: Iterable[AdDocument],
        tags: Iterable[TagDocument],
        places: Iterable[PlaceDocument],
        progress: Callable[[str], None] | None = None,
    ) -> dict[str, int]:
        """Build a fresh file (build.py: no journal, one transaction, indexes after the load, two
        writers on two files), then swap it in, so readers never see a half-built index; a failed
        build leaves no file behind. `tours` is consumed on a helper thread; the other documents are
        read by the side writer once the tours are all read. `progress` hears each phase's time."""
        with self._write_lock:
            name = f"index-{int(time.time() * 1000)}.db"
            path = self.directory / name
            clock = PhaseClock()
            try:
                counts = self._build_file(
                    path, clock, tours, _OtherDocuments(creators, ads, tags, places), tours_read(progress)
                )
            except BaseException:
                path.unlink(missing_ok=True)
                raise
            report_phases(clock, progress)
            old = self.path
            pointer = self.directory / "CURRENT.tmp"
            pointer.write_text(name)
            pointer.replace(self.directory / "CURRENT")
            self._connection()  # this thread moves to the new file and drops the old file's caches
            if old != path:
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{old}{suffix}").unlink(missing_ok=True)
            return counts

    def _build_file(
        self,
        path: Path,
        clock: PhaseClock,
        tours: Iterable[TourDocument],
        others: _OtherDocuments,
        on_rows: Callable[[int], None],
    ) -> dict[str, int]:
        connection = open_build_file(path)
        try:
            connection.executescript(TABLES)
            note_current_layouts(connection)
            vectors = self._read_all_vectors()
            side = SideBuild(path.with_name(f"{path.name}.side"), clock, then=others.load)
            try:
                with clock.phase("load tours"):
                    counts = {"tours": load_tours(connection, tours, side, clock, on_rows)}
                with clock.phase("vectors"):
                    connection.execute("BEGIN")
                    connection.executemany(
                        "INSERT INTO vectors (id, vec) SELECT ?, ? WHERE EXISTS (SELECT 1 FROM tours WHERE id = ?)",
                        ((tour_id, blob, tour_id) for tour_id, blob in vectors),
                    )
                    connection.execute("COMMIT")
                with threaded_sorter(connection):
                    for statement in main_index_statements():
                        with clock.phase(f"index {index_group(statement)}"):
                            connection.execute(statement)
                with clock.phase("counts"):
                    rebuild_counts(connection)
                bump_generation(connection)
                with clock.phase("analyze"):
                    analyze_main_tables(connection)
                with clock.phase("wait for side"):
                    counts.update(side.result())
                with clock.phase("copy side"):
                    copy_side_tables(connection, side.path)
            finally:
                side.close()
            connection.execute("PRAGMA journal_mode=WAL")
        finally:
            connection.close()
        return counts

    def _read_all_vectors(self) -> list[tuple[int, bytes]]:
        try:
            return list(self._connection().execute("SELECT id, vec FROM vectors"))
        except sqlite3.Error:
            return []

    # ----------------------------------------------------------------- writes (writes.py)

    def upsert_tours(self, docs: Iterable[TourDocument]) -> int:
        with self._write_lock:
            count = writes.upsert_tours(self._connection(), docs)
            self._counts.clear()
        return count

    def delete_tours(self, ids: Sequence[int]) -> None:
        with self._write_lock:
            writes.delete_tours(self._connection(), ids)
            self._counts.clear()
            self._vectors.forget()

    def update_counters(self, counters: dict[int, dict[str, float]]) -> None:
        """Counters change often: update the columns and the card in place, no text or geo work."""
        with self._write_lock:
            writes.update_counters(self._connection(), counters)

    def upsert_creators(self, docs: Iterable[CreatorDocument]) -> int:
        with self._write_lock:
            count = writes.write_creators(self._connection(), docs)
            self._counts.clear()
            return count

    def delete_creators(self, ids: Sequence[int]) -> None:
        with self._write_lock:
            writes.delete_creators(self._connection(), ids)
            self._counts.clear()

    def upsert_ads(self, docs: Iterable[AdDocument]) -> int:
        with self._write_lock:
            return writes.write_ads(self._connection(), docs)

    def delete_ads(self, ids: Sequence[int]) -> None:
        with self._write_lock:
            writes.delete_ads(self._connection(), ids)

    def upsert_tags(self, docs: Iterable[TagDocument]) -> int:
        with self._write_lock:
            return write_suggestions(self._connection(), (tag_suggestion(doc) for doc in docs))

    def delete_tags(self, ids: Sequence[int]) -> None:
        with self._write_lock:
            writes.delete_tags(self._connection(), ids)

    def upsert_places(self, docs: Iterable[PlaceDocument]) -> int:
        with self._write_lock:
            return write_suggestions(self._connection(), (place_suggestion(doc) for doc in docs))

    def set_vectors(self, vectors: dict[int, list[float]]) -> None:
        with self._write_lock:  # the connection taken under the lock: a rebuild may swap the file
            self._vectors.store(self._connection(), vectors)

    # ----------------------------------------------------------------- reads

    def feed(self, query: FeedQuery) -> Page:
        return tour_page(self._connection(), self._counts, query)

    def creators(self, query: CreatorQuery) -> Page:
        return creator_page(self._connection(), self._counts, query)

    def ads(self, limit: int, seed: str = "") -> Page:
        connection = self._connection()
        return self._ads.page(connection, limit, seed) or ads_page(connection, limit, seed)

    def map_area(self, query: MapQuery) -> MapAnswer:
        return area_answer(self._connection(), self._counts, self._points, query)

    def suggest(self, query: SuggestQuery) -> list[Suggestion]:
        return suggestions_for(self._connection(), query)

    def popular_tags(self, query: TagQuery) -> TagPage:
        return popular_tags(self._connection(), query)

    def similar(self, query: SimilarQuery) -> Page:
        return self._vectors.similar(self._connection(), self._counts, query)

    def vector_of(self, tour_id: int) -> list[float] | None:
        """One tour's stored vector: for tests and tools that inspect this adapter (not on the port)."""
        return self._vectors.vector_of(self._connection(), tour_id)

    def _vector_graph(self, connection: sqlite3.Connection) -> HnswVectors | None:
        return self._vectors.graph(connection)


TOURS_PROGRESS_EVERY = 50_000


def tours_read(progress: Callable[[str], None] | None) -> Callable[[int], None]:
    """What a long rebuild prints while a child process reads the tours (a line each
    TOURS_PROGRESS_EVERY tours), as the app's reindex prints when it hands the documents over itself."""
    started = time.monotonic()
    next_line = TOURS_PROGRESS_EVERY

    def on_rows(count: int) -> None:
        nonlocal next_line
        if progress is not None and count >= next_line:
            progress(f"tours {count:,} ({time.monotonic() - started:.0f} s)")
            next_line = (count // TOURS_PROGRESS_EVERY + 1) * TOURS_PROGRESS_EVERY

    return on_rows


def folder_identity(directory: Path) -> str:
    """A random name given to the index folder by the first process that opens it, the same for
    every process that opens that folder afterwards. Read once per process: a process whose folder
    was replaced under it still reads the old files, and its identity says so."""
    marker = directory / IDENTITY_FILE
    if not marker.exists():
        # Written aside, then linked into place: link fails when another process got there first,
        # so everybody reads the one complete name.
        draft = directory / f".{IDENTITY_FILE}.{os.getpid()}.{secrets.token_hex(4)}"
        draft.write_text(secrets.token_hex(16))
        try:
            os.link(draft, marker)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return marker.read_text().strip()
