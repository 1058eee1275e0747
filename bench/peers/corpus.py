"""The corpus the peers load: the built embedded index's own rows, read back from its file.

Why the index's rows and not app/search/documents.py again: they are exactly what the embedded index
sorts, filters and matches on. The `popular` and `trending` scores depend on the clock of the reindex
that computed them, `title_key` and `random_key` are derived in indexer/embedded/rows.py, and the
text is what FTS5 indexed (title; description, tag names, city, address, country as the body).
Reading documents again would give the peers other scores than ours; reading the rows gives the same
numbers to the bit, and the cards and map features ours would serve.
"""

from __future__ import annotations

import sqlite3
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from indexer.embedded.text import words


class PeerTour(NamedTuple):
    rid: int  # the index's row id: popularity rank at build time, negative for unlisted tours
    id: int
    user_id: int
    category_id: int
    subcategory_id: int | None
    media_type_id: int
    vendor_id: int
    country: str | None
    lat: float | None
    lng: float | None
    cell: int | None
    title_key: str
    created_at: float
    views: int
    likes: int
    saves: int
    shared: int
    favorite: int
    trending: float
    popular: float
    featured_order: int | None
    random_key: float
    card: str
    feature: str
    title: str
    body: str
    tags: tuple[int, ...]

    @property
    def listed(self) -> bool:
        return self.rid > 0


class SuggestItem(NamedTuple):
    sid: int
    kind: str
    ref: str
    text: str
    weight: float
    topic_type: str | None
    topic_id: int | None
    payload: str


def index_file(directory: Path) -> Path:
    """The live file of an embedded index folder (CURRENT names it after a rebuild)."""
    pointer = directory / "CURRENT"
    return directory / (pointer.read_text().strip() if pointer.exists() else "index.db")


def open_read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)


_TOUR_COLUMNS = (
    "rid, id, user_id, category_id, subcategory_id, media_type_id, vendor_id, country, lat, lng, cell, title_key, "
    "created_at, views, likes, saves, shared, favorite, trending, popular, featured_order, random_key"
)


def read_tours(connection: sqlite3.Connection) -> Iterator[PeerTour]:
    """Every tour of the index, unlisted ones too, in row-id order: four cursors over tables keyed by
    the row id, merged as they stream (no per-tour lookups)."""
    tours = connection.execute(f"SELECT {_TOUR_COLUMNS} FROM tours ORDER BY rid")
    cards = connection.execute("SELECT tour_rid, card, feature FROM tour_cards ORDER BY tour_rid")
    # FTS5 keeps what it indexed in its content table: c0 = title, c1 = body.
    texts = connection.execute("SELECT id, c0, c1 FROM tour_text_content ORDER BY id")
    links = connection.execute("SELECT rid, tag_id FROM tour_tags INDEXED BY ix_tour_tags_rid ORDER BY rid, tag_id")
    link = links.fetchone()
    for row, (card_rid, card, feature), (text_rid, title, body) in zip(tours, cards, texts, strict=True):
        rid = row[0]
        if not rid == card_rid == text_rid:
            raise RuntimeError(f"index rows out of step at rid {rid}")
        tags: list[int] = []
        while link is not None and link[0] < rid:
            link = links.fetchone()
        while link is not None and link[0] == rid:
            tags.append(link[1])
            link = links.fetchone()
        yield PeerTour._make((*row, card, feature, title, body or "", tuple(tags)))


def read_suggest_items(connection: sqlite3.Connection) -> list[SuggestItem]:
    return [
        SuggestItem(*row)
        for row in connection.execute(
            "SELECT sid, kind, ref, text, weight, topic_type, topic_id, payload FROM suggest_items ORDER BY sid"
        )
    ]


def fold(text: str) -> str:
    """Text as FTS5's `unicode61 remove_diacritics 2` tokenizer sees it: lower-case words without
    diacritics, one space apart. Both peers index and query this form, so the three sides split and
    fold words alike (PostgreSQL's parser and tantivy's tokenizer each have their own rules)."""
    stripped = "".join(
        " " if char == "_" else char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char)
    )
    return " ".join(words(stripped))
