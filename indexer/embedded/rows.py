"""A tour document as the rows of the embedded index: the `tours` row (filters, sort keys, position),
its `tour_cards` row (the card and map feature JSON), its `tour_text` row and its tag ids.

Used by the incremental upserts and by the full rebuild (build.py), so both write the same rows.
"""

from __future__ import annotations

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
    intersection instead of a row check per text match (see adapter._TOKEN_FILTERS). Every token
    starts with "x": a search for words that do not needs no column filter (sql.text_match)."""
    tokens = [f"xc{doc.category_id}", f"xm{doc.media_type_id}", f"xv{doc.vendor_id}"]
    if doc.subcategory_id is not None:
        tokens.append(f"xs{doc.subcategory_id}")
    if doc.country:
        tokens.append(f"xn{doc.country.lower()}")
    tokens += [f"xt{tag_id}" for tag_id in doc.tag_ids]
    return " ".join(tokens)


def fraction(text: str) -> float:
    """A stable number in [0, 1) from a string (seeded random keys and starts)."""
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64
