"""Spec §7 "mailing-list sync": ping, members-diff and members-sync against a local fake of Mailchimp's
Marketing API v3 (tests/fakes/mailchimp.py); admins only; a sync is idempotent, batched and resumes
after a failure or a lost worker."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.db import utcnow
from app.core.settings import get_settings
from app.mailing import tasks as mailing_tasks
from app.mailing.mailchimp import subscriber_hash
from app.mailing.models import MailingListMember, MailingSyncRun, MemberStatus, SyncStatus
from app.realtime import events
from tests import factories
from tests.fakes.mailchimp import FakeMailchimp, running_mailchimp

PING = "/v2/mailing-list/ping"
DIFF = "/v2/mailing-list/members-diff"
SYNC = "/v2/mailing-list/members-sync"


@pytest.fixture(scope="module")
def mailchimp() -> Iterator[FakeMailchimp]:
    with running_mailchimp() as fake:
        yield fake


@dataclass
class Setup:
    admin: dict[str, str]
    user: dict[str, str]
    fake: FakeMailchimp


@pytest.fixture
def s(db: Session, monkeypatch: pytest.MonkeyPatch, mailchimp: FakeMailchimp) -> Setup:
    settings = get_settings()
    monkeypatch.setattr(settings, "mailchimp_api_url", mailchimp.url)
    monkeypatch.setattr(settings, "mailchimp_api_key", mailchimp.api_key)
    monkeypatch.setattr(settings, "mailchimp_list_id", mailchimp.list_id)
    monkeypatch.setattr(settings, "mailing_retry_base_seconds", 0.0)
    monkeypatch.setattr(settings, "mailing_sync_batch_size", 2)
    mailchimp.reset()
    admin, user = factories.user(db, admin=True), factories.user(db)
    db.commit()
    return Setup(admin=factories.bearer(admin), user=factories.bearer(user), fake=mailchimp)


def consenting(db: Session, *emails: str, **fields: Any) -> None:
    for email in emails:
        factories.user(db, email=email, consent_emails=True, **fields)
    db.commit()


def emails(side: dict[str, Any]) -> list[str]:
    return [person["email"] for person in side["data"]]


# --- access and configuration ------------------------------------------------------------------


@pytest.mark.parametrize(("method", "path"), [("get", PING), ("get", DIFF), ("post", SYNC), ("get", SYNC)])
def test_only_admins_may_call(client: TestClient, s: Setup, method: str, path: str) -> None:
    assert client.request(method, path).status_code == 401
    assert client.request(method, path, headers=s.user).status_code == 403
    assert s.fake.requests == []


@pytest.mark.parametrize(("method", "path"), [("get", PING), ("get", DIFF), ("post", SYNC)])
def test_without_settings_the_calls_say_the_list_is_not_configured(
    client: TestClient, s: Setup, monkeypatch: pytest.MonkeyPatch, method: str, path: str
) -> None:
    monkeypatch.setattr(get_settings(), "mailchimp_api_key", "")
    answer = client.request(method, path, headers=s.admin)
    assert answer.status_code == 400
    assert "not configured" in answer.json()["message"]
    assert "MAILCHIMP_API_KEY" in answer.json()["message"]


# --- ping --------------------------------------------------------------------------------------


def test_ping_reports_the_provider_and_the_list(client: TestClient, s: Setup) -> None:
    s.fake.add("reader@example.com")
    answer = client.get(PING, headers=s.admin)
    assert answer.status_code == 200
    assert answer.json() == {
        "health_status": "Everything's Chimpy!",
        "list_id": s.fake.list_id,
        "list_name": "TourAtlas news",
        "member_count": 1,
    }


def test_ping_with_a_refused_key_is_a_readable_503(
    client: TestClient, s: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "mailchimp_api_key", "wrong-us6")
    answer = client.get(PING, headers=s.admin)
    assert answer.status_code == 503
    assert answer.json()["message"] == "The mailing-list provider refused the API key."


def test_ping_with_an_unknown_list_is_a_readable_503(
    client: TestClient, s: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "mailchimp_list_id", "nosuchlist")
    answer = client.get(PING, headers=s.admin)
    assert answer.status_code == 503
    assert "does not know this list" in answer.json()["message"]


def test_a_429_and_a_500_are_retried(client: TestClient, s: Setup) -> None:
    s.fake.fail_next.extend([429, 500])
    assert client.get(PING, headers=s.admin).status_code == 200
    assert s.fake.requests[:3] == [("GET", "/3.0/ping")] * 3


def test_a_provider_that_keeps_failing_is_a_503_after_the_retries(client: TestClient, s: Setup) -> None:
    s.fake.fail_next.extend([500] * 10)
    answer = client.get(PING, headers=s.admin)
    assert answer.status_code == 503
    assert "kept failing (500)" in answer.json()["message"]
    assert len(s.fake.requests) == 4


# --- members-diff ------------------------------------------------------------------------------


def test_diff_both_ways(client: TestClient, s: Setup, db: Session) -> None:
    consenting(db, "ann@example.com", "bob@example.com", "cat@example.com")
    consenting(db, "blocked@example.com", user_active=False)
    factories.user(db, email="quiet@example.com", consent_emails=False)
    db.commit()
    s.fake.add("bob@example.com")
    s.fake.add("cat@example.com", status="unsubscribed")
    s.fake.add("gone@example.com", first_name="Gone", last_name="Away")
    s.fake.add("quiet@example.com")

    body = client.get(DIFF, headers=s.admin).json()

    assert emails(body["to_subscribe"]) == ["ann@example.com", "cat@example.com"]
    assert emails(body["to_unsubscribe"]) == ["gone@example.com", "quiet@example.com"]
    assert body["to_unsubscribe"]["data"][0] == {"email": "gone@example.com", "first_name": "Gone", "last_name": "Away"}
    assert (body["consenting"], body["subscribed"], body["in_step"]) == (3, 3, False)


def test_diff_is_paged_on_both_sides(client: TestClient, s: Setup, db: Session) -> None:
    consenting(db, *(f"u{n}@example.com" for n in range(5)))
    for n in range(3):
        s.fake.add(f"old{n}@example.com")
    body = client.get(DIFF, params={"limit": 2, "offset": 2}, headers=s.admin).json()
    assert body["to_subscribe"] == {
        "total_items": 5,
        "data": [
            {
                "email": "u2@example.com",
                "first_name": "Test",
                "last_name": body["to_subscribe"]["data"][0]["last_name"],
            },
            {
                "email": "u3@example.com",
                "first_name": "Test",
                "last_name": body["to_subscribe"]["data"][1]["last_name"],
            },
        ],
    }
    assert emails(body["to_unsubscribe"]) == ["old2@example.com"]
    assert (body["limit"], body["offset"]) == (2, 2)


def test_diff_reads_every_page_of_a_long_list(client: TestClient, s: Setup) -> None:
    for n in range(1205):
        s.fake.add(f"m{n:04d}@example.com")
    body = client.get(DIFF, headers=s.admin).json()
    assert body["to_unsubscribe"]["total_items"] == 1205
    assert [path for _, path in s.fake.requests].count(f"/3.0/lists/{s.fake.list_id}/members") == 2


@pytest.mark.parametrize(
    ("params", "field"),
    [({"limit": 0}, "limit"), ({"limit": 101}, "limit"), ({"offset": -1}, "offset"), ({"limit": "x"}, "limit")],
)
def test_bad_paging_is_a_400_naming_the_field(client: TestClient, s: Setup, params: dict[str, Any], field: str) -> None:
    answer = client.get(DIFF, params=params, headers=s.admin)
    assert answer.status_code == 400
    assert field in answer.json()["fields"]


# --- members-sync ------------------------------------------------------------------------------


def test_sync_brings_the_list_in_step_in_batches(client: TestClient, s: Setup, db: Session) -> None:
    consenting(db, "ann@example.com", "bob@example.com", "cat@example.com")
    s.fake.add("bob@example.com")
    s.fake.add("zed@example.com")

    answer = client.post(SYNC, headers=s.admin)

    assert answer.status_code == 202
    state = client.get(SYNC, headers=s.admin).json()["data"]
    assert state["status"] == "completed"
    assert (state["total"], state["done"], state["subscribed"], state["unsubscribed"]) == (3, 3, 2, 1)
    assert s.fake.batches == [["ann@example.com", "cat@example.com"], ["zed@example.com"]]
    assert s.fake.statuses() == {
        "bob@example.com": "subscribed",
        "zed@example.com": "unsubscribed",
        "ann@example.com": "subscribed",
        "cat@example.com": "subscribed",
    }
    assert client.get(DIFF, headers=s.admin).json()["in_step"] is True
    mirrored = {
        m.email: (m.status, m.provider_id, m.user_id is not None) for m in db.scalars(select(MailingListMember))
    }
    assert mirrored["ann@example.com"] == (MemberStatus.subscribed, subscriber_hash("ann@example.com"), True)
    assert mirrored["zed@example.com"] == (MemberStatus.unsubscribed, subscriber_hash("zed@example.com"), False)


def test_a_second_sync_changes_nothing(client: TestClient, s: Setup, db: Session) -> None:
    consenting(db, "ann@example.com")
    client.post(SYNC, headers=s.admin)
    before = s.fake.statuses()
    batches = len(s.fake.batches)

    assert client.post(SYNC, headers=s.admin).status_code == 202

    second = client.get(SYNC, headers=s.admin).json()["data"]
    assert second["status"] == "completed"
    assert (second["total"], second["done"]) == (0, 0)
    assert len(s.fake.batches) == batches
    assert s.fake.statuses() == before


def test_an_interrupted_sync_resumes_from_its_cursor(client: TestClient, s: Setup, db: Session) -> None:
    consenting(db, "a@example.com", "b@example.com", "c@example.com", "d@example.com", "e@example.com")
    s.fake.broken_after_batches = 1

    first = client.post(SYNC, headers=s.admin).json()["data"]
    failed = client.get(SYNC, headers=s.admin).json()["data"]
    assert failed["status"] == "failed"
    assert "kept failing (500)" in failed["error"]
    assert (failed["total"], failed["done"]) == (5, 2)

    s.fake.broken_after_batches = None
    resumed = client.post(SYNC, headers=s.admin).json()["data"]

    assert resumed["run_id"] == first["run_id"]
    done = client.get(SYNC, headers=s.admin).json()["data"]
    assert (done["status"], done["total"], done["done"], done["subscribed"]) == ("completed", 5, 5, 5)
    # The first batch went once: the resumed run started after the cursor.
    assert s.fake.batches == [["a@example.com", "b@example.com"], ["c@example.com", "d@example.com"], ["e@example.com"]]


def test_a_run_whose_worker_died_is_resumed_and_a_live_one_is_not_started_twice(
    client: TestClient, s: Setup, db: Session
) -> None:
    consenting(db, "a@example.com", "b@example.com", "c@example.com")
    s.fake.add("a@example.com")
    run = MailingSyncRun(status=SyncStatus.running, total=3, done=1, subscribed=1, cursor="a@example.com")
    db.add(run)
    db.commit()

    live = client.post(SYNC, headers=s.admin).json()["data"]
    assert (live["run_id"], live["status"]) == (run.id, "running")
    assert s.fake.batches == []

    run.heartbeat_at = utcnow() - timedelta(minutes=10)
    db.commit()
    lost = client.get(SYNC, headers=s.admin).json()["data"]
    assert (lost["status"], lost["error"]) == (
        "failed",
        "The sync stopped answering: its worker was lost. Resume it to continue.",
    )
    client.post(SYNC, headers=s.admin)

    db.expire_all()
    assert s.fake.batches == [["b@example.com", "c@example.com"]]
    assert (run.status, run.done, run.subscribed) == (SyncStatus.completed, 3, 3)


def test_members_the_provider_refuses_are_counted_not_retried(client: TestClient, s: Setup, db: Session) -> None:
    consenting(db, "ok@example.com")
    db.add(MailingSyncRun(status=SyncStatus.completed))
    db.commit()
    s.fake.add("not-an-address")

    client.post(SYNC, headers=s.admin)

    state = client.get(SYNC, headers=s.admin).json()["data"]
    assert (state["status"], state["done"], state["subscribed"], state["rejected"]) == ("completed", 2, 1, 1)


def test_sync_without_settings_starts_nothing(client: TestClient, s: Setup, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(get_settings(), "mailchimp_list_id", "")
    assert client.post(SYNC, headers=s.admin).status_code == 400
    assert client.get(SYNC, headers=s.admin).json() == {"data": None}


# --- progress pushed to the admins ------------------------------------------------------------


@pytest.fixture
def pushed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any], str]]:
    """The realtime events that left after their commits, in order."""
    sent: list[tuple[str, dict[str, Any], str]] = []
    monkeypatch.setattr(events, "emit_now", lambda name, data, *, room: sent.append((name, data, room)))
    return sent


def sync_pushes(pushed: list[tuple[str, dict[str, Any], str]]) -> list[dict[str, Any]]:
    assert {(name, room) for name, _data, room in pushed} <= {(events.MAILING_SYNC, events.ADMINS_ROOM)}
    return [data for _name, data, _room in pushed]


def test_the_sync_pushes_every_batch_to_the_admins_as_the_page_reads_it(
    client: TestClient,
    s: Setup,
    db: Session,
    pushed: list[tuple[str, dict[str, Any], str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(mailing_tasks, "PUSH_EVERY_SECONDS", 0.0)
    consenting(db, "a@example.com", "b@example.com", "c@example.com", "d@example.com", "e@example.com")

    started = client.post(SYNC, headers=s.admin).json()["data"]

    runs = sync_pushes(pushed)
    # The start as the POST answered it, the total once compared, each batch of two, the end.
    assert runs[0] == started
    assert [(run["status"], run["total"], run["done"]) for run in runs] == [
        ("running", 0, 0),
        ("running", 5, 0),
        ("running", 5, 2),
        ("running", 5, 4),
        ("running", 5, 5),
        ("completed", 5, 5),
    ]
    assert {run["run_id"] for run in runs} == {started["run_id"]}
    assert runs[-1] == client.get(SYNC, headers=s.admin).json()["data"]


def test_batches_faster_than_the_push_interval_are_pushed_together(
    client: TestClient,
    s: Setup,
    db: Session,
    pushed: list[tuple[str, dict[str, Any], str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(mailing_tasks, "PUSH_EVERY_SECONDS", 3600.0)
    consenting(db, "a@example.com", "b@example.com", "c@example.com", "d@example.com", "e@example.com")

    client.post(SYNC, headers=s.admin)

    assert len(s.fake.batches) == 3
    runs = sync_pushes(pushed)
    assert [(run["status"], run["done"]) for run in runs] == [("running", 0), ("running", 0), ("completed", 5)]


def test_a_failed_sync_and_its_resumption_are_pushed(
    client: TestClient,
    s: Setup,
    db: Session,
    pushed: list[tuple[str, dict[str, Any], str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(mailing_tasks, "PUSH_EVERY_SECONDS", 0.0)
    consenting(db, "a@example.com", "b@example.com", "c@example.com", "d@example.com", "e@example.com")
    s.fake.broken_after_batches = 1

    client.post(SYNC, headers=s.admin)

    failed = sync_pushes(pushed)[-1]
    assert (failed["status"], failed["done"], failed["total"]) == ("failed", 2, 5)
    assert "kept failing (500)" in failed["error"]
    assert failed == client.get(SYNC, headers=s.admin).json()["data"]

    s.fake.broken_after_batches = None
    pushed.clear()
    client.post(SYNC, headers=s.admin)
    resumed = sync_pushes(pushed)
    assert [(run["status"], run["done"]) for run in resumed] == [
        ("running", 2),
        ("running", 2),
        ("running", 4),
        ("running", 5),
        ("completed", 5),
    ]
    assert resumed[0]["error"] is None and resumed[0]["run_id"] == failed["run_id"]


def test_asking_again_while_a_sync_runs_pushes_nothing(
    client: TestClient, s: Setup, db: Session, pushed: list[tuple[str, dict[str, Any], str]]
) -> None:
    db.add(MailingSyncRun(status=SyncStatus.running, total=3, done=1))
    db.commit()
    assert client.post(SYNC, headers=s.admin).json()["data"]["status"] == "running"
    assert pushed == []
