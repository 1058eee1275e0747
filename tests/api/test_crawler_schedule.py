"""The crawler's schedule (issue 17): POST /v2/crawler/configuration checks the cron expression, and
the periodic task starts a session whenever a configuration's cron time has come since its last run,
on a fixed clock: never while a session of it is active, and once per due time whoever asks (two
schedulers at once, a stale decision, a restarted process): the database refuses the second."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.core import tasks
from app.core.db import get_sessionmaker, utcnow
from app.core.timestamps import as_utc
from app.crawler import schedule, service
from app.crawler.models import CrawlerConfiguration, CrawlerSession, CrawlerSessionStatus
from app.crawler.schemas import ConfigurationWrite
from app.crawler.tasks import start_scheduled as schedule_task
from app.realtime import events
from tests import factories

BASE = "/v2/crawler"
DAY0 = datetime(2030, 1, 7, tzinfo=UTC)  # a Monday, 00:00 UTC
DAY1 = DAY0 + timedelta(days=1)


def at(day: datetime, hour: int, minute: int = 0, second: int = 0) -> datetime:
    return day.replace(hour=hour, minute=minute, second=second)


@pytest.fixture
def submitted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """The tasks committed transactions asked for, recorded instead of run: no crawl runs here."""
    sent: list[tuple[str, dict[str, Any]]] = []

    class Recorder:
        def submit(self, name: str, **kwargs: Any) -> None:
            sent.append((name, kwargs))

    monkeypatch.setattr(tasks, "get_task_runner", Recorder)
    return sent


@pytest.fixture
def pushed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any], str]]:
    sent: list[tuple[str, dict[str, Any], str]] = []
    monkeypatch.setattr(events, "emit_now", lambda name, data, *, room: sent.append((name, data, room)))
    return sent


@pytest.fixture
def admin(db: Session) -> dict[str, str]:
    person = factories.user(db, admin=True)
    db.commit()
    return factories.bearer(person)


def write(vendor_id: int, cron: str | None, **fields: Any) -> ConfigurationWrite:
    return ConfigurationWrite.model_validate(
        {"name": "Provider", "vendor_id": vendor_id, "start_urls": ["https://example.com/"], "schedule_cron": cron}
        | fields
    )


def configure(db: Session, cron: str | None, *, since: datetime = DAY0, name: str = "Provider") -> int:
    """A configuration saved at `since` (when its schedule starts to count)."""
    vendor = factories.vendor(db, name)
    db.commit()
    return service.save_configuration(db, write(vendor.id, cron, name=name), now=since).id


def tick(now: datetime) -> list[int]:
    """One run of the periodic task at `now`, in a session of its own (as each run has)."""
    with get_sessionmaker()() as db:
        return service.start_due(db, now)


def sessions_of(db: Session, configuration_id: int) -> list[CrawlerSession]:
    db.expire_all()
    return list(
        db.scalars(
            select(CrawlerSession)
            .where(CrawlerSession.configuration_id == configuration_id)
            .order_by(CrawlerSession.id)
        )
    )


def end(db: Session, session_id: int, when: datetime, status: CrawlerSessionStatus = CrawlerSessionStatus.finished):
    db.execute(update(CrawlerSession).where(CrawlerSession.id == session_id).values(status=status, finished_at=when))
    db.commit()


def admin_session(db: Session, configuration_id: int, started: datetime) -> int:
    """A session an admin started (running since `started`)."""
    row = CrawlerSession(configuration_id=configuration_id, status=CrawlerSessionStatus.running, started_at=started)
    db.add(row)
    db.commit()
    return row.id


# --------------------------------------------------------------------------- the expression


@pytest.mark.parametrize(
    "cron",
    [
        "61 * * * *",  # no minute 61
        "0 24 * * *",
        "0 3 * *",  # four fields
        "0 0 3 * * *",  # six: a seconds field
        "0 0 31 2 *",  # 31 February never comes
        "*/0 * * * *",
        "every day",
        "@fortnightly",
    ],
)
def test_a_bad_schedule_is_a_400_naming_the_field(client: TestClient, db: Session, admin: dict[str, str], cron: str):
    vendor = factories.vendor(db, "Provider")
    db.commit()
    body = write(vendor.id, None).model_dump(mode="json") | {"schedule_cron": cron}
    response = client.post(f"{BASE}/configuration", json=body, headers=admin)
    assert response.status_code == 400, response.text
    fields = response.json()["fields"]
    assert list(fields) == ["schedule_cron"]
    assert "cron expression" in fields["schedule_cron"]
    assert db.scalar(select(CrawlerConfiguration.id)) is None


@pytest.mark.parametrize(
    ("cron", "stored"),
    [("0  3 * * MON", "0 3 * * MON"), ("@daily", "@daily"), ("*/15 2-4 1,15 * *", "*/15 2-4 1,15 * *"), (" ", None)],
)
def test_a_schedule_is_kept_tidy_and_its_next_time_shown(
    client: TestClient, db: Session, admin: dict[str, str], cron: str, stored: str | None
) -> None:
    vendor = factories.vendor(db, "Provider")
    db.commit()
    before = utcnow()
    response = client.post(f"{BASE}/configuration", json=write(vendor.id, cron).model_dump(mode="json"), headers=admin)
    assert response.status_code == 200, response.text
    saved = response.json()
    assert saved["schedule_cron"] == stored
    if stored is None:
        assert saved["schedule_next_at"] is None
        return
    next_at = datetime.fromisoformat(saved["schedule_next_at"])
    assert before < next_at and schedule.next_due(stored, before) <= next_at <= schedule.next_due(stored, utcnow())
    # Switched off, a configuration has no next run.
    off = write(vendor.id, cron, id=saved["id"], is_active=False).model_dump(mode="json")
    assert client.post(f"{BASE}/configuration", json=off, headers=admin).json()["schedule_next_at"] is None


def test_the_cron_time_is_read_in_utc() -> None:
    assert schedule.latest_due("0 3 * * *", at(DAY0, 3)) == at(DAY0, 3)
    assert schedule.latest_due("0 3 * * *", at(DAY0, 2, 59, 59)) == at(DAY0 - timedelta(days=1), 3)
    assert schedule.latest_due("0 3 * * *", at(DAY0, 3, 0, 1).replace(tzinfo=None)) == at(DAY0, 3)
    assert schedule.next_due("@weekly", DAY0) == DAY0 + timedelta(days=6)  # the Sunday after
    assert schedule.next_due("0 3 * * 1", at(DAY0, 3)) == at(DAY0 + timedelta(days=7), 3)


# --------------------------------------------------------------------------- the periodic task


def test_a_session_starts_once_its_cron_time_has_come(
    db: Session, submitted: list[tuple[str, dict[str, Any]]], pushed: list[tuple[str, dict[str, Any], str]]
) -> None:
    configuration_id = configure(db, "0 3 * * *")
    assert tick(at(DAY0, 2, 59, 59)) == []
    (started,) = tick(at(DAY0, 3, 0, 20))
    (session,) = sessions_of(db, configuration_id)
    assert session.id == started and session.status is CrawlerSessionStatus.queued
    assert session.scheduled_for is not None and as_utc(session.scheduled_for) == at(DAY0, 3)
    assert submitted == [(service.RUN_TASK, {"session_id": started})]
    assert [(name, data["session_id"], room) for name, data, room in pushed] == [
        (events.CRAWLER_STATUS, started, events.ADMINS_ROOM)
    ]
    # Queued, then running: the next minutes start nothing.
    assert tick(at(DAY0, 3, 1)) == []
    db.execute(update(CrawlerSession).values(status=CrawlerSessionStatus.running, started_at=at(DAY0, 3, 1)))
    db.commit()
    assert tick(at(DAY0, 3, 30)) == []
    # Ended: 03:00 has had its run; the next day's 03:00 gets the next.
    end(db, started, at(DAY0, 3, 40))
    assert tick(at(DAY0, 3, 41)) == [] and tick(at(DAY0, 23, 59)) == []
    (next_day,) = tick(at(DAY1, 3, 0, 5))
    assert [as_utc(row.scheduled_for) for row in sessions_of(db, configuration_id) if row.scheduled_for] == [
        at(DAY0, 3),
        at(DAY1, 3),
    ]
    assert submitted[-1] == (service.RUN_TASK, {"session_id": next_day})


def test_a_cron_time_that_comes_while_a_session_is_active_is_skipped(
    db: Session, submitted: list[tuple[str, dict[str, Any]]]
) -> None:
    configuration_id = configure(db, "0 * * * *")  # hourly
    manual = admin_session(db, configuration_id, at(DAY0, 0, 30))
    assert tick(at(DAY0, 1, 0, 10)) == []  # 01:00 came while the admin's crawl ran
    end(db, manual, at(DAY0, 1, 20), CrawlerSessionStatus.stopped)
    assert tick(at(DAY0, 1, 30)) == []  # ... and is not made up for once it ends
    (started,) = tick(at(DAY0, 2, 0, 10))
    # An admin who starts a crawl just after a due time (before the task's next run) takes its place.
    end(db, started, at(DAY0, 2, 30))
    admin_session(db, configuration_id, at(DAY0, 3, 0, 2))
    assert tick(at(DAY0, 3, 0, 40)) == []
    assert [name for name, _kwargs in submitted] == [service.RUN_TASK]


def test_a_scheduler_that_was_down_starts_one_session_for_the_latest_time(
    db: Session, submitted: list[tuple[str, dict[str, Any]]]
) -> None:
    configuration_id = configure(db, "0 * * * *")
    (started,) = tick(at(DAY0, 5, 30))  # 01:00 … 05:00 all passed unseen
    (session,) = sessions_of(db, configuration_id)
    assert session.id == started and as_utc(session.scheduled_for or DAY0) == at(DAY0, 5)


def test_times_before_the_schedule_applied_start_nothing(
    db: Session, submitted: list[tuple[str, dict[str, Any]]]
) -> None:
    vendor = factories.vendor(db, "Provider")
    db.commit()
    configuration_id = service.save_configuration(db, write(vendor.id, "0 3 * * *"), now=at(DAY0, 3, 30)).id
    assert tick(at(DAY0, 3, 31)) == []  # today's 03:00 passed before the schedule was set
    (first,) = tick(at(DAY1, 3))
    end(db, first, at(DAY1, 3, 10))
    # A change of name keeps the schedule's start; a new expression counts from its own save.
    service.save_configuration(db, write(vendor.id, "0 3 * * *", id=configuration_id, name="Renamed"), now=at(DAY1, 4))
    configuration = db.get(CrawlerConfiguration, configuration_id)
    assert configuration is not None and as_utc(configuration.schedule_since or DAY0) == at(DAY0, 3, 30)
    service.save_configuration(db, write(vendor.id, "30 4 * * *", id=configuration_id), now=at(DAY1, 4, 40))
    assert tick(at(DAY1, 4, 41)) == []  # 04:30 came before the new expression was saved
    # Switched off, nothing starts; switched back on, the times it missed meanwhile are not made up.
    service.save_configuration(
        db, write(vendor.id, "30 4 * * *", id=configuration_id, is_active=False), now=at(DAY1, 5)
    )
    day2, day3 = DAY1 + timedelta(days=1), DAY1 + timedelta(days=2)
    assert tick(at(day2, 4, 31)) == []
    service.save_configuration(db, write(vendor.id, "30 4 * * *", id=configuration_id), now=at(day2, 6))
    assert tick(at(day2, 6, 1)) == []
    (later,) = tick(at(day3, 4, 30))
    assert [row.id for row in sessions_of(db, configuration_id)] == [first, later]


def test_each_configuration_follows_its_own_schedule(db: Session, submitted: list[tuple[str, dict[str, Any]]]) -> None:
    nightly = configure(db, "0 3 * * *", name="Nightly")
    hourly = configure(db, "@hourly", name="Hourly")
    none = configure(db, None, name="Unscheduled")
    started = tick(at(DAY0, 3, 0, 30))
    assert len(started) == 2
    assert {row.configuration_id for row in db.scalars(select(CrawlerSession))} == {nightly, hourly}
    assert sessions_of(db, none) == []


def test_two_schedulers_never_start_one_due_time_twice(
    db: Session, submitted: list[tuple[str, dict[str, Any]]]
) -> None:
    """Both schedulers decide from the same state (the first has not committed when the second
    reads); the database refuses the second's session."""
    configuration_id = configure(db, "*/5 * * * *")
    now = at(DAY0, 3, 0, 20)
    with get_sessionmaker()() as first, get_sessionmaker()() as second:
        (due_first,) = service.due_configurations(first, now)
        (due_second,) = service.due_configurations(second, now)
        assert due_first == due_second == service.Due(configuration_id, at(DAY0, 3))
        assert service.start_scheduled(first, due_first) is not None
        assert service.start_scheduled(second, due_second) is None
    (session,) = sessions_of(db, configuration_id)
    assert [kwargs for _name, kwargs in submitted] == [{"session_id": session.id}]
    # A decision for a later due time while that session is active: refused too (one active session).
    with get_sessionmaker()() as late:
        assert service.start_scheduled(late, service.Due(configuration_id, at(DAY0, 3, 5))) is None
    # Ended, the due time it was started for stays taken: a stale decision (or a restarted process
    # replaying it) starts nothing.
    end(db, session.id, at(DAY0, 3, 2))
    with get_sessionmaker()() as replay:
        assert service.start_scheduled(replay, due_first) is None
    assert len(sessions_of(db, configuration_id)) == 1 and len(submitted) == 1


def test_schedulers_running_at_once_start_one_session(db: Session, submitted: list[tuple[str, dict[str, Any]]]) -> None:
    configuration_id = configure(db, "0 3 * * *")
    now = at(DAY0, 3, 0, 10)
    gate = threading.Barrier(4)
    results: list[list[int]] = []
    failures: list[BaseException] = []

    def scheduler() -> None:
        try:
            with get_sessionmaker()() as own:
                due = service.due_configurations(own, now)
                gate.wait(timeout=10)
                results.append([started.session_id for d in due if (started := service.start_scheduled(own, d))])
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            failures.append(exc)

    threads = [threading.Thread(target=scheduler) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert failures == []
    assert sorted(len(started) for started in results) == [0, 0, 0, 1]
    assert len(sessions_of(db, configuration_id)) == 1 and len(submitted) == 1


def test_an_admin_cannot_start_a_configuration_the_schedule_just_started(
    client: TestClient, db: Session, admin: dict[str, str], submitted: list[tuple[str, dict[str, Any]]]
) -> None:
    configuration_id = configure(db, "0 3 * * *")
    (started,) = tick(at(DAY0, 3))
    response = client.post(f"{BASE}/start", json={"configuration_id": configuration_id}, headers=admin)
    assert response.status_code == 409 and str(started) in response.json()["message"]
    status = client.get(f"{BASE}/status", params={"session_id": started}, headers=admin).json()
    assert datetime.fromisoformat(status["scheduled_for"]) == at(DAY0, 3)


def test_the_periodic_task_starts_what_is_due_now(db: Session, submitted: list[tuple[str, dict[str, Any]]]) -> None:
    configuration_id = configure(db, "* * * * *", since=utcnow() - timedelta(minutes=2))
    result = schedule_task()
    (session,) = sessions_of(db, configuration_id)
    assert result == {"started": [session.id]}
    assert schedule_task() == {"started": []}  # the session is queued: the next minute waits for it


def test_a_schedule_stored_unchecked_is_skipped_not_fatal(
    db: Session, submitted: list[tuple[str, dict[str, Any]]]
) -> None:
    broken = configure(db, None, name="Broken")
    db.execute(update(CrawlerConfiguration).where(CrawlerConfiguration.id == broken).values(schedule_cron="61 * * * *"))
    db.commit()
    fine = configure(db, "0 3 * * *", name="Fine")
    assert len(tick(at(DAY0, 3))) == 1
    assert [row.configuration_id for row in db.scalars(select(CrawlerSession))] == [fine]
