"""Turning what a visitor types into FTS5 match expressions."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

_WORD = re.compile(r"\w+", re.UNICODE)
_QUOTES = ("'", '"')


def words(text: str) -> list[str]:
    return [word.lower() for word in _WORD.findall(text)]


# The indexed terms a typed word is the prefix of, or None when unknown (then FTS5 expands it).
Completions = Callable[[str], Sequence[str] | None]


def match_expression(text: str, *, column: str | None = None, completions: Completions | None = None) -> str | None:
    """Every word as a prefix (AND); a leading quote asks for the exact phrase. None when nothing
    searchable is left (only punctuation). With `completions`, a word whose completions are known
    is matched as those terms instead: the same documents, but FTS5 streams exact terms, where a
    prefix term without a prefix index makes it read and merge every completion's whole posting list
    first (half the time of 'sunset harbour' + category)."""
    stripped = text.strip()
    exact = stripped.startswith(_QUOTES)
    tokens = words(stripped)
    if not tokens:
        return None
    # An OR group cannot join an implicit AND, so with completions the words are ANDed explicitly.
    joiner = " " if completions is None else " AND "
    expression = '"' + " ".join(tokens) + '"' if exact else joiner.join(_word_term(t, completions) for t in tokens)
    return f"{column} : ({expression})" if column else expression


def _word_term(word: str, completions: Completions | None) -> str:
    terms = completions(word) if completions is not None else None
    if terms is None:
        return f'"{word}"*'
    if len(terms) <= 1:  # no completion at all matches nothing, as the prefix would
        return f'"{terms[0] if terms else word}"'
    return "(" + " OR ".join(f'"{term}"' for term in terms) + ")"
