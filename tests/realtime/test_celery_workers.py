"""Real Celery workers on Redis and PostgreSQL (the distributed stack): a change made through the API
reaches the index through a worker, and two workers draining one outbox never handle an entry twice."""

from __future__ import annotations

import re

import httpx
import pytest
from sqlalchemy import func, insert, select

from app.core.db import utcnow
from app.core.outbox import OutboxEntry, OutboxStatus
from tests.realtime.client import bearer, card, feed, sign_in
from tests.realtime.conftest import World
from tests.realtime.stack import Stack, wait_for

pytestmark = pytest.mark.distributed


def worker_pid(claimed_by: str | None) -> int:
    """Claim tokens read host:pid:…; the pid says which process handled the entry."""
    match = re.match(r"[^:]+:(\d+):", claimed_by or "")
    assert match, claimed_by
    return int(match.group(1))


def test_a_change_through_the_api_reaches_the_index_through_a_worker(stack: Stack, world: World) -> None:
    (api,), (worker,) = stack.up(apis=("a",), workers=("w1",))
    # The seeded tours' outbox entries were committed without a dispatch: ask for one, as the
    # after-commit hook of the process that wrote them would have.
    stack.send_task("outbox.dispatch", queue="index")
    wait_for(lambda: feed(api)["total_items"] == len(world.tours), what="the seeded tours in the index")

    tour = world.tours[0]
    token = sign_in(api, world.fan_email)
    saved = httpx.post(
        f"{api}/v2/virtualtours/post_saves", json={"id": tour.guid, "isSave": True}, headers=bearer(token), timeout=10
    )
    assert saved.status_code == 200, saved.text
    assert saved.json()["saves"] == 1
    # The API process only queued the work (REDIS_URL is set): the worker applies it, the feed shows it.
    wait_for(lambda: (card(feed(api), tour.guid) or {}).get("saves") == 1, what="the save in the feed", timeout=30)

    with stack.session() as session:
        entry = session.scalars(
            select(OutboxEntry).where(
                OutboxEntry.topic == "index.tour_counters", OutboxEntry.aggregate_id == str(tour.id)
            )
        ).one()
    assert entry.status == OutboxStatus.done and entry.attempts == 1
    assert worker_pid(entry.claimed_by) == worker.popen.pid

    # The owner moves a tour to drafts: the worker takes it out of the index.
    drafted = world.tours[-1]
    owner = sign_in(api, world.owner_email)
    moved = httpx.put(
        f"{api}/v2/virtualtours/{drafted.guid}",
        json={"guid": drafted.guid, "task": "deactivate"},
        headers=bearer(owner),
        timeout=10,
    )
    assert moved.status_code == 200, moved.text
    wait_for(lambda: feed(api)["total_items"] == len(world.tours) - 1, what="the drafted tour out of the index")
    assert card(feed(api), drafted.guid) is None


def test_two_workers_draining_one_outbox_never_handle_an_entry_twice(stack: Stack, world: World) -> None:
    first, second = stack.workers("w1", "w2")
    count = 3000
    now = utcnow()
    with stack.session() as session:
        start_id = session.scalar(select(func.coalesce(func.max(OutboxEntry.id), 0))) or 0
        session.execute(
            insert(OutboxEntry),
            [
                {
                    "topic": "index.tour_counters",
                    "aggregate_id": str(world.tours[number % len(world.tours)].id),
                    "payload": {},
                    "status": OutboxStatus.pending,
                    "attempts": 0,
                    "available_at": now,
                    "created_at": now,
                }
                for number in range(count)
            ],
        )
        session.commit()

    # Several dispatch runs with small batches, sent as any process sends them (through Redis).
    for _ in range(8):
        stack.send_task("outbox.dispatch", queue="index", batch=25)

    def handled() -> list[OutboxEntry] | None:
        with stack.session() as session:
            rows = list(session.scalars(select(OutboxEntry).where(OutboxEntry.id > start_id)))
        return rows if all(row.status == OutboxStatus.done for row in rows) else None

    rows = wait_for(handled, timeout=60, interval=0.5, what="every entry handled")
    assert len(rows) == count
    assert {row.attempts for row in rows} == {1}  # claimed once each: never handed to two workers
    by_worker = {
        process.name: sum(1 for row in rows if worker_pid(row.claimed_by) == process.popen.pid)
        for process in (first, second)
    }
    # Both took part (each claim is 25 entries, 120 claims in all).
    assert all(handled_count > 0 for handled_count in by_worker.values()), by_worker
    assert sum(by_worker.values()) == count
