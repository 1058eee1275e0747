"""A text search on the embedded index counts its matches once per index generation and keeps their
row ids (CountCache.matches): below the "at least 1,000" cap they are the whole candidate set the page
sorts, above it the rows of the first pages in popularity order; pages past the counted rows stream
the posting lists again. Every page must equal what the words and filters select, worked out here
from the documents: same ids in the same order, same total, cap included, for a first search and a
repeated one, and after writes. Embedded only: popularity order is that adapter's row order."""

from __future__ import annotations

import itertools
import random
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from indexer.documents import TourDocument
from indexer.embedded.adapter import EmbeddedIndex
from indexer.embedded.rows import text_row
from indexer.queries import TEXT_TOTAL_CAP, FeedQuery, Page, Sort, TourFilter
from tests.index.test_contract import make_tours

WORDS = ("harbour", "sunset", "castle", "market", "bridge", "garden")
# One word matches more than the cap, two words fewer, a rare word a few; prefixes, a phrase, nothing.
TEXTS = ("harbour", "harb", "harbour sunset", "sunset castle", "lighthouse", "'harbour and", "zzzz")
FILTERS = (TourFilter(), TourFilter(categories=(2,)), TourFilter(categories=(1, 3), countries=("US",)))
SORTS = (Sort.VIEWS, Sort.RELEVANCE, Sort.NEWEST)
OFFSETS = (0, 48, 960, 990, 1_100)  # 990 reaches past the counted rows, 1,100 starts past them


def corpus(count: int = 2_600) -> list[TourDocument]:
    rng = random.Random(18)
    template = make_tours(1)[0]
    docs = []
    for number in range(1, count + 1):
        title_words = rng.sample(WORDS, 2)
        description = " ".join(rng.sample(WORDS, 2))
        if number % 97 == 0:
            description += " lighthouse"
        docs.append(
            replace(
                template,
                id=number,
                guid=f"t{number}",
                title=f"{title_words[0].title()} and {title_words[1]} {number}",
                description=description,
                category_id=1 + number % 3,
                country=("FR", "US", "JP", "AU")[number % 4],
                city=None,
                address=None,
                tag_ids=(),
                tag_names=(),
                views=rng.randint(0, 5_000),
                created_at=1_700_000_000 + rng.randint(0, 10**7),
                lat=None,
                lng=None,
            )
        )
    return docs


@pytest.fixture
def index(tmp_path: Path) -> EmbeddedIndex:
    index = EmbeddedIndex(tmp_path / "index")
    index.rebuild(tours=sorted(corpus(), key=lambda d: (-d.views, -d.id)), creators=[], ads=[], tags=[], places=[])
    return index


@dataclass(frozen=True)
class Expected:
    ids: list[int]
    total: int


def tokens(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def matcher(text: str) -> Callable[[list[str]], bool]:
    """Whether the text of some columns matches: every word a prefix of one of their words (each in
    any column), or after a leading quote the exact phrase within one column."""
    typed = tokens(text)
    if text.startswith("'"):
        phrase = f" {' '.join(typed)} "
        return lambda columns: any(phrase in f" {' '.join(tokens(column))} " for column in columns)
    return lambda columns: all(any(word.startswith(t) for c in columns for word in tokens(c)) for t in typed)


def expected_page(docs: list[TourDocument], rids: dict[int, int], query: FeedQuery) -> Expected:
    tour_filter = query.filter
    assert tour_filter.text is not None
    matches = matcher(tour_filter.text)
    found = [
        doc
        for doc in docs
        if (not tour_filter.categories or doc.category_id in tour_filter.categories)
        and (not tour_filter.countries or doc.country in tour_filter.countries)
        and matches(list(text_row(0, doc)[1:3]))  # title and body
    ]
    total = min(len(found), TEXT_TOTAL_CAP)
    if total >= TEXT_TOTAL_CAP and query.sort in (Sort.VIEWS, Sort.RELEVANCE):
        order = sorted(found, key=lambda doc: rids[doc.id])  # popularity order: the row order
    elif query.sort is Sort.NEWEST:
        order = sorted(found, key=lambda doc: (-doc.created_at, -doc.id))
    else:  # by views; relevance puts the tours whose title matches first
        title_first = query.sort is Sort.RELEVANCE
        order = sorted(found, key=lambda doc: (title_first and not matches([doc.title]), -doc.views, -doc.id))
    return Expected(ids=[doc.id for doc in order[query.offset : query.offset + query.limit]], total=total)


def queries() -> list[FeedQuery]:
    return [
        FeedQuery(filter=replace(tour_filter, text=text), sort=sort, limit=48, offset=offset)
        for text, tour_filter, sort, offset in itertools.product(TEXTS, FILTERS, SORTS, OFFSETS)
    ]


def row_ids(index: EmbeddedIndex) -> dict[int, int]:
    connection = sqlite3.connect(index.path)
    try:
        return dict(connection.execute("SELECT id, rid FROM tours").fetchall())
    finally:
        connection.close()


def assert_pages_are_the_matches(index: EmbeddedIndex, docs: list[TourDocument]) -> None:
    rids = row_ids(index)
    pages: dict[FeedQuery, Page] = {}
    for query in queries():
        pages[query] = index.feed(query)
        assert Expected(pages[query].ids, pages[query].total) == expected_page(docs, rids, query), query
    for query in queries():  # again: the counted rows are kept
        assert index.feed(query) == pages[query], query
    totals = {page.total for page in pages.values()}
    assert TEXT_TOTAL_CAP in totals and 0 in totals and len(totals) > 10  # capped, empty and counted cases


def test_pages_are_the_matches_first_and_again(index: EmbeddedIndex) -> None:
    assert_pages_are_the_matches(index, corpus())


def test_pages_follow_writes(index: EmbeddedIndex) -> None:
    docs = corpus()
    assert_pages_are_the_matches(index, docs)
    changed = [replace(doc, title=f"Lighthouse {doc.id}", description="zeppelin") for doc in docs[:400]]
    changed += [replace(docs[500], id=9_000, guid="new", title="Harbour and sunset new", views=10**6)]
    index.upsert_tours(changed)
    index.delete_tours([docs[600].id])
    index.update_counters({docs[700].id: {"views": 10**7}})
    current = {doc.id: doc for doc in docs if doc.id != docs[600].id}
    current.update({doc.id: doc for doc in changed})
    current[docs[700].id] = replace(current[docs[700].id], views=10**7)
    assert_pages_are_the_matches(index, list(current.values()))
