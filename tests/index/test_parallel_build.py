"""The embedded index's full rebuild writes with two writers on two files (build.py): the index file
takes the tours, the side file the text, tag keys, tag pyramid, creators, ads and suggestions, and
the index file copies the side file's tables in at the end. A rebuilt file must hold what the same
documents written one by one hold, answer the same, and a failure on either side must leave the
index being served as it was, with no side file behind."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from indexer.documents import TourDocument, TourDocumentReader
from indexer.embedded import adapter, build
from indexer.embedded.adapter import EmbeddedIndex
from indexer.embedded.build import SIDE_FTS_TABLES, SIDE_TABLES
from indexer.queries import BBox, FeedQuery, MapQuery, Sort, SuggestQuery, TourFilter
from tests.index.test_contract import ADS, PLACES, TAGS, make_creators, make_tours

# Rows whose order no query depends on: compared as sets of rows.
_PLAIN_TABLES = (
    "tours",
    "tour_cards",
    "tour_tags",
    "tag_cells",
    "creators",
    "ads",
    "suggest_items",
    "suggest_prefixes",
)


def _corpus() -> list[TourDocument]:
    """The contract corpus in the rebuild's order (views descending), every seventh tour unlisted,
    so both sides of the row ids go through the side file."""
    docs = [replace(doc, unlisted=doc.id % 7 == 0) for doc in make_tours()]
    return sorted(docs, key=lambda doc: (-doc.views, -doc.id))


def _rebuilt(directory: Path, docs: list[TourDocument]) -> EmbeddedIndex:
    index = EmbeddedIndex(directory)
    index.rebuild(tours=docs, creators=make_creators(), ads=ADS, tags=TAGS, places=PLACES)
    return index


def _written_one_by_one(directory: Path, docs: list[TourDocument]) -> EmbeddedIndex:
    index = EmbeddedIndex(directory)
    index.upsert_tours(docs)
    # The rebuild's order, so suggestion items get the same row ids.
    index.upsert_tags(TAGS)
    index.upsert_places(PLACES)
    index.upsert_creators(make_creators())
    index.upsert_ads(ADS)
    return index


def _rows(index: EmbeddedIndex, sql: str) -> list[tuple[object, ...]]:
    return sorted(index._connection().execute(sql).fetchall(), key=repr)


def _all_but_versions(index: EmbeddedIndex, table: str) -> str:
    """Every column but `tours.version`: a written row carries its write's generation, a rebuilt one 0."""
    columns = [row[1] for row in index._connection().execute(f"PRAGMA table_info({table})")]
    return f"SELECT {', '.join(name for name in columns if name != 'version')} FROM {table}"


def _pyramid(index: EmbeddedIndex, table: str) -> list[tuple[tuple[object, ...], tuple[float, float]]]:
    """(key columns and count, (sum of latitudes, sum of longitudes)) of every non-empty cell."""
    rows = index._connection().execute(f"SELECT * FROM {table} WHERE n > 0").fetchall()
    return sorted((tuple(row[:-2]), (row[-2], row[-1])) for row in rows)


def _vocabulary(index: EmbeddedIndex, table: str) -> list[tuple[object, ...]]:
    """Every (term, row id, column, offset) the FTS5 table holds."""
    connection = index._connection()
    connection.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{table}_instances USING fts5vocab(main, {table}, instance)"
    )
    return _rows(index, f"SELECT term, doc, col, offset FROM temp.{table}_instances")


def test_a_rebuilt_file_holds_what_writing_one_by_one_holds(tmp_path: Path) -> None:
    docs = _corpus()
    rebuilt = _rebuilt(tmp_path / "rebuilt", docs)
    written = _written_one_by_one(tmp_path / "written", docs)
    for table in _PLAIN_TABLES:
        assert _rows(rebuilt, _all_but_versions(rebuilt, table)) == _rows(written, _all_but_versions(written, table)), (
            table
        )
    for table in SIDE_FTS_TABLES:
        assert _vocabulary(rebuilt, table) == _vocabulary(written, table), table
    # The pyramids: the same cells and counts (the sums of positions may differ in the last bits,
    # added one tour at a time against summed by a GROUP BY).
    for table in ("tiles", "tag_tiles"):
        mine, theirs = _pyramid(rebuilt, table), _pyramid(written, table)
        assert [cell for cell, _sums in mine] == [cell for cell, _sums in theirs], table
        for (_cell, sums), (_same, their_sums) in zip(mine, theirs, strict=True):
            assert sums == pytest.approx(their_sums, rel=1e-9), table
    # Every term a written tour's title and body hold is in the rebuilt term list (which also holds
    # the filter tokens of the keys column).
    terms = {row[0] for row in _rows(rebuilt, "SELECT term FROM text_terms")}
    assert {row[0] for row in _rows(written, "SELECT term FROM text_terms")} <= terms


def _answers(index: EmbeddedIndex) -> Iterator[object]:
    filters = [TourFilter(), TourFilter(categories=(2,)), TourFilter(countries=("FR",), tags=(1,))]
    for text, tour_filter, sort in itertools.product(
        ("castle", "harb", "'castle of", "paris walk", "ca"), filters, (Sort.VIEWS, Sort.RELEVANCE, Sort.AZ)
    ):
        yield index.feed(FeedQuery(filter=replace(tour_filter, text=text), sort=sort, limit=20))
    for tags in ((1,), (2,)):
        for zoom in (2.0, 8.0, 12.0):
            bbox = BBox(-180, -85, 180, 85) if zoom == 2.0 else BBox(2.0, 48.5, 2.7, 49.2)
            yield index.map_area(MapQuery(filter=TourFilter(tags=tags), bbox=bbox, zoom=zoom))
    for typed in ("pa", "cas", "#sun", "@bl", "berl"):
        yield index.suggest(SuggestQuery(text=typed, limit=10))


def test_a_rebuilt_file_answers_like_one_written_one_by_one(tmp_path: Path) -> None:
    docs = _corpus()
    rebuilt = list(_answers(_rebuilt(tmp_path / "rebuilt", docs)))
    written = list(_answers(_written_one_by_one(tmp_path / "written", docs)))
    assert len(rebuilt) == len(written)
    for number, (mine, theirs) in enumerate(zip(rebuilt, written, strict=True)):
        assert mine == theirs or mine == pytest.approx(theirs), number


def test_the_copied_fts_tables_pass_their_integrity_check_and_no_side_file_is_left(tmp_path: Path) -> None:
    index = _rebuilt(tmp_path / "index", _corpus())
    connection = index._connection()
    for table in SIDE_FTS_TABLES:
        connection.execute(f"INSERT INTO {table} ({table}) VALUES ('integrity-check')")
    assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert not list(index.directory.glob("*.side"))
    # Every side table arrived whole: the counts the rebuild wrote are there.
    assert connection.execute("SELECT count(*) FROM tour_tags").fetchone()[0] > 0
    assert all(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0] > 0 for table in SIDE_TABLES)


def _failing_tours(docs: list[TourDocument], after: int) -> Iterator[TourDocument]:
    yield from docs[:after]
    raise RuntimeError("the database went away")


def _failing_creators() -> Iterator[object]:
    yield make_creators()[0]
    raise RuntimeError("creators could not be read")


@pytest.mark.parametrize("side", ["tours", "creators"])
def test_a_failed_rebuild_keeps_the_served_index_and_leaves_no_files(tmp_path: Path, side: str) -> None:
    """A failure while the tours load (the index writer's side), or while the side writer loads the
    creators after it: the rebuild raises it, the index answers as before, no new file stays."""
    docs = _corpus()
    index = _rebuilt(tmp_path / "index", docs)
    before = index.feed(FeedQuery(filter=TourFilter(text="castle"), sort=Sort.VIEWS, limit=50))
    files = sorted(path.name for path in index.directory.iterdir())
    tours = _failing_tours(docs, after=120) if side == "tours" else iter(docs)
    creators = _failing_creators() if side == "creators" else make_creators()
    with pytest.raises(RuntimeError, match=r"went away|could not be read"):
        index.rebuild(tours=tours, creators=creators, ads=ADS, tags=TAGS, places=PLACES)  # type: ignore[arg-type]
    assert index.feed(FeedQuery(filter=TourFilter(text="castle"), sort=Sort.VIEWS, limit=50)) == before
    assert sorted(path.name for path in index.directory.iterdir()) == files
    assert sqlite3.connect(index.path).execute("SELECT count(*) FROM tours").fetchone()[0] == len(docs)


class _RecordingConnection:
    """Records the parameters of each statement instead of running it."""

    def __init__(self) -> None:
        self.statements: list[int] = []

    def execute(self, sql: str, parameters: list[object]) -> None:
        assert sql.count("?") == len(parameters)
        self.statements.append(len(parameters) // 4)


def test_the_side_writer_inserts_the_text_a_fixed_number_of_tours_a_statement() -> None:
    connection = _RecordingConnection()
    statements = build._MultiRowInserts()
    texts: list[object] = []
    arrivals = [500] * 20 + [3000, 7999, 1, 500]  # tours per batch, as the batches arrive
    for number, tours in enumerate(arrivals):
        texts += [0, "title", "body", "keys"] * tours
        last = number == len(arrivals) - 1
        texts = build.insert_text_statements(connection, statements, texts, last=last)  # type: ignore[arg-type]
    step = build.SIDE_ROWS_PER_INSERT
    assert connection.statements == [step] * (sum(arrivals) // step) + [sum(arrivals) % step]
    assert texts == []


def test_two_rebuilds_of_the_same_tours_write_the_same_text_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Statements of a fixed size: FTS5's segments no longer depend on how the threads ran."""
    monkeypatch.setattr(build, "ROWS_PER_INSERT", 3)
    monkeypatch.setattr(build, "SIDE_ROWS_PER_INSERT", 10)
    docs = _corpus()
    first, second = _rebuilt(tmp_path / "first", docs), _rebuilt(tmp_path / "second", docs)
    for table in SIDE_FTS_TABLES:
        rows = f"SELECT * FROM {table}_data ORDER BY id"
        assert _rows(first, rows) == _rows(second, rows)
    segments = first._connection().execute("SELECT count(*) FROM tour_text_data").fetchone()[0]
    assert segments > len(docs) // 10 // 4  # the small statements did write many segments


class _ListReader(TourDocumentReader):
    """Documents only a child process reads: iterating them here fails the test."""

    def __init__(self, docs: list[TourDocument], fail_after: int | None = None, *, here: bool = False) -> None:
        self.docs = docs
        self.fail_after = fail_after
        self.here = here

    def __iter__(self) -> Iterator[TourDocument]:
        if not self.here:
            raise AssertionError("a reader's documents are read in the child process")
        return iter(self.docs)

    def documents(self) -> Iterator[TourDocument]:
        if self.fail_after is None:
            yield from self.docs
            return
        yield from self.docs[: self.fail_after]
        raise RuntimeError("the database went away in the child")


def test_tours_read_in_a_child_process_make_the_same_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build, "ROWS_PER_INSERT", 7)  # the rebuild here in many batches (not the spawned child)
    docs = _corpus()
    monkeypatch.setattr(adapter, "TOURS_PROGRESS_EVERY", 100)
    in_child = EmbeddedIndex(tmp_path / "child")
    lines: list[str] = []
    in_child.rebuild(
        tours=_ListReader(docs), creators=make_creators(), ads=ADS, tags=TAGS, places=PLACES, progress=lines.append
    )
    # The long load shows progress although this process never iterates the documents.
    read = [int(line.split()[1].replace(",", "")) for line in lines if line.startswith("tours ")]
    # (The child, spawned, imports build afresh: its batches are ROWS_PER_INSERT as shipped.)
    assert read and read == sorted(read) and read[-1] <= len(docs) and read[-1] >= len(docs) // 100 * 100
    here = _rebuilt(tmp_path / "here", docs)
    for table in (*_PLAIN_TABLES, "tiles", "tag_tiles", "text_terms"):
        assert _rows(in_child, f"SELECT * FROM {table}") == _rows(here, f"SELECT * FROM {table}"), table
    for table in SIDE_FTS_TABLES:
        assert _vocabulary(in_child, table) == _vocabulary(here, table), table
    assert list(_answers(in_child)) == list(_answers(here))


def test_a_failure_in_the_reading_process_fails_the_rebuild_and_leaves_no_files(tmp_path: Path) -> None:
    docs = _corpus()
    index = _rebuilt(tmp_path / "index", docs)
    before = index.feed(FeedQuery(limit=500))
    files = sorted(path.name for path in index.directory.iterdir())
    with pytest.raises(RuntimeError, match="went away in the child"):
        index.rebuild(
            tours=_ListReader(docs, fail_after=100), creators=make_creators(), ads=ADS, tags=TAGS, places=PLACES
        )
    assert sorted(path.name for path in index.directory.iterdir()) == files
    assert index.feed(FeedQuery(limit=500)) == before


def test_where_no_child_process_may_start_the_reader_is_read_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(_process: object) -> None:
        raise AssertionError("daemonic processes are not allowed to have children")

    monkeypatch.setattr(multiprocessing.get_context("spawn").Process, "start", refuse)
    docs = _corpus()
    index = EmbeddedIndex(tmp_path / "here")
    index.rebuild(tours=_ListReader(docs, here=True), creators=make_creators(), ads=ADS, tags=TAGS, places=PLACES)
    assert list(_answers(index)) == list(_answers(_rebuilt(tmp_path / "list", docs)))


class _ReaderThatCannotStart(_ListReader):
    """The child process dies before its first word, as one does when it cannot import the parent's
    main module."""

    def __setstate__(self, state: dict[str, object]) -> None:
        os._exit(3)


def test_a_reading_process_that_never_starts_leaves_the_reader_to_this_process(tmp_path: Path) -> None:
    docs = _corpus()
    index = EmbeddedIndex(tmp_path / "here")
    index.rebuild(
        tours=_ReaderThatCannotStart(docs, here=True), creators=make_creators(), ads=ADS, tags=TAGS, places=PLACES
    )
    assert list(_answers(index)) == list(_answers(_rebuilt(tmp_path / "list", docs)))
