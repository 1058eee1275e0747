"""A tour document as the rows of the embedded index: the `tours` row (filters, sort keys, position),
its `tour_cards` row (the card and map feature JSON), its `tour_text` row and its tag ids.

Used by the incremental upserts and by the full rebuild (build.py), so both write the same rows.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any

import orjson

from indexer.cards import map_feature, tour_card
from indexer.documents import TourDocument
from indexer.geo import morton

TOUR_COLUMNS = (
    "rid, id, user_id, category_id, subcategory_id, media_type_id, vendor_id, country, lat, lng, cell, title_key, "
    "created_at, views, likes, saves, shared, favorite, trending, popular, featured_order, random_key"
)
INSERT_TOUR = f"INSERT INTO tours ({TOUR_COLUMNS}) VALUES ({', '.join('?' * len(TOUR_COLUMNS.split(',')))})"
# A written tour also carries the generation its write commits (`tours.version`, schema.py); a
# rebuild leaves the column at 0.
INSERT_TOUR_AT_VERSION = (
    f"INSERT INTO tours ({TOUR_COLUMNS}, version) VALUES ({', '.join('?' * (len(TOUR_COLUMNS.split(',')) + 1))})"
)
INSERT_CARD = "INSERT INTO tour_cards (tour_rid, card, feature) VALUES (?, ?, ?)"
INSERT_TEXT = "INSERT INTO tour_text (rowid, title, body, keys) VALUES (?, ?, ?, ?)"


def compact_json(value: Any) -> str:
    """Compact JSON text (UTF-8, no spaces), as json.dumps(..., separators=(",", ":"),
    ensure_ascii=False) writes it; orjson takes a fifth of the time, which a million cards feel."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def tour_row(rid: int, doc: TourDocument) -> tuple[Any, ...]:
    located = doc.lat is not None and doc.lng is not None
    return (
        rid,
        doc.id,
        doc.user_id,
        doc.category_id,
        doc.subcategory_id,
        doc.media_type_id,
        doc.vendor_id,
        doc.country,
        doc.lat,
        doc.lng,
        morton(doc.lat, doc.lng) if located else None,  # type: ignore[arg-type]
        doc.title.lower(),
        doc.created_at,
        doc.views,
        doc.likes,
        doc.saves,
        doc.shared,
        doc.likes + doc.saves,
        doc.trending,
        doc.popular,
        doc.featured_order if doc.is_featured else None,
        fraction(f"tour:{doc.guid}"),
    )


def card_row(rid: int, doc: TourDocument) -> tuple[int, str, str]:
    return rid, compact_json(tour_card(doc)), compact_json(map_feature(doc))


def text_row(rid: int, doc: TourDocument) -> tuple[int, str, str, str]:
    body = " ".join(
        part for part in (doc.description, " ".join(doc.tag_names), doc.city, doc.address, doc.country) if part
    )
    return rid, doc.title, body, filter_tokens(doc)


def tag_ids(doc: TourDocument) -> list[int]:
    """The tour's tag ids, each once."""
    return list(dict.fromkeys(doc.tag_ids))


def filter_tokens(doc: TourDocument) -> str:
    """Filters as words of the FTS `keys` column, so a text search with filters is one posting-list
    intersection instead of a row check per text match (see sql._TOKEN_FILTERS): each one
    `filter_token`."""
    tokens = [
        filter_token("c", doc.category_id),
        filter_token("m", doc.media_type_id),
        filter_token("v", doc.vendor_id),
    ]
    if doc.subcategory_id is not None:
        tokens.append(filter_token("s", doc.subcategory_id))
    if doc.country:
        tokens.append(filter_token("n", doc.country))
    tokens += [filter_token("t", tag_id) for tag_id in doc.tag_ids]
    return " ".join(tokens)


# Where each kind of filter token's single characters start, and how many there are: Unicode's
# private-use areas, which FTS5 indexes as word characters (category Co) but no typed word holds.
# Categories, subcategories, media types, vendors and countries (two letters) in the BMP's area,
# tags in planes 15 and 16.
_TOKEN_CHARACTERS: dict[str, tuple[tuple[int, int], ...]] = {
    "c": ((0xE000, 0x400),),
    "s": ((0xE400, 0x800),),
    "m": ((0xEC00, 0x100),),
    "v": ((0xED00, 0x400),),
    "n": ((0xF100, 26 * 26),),
    "t": ((0xF0000, 0xFFFE), (0x100000, 0xFFFE)),
}
# A value past its kind's characters: a marker character of its own, then the value's text.
_TOKEN_MARKERS = {kind: chr(0xF800 + number) for number, kind in enumerate(_TOKEN_CHARACTERS)}
_LOWER_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@functools.lru_cache(maxsize=1 << 16)  # a few thousand values recur across a million tours
def filter_token(kind: str, value: int | str) -> str:
    """The FTS token of one filter value (kind: c category, s subcategory, m media type, v vendor,
    n country, t tag): one private-use character, so the FTS5 prefix indexes (2 and 3 characters)
    hold nothing for it, and no typed word (`text.words`: letters and digits) can match or prefix
    it. A value past its kind's characters (an id that large, a country not of two letters) gets
    its marker and its text: two or more characters, so never another value's token."""
    if kind != "n" and isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value)  # an id as text: the same token as the id
    number = _token_number(value)
    if number is not None:
        for first, count in _TOKEN_CHARACTERS[kind]:
            if number < count:
                return chr(first + number)
            number -= count
    return _TOKEN_MARKERS[kind] + str(value).lower()


def _token_number(value: int | str) -> int | None:
    if isinstance(value, int):
        return value if value >= 0 else None
    letters = value.lower()
    if len(letters) == 2 and all(letter in _LOWER_LETTERS for letter in letters):
        return _LOWER_LETTERS.index(letters[0]) * 26 + _LOWER_LETTERS.index(letters[1])
    return None


def fraction(text: str) -> float:
    """A stable number in [0, 1) from a string (seeded random keys and starts)."""
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64
