"""SQL pieces the embedded index's readers and writers share: the WHERE clause of a TourFilter (tag
key, text match with token filters, Morton ranges of a box), IN lists, and chunking of id lists."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from indexer.embedded.rows import filter_token
from indexer.embedded.text import Completions, match_expression
from indexer.geo import MAX_LEVEL, interleave, mercator_xy
from indexer.queries import BBox, TourFilter

# Unlisted tours are stored under negative row ids (schema.py), so "listed" is a test of the row id,
# which every index entry carries: a discovery query stays inside its covering index. The unary plus
# keeps the planner from reading it as a row-id range over the whole table.
LISTED_ONLY = "+rid > 0"


def tour_where(tour_filter: TourFilter, completions: Completions | None = None) -> tuple[str, list[Any]]:
    """The WHERE clause of a filter. The listed-only test comes last: SQLite checks the terms in the
    order written, and nearly every tour is listed, so first it cost a test on every entry a sort
    walk passed over (feed pages 15% slower, category + country 1.5x at 100k); last, it runs only on
    the entries that already matched the filter."""
    clauses, params = _filter_clauses(tour_filter, completions)
    if not tour_filter.with_unlisted:
        clauses.append(LISTED_ONLY)
    return (" AND ".join(clauses) or "1"), params


def _filter_clauses(tour_filter: TourFilter, completions: Completions | None) -> tuple[list[str], list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    for column, values in (
        ("category_id", tour_filter.categories),
        ("subcategory_id", tour_filter.subcategories),
        ("country", tour_filter.countries),
        ("vendor_id", tour_filter.vendors),
        ("media_type_id", tour_filter.media_types),
    ):
        if values:
            clauses.append(in_clause(column, values, params))
    if tour_filter.user_ids is not None:
        clauses.append(in_clause("user_id", tour_filter.user_ids, params))
    if tour_filter.tour_ids is not None:
        clauses.append(in_clause("id", tour_filter.tour_ids, params))
    if (either := tour_filter.saved_or_followed) is not None:
        followed = in_clause("user_id", either.followed_user_ids, params)
        saved = in_clause("id", either.saved_tour_ids, params)
        clauses.append(f"({followed} OR {saved})")
    if tour_filter.tags:
        # The tag key (tag, category, country, rid) answers the commonest combinations as one range read.
        tag_params: list[Any] = []
        tag_clauses = tag_key_clauses(tour_filter, tag_params)
        clauses.append(f"rid IN (SELECT rid FROM tour_tags WHERE {' AND '.join(tag_clauses)})")
        params.extend(tag_params)
    if tour_filter.text:
        expression = text_match(tour_filter, completions)
        if expression is not None:
            clauses.append("rid IN (SELECT rowid FROM tour_text WHERE tour_text MATCH ?)")
            params.append(expression)
    if tour_filter.bounds is not None:
        clauses += bounds_clauses(tour_filter.bounds, params)
    if tour_filter.featured_only:
        clauses.append("featured_order IS NOT NULL")
    if tour_filter.only_media_types is not None:
        clauses.append(in_clause("media_type_id", tour_filter.only_media_types, params))
    if tour_filter.created_from is not None:
        clauses.append("created_at >= ?")
        params.append(tour_filter.created_from)
    if tour_filter.created_before is not None:
        clauses.append("created_at < ?")
        params.append(tour_filter.created_before)
    return clauses, params


def bounds_clauses(bounds: BBox, params: list[Any]) -> list[str]:
    clauses: list[str] = []
    ranges = _cell_ranges_for_box(bounds)
    if ranges:
        clauses.append("(" + " OR ".join("cell BETWEEN ? AND ?" for _ in ranges) + ")")
        params += [value for cell_range in ranges for value in cell_range]
    clauses.append("lat BETWEEN ? AND ?")
    params += [bounds.south, bounds.north]
    if bounds.crosses_antimeridian():
        clauses.append("(lng >= ? OR lng <= ?)")
    else:
        clauses.append("lng BETWEEN ? AND ?")
    params += [bounds.west, bounds.east]
    return clauses


def tag_cells_where(tour_filter: TourFilter, bounds: BBox | None) -> tuple[str, list[Any]]:
    """The `tag_cells` conditions of a one-tag filter (with categories, inside `bounds`)."""
    params: list[Any] = [tour_filter.tags[0]]
    clauses = ["tag_id = ?"]
    if tour_filter.categories:
        clauses.append(in_clause("category_id", tour_filter.categories, params))
    if bounds is not None:
        clauses += bounds_clauses(bounds, params)
    return " AND ".join(clauses), params


def in_clause(column: str, values: Sequence[Any], params: list[Any]) -> str:
    if not values:
        return "0"
    params.extend(values)
    return f"{column} IN ({','.join('?' * len(values))})"


# Filters that also live in the FTS index as tokens of the `keys` column (rows.filter_token), so a
# text search with filters is one posting-list intersection instead of a row check per text match.
_TOKEN_FILTERS = (
    ("categories", "c"),
    ("subcategories", "s"),
    ("countries", "n"),
    ("vendors", "v"),
    ("media_types", "m"),
    ("tags", "t"),
)


def text_match(tour_filter: TourFilter, completions: Completions | None = None) -> str | None:
    """The visitor's words, AND every token filter in the keys column. The words need no column
    filter: `keys` holds only private-use characters, which no typed word holds (rows.filter_token),
    so they match in title or body wherever they match, and FTS5 skips the column check (reading
    every position of every match)."""
    words_expression = match_expression(tour_filter.text or "", completions=completions)
    if words_expression is None:
        return None
    parts = [words_expression]
    for field, kind in _TOKEN_FILTERS:
        values = getattr(tour_filter, field)
        if values:
            alternatives = " OR ".join(_quoted(filter_token(kind, value)) for value in values)
            parts.append(f"keys : ({alternatives})")
    return " AND ".join(parts)


def _quoted(token: str) -> str:
    """An FTS5 string: a token past its kind's characters carries the value's text."""
    return '"' + token.replace('"', '""') + '"'


# Typed words this long or longer (plain ASCII, which FTS5 indexes unchanged) are looked up in
# `text_terms`; shorter ones have FTS5 prefix indexes (prefix = '2 3'). More completions than this,
# and the prefix term is left to FTS5.
COMPLETED_WORD_LENGTH = 4
MAX_COMPLETIONS = 8
_PLAIN_WORD = re.compile(r"[a-z0-9]+")


def word_completions(connection: sqlite3.Connection) -> Completions:
    """Completions of typed words from `text_terms`, every term the tour text has held (schema.py):
    a superset of the FTS vocabulary, so the terms found cover every document the prefix matches."""

    def complete(word: str) -> list[str] | None:
        if len(word) < COMPLETED_WORD_LENGTH or not _PLAIN_WORD.fullmatch(word):
            return None
        following = word[:-1] + chr(ord(word[-1]) + 1)  # the first string past every completion
        rows = connection.execute(
            "SELECT term FROM text_terms WHERE term >= ? AND term < ? LIMIT ?", (word, following, MAX_COMPLETIONS + 1)
        ).fetchall()
        return None if len(rows) > MAX_COMPLETIONS else [row[0] for row in rows]

    return complete


def without_token_filters(tour_filter: TourFilter) -> TourFilter:
    """The filter minus the text and every filter of _TOKEN_FILTERS (text_match carries those)."""
    return replace(
        tour_filter, text=None, categories=(), subcategories=(), countries=(), vendors=(), media_types=(), tags=()
    )


def _cell_ranges_for_box(bounds: BBox, max_tiles: int = 16) -> list[tuple[int, int]]:
    """Morton ranges (zoom-20 cells) of the tiles covering a box, at the deepest level where the box
    spans at most `max_tiles` tiles; empty when the box is large (then a range scan helps nothing)."""
    if bounds.crosses_antimeridian():
        return []
    for level in range(14, 3, -1):
        x0, y0 = mercator_xy(min(bounds.north, 85.0511), bounds.west, level)
        x1, y1 = mercator_xy(max(bounds.south, -85.0511), bounds.east, level)
        if (x1 - x0 + 1) * (y1 - y0 + 1) <= max_tiles:
            shift = 2 * (MAX_LEVEL - level)
            return merge_ranges(
                sorted(
                    (interleave(x, y) << shift, ((interleave(x, y) + 1) << shift) - 1)
                    for x in range(x0, x1 + 1)
                    for y in range(y0, y1 + 1)
                )
            )
    return []


def merge_ranges(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in ranges:
        if merged and start <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def neighbourhood_ranges(lat: float, lng: float, level: int) -> list[tuple[int, int]]:
    """Morton ranges of the 3x3 tiles at `level` centred on the tile holding the point."""
    x, y = mercator_xy(lat, lng, level)
    side = 1 << level
    shift = 2 * (MAX_LEVEL - level)
    keys = {interleave((x + dx) % side, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if 0 <= y + dy < side}
    return merge_ranges(sorted((key << shift, ((key + 1) << shift) - 1) for key in keys))


def batches(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    batch: list[Any] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def chunks(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def tag_key_clauses(tour_filter: TourFilter, params: list[Any]) -> list[str]:
    """The filter's tags, categories and countries as conditions on the tag key (tour_tags)."""
    clauses = [in_clause("tag_id", tour_filter.tags, params)]
    if tour_filter.categories:
        clauses.append(in_clause("category_id", tour_filter.categories, params))
    if tour_filter.countries:
        clauses.append(in_clause("country", tour_filter.countries, params))
    return clauses
