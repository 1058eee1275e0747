"""The embedded index searches a typed word as its completions from `text_terms` (terms.py) instead of
as an FTS5 prefix term: the same tours and totals as the prefix, after a rebuild, single writes,
removals, with folded letters in the text, with many completions, and on a file from before the
term list existed."""

from __future__ import annotations

import itertools
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

import indexer.embedded.sql as embedded_sql
from indexer.documents import TourDocument
from indexer.embedded.adapter import EmbeddedIndex
from indexer.embedded.rows import filter_tokens
from indexer.queries import FeedQuery, Page, Sort, TourFilter
from tests.index.test_contract import make_tours

# The corpus's words, prefixes of them, words the writes below add, and words nothing holds.
TEXTS = [
    "harbour",
    "harb",
    "harbourf",
    "harbourside",
    "cast",
    "castle",
    "castles",
    "cath",
    "light",
    "lighthouse",
    "walk",
    "paris",
    "sydney",
    "sunset",
    "seaw",
    "zzzz",
    "castle harb",
    "walk through",
    "'castle of",
    "xc1x",
]
FILTERS = [TourFilter(), TourFilter(categories=(2,)), TourFilter(countries=("FR", "AU"), categories=(1, 3))]
SORTS = [Sort.VIEWS, Sort.RELEVANCE, Sort.NEWEST]


def _answers(index: EmbeddedIndex, monkeypatch: pytest.MonkeyPatch, completed: bool) -> dict[str, Page]:
    monkeypatch.setattr(embedded_sql, "COMPLETED_WORD_LENGTH", 4 if completed else 10**6)
    answers = {}
    for text, tour_filter, sort in itertools.product(TEXTS, FILTERS, SORTS):
        query = FeedQuery(filter=replace(tour_filter, text=text), sort=sort, limit=30)
        answers[f"{text}|{tour_filter}|{sort}"] = index.feed(query)
    return answers


def _assert_completions_answer_like_prefixes(index: EmbeddedIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    completed = _answers(index, monkeypatch, completed=True)
    assert completed == _answers(index, monkeypatch, completed=False)
    assert sum(page.total for page in completed.values()) > 1000  # the cases find things


@pytest.fixture
def corpus() -> list[TourDocument]:
    docs = make_tours()
    # Folded letters: "Hárbourside" is indexed as "harbourside", a completion of "harbour".
    docs[0] = replace(docs[0], title="Hárbourside at dawn")
    docs[1] = replace(docs[1], description="Seawall and Castles")
    return docs


@pytest.fixture
def index(tmp_path: Path, corpus: list[TourDocument]) -> EmbeddedIndex:
    index = EmbeddedIndex(tmp_path / "index")
    index.rebuild(tours=sorted(corpus, key=lambda d: (-d.views, -d.id)), creators=[], ads=[], tags=[], places=[])
    return index


def test_completions_answer_like_prefixes_after_a_rebuild(
    index: EmbeddedIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    _assert_completions_answer_like_prefixes(index, monkeypatch)
    found = index.feed(FeedQuery(filter=TourFilter(text="harbour"), limit=500))
    assert 1 in found.ids  # through its folded completion


def test_completions_follow_writes_and_removals(
    index: EmbeddedIndex, corpus: list[TourDocument], monkeypatch: pytest.MonkeyPatch
) -> None:
    index.upsert_tours(
        [
            replace(corpus[5], id=50_001, guid="n1", title="Harbourfront Çastle walk"),  # new completions
            replace(corpus[6], title="Seaweed farm"),  # an edit: its old words leave the tour
        ]
    )
    index.delete_tours([corpus[1].id])  # the only "seawall": its term stays, matching nothing
    _assert_completions_answer_like_prefixes(index, monkeypatch)
    assert index.feed(FeedQuery(filter=TourFilter(text="harbourf"), limit=5)).ids == [50_001]
    assert index.feed(FeedQuery(filter=TourFilter(text="seawa"), limit=5)).total == 0


def test_more_completions_than_the_limit_leave_the_prefix_to_fts(
    index: EmbeddedIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embedded_sql, "MAX_COMPLETIONS", 1)
    _assert_completions_answer_like_prefixes(index, monkeypatch)


def test_words_searched_without_the_column_filter_match_as_with_it(
    index: EmbeddedIndex, corpus: list[TourDocument], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Words that cannot start a filter token skip the `{title body}` filter: the same answers as
    with it, and a word that looks like a filter token still matches only title and body."""
    index.upsert_tours([replace(corpus[7], id=50_002, guid="x", title="Xc1 trail and xc2 bikes")])
    for text in ("xc1", "xc2 bik", "trail xc", "trai xc1"):
        assert index.feed(FeedQuery(filter=TourFilter(text=text), limit=5)).ids == [50_002]
    without = _answers(index, monkeypatch, completed=True)
    monkeypatch.setattr(embedded_sql, "_NOT_A_FILTER_TOKEN_START", frozenset())
    assert _answers(index, monkeypatch, completed=True) == without


def test_every_filter_token_starts_with_x(corpus: list[TourDocument]) -> None:
    tokens = [token for doc in corpus for token in filter_tokens(replace(doc, country="FR")).split()]
    assert {token[0] for token in tokens} == {"x"} and any(token.startswith("xn") for token in tokens)


def test_a_file_from_before_the_term_list_gets_it_filled_on_opening(
    index: EmbeddedIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    connection = sqlite3.connect(index.path)
    connection.execute("DROP TABLE text_terms")
    connection.commit()
    connection.close()
    _assert_completions_answer_like_prefixes(EmbeddedIndex(index.directory), monkeypatch)
