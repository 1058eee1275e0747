"""The embedded index searches a typed word as its completions from `text_terms` (terms.py) instead of
as an FTS5 prefix term: the same tours and totals as the prefix, after a rebuild, single writes,
removals, with folded letters in the text, with many completions, and on a file from before the
term list existed."""

from __future__ import annotations

import itertools
import sqlite3
import unicodedata
from dataclasses import replace
from pathlib import Path

import pytest

import indexer.embedded.sql as embedded_sql
from indexer.documents import TourDocument
from indexer.embedded.adapter import EmbeddedIndex
from indexer.embedded.rows import filter_token, filter_tokens
from indexer.embedded.text import words
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


def test_words_like_the_old_filter_tokens_match_only_title_and_body(
    index: EmbeddedIndex, corpus: list[TourDocument]
) -> None:
    """Words are searched without a column filter: a word that looks like a filter token of the old
    layout ("xc1") matches only title and body, a typed prefix never a filter token."""
    index.upsert_tours([replace(corpus[7], id=50_002, guid="x", title="Xc1 trail and xc2 bikes")])
    for text in ("xc1", "xc2 bik", "trail xc", "trai xc1"):
        assert index.feed(FeedQuery(filter=TourFilter(text=text), limit=5)).ids == [50_002]
    assert index.feed(FeedQuery(filter=TourFilter(text="x"), limit=5)).ids == [50_002]


def test_every_filter_token_is_one_private_use_character_no_typed_word_holds(corpus: list[TourDocument]) -> None:
    tokens = [token for doc in corpus for token in filter_tokens(replace(doc, country="FR")).split()]
    assert tokens and all(len(token) == 1 and unicodedata.category(token) == "Co" for token in tokens)
    assert filter_token("n", "FR") in tokens and filter_token("n", "fr") == filter_token("n", "FR")
    assert all(words(token) == [] for token in tokens)


def test_filter_tokens_are_distinct_across_kinds_and_values_and_past_their_characters() -> None:
    values: dict[str, list[int | str]] = {
        "c": [0, 1, 1023, 1024, 5000],
        "s": [0, 7, 2047, 2048],
        "m": [0, 255, 256],
        "v": [0, 1023, 1024],
        "n": ["aa", "fr", "zz", "usa", "a1"],
        "t": [0, 1, 65533, 65534, 131067, 131068, 10**9],
    }
    tokens = {(kind, value): filter_token(kind, value) for kind in values for value in values[kind]}
    assert len(set(tokens.values())) == len(tokens)
    assert len(tokens["t", 131067]) == 1 and len(tokens["t", 131068]) > 1 and len(tokens["c", 1024]) > 1
    assert filter_token("c", "12") == filter_token("c", 12)
    assert all(words(token) == [] for token in tokens.values() if len(token) == 1)


def test_filters_past_their_characters_still_match_in_a_text_search(
    index: EmbeddedIndex, corpus: list[TourDocument]
) -> None:
    index.upsert_tours([replace(corpus[3], id=50_003, guid="big", title="Lighthouse", tag_ids=(200_000,))])
    both = TourFilter(text="lighthouse", tags=(200_000,))
    assert index.feed(FeedQuery(filter=both, limit=5)).ids == [50_003]
    assert index.feed(FeedQuery(filter=replace(both, tags=(200_001,)), limit=5)).ids == []
    index.upsert_tours([replace(corpus[4], id=50_004, guid="odd", title="Lighthouse", country='Q"X')])
    odd = TourFilter(text="lighthouse", countries=('q"x',))
    assert index.feed(FeedQuery(filter=odd, limit=5)).ids == [50_004]


def test_every_stored_term_of_the_keys_column_is_one_character(index: EmbeddedIndex) -> None:
    """FTS5 keys its prefix entries by a marker byte before the prefix; with every filter token one
    character long, the index holds no 2- or 3-character prefix of a private-use character."""
    connection = index._connection()
    connection.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.keys_terms USING fts5vocab(main, tour_text, col)")
    keys = [term for (term,) in connection.execute("SELECT term FROM temp.keys_terms WHERE col = 'keys'")]
    assert keys and all(len(term) == 1 for term in keys)


def test_a_file_from_before_the_term_list_gets_it_filled_on_opening(
    index: EmbeddedIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    connection = sqlite3.connect(index.path)
    connection.execute("DROP TABLE text_terms")
    connection.commit()
    connection.close()
    _assert_completions_answer_like_prefixes(EmbeddedIndex(index.directory), monkeypatch)
