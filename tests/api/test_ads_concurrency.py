"""Ad counters stay exact under parallel requests, as tours' do (tests/api/test_engagement_concurrency.py,
whose threads and background runner this reuses): many users liking at once, one user many times at
once, likes and unlikes racing; saves; impressions of one page view re-rendered in parallel."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.ads.models import Ad, AdApprovalState, AdEngagement, AdEngagementKind, AdStatus
from app.core import tasks
from app.users.models import User
from tests import factories
from tests.api.test_engagement import cheap_passwords
from tests.api.test_engagement_concurrency import REPEATS, USERS, background_tasks, fire

__all__ = ["background_tasks"]  # the fixture, used by name below

Call = Callable[[], httpx.Response]


@dataclass
class Crowd:
    users: list[User]
    repeater: User
    bystanders: list[User]
    ad: Ad


@pytest.fixture
def crowd(db: Session, monkeypatch: pytest.MonkeyPatch, background_tasks: tasks.InProcessRunner) -> Crowd:
    cheap_passwords(monkeypatch)
    owner = factories.user(db)
    ad = Ad(
        user_id=owner.id,
        title="Sponsored museum",
        link="https://museum.example.com/sponsored",
        preview_picture="https://img.example.com/ad.jpg",
        status=AdStatus.active,
        approval_state=AdApprovalState.approved,
    )
    db.add(ad)
    found = Crowd(
        users=[factories.user(db) for _ in range(USERS)],
        repeater=factories.user(db),
        bystanders=[factories.user(db) for _ in range(10)],
        ad=ad,
    )
    db.commit()
    return found


def ad_row(db: Session, ad: Ad) -> Ad:
    db.expire_all()
    row = db.get(Ad, ad.id)
    assert row is not None
    return row


def rows(db: Session, ad: Ad, kind: AdEngagementKind) -> int:
    statement = select(func.count()).select_from(AdEngagement).where(AdEngagement.ad_id == ad.id)
    return db.scalar(statement.where(AdEngagement.kind == kind)) or 0


def toggle(client: TestClient, path: str, flag: str, ad: Ad, user: User, on: bool) -> Call:
    body: dict[str, Any] = {"id": ad.id, flag: on}
    headers = factories.bearer(user)  # signed before the threads start: they only send
    return lambda: client.post(path, json=body, headers=headers)


def like(client: TestClient, ad: Ad, user: User, on: bool = True) -> Call:
    return toggle(client, "/v2/ads/post_likes", "isLike", ad, user, on)


def save(client: TestClient, ad: Ad, user: User, on: bool = True) -> Call:
    return toggle(client, "/v2/ads/post_saves", "isSave", ad, user, on)


def test_parallel_ad_likes_count_exactly(client: TestClient, db: Session, crowd: Crowd) -> None:
    everyone = [*crowd.users, crowd.repeater]
    liked = fire(
        [like(client, crowd.ad, user) for user in crowd.users]
        + [like(client, crowd.ad, crowd.repeater) for _ in range(REPEATS)]
    )
    firsts = [response.json()["likes"] for response in liked[:USERS]]
    assert len(set(firsts)) == USERS and set(firsts) <= set(range(1, len(everyone) + 1))
    assert ad_row(db, crowd.ad).likes == len(everyone) == rows(db, crowd.ad, AdEngagementKind.like)

    fire(
        [like(client, crowd.ad, user, on=False) for user in crowd.users]
        + [like(client, crowd.ad, crowd.repeater, on=False) for _ in range(REPEATS)]
        + [like(client, crowd.ad, user, on=False) for user in crowd.bystanders]  # never liked
    )
    assert ad_row(db, crowd.ad).likes == 0 == rows(db, crowd.ad, AdEngagementKind.like)

    fire([like(client, crowd.ad, user, on=on) for user in crowd.users for on in (True, False, True)])
    final = ad_row(db, crowd.ad).likes
    assert final == rows(db, crowd.ad, AdEngagementKind.like) and 0 < final <= USERS


def test_parallel_ad_saves_count_exactly(client: TestClient, db: Session, crowd: Crowd) -> None:
    everyone = [*crowd.users, crowd.repeater]
    fire(
        [save(client, crowd.ad, user) for user in crowd.users]
        + [save(client, crowd.ad, crowd.repeater) for _ in range(REPEATS)]
    )
    assert ad_row(db, crowd.ad).saves == len(everyone) == rows(db, crowd.ad, AdEngagementKind.save)
    fire([save(client, crowd.ad, user, on=False) for user in everyone])
    assert ad_row(db, crowd.ad).saves == 0 == rows(db, crowd.ad, AdEngagementKind.save)


def test_parallel_impressions_of_one_page_view_count_once(client: TestClient, db: Session, crowd: Crowd) -> None:
    """50 viewers, each re-rendering the card of one page view REPEATS / 4 times at once."""
    calls: list[Call] = []
    for user in crowd.users:
        headers = factories.bearer(user)
        for _ in range(REPEATS // 4):
            calls.append(
                lambda headers=headers: client.get(
                    f"/v2/ads/show/{crowd.ad.id}", params={"page_view": "pv-1"}, headers=headers
                )
            )
    counted = [response.json()["counted"] for response in fire(calls)]
    assert counted.count(True) == USERS
    assert ad_row(db, crowd.ad).views == USERS == rows(db, crowd.ad, AdEngagementKind.view)
