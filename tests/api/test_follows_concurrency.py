"""Follower counts stay exact under parallel requests (spec §4 "Follow"): many users at once, one
user many times at once, unfollows racing the removal of all of a user's follows. Same set-up as
test_engagement_concurrency.py (real threads, real requests, one transaction each)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core import tasks
from app.creators.models import Creator, Follow
from app.users.models import SessionActivity, User
from tests import factories
from tests.api.test_engagement import cheap_passwords
from tests.api.test_engagement_concurrency import REPEATS, USERS, Call, background_runner, fire

FOLLOWERS = "/v2/creators/followers"


@pytest.fixture
def background_tasks() -> Iterator[tasks.InProcessRunner]:
    with background_runner() as runner:
        yield runner


@dataclass
class Audience:
    users: list[User]
    repeater: User
    creators: list[Creator]


@pytest.fixture
def audience(db: Session, monkeypatch: pytest.MonkeyPatch, background_tasks: tasks.InProcessRunner) -> Audience:
    cheap_passwords(monkeypatch)
    creators = [factories.creator(db, factories.user(db)) for _ in range(2)]
    found = Audience(users=[factories.user(db) for _ in range(USERS)], repeater=factories.user(db), creators=creators)
    db.commit()
    return found


def followers(db: Session, creator: Creator) -> int:
    db.expire_all()
    row = db.get(Creator, creator.id)
    assert row is not None
    return row.followers


def follow_rows(db: Session, creator: Creator) -> int:
    return db.scalar(select(func.count()).select_from(Follow).where(Follow.creator_id == creator.id)) or 0


def request(client: TestClient, method: str, user: User, **options: Any) -> Call:
    headers = factories.bearer(user)  # signed before the threads start: they only send
    return lambda: client.request(method, FOLLOWERS, headers=headers, **options)


def follow(client: TestClient, user: User, creator: Creator) -> Call:
    return request(client, "POST", user, json={"userid": user.id, "creator_id": creator.id})


def unfollow(client: TestClient, user: User, creator: Creator) -> Call:
    return request(client, "DELETE", user, params={"creator_id": creator.id})


def test_parallel_follows_count_exactly(client: TestClient, db: Session, audience: Audience) -> None:
    first, second = audience.creators
    everyone = [*audience.users, audience.repeater]
    answers = fire(
        [follow(client, user, first) for user in audience.users]
        + [follow(client, audience.repeater, first) for _ in range(REPEATS)]
        + [follow(client, user, second) for user in audience.users[:10]]
    )
    firsts = [response.json()["followers"] for response in answers[:USERS]]
    assert len(set(firsts)) == USERS  # every new follow answered the count its own increment made
    assert followers(db, first) == len(everyone) == follow_rows(db, first)
    assert followers(db, second) == 10 == follow_rows(db, second)
    follows_recorded = db.scalar(
        select(func.count()).select_from(SessionActivity).where(SessionActivity.activity_code == "Follow")
    )
    assert follows_recorded == len(everyone) + 10

    # Unfollows race each other and the removal of every follow of the repeater and of ten users.
    removers = audience.users[:10]
    remove_all = [
        (lambda headers=factories.bearer(user): client.delete("/v2/creators/is-follow", headers=headers))
        for user in [audience.repeater, *removers]
    ]
    fire(
        [unfollow(client, user, first) for user in audience.users]
        + [unfollow(client, audience.repeater, first) for _ in range(REPEATS)]
        + remove_all
        + [unfollow(client, user, second) for user in audience.users[5:15]]
    )
    assert followers(db, first) == 0 == follow_rows(db, first)
    assert followers(db, second) == 0 == follow_rows(db, second)
    unfollows_recorded = db.scalar(
        select(func.count()).select_from(SessionActivity).where(SessionActivity.activity_code == "Unfollow")
    )
    assert unfollows_recorded == len(everyone) + 10


def test_follows_and_unfollows_racing_leave_the_count_equal_to_the_rows(
    client: TestClient, db: Session, audience: Audience
) -> None:
    first = audience.creators[0]
    fire(
        [
            (follow if step != "unfollow" else unfollow)(client, user, first)
            for user in audience.users
            for step in ("follow", "unfollow", "follow again")
        ]
    )
    final = followers(db, first)
    assert final == follow_rows(db, first) and 0 < final <= USERS
