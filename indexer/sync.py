"""Keeping the index equal to the database.

Services record an outbox entry in the same transaction as every change of a tour, creator, ad,
tag or classification. `dispatch_outbox` claims pending entries (safely, when several workers run),
turns them into index writes and marks them done; a failure is retried with backoff and marked
failed after MAX_ATTEMPTS. Counter changes are folded: many likes of one tour become one update.
`reindex` rebuilds the whole index from the database.
"""

from __future__ import annotations

import logging
import socket
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from app.core.db import utcnow
from app.core.outbox import OutboxEntry, OutboxStatus
from app.core.settings import get_settings
from app.core.tasks import get_task_runner
from indexer.documents import TourDocument
from indexer.embeddings import stored_vectors
from indexer.port import SearchIndex
from indexer.registry import get_index
from indexer.source import (
    ad_documents,
    creator_documents,
    place_documents,
    tag_documents,
    tour_counters,
    tour_documents,
)

logger = logging.getLogger("touratlas.indexer")

MAX_ATTEMPTS = 8
CLAIM_BATCH = 500
STALE_CLAIM = timedelta(minutes=5)
WORKER_ID = f"{socket.gethostname()}:{uuid.uuid4().hex[:8]}"

INDEX_TOPICS = ("index.tour", "index.tour_counters", "index.creator", "index.ad", "index.tag")

Progress = Callable[[str], None]


def claim_entries(session: Session, *, topics: Iterable[str], limit: int = CLAIM_BATCH) -> list[OutboxEntry]:
    """Mark up to `limit` due entries as ours. The outer `status = pending` check makes a second
    worker that raced for the same rows skip them (PostgreSQL re-checks it after the row lock)."""
    now = utcnow()
    due = (
        select(OutboxEntry.id)
        .where(OutboxEntry.topic.in_(list(topics)))
        .where(
            or_(
                (OutboxEntry.status == OutboxStatus.pending) & (OutboxEntry.available_at <= now),
                (OutboxEntry.status == OutboxStatus.processing) & (OutboxEntry.claimed_at < now - STALE_CLAIM),
            )
        )
        .order_by(OutboxEntry.id)
        .limit(limit)
    )
    if session.get_bind().dialect.name == "postgresql":
        due = due.with_for_update(skip_locked=True)
    ids = list(session.scalars(due))
    if not ids:
        return []
    claim_token = f"{WORKER_ID}:{uuid.uuid4().hex[:6]}"
    session.execute(
        update(OutboxEntry)
        .where(OutboxEntry.id.in_(ids))
        .where(OutboxEntry.status.in_([OutboxStatus.pending, OutboxStatus.processing]))
        .values(status=OutboxStatus.processing, claimed_by=claim_token, claimed_at=now)
        .execution_options(synchronize_session=False)
    )
    return list(session.scalars(select(OutboxEntry).where(OutboxEntry.claimed_by == claim_token)))


def dispatch_index_outbox(session_factory: sessionmaker[Session], index: SearchIndex | None = None) -> int:
    """Process every due index entry; returns how many entries were handled."""
    index = index or get_index()
    handled = 0
    while True:
        with session_factory.begin() as session:
            entries = claim_entries(session, topics=INDEX_TOPICS)
        if not entries:
            return handled
        try:
            with session_factory() as session:
                apply_entries(session, index, entries)
        except Exception as exc:
            logger.exception("index sync failed for %d outbox entries", len(entries))
            with session_factory.begin() as session:
                _mark_failed(session, [entry.id for entry in entries], exc)
            return handled
        with session_factory.begin() as session:
            session.execute(
                update(OutboxEntry)
                .where(OutboxEntry.id.in_([entry.id for entry in entries]))
                .values(status=OutboxStatus.done, last_error=None)
                .execution_options(synchronize_session=False)
            )
        handled += len(entries)


def apply_entries(session: Session, index: SearchIndex, entries: Iterable[OutboxEntry]) -> None:
    """Turn outbox entries into index writes. The database is the truth: every entry only names
    what changed, and the current rows are read now (so folding many entries into one is free)."""
    ids_by_topic: dict[str, set[int]] = defaultdict(set)
    for entry in entries:
        ids_by_topic[entry.topic].add(int(entry.aggregate_id))
    if tour_ids := ids_by_topic.get("index.tour"):
        _sync_tours(session, index, tour_ids)
    if counter_ids := ids_by_topic.get("index.tour_counters", set()) - ids_by_topic.get("index.tour", set()):
        index.update_counters(tour_counters(session, counter_ids))
    if creator_ids := ids_by_topic.get("index.creator"):
        docs = list(creator_documents(session, creator_ids))
        index.upsert_creators(docs)
        index.delete_creators(sorted(creator_ids - {doc.id for doc in docs}))
    if ad_ids := ids_by_topic.get("index.ad"):
        ads = list(ad_documents(session, ad_ids))
        index.upsert_ads(ads)
        index.delete_ads(sorted(ad_ids - {doc.id for doc in ads}))
    if tag_ids := ids_by_topic.get("index.tag"):
        tags = list(tag_documents(session, tag_ids))
        index.upsert_tags(tags)
        index.delete_tags(sorted(tag_ids - {doc.id for doc in tags}))


def _sync_tours(session: Session, index: SearchIndex, tour_ids: set[int]) -> None:
    docs: list[TourDocument] = list(tour_documents(session, tour_ids))
    index.upsert_tours(docs)
    # Whatever is no longer listable (draft, pending, deleted, owner drafted) leaves the index.
    index.delete_tours(sorted(tour_ids - {doc.id for doc in docs}))
    if docs and get_settings().embeddings_enabled:
        # Embedding takes ~10 ms a tour on 2 cores: its own task, so index sync never waits for it.
        get_task_runner().submit("embeddings.tours", ids=sorted(doc.id for doc in docs))


def _mark_failed(session: Session, ids: list[int], exc: Exception) -> None:
    now = utcnow()
    for entry in session.scalars(select(OutboxEntry).where(OutboxEntry.id.in_(ids))):
        entry.attempts += 1
        entry.last_error = f"{exc.__class__.__name__}: {exc}"[:2000]
        entry.claimed_by = None
        if entry.attempts >= MAX_ATTEMPTS:
            entry.status = OutboxStatus.failed
        else:
            entry.status = OutboxStatus.pending
            entry.available_at = now + timedelta(seconds=min(600, 2**entry.attempts))


def reindex(
    session_factory: sessionmaker[Session], *, index: SearchIndex | None = None, progress: Progress | None = None
) -> dict[str, int]:
    """Rebuild the whole index from the database (zero downtime: the adapter swaps at the end)."""
    index = index or get_index()
    report = progress or (lambda message: None)
    started = time.monotonic()
    with session_factory() as session:
        tours = _counting(tour_documents(session, None), report, "tours", started)
        counts = index.rebuild(
            tours=tours,
            creators=creator_documents(session, None),
            ads=ad_documents(session, None),
            tags=tag_documents(session, None),
            places=place_documents(session),
        )
    # Everything written before the rebuild started is in it; pending entries stay valid and
    # re-apply idempotently.
    report(
        f"indexed {counts.get('tours', 0):,} tours, {counts.get('creators', 0):,} creators, "
        f"{counts.get('tags', 0):,} tags, {counts.get('places', 0):,} places in {time.monotonic() - started:.1f} s"
    )
    counts["vectors"] = load_stored_vectors(session_factory, index)
    report(f"loaded {counts['vectors']:,} stored tour embeddings")
    return counts


def load_stored_vectors(session_factory: sessionmaker[Session], index: SearchIndex) -> int:
    """Give the index every embedding the database holds, so a fresh index from the database has its
    vectors too (computing missing ones is the `embeddings.tours` task's job)."""
    loaded = 0
    with session_factory() as session:
        for vectors in stored_vectors(session):
            index.set_vectors(vectors)
            loaded += len(vectors)
    return loaded


def _counting(docs: Iterable[Any], report: Progress, label: str, started: float, every: int = 50_000) -> Iterable[Any]:
    for position, doc in enumerate(docs, start=1):
        if position % every == 0:
            report(f"{label} {position:,} ({time.monotonic() - started:.0f} s)")
        yield doc


def ensure_index_built(session_factory: sessionmaker[Session], *, progress: Progress | None = None) -> None:
    """At start-up: rebuild when the index is empty but the database has listable tours, otherwise
    apply what the outbox still holds."""
    index = get_index()
    from indexer.source import listable_tour_count

    with session_factory() as session:
        wanted = listable_tour_count(session)
    if index.document_count() == 0 and wanted > 0:
        reindex(session_factory, index=index, progress=progress)
        return
    handled = dispatch_index_outbox(session_factory, index)
    if progress:
        progress(f"index up to date ({index.document_count():,} tours; {handled} pending changes applied)")
