"""The embedded index's kept totals (`tour_counts`, indexer/embedded/counts.py) and the keys of a tag in
a country and of A-Z in a category and a country: the rows writes keep equal the rows a regrouping
gives, the totals they answer count nothing, an older file gets them on opening, and values that
stand for "any" in the rows are counted live. The answers themselves are checked on every adapter in
tests/index/test_contract_totals.py."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from indexer.documents import TourDocument
from indexer.embedded.adapter import EmbeddedIndex
from indexer.embedded.counts import rebuild_counts
from indexer.embedded.pages import CountCache
from indexer.queries import FeedQuery, Sort, TourFilter
from tests.index.test_contract_totals import PARIS, assert_totals, passes, rebuild
from tests.index.test_map_pyramid import scattered_tours

KEPT = [
    TourFilter(),
    TourFilter(categories=(2,)),
    TourFilter(countries=("FR", "JP")),
    TourFilter(categories=(1, 3), countries=("FR", "DE")),
    TourFilter(only_media_types=(1,)),
    TourFilter(categories=(3,), media_types=(1, 2), only_media_types=(1,)),
]


@pytest.fixture
def corpus() -> list[TourDocument]:
    return [replace(doc, unlisted=doc.id % 9 == 0) for doc in scattered_tours()]


@pytest.fixture
def index(tmp_path: Path, corpus: list[TourDocument]) -> Iterator[EmbeddedIndex]:
    index = EmbeddedIndex(tmp_path / "index")
    rebuild(index, corpus)
    yield index


def count_rows(path: Path, *, regrouped: bool = False) -> list[tuple[Any, ...]]:
    """The kept rows that count something (writes leave zeros behind), or those a regrouping gives."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("BEGIN")
        if regrouped:
            rebuild_counts(connection)
        rows = connection.execute(
            "SELECT * FROM tour_counts WHERE n != 0 OR located != 0 ORDER BY category_id, country, media_type_id"
        ).fetchall()
        connection.execute("ROLLBACK")
    finally:
        connection.close()
    return rows


def test_kept_counts_equal_a_regrouping_after_writes(index: EmbeddedIndex, corpus: list[TourDocument]) -> None:
    first, second, third, fourth = [doc for doc in corpus if not doc.unlisted and doc.lat is not None][:4]
    index.upsert_tours(
        [
            replace(first, category_id=4, country="DE", media_type_id=3),
            replace(second, lat=None, lng=None),
            replace(third, unlisted=True),
            replace(fourth, id=70_000, guid="new", country=None, lat=None, lng=None),
        ]
    )
    index.delete_tours([corpus[5].id, corpus[8].id])  # corpus[8] (id 9) is unlisted
    rows = count_rows(index.path)
    assert rows == count_rows(index.path, regrouped=True)
    everything = next(row for row in rows if row[:3] == (0, "*", 0))
    # Listed: one unlisted (third), one added (the new id), one removed (corpus[5]; corpus[8] was unlisted).
    assert everything[3] == sum(1 for doc in corpus if not doc.unlisted) - 1
    assert (0, "", 0, 1, 0) in rows  # the new tour, without a country or a position


def test_kept_totals_count_no_tour(
    index: EmbeddedIndex, corpus: list[TourDocument], monkeypatch: pytest.MonkeyPatch
) -> None:
    def counted(*args: Any, **kwargs: Any) -> int:
        raise AssertionError("counted a total the kept counts hold")

    monkeypatch.setattr(CountCache, "count", counted)
    for tour_filter in KEPT:
        expected = [doc for doc in corpus if passes(doc, tour_filter)]
        assert index.feed(FeedQuery(filter=tour_filter, limit=3)).total == len(expected)
        near = index.feed(FeedQuery(filter=tour_filter, sort=Sort.NEAR_ME, near=PARIS, limit=3))
        assert near.total == sum(1 for doc in expected if doc.lat is not None)


def test_a_tag_in_a_country_is_counted_in_the_tag_key(index: EmbeddedIndex, corpus: list[TourDocument]) -> None:
    statements: list[str] = []
    connection = index._connection()
    connection.set_trace_callback(statements.append)
    try:
        page = index.feed(FeedQuery(filter=TourFilter(countries=("FR",), tags=(1,)), limit=3))
    finally:
        connection.set_trace_callback(None)
    assert page.total == sum(1 for doc in corpus if passes(doc, TourFilter(countries=("FR",), tags=(1,))))
    count = next(sql for sql in statements if "count(*)" in sql)
    plan = " ".join(row[3] for row in connection.execute(f"EXPLAIN QUERY PLAN {count}"))
    assert plan == "SEARCH tour_tags USING COVERING INDEX ix_tour_tags_country (tag_id=? AND country=? AND rid>?)"


@pytest.mark.parametrize("sort", [Sort.AZ, Sort.ZA, Sort.NEWEST, Sort.VIEWS])
def test_only_titles_in_one_category_and_country_seek_their_key(index: EmbeddedIndex, sort: Sort) -> None:
    """The key is partial on a term only A-Z / Z-A in one category and one country write: the other
    sorts keep walking their own keys."""
    statements: list[str] = []
    connection = index._connection()
    connection.set_trace_callback(statements.append)
    try:
        for tour_filter in (TourFilter(categories=(1,), countries=("FR",)), TourFilter(categories=(1, 2))):
            index.feed(FeedQuery(filter=tour_filter, sort=sort, limit=3))
    finally:
        connection.set_trace_callback(None)
    pages = [sql for sql in statements if sql.startswith("SELECT id, rid FROM tours")]
    plans = [" ".join(row[3] for row in connection.execute(f"EXPLAIN QUERY PLAN {sql}")) for sql in pages]
    uses_key = ["ix_tours_cat_country_title_key" in plan for plan in plans]
    assert uses_key == [sort in (Sort.AZ, Sort.ZA), False]


def test_a_file_from_before_the_kept_counts_gets_them_on_opening(
    index: EmbeddedIndex, corpus: list[TourDocument]
) -> None:
    connection = sqlite3.connect(index.path)
    connection.execute("DROP TABLE tour_counts")
    connection.execute("UPDATE meta SET value = '2' WHERE key = 'layout.tours'")
    connection.commit()
    connection.close()
    reopened = EmbeddedIndex(index.directory)
    assert reopened.outdated() == ["tours"]  # the new keys want a rebuild's planner statistics
    assert_totals(reopened, corpus)
    rebuild(reopened, corpus)
    assert reopened.outdated() == []


@pytest.mark.parametrize(
    "tour_filter",
    [
        TourFilter(countries=("*",)),
        TourFilter(countries=("",)),
        TourFilter(categories=(0,)),
        TourFilter(categories=(2,), media_types=(0,)),
        TourFilter(only_media_types=(0, 1)),
    ],
)
def test_values_that_stand_for_any_in_the_kept_rows_are_counted_live(
    index: EmbeddedIndex, corpus: list[TourDocument], tour_filter: TourFilter
) -> None:
    """The rows keep "any" as category 0, media type 0 and country "*", and a tour without a country
    under "": a filter naming one of those is counted on the tours, and matches what they match."""
    index.upsert_tours([replace(corpus[0], id=80_000, guid="nowhere", country=None, lat=None, lng=None)])
    docs = [*corpus, replace(corpus[0], id=80_000, guid="nowhere", country=None, lat=None, lng=None)]
    assert index.feed(FeedQuery(filter=tour_filter)).total == sum(1 for doc in docs if passes(doc, tour_filter))
