"""Turning what a visitor types into FTS5 match expressions."""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+", re.UNICODE)
_QUOTES = ("'", '"')


def words(text: str) -> list[str]:
    return [word.lower() for word in _WORD.findall(text)]


def match_expression(text: str, *, column: str | None = None) -> str | None:
    """Every word as a prefix (AND); a leading quote asks for the exact phrase. None when nothing
    searchable is left (only punctuation)."""
    stripped = text.strip()
    exact = stripped.startswith(_QUOTES)
    tokens = words(stripped)
    if not tokens:
        return None
    expression = '"' + " ".join(tokens) + '"' if exact else " ".join(f'"{token}"*' for token in tokens)
    return f"{column} : ({expression})" if column else expression
