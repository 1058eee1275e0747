"""Writing documents into the embedded index one by one (the outbox sync): tours with their tag,
text, card, pyramid and kept count rows, counters in place, creators, ads and tags. Every function
expects the caller (EmbeddedIndex) to hold the write lock; each write bumps the generation that
counted totals are cached under. A full rebuild writes a new file instead (build.py, EmbeddedIndex.rebuild)."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from indexer.cards import ad_card, creator_card
from indexer.documents import AdDocument, CreatorDocument, TourDocument, creator_document_from
from indexer.embedded.counts import counts_add
from indexer.embedded.pyramid import pyramid_add, rebuild_pyramid
from indexer.embedded.rows import (
    INSERT_CARD,
    INSERT_TEXT,
    INSERT_TOUR_AT_VERSION,
    card_row,
    compact_json,
    fraction,
    tag_ids,
    text_row,
    tour_row,
)
from indexer.embedded.schema import bump_generation, generation
from indexer.embedded.sql import batches
from indexer.embedded.suggestions import creator_suggestion, delete_suggestion, upsert_suggestion
from indexer.embedded.terms import remember_text_terms
from indexer.queries import SuggestKind

BATCH = 5000
# Above this many documents in one call, maintain the tile pyramid wholesale instead of per row.
PYRAMID_INCREMENTAL_LIMIT = 500


def upsert_tours(connection: sqlite3.Connection, docs: Iterable[TourDocument]) -> int:
    """Insert or replace tours, BATCH per transaction; the pyramids follow each row, or are rebuilt
    wholesale after a large batch. The caller holds the write lock."""
    count = 0
    for batch in batches(docs, BATCH):
        incremental = len(batch) <= PYRAMID_INCREMENTAL_LIMIT
        connection.execute("BEGIN IMMEDIATE")
        version = written_version(connection)
        for doc in batch:
            _upsert_tour(connection, doc, maintain_pyramid=incremental, version=version)
        remember_text_terms(connection, (_words_of(doc) for doc in batch))
        if not incremental:
            rebuild_pyramid(connection)
        bump_generation(connection)
        connection.execute("COMMIT")
        count += len(batch)
    return count


def written_version(connection: sqlite3.Connection) -> int:
    """The `tours.version` of rows written in this transaction: the generation it will commit, which
    no committed row has carried (inside the caller's BEGIN IMMEDIATE, so no other writer bumps it)."""
    return generation(connection) + 1


_EXISTING = "SELECT rid, category_id, cell, lat, lng, country, media_type_id FROM tours WHERE id = ?"


def _upsert_tour(connection: sqlite3.Connection, doc: TourDocument, *, maintain_pyramid: bool, version: int) -> None:
    existing = connection.execute(_EXISTING, (doc.id,)).fetchone()
    rid: int | None = None
    if existing is not None:
        old_rid, category_id, cell, lat, lng, country, media_type_id = existing
        if old_rid > 0:
            if maintain_pyramid:
                pyramid_add(connection, category_id, cell, lat, lng, tags_of(connection, old_rid), -1)
            counts_add(connection, category_id, country, media_type_id, lat is not None, -1)
        delete_tour_rows(connection, old_rid)
        if (old_rid < 0) == doc.unlisted:
            rid = old_rid  # keeps its place; a tour listed or unlisted since moves to the other side
    if rid is None:
        rid = _new_rid(connection, unlisted=doc.unlisted)
    row = tour_row(rid, doc)
    connection.execute(INSERT_TOUR_AT_VERSION, (*row, version))
    connection.execute(INSERT_CARD, card_row(rid, doc))
    connection.executemany(
        "INSERT INTO tour_tags (tag_id, category_id, country, rid) VALUES (?, ?, ?, ?)",
        [(tag_id, doc.category_id, doc.country or "", rid) for tag_id in tag_ids(doc)],
    )
    listed = rid > 0  # the pyramids and the tag cell key hold listed tours only
    if row[10] is not None and listed:
        connection.executemany(
            "INSERT INTO tag_cells (tag_id, cell, rid, category_id, lat, lng) VALUES (?, ?, ?, ?, ?, ?)",
            [(tag_id, row[10], rid, doc.category_id, doc.lat, doc.lng) for tag_id in tag_ids(doc)],
        )
    connection.execute(INSERT_TEXT, text_row(rid, doc))
    if listed:
        if maintain_pyramid:
            pyramid_add(connection, doc.category_id, row[10], doc.lat, doc.lng, tag_ids(doc), +1)
        counts_add(connection, doc.category_id, doc.country, doc.media_type_id, doc.lat is not None, +1)


def _words_of(doc: TourDocument) -> str:
    """The title and body a tour's `tour_text` row holds (its searchable words, not the keys)."""
    _rid, title, body, _keys = text_row(0, doc)
    return f"{title} {body}"


def _new_rid(connection: sqlite3.Connection, *, unlisted: bool) -> int:
    """After the highest row id for a listed tour (it appends to the views order), below the lowest
    (and below zero) for an unlisted one."""
    if unlisted:
        return int(connection.execute("SELECT min(coalesce(min(rid), 0), 0) FROM tours").fetchone()[0]) - 1
    return int(connection.execute("SELECT max(coalesce(max(rid), 0), 0) FROM tours").fetchone()[0]) + 1


def delete_tours(connection: sqlite3.Connection, ids: Sequence[int]) -> None:
    """Remove tours with their pyramid and kept counts and vectors. The caller holds the write lock."""
    connection.execute("BEGIN IMMEDIATE")
    for tour_id in ids:
        existing = connection.execute(_EXISTING, (tour_id,)).fetchone()
        if existing is None:
            continue
        rid, category_id, cell, lat, lng, country, media_type_id = existing
        if rid > 0:
            pyramid_add(connection, category_id, cell, lat, lng, tags_of(connection, rid), -1)
            counts_add(connection, category_id, country, media_type_id, lat is not None, -1)
        delete_tour_rows(connection, rid)
        connection.execute("DELETE FROM vectors WHERE id = ?", (tour_id,))
    bump_generation(connection)
    connection.execute("COMMIT")


def delete_tour_rows(connection: sqlite3.Connection, rid: int) -> None:
    connection.execute(
        "DELETE FROM tag_cells WHERE tag_id IN (SELECT tag_id FROM tour_tags WHERE rid = ?) "
        "AND cell = (SELECT cell FROM tours WHERE rid = ?) AND rid = ?",
        (rid, rid, rid),
    )
    connection.execute("DELETE FROM tours WHERE rid = ?", (rid,))
    connection.execute("DELETE FROM tour_cards WHERE tour_rid = ?", (rid,))
    connection.execute("DELETE FROM tour_tags WHERE rid = ?", (rid,))
    connection.execute("DELETE FROM tour_text WHERE rowid = ?", (rid,))


def tags_of(connection: sqlite3.Connection, rid: int) -> list[int]:
    return [row[0] for row in connection.execute("SELECT tag_id FROM tour_tags WHERE rid = ?", (rid,))]


def update_counters(connection: sqlite3.Connection, counters: dict[int, dict[str, float]]) -> None:
    """Counters change often: update the columns and the card in place, no text or geo work."""
    allowed = ("views", "likes", "saves", "shared", "trending", "popular")
    connection.execute("BEGIN IMMEDIATE")
    version = written_version(connection)
    for tour_id, values in counters.items():
        row = connection.execute(
            "SELECT card, feature, rid FROM tours JOIN tour_cards ON tour_rid = rid WHERE id = ?", (tour_id,)
        ).fetchone()
        if row is None:
            continue
        changes = {key: value for key, value in values.items() if key in allowed}
        if not changes:
            continue
        card, feature = json.loads(row[0]), json.loads(row[1])
        for key, value in changes.items():
            if key in card:
                card[key] = value
            if key in feature:
                feature[key] = value
        assignments = ", ".join(f"{key} = ?" for key in changes)
        # SET sees the old row on its right-hand side, so favorite adds the new values.
        connection.execute(
            f"UPDATE tours SET {assignments}, favorite = coalesce(?, likes) + coalesce(?, saves), version = ? "
            "WHERE rid = ?",
            (*changes.values(), changes.get("likes"), changes.get("saves"), version, row[2]),
        )
        connection.execute(
            "UPDATE tour_cards SET card = ?, feature = ? WHERE tour_rid = ?",
            (compact_json(card), compact_json(feature), row[2]),
        )
    bump_generation(connection, counters_only=True)
    connection.execute("COMMIT")


def write_creators(connection: sqlite3.Connection, docs: Iterable[CreatorDocument]) -> int:
    count = 0
    for batch in batches(docs, BATCH):
        connection.execute("BEGIN IMMEDIATE")
        for doc in batch:
            existing = connection.execute("SELECT rid FROM creators WHERE id = ?", (doc.id,)).fetchone()
            if existing:
                connection.execute("DELETE FROM creators WHERE rid = ?", existing)
                connection.execute("DELETE FROM creator_text WHERE rowid = ?", existing)
            cursor = connection.execute(
                "INSERT INTO creators (id, user_id, name_key, created_at, followers, views, likes, vt_count, "
                "countries, categories, card, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    doc.id,
                    doc.user_id,
                    doc.creator_name.lower(),
                    doc.created_at,
                    doc.followers,
                    doc.views,
                    doc.likes,
                    doc.vt_count,
                    key_list(doc.countries),
                    key_list(doc.category_ids),
                    json.dumps(creator_card(doc)),
                    json.dumps(dataclasses.asdict(doc)),
                ),
            )
            connection.execute(
                "INSERT INTO creator_text (rowid, name, body) VALUES (?, ?, ?)",
                (cursor.lastrowid, f"{doc.creator_name} {doc.platform_username or ''}", " ".join(doc.locations)),
            )
            upsert_suggestion(connection, creator_suggestion(doc))
        bump_generation(connection)
        connection.execute("COMMIT")
        count += len(batch)
    return count


def delete_creators(connection: sqlite3.Connection, ids: Sequence[int]) -> None:
    connection.execute("BEGIN IMMEDIATE")
    for creator_id in ids:
        existing = connection.execute("SELECT rid FROM creators WHERE id = ?", (creator_id,)).fetchone()
        if existing:
            connection.execute("DELETE FROM creators WHERE rid = ?", existing)
            connection.execute("DELETE FROM creator_text WHERE rowid = ?", existing)
        delete_suggestion(connection, SuggestKind.CREATOR, str(creator_id))
    bump_generation(connection)
    connection.execute("COMMIT")


def write_ads(connection: sqlite3.Connection, docs: Iterable[AdDocument]) -> int:
    rows = [(doc.id, fraction(f"ad:{doc.guid}"), doc.created_at, json.dumps(ad_card(doc))) for doc in docs]
    connection.execute("BEGIN IMMEDIATE")
    connection.executemany(
        "INSERT INTO ads (id, random_key, created_at, card) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (id) DO UPDATE SET random_key = excluded.random_key, created_at = excluded.created_at, "
        "card = excluded.card",
        rows,
    )
    bump_generation(connection)  # every process's AdRotation reloads
    connection.execute("COMMIT")
    return len(rows)


def delete_ads(connection: sqlite3.Connection, ids: Sequence[int]) -> None:
    connection.execute("BEGIN IMMEDIATE")
    connection.executemany("DELETE FROM ads WHERE id = ?", [(ad_id,) for ad_id in ids])
    bump_generation(connection)
    connection.execute("COMMIT")


def delete_tags(connection: sqlite3.Connection, ids: Sequence[int]) -> None:
    connection.execute("BEGIN IMMEDIATE")
    for tag_id in ids:
        delete_suggestion(connection, SuggestKind.TAG, str(tag_id))
    connection.execute("COMMIT")


def key_list(values: Iterable[Any]) -> str:
    return "|" + "|".join(str(value) for value in values) + "|"


def move_cards_out_of_tours(connection: sqlite3.Connection) -> None:
    """Files written before the cards had their own table carry them in `tours`: move them once."""
    if "card" not in {row[1] for row in connection.execute("PRAGMA table_info(tours)")}:
        return
    connection.execute("BEGIN IMMEDIATE")
    try:
        if "card" in {row[1] for row in connection.execute("PRAGMA table_info(tours)")}:
            connection.execute("INSERT INTO tour_cards (tour_rid, card, feature) SELECT rid, card, feature FROM tours")
            connection.execute("ALTER TABLE tours DROP COLUMN card")
            connection.execute("ALTER TABLE tours DROP COLUMN feature")
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise


def read_creator(connection: sqlite3.Connection, creator_id: int) -> CreatorDocument | None:
    row = connection.execute("SELECT document FROM creators WHERE id = ?", (creator_id,)).fetchone()
    if row is None or row[0] is None:
        return None  # not listed, or written by layout 1 (no document) and not reindexed since
    return creator_document_from(json.loads(row[0]))


def add_tour_versions(connection: sqlite3.Connection) -> None:
    """Files written before `tours.version` get the column once, at 0 for every row, as a rebuild
    writes it: nothing for a reindex to fill, every later write stamps its rows."""
    if "version" in {row[1] for row in connection.execute("PRAGMA table_info(tours)")}:
        return
    connection.execute("ALTER TABLE tours ADD COLUMN version INTEGER NOT NULL DEFAULT 0")


def add_creator_documents(connection: sqlite3.Connection) -> None:
    """Files written before creator rows kept their document (layout 1) get the column once; their
    rows stay without one, and the file reports creators outdated, until a reindex."""
    if "document" in {row[1] for row in connection.execute("PRAGMA table_info(creators)")}:
        return
    connection.execute("ALTER TABLE creators ADD COLUMN document TEXT")


def has_table(connection: sqlite3.Connection, name: str) -> bool:
    row = connection.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone()
    return row is not None
