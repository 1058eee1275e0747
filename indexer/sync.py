"""Keeping the index equal to the database.

Services record an outbox entry in the same transaction as every change of a tour, creator, ad,
tag or classification. `dispatch_index_outbox` claims due entries, turns them into index writes and
marks them done. Counter changes are folded: many likes of one tour become one update. `reindex`
rebuilds the whole index from the database.

Claiming is safe with any number of workers at once:
- a claim is one short transaction that flips due entries to `processing`, stamps them with the
  claimer's token and counts the attempt. On PostgreSQL the candidates are read with
  `FOR UPDATE SKIP LOCKED`, so concurrent claimers take disjoint rows without waiting; on SQLite the
  database serialises writers, and the UPDATE re-checks that each row is still claimable, so a
  claimer that read the same candidates gets nothing;
- the claim is a lease: a worker that dies mid-batch leaves its entries `processing`, and they are
  claimable again once LEASE has passed since the claim;
- a failed entry goes back to `pending` with an exponential backoff, and is marked `failed` after
  MAX_ATTEMPTS claims (lease expiries count as attempts too, so an entry that kills its worker
  cannot loop for ever).
"""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, delete, or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from app.core.db import utcnow
from app.core.outbox import OutboxEntry, OutboxStatus
from app.core.settings import get_settings
from app.core.tasks import get_task_runner
from app.tours.models import Tour
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
LEASE = timedelta(minutes=5)
MAX_BACKOFF_SECONDS = 600
# One dispatch run stops taking new batches after this long, so a busy worker also serves other
# queued tasks; whatever is left is picked up by the next run (after-commit or the beat sweep).
DISPATCH_TIME_BUDGET_SECONDS = 60.0
DONE_RETENTION = timedelta(days=7)
HOST = socket.gethostname()

# Every tour's time-dependent scores (aggregate id "0": all of them), see refresh_all_scores.
SCORES_TOPIC = "index.scores"
SCORES_REFRESH_BATCH = 5000
INDEX_TOPICS = ("index.tour", "index.tour_counters", "index.creator", "index.ad", "index.tag", SCORES_TOPIC)

Progress = Callable[[str], None]


def _claimable(now: datetime, lease: timedelta) -> ColumnElement[bool]:
    return or_(
        and_(OutboxEntry.status == OutboxStatus.pending, OutboxEntry.available_at <= now),
        and_(
            OutboxEntry.status == OutboxStatus.processing,
            OutboxEntry.claimed_at < now - lease,
            OutboxEntry.attempts < MAX_ATTEMPTS,
        ),
    )


def claim_entries(
    session: Session, *, topics: Iterable[str], limit: int = CLAIM_BATCH, lease: timedelta = LEASE
) -> list[OutboxEntry]:
    """Take up to `limit` due entries for this worker (see the module text). Commit the session
    right after: the claim is only visible to other workers once committed."""
    now = utcnow()
    topic_list = list(topics)
    _fail_exhausted_leases(session, topic_list, now, lease)
    due = (
        select(OutboxEntry.id)
        .where(OutboxEntry.topic.in_(topic_list), _claimable(now, lease))
        .order_by(OutboxEntry.id)
        .limit(limit)
    )
    if session.get_bind().dialect.name == "postgresql":
        due = due.with_for_update(skip_locked=True)
    ids = list(session.scalars(due))
    if not ids:
        return []
    # host:pid:random: unique per claim, and says which process holds it (read at claim time, so each
    # process forked by a Celery prefork pool names itself).
    claim_token = f"{HOST}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
    session.execute(
        update(OutboxEntry)
        .where(OutboxEntry.id.in_(ids), _claimable(now, lease))
        .values(
            status=OutboxStatus.processing,
            claimed_by=claim_token,
            claimed_at=now,
            attempts=OutboxEntry.attempts + 1,
        )
        .execution_options(synchronize_session=False)
    )
    claimed = select(OutboxEntry).where(OutboxEntry.claimed_by == claim_token).order_by(OutboxEntry.id)
    return list(session.scalars(claimed.execution_options(populate_existing=True)))


def _fail_exhausted_leases(session: Session, topics: list[str], now: datetime, lease: timedelta) -> None:
    """An entry whose every attempt ended with its worker gone is not handed out again."""
    session.execute(
        update(OutboxEntry)
        .where(
            OutboxEntry.topic.in_(topics),
            OutboxEntry.status == OutboxStatus.processing,
            OutboxEntry.claimed_at < now - lease,
            OutboxEntry.attempts >= MAX_ATTEMPTS,
        )
        .values(status=OutboxStatus.failed, last_error="the worker handling it stopped (lease expired)")
        .execution_options(synchronize_session=False)
    )


def dispatch_index_outbox(
    session_factory: sessionmaker[Session],
    index: SearchIndex | None = None,
    *,
    batch: int = CLAIM_BATCH,
    lease: timedelta = LEASE,
    time_budget: float = DISPATCH_TIME_BUDGET_SECONDS,
) -> int:
    """Process due index entries batch by batch; returns how many entries were handled."""
    index = index or get_index()
    handled = 0
    deadline = time.monotonic() + time_budget
    while time.monotonic() < deadline:
        with session_factory.begin() as session:
            entries = claim_entries(session, topics=INDEX_TOPICS, limit=batch, lease=lease)
        if not entries:
            break
        handled += _process_batch(session_factory, index, entries)
    return handled


def _process_batch(session_factory: sessionmaker[Session], index: SearchIndex, entries: list[OutboxEntry]) -> int:
    """Apply a claimed batch. When the batch fails on a healthy index, one entry is at fault: each
    is retried alone so the others are not held back with it."""
    try:
        with session_factory() as session:
            apply_entries(session, index, entries)
    except Exception as exc:
        logger.exception("index sync failed for %d outbox entries", len(entries))
        if len(entries) == 1 or not index.health().startswith("ok"):
            _release_failed(session_factory, entries, exc)
            return 0
        return sum(_process_batch(session_factory, index, [entry]) for entry in entries)
    _mark_done(session_factory, entries)
    return len(entries)


def _mark_done(session_factory: sessionmaker[Session], entries: list[OutboxEntry]) -> None:
    with session_factory.begin() as session:
        for claim_token, ids in _ids_by_claim(entries).items():
            session.execute(
                update(OutboxEntry)
                .where(OutboxEntry.id.in_(ids), OutboxEntry.claimed_by == claim_token)
                .values(status=OutboxStatus.done, last_error=None)
                .execution_options(synchronize_session=False)
            )


def _release_failed(session_factory: sessionmaker[Session], entries: list[OutboxEntry], exc: Exception) -> None:
    """Back to pending with a later `available_at` (2, 4, 8 … seconds, at most MAX_BACKOFF_SECONDS),
    or failed for good after MAX_ATTEMPTS. Only entries still under our claim are touched."""
    now = utcnow()
    error = f"{exc.__class__.__name__}: {exc}"[:2000]
    with session_factory.begin() as session:
        for claim_token, ids in _ids_by_claim(entries).items():
            held = select(OutboxEntry).where(OutboxEntry.id.in_(ids), OutboxEntry.claimed_by == claim_token)
            for entry in session.scalars(held):
                entry.last_error = error
                entry.claimed_by = None
                if entry.attempts >= MAX_ATTEMPTS:
                    entry.status = OutboxStatus.failed
                else:
                    entry.status = OutboxStatus.pending
                    entry.available_at = now + timedelta(seconds=backoff_seconds(entry.attempts))


def backoff_seconds(attempts: int) -> int:
    return int(min(MAX_BACKOFF_SECONDS, 2**attempts))


def _ids_by_claim(entries: Iterable[OutboxEntry]) -> dict[str, list[int]]:
    grouped: dict[str, list[int]] = defaultdict(list)
    for entry in entries:
        grouped[entry.claimed_by or ""].append(entry.id)
    return grouped


def purge_done_entries(session_factory: sessionmaker[Session], *, older_than: timedelta = DONE_RETENTION) -> int:
    """Delete handled entries after a week (kept that long to answer "did this change reach the
    index?"); failed ones stay for an admin to look at."""
    cutoff = utcnow() - older_than
    with session_factory.begin() as session:
        result = session.execute(
            delete(OutboxEntry)
            .where(OutboxEntry.status == OutboxStatus.done, OutboxEntry.created_at < cutoff)
            .execution_options(synchronize_session=False)
        )
    return int(getattr(result, "rowcount", 0) or 0)


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
    if ids_by_topic.get(SCORES_TOPIC):
        refresh_all_scores(session, index)


def refresh_all_scores(session: Session, index: SearchIndex) -> int:
    """Rewrite every tour's counters and time-dependent scores (trending, popular) in the index,
    in batches; returns how many tours were read. Tours the index does not hold are skipped."""
    refreshed = 0
    last_id = 0
    while True:
        ids = list(
            session.scalars(select(Tour.id).where(Tour.id > last_id).order_by(Tour.id).limit(SCORES_REFRESH_BATCH))
        )
        if not ids:
            return refreshed
        index.update_counters(tour_counters(session, ids))
        refreshed += len(ids)
        last_id = ids[-1]


def _sync_tours(session: Session, index: SearchIndex, tour_ids: set[int]) -> None:
    docs: list[TourDocument] = list(tour_documents(session, tour_ids))
    index.upsert_tours(docs)
    # Whatever is no longer listable (draft, pending, deleted, owner drafted) leaves the index.
    index.delete_tours(sorted(tour_ids - {doc.id for doc in docs}))
    if docs and get_settings().embeddings_enabled:
        # Embedding takes ~10 ms a tour on 2 cores: its own task, so index sync never waits for it.
        get_task_runner().submit("embeddings.tours", ids=sorted(doc.id for doc in docs))


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
