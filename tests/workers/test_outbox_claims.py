"""Outbox claiming (app/core/outbox.py, driven here by the index sync of app/search/sync.py):
disjoint claims under concurrency, leases that outlive a dead worker, a heartbeat that keeps a live
worker's claim through a long batch, backoff and the final `failed`, a poison entry that does not
hold back its batch. (A real worker killed mid-batch: tests/realtime/test_outbox_heartbeat.py.)"""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.core.after_commit import discard_pending
from app.core.db import get_sessionmaker, utcnow
from app.core.outbox import (
    MAX_ATTEMPTS,
    OutboxEntry,
    OutboxStatus,
    add_outbox,
    claim_entries,
    configured_lease,
    dispatch_entries,
    purge_done_entries,
    renew_claims,
)
from app.search.registry import get_index
from app.search.sync import INDEX_TOPICS, dispatch_index_outbox
from tests import factories


def pending_entries(db: Session, count: int, topic: str = "index.tour_counters") -> list[int]:
    """Entries written without the after-commit dispatch, so the test decides who claims them."""
    now = utcnow()
    rows = [
        OutboxEntry(
            topic=topic,
            aggregate_id=str(1000 + number),
            payload={},
            status=OutboxStatus.pending,
            attempts=0,
            available_at=now,
            created_at=now,
        )
        for number in range(count)
    ]
    db.add_all(rows)
    db.flush()
    discard_pending(db)
    db.commit()
    return [row.id for row in rows]


def entries(db: Session) -> list[OutboxEntry]:
    db.expire_all()
    return list(db.scalars(select(OutboxEntry).order_by(OutboxEntry.id)))


def claim(limit: int, lease: timedelta | None = None) -> list[int]:
    with get_sessionmaker().begin() as session:
        return [entry.id for entry in claim_entries(session, topics=INDEX_TOPICS, limit=limit, lease=lease)]


def test_claims_take_disjoint_entries_and_count_the_attempt(db: Session) -> None:
    ids = pending_entries(db, 10)
    first, second = claim(4), claim(10)
    assert first == ids[:4] and second == ids[4:]
    assert claim(10) == []
    rows = entries(db)
    assert {row.status for row in rows} == {OutboxStatus.processing}
    assert {row.attempts for row in rows} == {1}
    assert len({row.claimed_by for row in rows}) == 2


def test_concurrent_claimers_never_share_an_entry(db: Session) -> None:
    ids = pending_entries(db, 300)
    claimers = 4
    start = threading.Barrier(claimers)
    taken: list[list[int]] = [[] for _ in range(claimers)]
    errors: list[BaseException] = []

    def worker(slot: int) -> None:
        try:
            start.wait()
            while batch := claim(15):
                taken[slot].extend(batch)
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(slot,)) for slot in range(claimers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    everything = [entry_id for batch in taken for entry_id in batch]
    assert sorted(everything) == ids  # every entry claimed, none twice
    assert {row.attempts for row in entries(db)} == {1}


def test_a_dead_workers_entries_are_reclaimed_after_the_lease(db: Session) -> None:
    catalog = factories.catalog(db)
    tour = catalog.tour(db, factories.user(db))
    discard_pending(db)  # no eager dispatch: a worker takes the entry and dies
    db.commit()
    assert claim(10) != []  # claimed, never finished
    assert dispatch_index_outbox(get_sessionmaker()) == 0  # the lease still holds
    assert tour.id not in get_index().tour_ids()

    assert dispatch_index_outbox(get_sessionmaker(), lease=timedelta(0)) == 1
    (entry,) = entries(db)
    assert entry.status == OutboxStatus.done and entry.attempts == 2
    assert tour.id in get_index().tour_ids()


def test_a_live_worker_keeps_its_claim_through_a_batch_longer_than_the_lease(db: Session) -> None:
    """The heartbeat renews the claim while the batch runs: another claimer, polling all along with
    the same short lease, never gets an entry, and each is handled once."""
    ids = pending_entries(db, 5)
    lease = timedelta(seconds=1.5)
    handling = threading.Event()
    stolen: list[int] = []

    def slow(batch: list[OutboxEntry]) -> None:
        handling.set()
        time.sleep(3 * lease.total_seconds())

    def other_worker() -> None:
        handling.wait(10)
        while handling.is_set():
            stolen.extend(claim(10, lease=lease))
            time.sleep(0.1)

    thief = threading.Thread(target=other_worker)
    thief.start()
    try:
        handled = dispatch_entries(get_sessionmaker(), topics=INDEX_TOPICS, handle=slow, lease=lease)
    finally:
        handling.clear()
        thief.join(10)
    assert handled == 5 and stolen == []
    rows = entries(db)
    assert [row.id for row in rows] == ids
    assert {row.status for row in rows} == {OutboxStatus.done} and {row.attempts for row in rows} == {1}


def test_the_heartbeat_renews_only_entries_still_under_its_claim(db: Session) -> None:
    assert configured_lease() == timedelta(seconds=30)  # OUTBOX_LEASE_SECONDS' default
    pending_entries(db, 3)
    with get_sessionmaker().begin() as session:
        claimed = claim_entries(session, topics=INDEX_TOPICS, limit=3)
    token = claimed[0].claimed_by
    assert token is not None
    long_ago = utcnow() - timedelta(minutes=1)
    done, taken, held = (entry.id for entry in claimed)
    db.execute(update(OutboxEntry).values(claimed_at=long_ago))
    db.execute(update(OutboxEntry).where(OutboxEntry.id == done).values(status=OutboxStatus.done))
    db.execute(update(OutboxEntry).where(OutboxEntry.id == taken).values(claimed_by="another-worker"))
    db.commit()

    assert renew_claims(get_sessionmaker(), {token: [done, taken, held]}) == 1
    by_id = {row.id: row for row in entries(db)}
    assert _aware(by_id[held].claimed_at) > _aware(long_ago) + timedelta(seconds=30)
    assert _aware(by_id[done].claimed_at) == _aware(by_id[taken].claimed_at) == _aware(long_ago)


def test_a_failing_entry_backs_off_then_fails_for_good(db: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    pending_entries(db, 1)

    def index_down(*_args: Any, **_kwargs: Any) -> None:
        raise ConnectionError("index unavailable")

    monkeypatch.setattr(get_index(), "update_counters", index_down)
    backoffs = []
    for attempt in range(1, MAX_ATTEMPTS + 1):
        before = utcnow()
        assert dispatch_index_outbox(get_sessionmaker()) == 0
        (entry,) = entries(db)
        assert entry.attempts == attempt and "index unavailable" in (entry.last_error or "")
        if attempt < MAX_ATTEMPTS:
            assert entry.status == OutboxStatus.pending and entry.claimed_by is None
            backoffs.append((_aware(entry.available_at) - before).total_seconds())
            db.execute(update(OutboxEntry).values(available_at=before))  # the backoff has passed
            db.commit()
    assert entry.status == OutboxStatus.failed
    # 2, 4, 8 … seconds after the failure (measured from just before it)
    assert all(2**attempt <= waited < 2**attempt + 5 for attempt, waited in enumerate(backoffs, start=1))
    assert len(backoffs) == MAX_ATTEMPTS - 1
    assert dispatch_index_outbox(get_sessionmaker()) == 0  # failed entries are left alone


def test_a_poison_entry_does_not_hold_back_its_batch(db: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = factories.catalog(db)
    owner = factories.user(db)
    tours = [catalog.tour(db, owner) for _ in range(3)]
    discard_pending(db)
    db.commit()
    index = get_index()
    poison = tours[1].id
    real_upsert = index.upsert_tours

    def upsert_refusing_one(docs: Any) -> int:
        docs = list(docs)
        if any(doc.id == poison for doc in docs):
            raise ValueError("document rejected")
        return real_upsert(docs)

    monkeypatch.setattr(index, "upsert_tours", upsert_refusing_one)
    assert dispatch_index_outbox(get_sessionmaker()) == 2
    assert index.tour_ids() == {tours[0].id, tours[2].id}
    by_tour = {int(entry.aggregate_id): entry for entry in entries(db)}
    assert by_tour[poison].status == OutboxStatus.pending and "document rejected" in (by_tour[poison].last_error or "")
    assert {by_tour[tour.id].status for tour in (tours[0], tours[2])} == {OutboxStatus.done}


def test_an_entry_whose_workers_keep_dying_is_failed(db: Session) -> None:
    (entry_id,) = pending_entries(db, 1)
    db.execute(
        update(OutboxEntry).values(
            status=OutboxStatus.processing, attempts=MAX_ATTEMPTS, claimed_at=utcnow() - timedelta(hours=1)
        )
    )
    db.commit()
    assert claim(10) == []
    (entry,) = entries(db)
    assert entry.id == entry_id and entry.status == OutboxStatus.failed and "lease expired" in (entry.last_error or "")


def test_handled_entries_are_purged_after_a_week(db: Session) -> None:
    old, recent = pending_entries(db, 2)
    db.execute(update(OutboxEntry).values(status=OutboxStatus.done))
    db.execute(update(OutboxEntry).where(OutboxEntry.id == old).values(created_at=utcnow() - timedelta(days=8)))
    add_outbox(db, "index.tour_counters", 5, {})  # still pending: kept whatever its age
    discard_pending(db)
    db.commit()
    assert purge_done_entries(get_sessionmaker()) == 1
    assert [entry.id for entry in entries(db)][:1] == [recent]


def _aware(moment: Any) -> Any:
    from datetime import UTC

    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
