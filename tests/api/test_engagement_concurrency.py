"""Counters stay exact under parallel requests (spec §4 "Like and save"): many users at once, one
user many times at once, likes and unlikes racing each other. Real threads send real requests to the
application; on PostgreSQL every request is its own concurrent transaction.

Background work runs as in the embedded mode (one worker thread), not eagerly: an eager index sync
inside each of 50 commits would want a second pooled connection per request and starve the pool.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core import tasks
from app.creators.models import Creator
from app.engagement.models import TourLike, TourSave, TourView
from app.tours.models import Tour
from app.users.models import SessionActivity, User
from tests import factories
from tests.api.test_engagement import cheap_passwords, guest_headers

USERS = 50
REPEATS = 20
# Client threads released together: more than the server admits at once (core/concurrency), so
# the tests also prove that a burst bigger than the pool queues instead of hanging.
THREADS = 50

Call = Callable[[], httpx.Response]


def fire(calls: Sequence[Call]) -> list[httpx.Response]:
    """THREADS threads released at the same moment, each sending its share of the calls in turn
    (call i goes to thread i % THREADS, so repeats of one call run in different threads)."""
    threads = min(THREADS, len(calls))
    start = threading.Barrier(threads)
    responses: list[httpx.Response | None] = [None] * len(calls)

    def run(lane: int) -> None:
        start.wait()
        for index in range(lane, len(calls), threads):
            responses[index] = calls[index]()

    with ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(run, range(threads)))
    answered = [response for response in responses if response is not None]
    failed = [(response.status_code, response.text) for response in answered if response.status_code != 200]
    assert len(answered) == len(calls) and failed == [], failed[:3]
    return answered


@contextmanager
def background_runner() -> Iterator[tasks.InProcessRunner]:
    """Background work in one worker thread, as the embedded mode runs it."""
    runner = tasks.InProcessRunner(eager=False)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tasks, "get_task_runner", lambda: runner)
        yield runner
        runner.wait_idle(timeout=120)


@pytest.fixture
def background_tasks() -> Iterator[tasks.InProcessRunner]:
    with background_runner() as runner:
        yield runner


@dataclass
class Crowd:
    users: list[User]
    repeater: User
    bystanders: list[User]
    tour: Tour
    creator_id: int


@pytest.fixture
def crowd(db: Session, monkeypatch: pytest.MonkeyPatch, background_tasks: tasks.InProcessRunner) -> Crowd:
    cheap_passwords(monkeypatch)
    owner = factories.user(db)
    profile = factories.creator(db, owner)
    tour = factories.catalog(db).tour(db, owner, creator_id=profile.id)
    users = [factories.user(db) for _ in range(USERS)]
    found = Crowd(
        users=users,
        repeater=factories.user(db),
        bystanders=[factories.user(db) for _ in range(10)],
        tour=tour,
        creator_id=profile.id,
    )
    db.commit()
    return found


def tour_row(db: Session, tour: Tour) -> Tour:
    db.expire_all()
    row = db.get(Tour, tour.id)
    assert row is not None
    return row


def rows(db: Session, model: type[TourLike] | type[TourSave], tour: Tour) -> int:
    return db.scalar(select(func.count()).select_from(model).where(model.tour_id == tour.id)) or 0


def toggle(client: TestClient, path: str, flag: str, tour: Tour, user: User, on: bool) -> Call:
    body: dict[str, Any] = {"id": tour.guid, flag: on}
    headers = factories.bearer(user)  # signed before the threads start: they only send
    return lambda: client.post(path, json=body, headers=headers)


def like(client: TestClient, tour: Tour, user: User, on: bool = True) -> Call:
    return toggle(client, "/v2/virtualtours/post_likes", "isLike", tour, user, on)


def save(client: TestClient, tour: Tour, user: User, on: bool = True) -> Call:
    return toggle(client, "/v2/virtualtours/post_saves", "isSave", tour, user, on)


def test_parallel_likes_count_exactly(client: TestClient, db: Session, crowd: Crowd) -> None:
    everyone = [*crowd.users, crowd.repeater]
    liked = fire(
        [like(client, crowd.tour, user) for user in crowd.users]
        + [like(client, crowd.tour, crowd.repeater) for _ in range(REPEATS)]
    )
    # Each first like answers the count its own increment made: 50 different users, 50 different counts.
    firsts = [response.json()["likes"] for response in liked[:USERS]]
    assert len(set(firsts)) == USERS and set(firsts) <= set(range(1, len(everyone) + 1))
    assert max(response.json()["likes"] for response in liked) == len(everyone)
    assert tour_row(db, crowd.tour).likes == len(everyone) == rows(db, TourLike, crowd.tour)

    fire(
        [like(client, crowd.tour, user, on=False) for user in crowd.users]
        + [like(client, crowd.tour, crowd.repeater, on=False) for _ in range(REPEATS)]
        + [like(client, crowd.tour, user, on=False) for user in crowd.bystanders]  # never liked
    )
    assert tour_row(db, crowd.tour).likes == 0 == rows(db, TourLike, crowd.tour)

    # Likes and unlikes of the same users racing each other: whatever wins, the counter is the rows.
    fire([like(client, crowd.tour, user, on=on) for user in crowd.users for on in (True, False, True)])
    final = tour_row(db, crowd.tour).likes
    assert final == rows(db, TourLike, crowd.tour) and 0 < final <= USERS
    creator = db.get(Creator, crowd.creator_id)
    assert creator is not None and creator.likes == final


def test_parallel_saves_count_exactly_and_record_each_change_once(
    client: TestClient, db: Session, crowd: Crowd, background_tasks: tasks.InProcessRunner
) -> None:
    """…and the index, fed in the background, ends up with the exact count too."""
    everyone = [*crowd.users, crowd.repeater]
    fire(
        [save(client, crowd.tour, user) for user in crowd.users]
        + [save(client, crowd.tour, crowd.repeater) for _ in range(REPEATS)]
    )
    assert tour_row(db, crowd.tour).saves == len(everyone) == rows(db, TourSave, crowd.tour)
    background_tasks.wait_idle()
    grid = client.get("/v2/user-recomendations/filtered-grid", params={"sorting": "saves", "mode": "media"}).json()
    assert [(card["guid"], card["saves"]) for card in grid["data"]] == [(crowd.tour.guid, len(everyone))]

    fire(
        [save(client, crowd.tour, user, on=False) for user in crowd.users]
        + [save(client, crowd.tour, crowd.repeater, on=False) for _ in range(REPEATS)]
        + [save(client, crowd.tour, user, on=False) for user in crowd.bystanders]
    )
    assert tour_row(db, crowd.tour).saves == 0 == rows(db, TourSave, crowd.tour)
    recorded = dict(
        db.execute(
            select(SessionActivity.activity_code, func.count())
            .where(SessionActivity.activity_code.in_(["Save", "Undo save"]))
            .group_by(SessionActivity.activity_code)
        ).all()
    )
    assert recorded == {"Save": len(everyone), "Undo save": len(everyone)}


def test_parallel_views_and_shares_count_exactly(client: TestClient, db: Session, crowd: Crowd) -> None:
    view_body = {"id": crowd.tour.guid}
    same_guest = guest_headers("same-guest")
    views: list[Call] = [
        (
            lambda headers=factories.bearer(user): client.post(
                "/v2/virtualtours/post_view", json=view_body, headers=headers
            )
        )
        for user in crowd.users
    ]
    views += [
        lambda: client.post("/v2/virtualtours/post_view", json=view_body, headers=same_guest) for _ in range(REPEATS)
    ]
    shares: list[Call] = [lambda: client.post("/v2/virtualtours/post_shares", json=view_body) for _ in range(30)]
    counted = [response.json()["counted"] for response in fire(views + shares)[: len(views)]]
    assert counted.count(True) == USERS + 1
    row = tour_row(db, crowd.tour)
    assert (row.views, row.shared) == (USERS + 1, 30)
    assert db.scalar(select(func.count()).select_from(TourView)) == USERS + 1
