"""Search as you type in the embedded index: tours by title, creators, tags and places from one FTS
table of suggestion items, and the upkeep of those items."""

from __future__ import annotations

import json
import math
import re
import sqlite3
from collections.abc import Iterable
from typing import Any

from indexer.documents import CreatorDocument, PlaceDocument, TagDocument
from indexer.embedded.sql import batches
from indexer.embedded.text import match_expression, words
from indexer.queries import (
    Suggestion,
    SuggestKind,
    SuggestQuery,
    TagCount,
    TagPage,
    TagQuery,
    rows_in_window,
)

BATCH = 5000
# Words of up to this many letters are answered from `suggest_prefixes` instead of the FTS table.
PREFIX_TABLE_LENGTH = 2
# What FTS5 leaves unchanged (lower-case ASCII letters and digits): a typed prefix made only of these
# is the prefix of the tokens it matches, with no folding to repeat outside FTS5.
_PLAIN_PREFIX = re.compile(r"[a-z0-9]+")


def suggestions_for(connection: sqlite3.Connection, query: SuggestQuery) -> list[Suggestion]:
    """The best matches of every asked kind, best first; `#` asks for tags only, `@` for creators.

    Each kind offers its first `3 x limit` matches (tours in popularity order, the others by weight),
    scored by how the text starts and by popularity. Scores come from plain columns; only the `limit`
    winners are decoded into Suggestions (a short prefix offers about a hundred candidates)."""
    text = query.text.strip()
    kinds = query.kinds
    if text.startswith("#"):
        kinds, text = (SuggestKind.TAG,), text[1:]
    elif text.startswith("@"):
        kinds, text = (SuggestKind.CREATOR,), text[1:]
    expression = match_expression(text)
    if expression is None:
        return []
    typed = " ".join(words(text))
    prefix = _short_prefix(text)
    candidates: list[_Candidate] = []
    for kind in kinds:
        if kind is SuggestKind.TOUR:
            candidates += _tour_candidates(connection, expression, query.limit, typed)
        else:
            candidates += _item_candidates(connection, kind, expression, prefix, query, typed)
    # Stable, like the sort of whole Suggestions it replaces: equal scores keep kind, then row order.
    candidates.sort(key=lambda candidate: candidate[0], reverse=True)
    return [_suggestion(candidate) for candidate in candidates[: query.limit]]


# (score, kind, id or ref, text, creator id, category, weight, payload JSON or None)
_Candidate = tuple[float, SuggestKind, str, str, int | None, int | None, float, str | None]


def _tour_candidates(connection: sqlite3.Connection, expression: str, limit: int, typed: str) -> list[_Candidate]:
    # rowid order is popularity order (rid = views rank at build), so the first hits are the best.
    # The card's guid and title are read by SQLite: no card is decoded in Python.
    rows = connection.execute(
        "SELECT t.id, json_extract(c.card, '$.guid'), json_extract(c.card, '$.title'), t.category_id, t.user_id, "
        "t.views FROM tour_text JOIN tours t ON t.rid = tour_text.rowid JOIN tour_cards c ON c.tour_rid = t.rid "
        "WHERE tour_text MATCH ? AND tour_text.rowid > 0 LIMIT ?",  # listed tours only (schema.py)
        (f"title : ({expression})", limit * 3),
    ).fetchall()
    candidates: list[_Candidate] = []
    for tour_id, guid, title, category_id, user_id, views in rows:
        title = title or ""
        score = _text_score(title, typed) + 0.1 * math.log1p(views)
        candidates.append(
            (score, SuggestKind.TOUR, str(tour_id if guid is None else guid), title, user_id, category_id, views, None)
        )
    return candidates


def _short_prefix(text: str) -> str | None:
    """The typed word when `suggest_prefixes` answers it: one word (not a quoted phrase) of at most
    PREFIX_TABLE_LENGTH plain letters or digits; None sends the query to the FTS table."""
    stripped = text.strip()
    typed = words(stripped)
    if stripped.startswith(("'", '"')) or len(typed) != 1 or len(typed[0]) > PREFIX_TABLE_LENGTH:
        return None
    return typed[0] if _PLAIN_PREFIX.fullmatch(typed[0]) else None


def _item_candidates(
    connection: sqlite3.Connection,
    kind: SuggestKind,
    expression: str,
    prefix: str | None,
    query: SuggestQuery,
    typed: str,
) -> list[_Candidate]:
    """A kind's first `3 x limit` matches by weight, ties by row id. A short prefix reads them off
    `suggest_prefixes` in that order (about thirty rows); longer text goes through the FTS match,
    which for two letters reads about a thousand matches and their items to keep thirty."""
    clauses: list[str] = ["s.kind = ?"]
    params: list[Any] = [kind.value]
    if kind is SuggestKind.TAG and (query.category_id is not None or query.media_type_id is not None):
        topics = []
        if query.category_id is not None:
            topics.append("(s.topic_type = 'category' AND s.topic_id = ?)")
            params.append(query.category_id)
        if query.media_type_id is not None:
            topics.append("(s.topic_type = 'media_type' AND s.topic_id = ?)")
            params.append(query.media_type_id)
        clauses.append("(" + " OR ".join(topics) + ")")
    if prefix is not None:
        rows = connection.execute(
            "SELECT s.ref, s.text, s.weight, s.payload FROM suggest_prefixes p JOIN suggest_items s ON s.sid = p.sid "
            f"WHERE p.kind = ? AND p.prefix = ? AND {' AND '.join(clauses)} ORDER BY p.weight DESC, p.sid LIMIT ?",
            (kind.value, prefix, *params, query.limit * 3),
        ).fetchall()
    else:
        rows = connection.execute(
            "SELECT s.ref, s.text, s.weight, s.payload FROM suggest_text "
            "JOIN suggest_items s ON s.sid = suggest_text.rowid "
            f"WHERE suggest_text MATCH ? AND {' AND '.join(clauses)} ORDER BY s.weight DESC, s.sid LIMIT ?",
            (expression, *params, query.limit * 3),
        ).fetchall()
    return [
        (_text_score(text, typed) + 0.1 * math.log1p(weight), kind, ref, text, None, None, weight, payload)
        for ref, text, weight, payload in rows
    ]


def _suggestion(candidate: _Candidate) -> Suggestion:
    score, kind, ref, text, creator_id, category, _weight, payload_json = candidate
    if payload_json is None:  # a tour
        return Suggestion(type=kind, id=ref, text=text, creator_id=creator_id, category=category, score=score)
    return payload_suggestion(kind, ref, text, payload_json, score)


def payload_suggestion(kind: SuggestKind, ref: str, text: str, payload_json: str, score: float) -> Suggestion:
    """A creator, tag or place suggestion from its stored payload."""
    payload = json.loads(payload_json)
    return Suggestion(
        type=kind,
        id=ref,
        text=text,
        creator_id=payload.get("creator_id"),
        category=payload.get("category"),
        bbox=tuple(payload["bbox"]) if payload.get("bbox") else None,  # type: ignore[arg-type]
        center=tuple(payload["center"]) if payload.get("center") else None,  # type: ignore[arg-type]
        vt_count=payload.get("vt_count"),
        score=score,
    )


def popular_tags(connection: sqlite3.Connection, query: TagQuery) -> TagPage:
    """Tags by their documents' vt_count (the suggestion weight), most used first; unused tags left
    out. A key range of ix_suggest_kind_weight: the tags of a catalogue are a few thousand at most."""
    clauses = ["kind = 'tag'", "weight >= 1"]
    params: list[Any] = []
    topics = []
    for topic_type, topic_id in (("category", query.category_id), ("media_type", query.media_type_id)):
        if topic_id is not None:
            topics.append("(topic_type = ? AND topic_id = ?)")
            params += [topic_type, topic_id]
    if topics:
        clauses.append("(" + " OR ".join(topics) + ")")
    where = " AND ".join(clauses)
    total = int(connection.execute(f"SELECT count(*) FROM suggest_items WHERE {where}", params).fetchone()[0])
    rows = connection.execute(
        f"SELECT ref, text, weight, topic_type, topic_id FROM suggest_items WHERE {where} "
        "ORDER BY weight DESC, CAST(ref AS INTEGER) LIMIT ? OFFSET ?",
        (*params, rows_in_window(query.offset, query.limit), query.offset),
    ).fetchall()
    tags = [
        TagCount(id=int(ref), name=text, vt_count=int(weight), topic_type=topic_type or "", topic_id=int(topic_id or 0))
        for ref, text, weight, topic_type, topic_id in rows
    ]
    return TagPage(tags=tags, total=total)


def _text_score(text: str, typed: str) -> float:
    lowered = text.lower()
    if lowered == typed:
        return 3.0
    if lowered.startswith(typed):
        return 2.0
    return 1.0


SuggestionRow = tuple[str, str, str, float, str | None, int | None, dict[str, Any]]


def tag_suggestion(doc: TagDocument) -> SuggestionRow:
    return ("tag", str(doc.id), doc.name, float(doc.vt_count), doc.topic_type, doc.topic_id, {"vt_count": doc.vt_count})


def place_suggestion(doc: PlaceDocument) -> SuggestionRow:
    payload = {"center": [doc.lng, doc.lat], "bbox": list(doc.bbox) if doc.bbox else None, "vt_count": doc.vt_count}
    weight = float(doc.population) + (1e9 if doc.kind == "country" else 0.0)
    return ("place", doc.id, doc.name, weight, None, None, payload)


def creator_suggestion(doc: CreatorDocument) -> SuggestionRow:
    payload = {"creator_id": doc.id, "vt_count": doc.vt_count}
    text = doc.creator_name if not doc.platform_username else f"{doc.creator_name} @{doc.platform_username}"
    return ("creator", str(doc.id), text, float(doc.followers * 10 + doc.views), None, None, payload)


def write_suggestions(connection: sqlite3.Connection, items: Iterable[SuggestionRow]) -> int:
    count = 0
    for batch in batches(items, BATCH):
        connection.execute("BEGIN IMMEDIATE")
        for item in batch:
            upsert_suggestion(connection, item)
        connection.execute("COMMIT")
        count += len(batch)
    return count


def upsert_suggestion(connection: sqlite3.Connection, item: SuggestionRow) -> None:
    kind, ref, text, weight, topic_type, topic_id, payload = item
    existing = connection.execute("SELECT sid FROM suggest_items WHERE kind = ? AND ref = ?", (kind, ref)).fetchone()
    if existing:
        connection.execute("DELETE FROM suggest_text WHERE rowid = ?", existing)
        connection.execute("DELETE FROM suggest_prefixes WHERE sid = ?", existing)
        connection.execute(
            "UPDATE suggest_items SET text = ?, weight = ?, topic_type = ?, topic_id = ?, payload = ? WHERE sid = ?",
            (text, weight, topic_type, topic_id, json.dumps(payload), existing[0]),
        )
        sid = existing[0]
    else:
        cursor = connection.execute(
            "INSERT INTO suggest_items (kind, ref, text, weight, topic_type, topic_id, payload) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (kind, ref, text, weight, topic_type, topic_id, json.dumps(payload)),
        )
        sid = cursor.lastrowid
    connection.execute("INSERT INTO suggest_text (rowid, text) VALUES (?, ?)", (sid, text))
    _write_prefixes_of_one(connection, kind, sid, weight, text)


def load_suggestions(connection: sqlite3.Connection, items: Iterable[SuggestionRow]) -> int:
    """Suggestions of one kind into a file that holds none of that kind yet (a rebuild): the items
    in one statement, then their text rows in another, instead of a lookup and two writes each."""
    rows = [
        (kind, ref, text, weight, topic_type, topic_id, json.dumps(payload))
        for kind, ref, text, weight, topic_type, topic_id, payload in items
    ]
    if not rows:
        return 0
    connection.execute("BEGIN")
    connection.executemany(
        "INSERT INTO suggest_items (kind, ref, text, weight, topic_type, topic_id, payload) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (kind, ref) DO UPDATE SET text = excluded.text, "
        "weight = excluded.weight, topic_type = excluded.topic_type, topic_id = excluded.topic_id, "
        "payload = excluded.payload",
        rows,
    )
    connection.execute(
        "INSERT INTO suggest_text (rowid, text) SELECT sid, text FROM suggest_items WHERE kind = ?", (rows[0][0],)
    )
    fill_suggest_prefixes(connection, rows[0][0])
    connection.execute("COMMIT")
    return len(rows)


def delete_suggestion(connection: sqlite3.Connection, kind: SuggestKind, ref: str) -> None:
    existing = connection.execute(
        "SELECT sid FROM suggest_items WHERE kind = ? AND ref = ?", (kind.value, ref)
    ).fetchone()
    if existing:
        connection.execute("DELETE FROM suggest_text WHERE rowid = ?", existing)
        connection.execute("DELETE FROM suggest_prefixes WHERE sid = ?", existing)
        connection.execute("DELETE FROM suggest_items WHERE sid = ?", existing)


# The short prefixes of a term: (1), (2), … up to PREFIX_TABLE_LENGTH letters (shorter terms give
# themselves again, which INSERT OR IGNORE drops).
_LENGTHS = (
    "(WITH RECURSIVE n (length) AS (SELECT 1 UNION ALL SELECT length + 1 FROM n WHERE length < ?) SELECT length FROM n)"
)


def fill_suggest_prefixes(connection: sqlite3.Connection, kind: str | None = None) -> None:
    """The prefix rows of every item (of one kind) from the FTS vocabulary: a rebuild's load, or a
    file written before `suggest_prefixes` existed. The caller holds the transaction."""
    connection.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.suggest_vocabulary USING fts5vocab(main, suggest_text, instance)"
    )
    connection.execute(
        "INSERT OR IGNORE INTO suggest_prefixes (kind, prefix, weight, sid) "
        "SELECT s.kind, substr(v.term, 1, lengths.length), s.weight, s.sid "
        f"FROM temp.suggest_vocabulary v JOIN suggest_items s ON s.sid = v.doc, {_LENGTHS} AS lengths "
        "WHERE s.kind = coalesce(?, s.kind)",
        (PREFIX_TABLE_LENGTH, kind),
    )


def _write_prefixes_of_one(connection: sqlite3.Connection, kind: str, sid: int, weight: float, text: str) -> None:
    """One item's prefix rows: its text tokenized by a scratch FTS5 table with the tokenizer of
    `suggest_text` (the main table's vocabulary cannot be read for one row without reading it all)."""
    connection.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.suggest_scratch USING fts5("
        "text, tokenize = 'unicode61 remove_diacritics 2')"  # as suggest_text (schema.py)
    )
    connection.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.suggest_scratch_terms USING fts5vocab(temp, suggest_scratch, row)"
    )
    connection.execute("DELETE FROM temp.suggest_scratch")
    connection.execute("INSERT INTO temp.suggest_scratch (text) VALUES (?)", (text,))
    connection.execute(
        "INSERT OR IGNORE INTO suggest_prefixes (kind, prefix, weight, sid) "
        f"SELECT ?, substr(term, 1, lengths.length), ?, ? FROM temp.suggest_scratch_terms, {_LENGTHS} AS lengths",
        (kind, weight, sid, PREFIX_TABLE_LENGTH),
    )
