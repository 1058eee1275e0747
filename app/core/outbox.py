"""The transactional outbox.

A service that changes something the outside world must hear about (the search index, mail,
realtime clients) adds an `OutboxEntry` in the same transaction as the change. The entry commits or
rolls back with it, so no index update or mail is ever lost or sent for a change that did not
happen. Workers claim due entries (`status = pending`, `available_at <= now`), handle them and mark
them done; a failure goes back to pending with a later `available_at`. The claiming, leases,
backoff and purge below serve every topic.
"""

from __future__ import annotations

import enum
import logging
import os
import socket
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import JSON, ColumnElement, Enum, Index, String, Text, and_, delete, or_, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from app.core.db import Base, utcnow
from app.core.settings import get_settings


class OutboxStatus(enum.StrEnum):
    pending = "pending"
    processing = "processing"
    done = "done"
    failed = "failed"


class OutboxEntry(Base):
    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_status_available_at", "status", "available_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # What to do: 'index.tour', 'index.creator', 'index.ad', 'index.tag', 'mail.send', 'realtime.emit', ...
    topic: Mapped[str] = mapped_column(String(64), index=True)
    aggregate_id: Mapped[str] = mapped_column(String(64))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[OutboxStatus] = mapped_column(
        Enum(OutboxStatus, native_enum=False, validate_strings=True, length=16), default=OutboxStatus.pending
    )
    attempts: Mapped[int] = mapped_column(default=0)
    available_at: Mapped[datetime] = mapped_column(default=utcnow)
    claimed_by: Mapped[str | None] = mapped_column(String(128), index=True)
    claimed_at: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


def add_outbox(session: Session, topic: str, aggregate_id: str | int, payload: dict[str, Any]) -> OutboxEntry:
    """Record work for after the commit; it is flushed with the caller's other changes."""
    now = utcnow()
    entry = OutboxEntry(
        topic=topic,
        aggregate_id=str(aggregate_id),
        payload=payload,
        status=OutboxStatus.pending,
        attempts=0,
        available_at=now,
        created_at=now,
    )
    session.add(entry)
    return entry


# --------------------------------------------------------------------- claiming and handling entries
#
# Claiming is safe with any number of workers at once:
# - a claim is one short transaction that flips due entries to `processing`, stamps them with the
#   claimer's token and counts the attempt. On PostgreSQL the candidates are read with
#   `FOR UPDATE SKIP LOCKED`, so concurrent claimers take disjoint rows without waiting; on SQLite the
#   database serialises writers, and the UPDATE re-checks that each row is still claimable, so a
#   claimer that read the same candidates gets nothing;
# - the claim is a lease: a worker that dies mid-batch leaves its entries `processing`, and they are
#   claimable again once the lease (OUTBOX_LEASE_SECONDS, 30 s) has passed since the claim was last
#   renewed. While a batch is handled a heartbeat thread renews it every third of the lease, so a
#   batch may take as long as it needs and a dead worker's entries wait seconds, not minutes. Leases
#   are compared with each process's clock: keep the hosts' clocks in step (NTP), well within the
#   two thirds of a lease a late heartbeat has in hand;
# - a failed entry goes back to `pending` with an exponential backoff, and is marked `failed` after
#   MAX_ATTEMPTS claims (lease expiries count as attempts too, so an entry that kills its worker
#   cannot loop for ever).
#
# A topic's consumer (the index sync in app/search/sync.py, and whatever comes next) only says which
# topics it takes and how a claimed batch is handled: `dispatch_entries` does the rest.

MAX_ATTEMPTS = 8
CLAIM_BATCH = 500
# Renewals per lease: two may be missed (a busy database, a long pause) before the claim is lost.
HEARTBEATS_PER_LEASE = 3
MIN_HEARTBEAT_SECONDS = 0.1  # a zero lease (tests: "take it now") must not spin the heartbeat
MAX_BACKOFF_SECONDS = 600
# One dispatch run stops taking new batches after this long, so a busy worker also serves other
# queued tasks; whatever is left is picked up by the next run (after-commit or the beat sweep).
DISPATCH_TIME_BUDGET_SECONDS = 60.0
DONE_RETENTION = timedelta(days=7)
HOST = socket.gethostname()

logger = logging.getLogger("touratlas.outbox")

BatchHandler = Callable[[list[OutboxEntry]], None]


def configured_lease() -> timedelta:
    """The lease every claimer uses (OUTBOX_LEASE_SECONDS): every process must agree on it."""
    return timedelta(seconds=get_settings().outbox_lease_seconds)


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
    session: Session, *, topics: Iterable[str], limit: int = CLAIM_BATCH, lease: timedelta | None = None
) -> list[OutboxEntry]:
    """Take up to `limit` due entries of these topics for this worker (see the notes above). Commit
    the session right after: the claim is only visible to other workers once committed."""
    lease = configured_lease() if lease is None else lease
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


def dispatch_entries(
    session_factory: sessionmaker[Session],
    *,
    topics: Sequence[str],
    handle: BatchHandler,
    isolate_failures: Callable[[], bool] = lambda: True,
    batch: int = CLAIM_BATCH,
    lease: timedelta | None = None,
    time_budget: float = DISPATCH_TIME_BUDGET_SECONDS,
) -> int:
    """Claim due entries of `topics` batch by batch and hand each batch to `handle`; returns how many
    entries were handled. A batch `handle` raised on is retried entry by entry when
    `isolate_failures()` says the fault is likely one entry's (the target answers), so one poison
    entry does not hold back the others; otherwise the whole batch backs off. The claim is renewed
    while the batch is handled (ClaimHeartbeat)."""
    lease = configured_lease() if lease is None else lease
    handled = 0
    deadline = time.monotonic() + time_budget
    while time.monotonic() < deadline:
        with session_factory.begin() as session:
            entries = claim_entries(session, topics=topics, limit=batch, lease=lease)
        if not entries:
            break
        with ClaimHeartbeat(session_factory, entries, every=lease.total_seconds() / HEARTBEATS_PER_LEASE) as beat:
            handled += _handle_batch(session_factory, entries, handle, isolate_failures, beat)
    return handled


def _handle_batch(
    session_factory: sessionmaker[Session],
    entries: list[OutboxEntry],
    handle: BatchHandler,
    isolate_failures: Callable[[], bool],
    beat: ClaimHeartbeat,
) -> int:
    try:
        handle(entries)
    except Exception as exc:
        logger.exception("handling failed for %d outbox entries (%s)", len(entries), entries[0].topic)
        if len(entries) == 1 or not isolate_failures():
            with beat.paused():
                release_failed(session_factory, entries, exc)
            return 0
        return sum(_handle_batch(session_factory, [entry], handle, isolate_failures, beat) for entry in entries)
    with beat.paused():
        mark_done(session_factory, entries)
    return len(entries)


class ClaimHeartbeat:
    """Renews a batch's claim (`claimed_at`) every `every` seconds from a thread of its own while
    the batch is handled, so the lease can be short: a worker that is alive keeps its entries however
    long the batch takes; one that died stops renewing and its entries are free a lease later.

    Only entries still `processing` under our claim are renewed: those already marked done or
    released are left alone. Renewals and the marks never overlap (`paused`): on PostgreSQL two
    transactions updating the same rows in different orders could deadlock."""

    def __init__(self, session_factory: sessionmaker[Session], entries: list[OutboxEntry], *, every: float) -> None:
        self._session_factory = session_factory
        self._claims = _ids_by_claim(entries)
        self._every = max(every, MIN_HEARTBEAT_SECONDS)
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="touratlas-outbox-heartbeat", daemon=True)

    def __enter__(self) -> ClaimHeartbeat:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()

    @contextmanager
    def paused(self) -> Iterator[None]:
        with self._lock:
            yield

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            try:
                with self._lock:
                    if self._stop.is_set():
                        return
                    renew_claims(self._session_factory, self._claims)
            except Exception:
                # The next beat tries again; two missed in a row still leave a third of the lease.
                logger.warning("could not renew the claim of %d outbox entries", len(self._claims), exc_info=True)


def renew_claims(session_factory: sessionmaker[Session], claims: dict[str, list[int]]) -> int:
    """Stamp `claimed_at = now` on the entries still being handled under these claims; returns how
    many were renewed."""
    renewed = 0
    now = utcnow()
    with session_factory.begin() as session:
        for claim_token, ids in claims.items():
            result = session.execute(
                update(OutboxEntry)
                .where(
                    OutboxEntry.id.in_(ids),
                    OutboxEntry.claimed_by == claim_token,
                    OutboxEntry.status == OutboxStatus.processing,
                )
                .values(claimed_at=now)
                .execution_options(synchronize_session=False)
            )
            renewed += int(getattr(result, "rowcount", 0) or 0)
    return renewed


def mark_done(session_factory: sessionmaker[Session], entries: list[OutboxEntry]) -> None:
    """Handled: only entries still under our claim are touched (a lease may have passed meanwhile)."""
    with session_factory.begin() as session:
        for claim_token, ids in _ids_by_claim(entries).items():
            session.execute(
                update(OutboxEntry)
                .where(OutboxEntry.id.in_(ids), OutboxEntry.claimed_by == claim_token)
                .values(status=OutboxStatus.done, last_error=None)
                .execution_options(synchronize_session=False)
            )


def release_failed(session_factory: sessionmaker[Session], entries: list[OutboxEntry], exc: Exception) -> None:
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
    """Delete handled entries after a week (kept that long to answer "did this change reach its
    consumer?"); failed ones stay for an admin to look at."""
    cutoff = utcnow() - older_than
    with session_factory.begin() as session:
        result = session.execute(
            delete(OutboxEntry)
            .where(OutboxEntry.status == OutboxStatus.done, OutboxEntry.created_at < cutoff)
            .execution_options(synchronize_session=False)
        )
    return int(getattr(result, "rowcount", 0) or 0)
