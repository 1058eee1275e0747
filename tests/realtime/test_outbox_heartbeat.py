"""A worker killed mid-batch (issue 12 part 9e): while it lives, its heartbeat keeps the claim
though the lease passes several times; once it is killed (SIGKILL: no clean-up at all), another
worker takes its entries within seconds and nothing is lost.

Its own stack (database, Redis database, workers), so no other test's worker takes the batch."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from app.core.outbox import OutboxEntry, OutboxStatus
from tests import factories
from tests.realtime.stack import Stack, commit_without_dispatch, stack_unavailable, wait_for
from tests.realtime.test_celery_workers import worker_pid

pytestmark = pytest.mark.distributed

# Short, so the test is too: heartbeats every second (a third of it).
LEASE_SECONDS = 3.0


@pytest.fixture
def own_stack(tmp_path: Path) -> Iterator[Stack]:
    if reason := stack_unavailable():
        pytest.skip(f"distributed tests skipped: {reason}")
    running = Stack(tmp_path)
    try:
        running.start()
        yield running
    finally:
        running.stop()


def outbox(stack: Stack) -> list[OutboxEntry]:
    with stack.session() as session:
        return list(session.scalars(select(OutboxEntry).order_by(OutboxEntry.id)))


def test_a_worker_killed_mid_batch_loses_nothing_and_its_entries_are_taken_within_seconds(own_stack: Stack) -> None:
    stack = own_stack
    lease = {"OUTBOX_LEASE_SECONDS": str(LEASE_SECONDS)}
    with stack.session() as session:
        catalog = factories.catalog(session)
        owner = factories.user(session, email="owner@example.com")
        tour_ids = {catalog.tour(session, owner, title=f"Heartbeat tour {number}").id for number in range(20)}
        commit_without_dispatch(session)
    entry_count = len(outbox(stack))
    assert entry_count >= len(tour_ids)

    doomed = stack.start_worker("doomed", app="tests.realtime.slow_worker", env={**lease, "SLOW_BATCH_SECONDS": "600"})
    stack.send_task("outbox.dispatch", queue="index")

    def claimed_by_doomed() -> list[OutboxEntry] | None:
        rows = outbox(stack)
        held = all(row.status == OutboxStatus.processing and row.claimed_by for row in rows)
        return rows if held and {worker_pid(row.claimed_by) for row in rows} == {doomed.popen.pid} else None

    claimed = wait_for(claimed_by_doomed, timeout=30, interval=0.2, what="the slow worker's claim")
    first_stamp = max(row.claimed_at for row in claimed if row.claimed_at)

    # Alive, the slow worker keeps its claim: a second worker dispatching twice a second all through
    # three leases takes nothing (without the heartbeat it would take everything after one lease).
    rescuer = stack.start_worker("rescuer", env=lease)
    until = time.monotonic() + 3 * LEASE_SECONDS
    while time.monotonic() < until:
        stack.send_task("outbox.dispatch", queue="index")
        time.sleep(0.5)
    held = outbox(stack)
    assert {row.status for row in held} == {OutboxStatus.processing}, stack.logs()
    assert {worker_pid(row.claimed_by) for row in held} == {doomed.popen.pid}
    assert {row.attempts for row in held} == {1}
    assert min(row.claimed_at for row in held if row.claimed_at) > first_stamp  # renewed

    doomed.popen.send_signal(signal.SIGKILL)
    doomed.popen.wait(timeout=10)
    killed_at = time.monotonic()

    def all_done() -> list[OutboxEntry] | None:
        stack.send_task("outbox.dispatch", queue="index")  # what beat's 10-second sweep does
        rows = outbox(stack)
        return rows if all(row.status == OutboxStatus.done for row in rows) else None

    done = wait_for(all_done, timeout=LEASE_SECONDS + 30, interval=0.5, what="the dead worker's entries handled")
    taken_after = time.monotonic() - killed_at
    print(f"\nthe dead worker's {len(done)} entries were handled {taken_after:.1f} s after SIGKILL")
    assert taken_after < LEASE_SECONDS + 10, stack.logs()
    assert len(done) == entry_count
    assert {row.attempts for row in done} == {2}  # the dead worker's claim, then the rescuer's
    assert {worker_pid(row.claimed_by) for row in done} == {rescuer.popen.pid}
    assert tour_ids <= stack.index().tour_ids()  # every change reached the index
