"""The embedded index answers one- and two-letter suggestions from `suggest_prefixes` (suggestions.py):
the same items, scores and order as the FTS match it replaces, through rebuilds, single writes,
renames, deletes, topic filters and a file from before the table existed."""

from __future__ import annotations

import itertools
import sqlite3
import string
from dataclasses import replace
from pathlib import Path

import pytest

import indexer.embedded.suggestions as suggestions
from indexer.documents import PlaceDocument, TagDocument
from indexer.embedded.adapter import EmbeddedIndex
from indexer.queries import Suggestion, SuggestKind, SuggestQuery
from tests.index.test_contract import make_creators

# Diacritics, apostrophes, underscores, digits, one-letter words and equal weights: what the FTS
# tokenizer folds or splits must land on the same prefixes.
TAG_NAMES = [
    "Pâtisserie",
    "Pa",
    "P",
    "Panorama_360",
    "L'Île-de-France",
    "São Paulo night",
    "Øresund bridge",
    "3D scan",
    "Park",
    "Parking lot",
    "Paradise",
    "PA system",
]
ITEM_KINDS = (SuggestKind.TAG, SuggestKind.PLACE, SuggestKind.CREATOR)


def _tags() -> list[TagDocument]:
    return [
        TagDocument(
            id=number,
            name=name,
            vt_count=5 if number % 3 == 0 else number * 7,  # some ties in weight
            topic_type="category" if number % 2 else "media_type",
            topic_id=1 + number % 3,
        )
        for number, name in enumerate(TAG_NAMES, start=1)
    ]


def _places() -> list[PlaceDocument]:
    names = ["Paris", "Pamplona", "Pápa", "Paphos", "Lyon", "Palermo", "Porto", "Pa An"]
    return [
        PlaceDocument(
            id=f"place:{number}", name=name, kind="place", country="FR", lat=1.0, lng=2.0, bbox=None, population=1000
        )
        for number, name in enumerate(names)
    ]


def _prefixes() -> list[str]:
    return [*string.ascii_lowercase, *string.digits, "pa", "pâ", "pA", "@p", "#pa", "#p", "sa", "3d", "l", "il"]


def _answers(index: EmbeddedIndex, monkeypatch: pytest.MonkeyPatch, table: bool) -> dict[str, list[Suggestion]]:
    monkeypatch.setattr(suggestions, "PREFIX_TABLE_LENGTH", 2 if table else 0)
    answers = {}
    for text, kinds, category in itertools.product(_prefixes(), (ITEM_KINDS, (SuggestKind.TAG,)), (None, 2)):
        query = SuggestQuery(text=text, kinds=kinds, limit=4, category_id=category)
        answers[f"{text}|{kinds}|{category}"] = index.suggest(query)
    return answers


def _assert_the_table_answers_like_the_match(index: EmbeddedIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    from_table = _answers(index, monkeypatch, table=True)
    assert from_table == _answers(index, monkeypatch, table=False)
    assert sum(len(found) for found in from_table.values()) > 100  # the cases find things


@pytest.fixture
def index(tmp_path: Path) -> EmbeddedIndex:
    index = EmbeddedIndex(tmp_path / "index")
    index.rebuild(tours=[], creators=make_creators(), ads=[], tags=_tags(), places=_places())
    return index


def test_short_prefixes_answer_like_the_text_match_after_a_rebuild(
    index: EmbeddedIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    _assert_the_table_answers_like_the_match(index, monkeypatch)


def test_short_prefixes_follow_single_writes_renames_and_deletes(
    index: EmbeddedIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    tags = _tags()
    index.upsert_tags([replace(tags[0], name="Harbour at dawn", vt_count=1000), replace(tags[3], vt_count=10**6)])
    index.upsert_tags([TagDocument(id=99, name="Paddle boards", vt_count=40, topic_type="category", topic_id=2)])
    index.delete_tags([tags[8].id])
    creators = make_creators()
    index.upsert_creators([replace(creators[0], creator_name="Papaya Pictures", followers=10**5)])
    index.delete_creators([creators[1].id])
    _assert_the_table_answers_like_the_match(index, monkeypatch)
    found = [item.text for item in index.suggest(SuggestQuery(text="pa", kinds=(SuggestKind.TAG,), limit=20))]
    assert "Pâtisserie" not in found and "Park" not in found and "Paddle boards" in found


def test_a_file_from_before_the_prefix_table_gets_it_filled_on_opening(
    index: EmbeddedIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    connection = sqlite3.connect(index.path)
    connection.execute("DROP TABLE suggest_prefixes")
    connection.commit()
    connection.close()
    reopened = EmbeddedIndex(index.directory)
    _assert_the_table_answers_like_the_match(reopened, monkeypatch)
