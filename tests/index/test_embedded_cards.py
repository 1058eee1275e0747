"""The embedded index reads its stored cards with orjson (pages.decode_card), not json.loads: what it
hands back must be exactly what json.loads gives for what rows.compact_json
stored, whatever the card holds (non-ASCII titles, escapes, floats of any size, nulls, nesting)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from indexer.embedded.pages import decode_card
from indexer.embedded.rows import compact_json

scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.floats(allow_nan=False) | st.text()
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4)
)
cards = st.dictionaries(st.text(), values, max_size=12)


def same(left: Any, right: Any) -> bool:
    """Equal, and of the same types all the way down (1 == 1.0 == True would hide a change of type)."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return list(left) == list(right) and all(same(left[key], right[key]) for key in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(same(a, b) for a, b in zip(left, right, strict=True))
    return bool(left == right)  # floats too: no NaN is generated (compact_json would write one)


@given(cards)
def test_decode_card_reads_what_json_loads_reads(card: dict[str, Any]) -> None:
    stored = compact_json(card)
    assert same(decode_card(stored), json.loads(stored))


def test_decode_card_keeps_a_real_card_and_its_order() -> None:
    card = {
        "type": "vt",
        "id": 42124,
        "guid": "1ccd9287d5bb4f5a9cfaee494b7a2506",
        "title": "Inside the research center of Tŏkch\u2019ŏn — aerial 360°",
        "preview_picture": None,
        "views": 329555,
        "saves": 3374.0,
        "created_at": 1764915980.840018,
        "media_type_id": 7,
        "userid": 41,
    }
    decoded = decode_card(compact_json(card))
    assert same(decoded, card)
