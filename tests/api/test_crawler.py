"""Spec §7 Crawler: the admins' calls, and crawls of a local fake provider (robots.txt, a sitemap index
with a gzipped child, duplicates, a slow page, a 500 retried, a redirect to a loopback address the
SSRF guard refuses), stop, sign, kill-and-resume without filing a tour twice, and the rate limit."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from app.core.db import get_sessionmaker, utcnow
from app.core.settings import get_settings
from app.crawler import engine
from app.crawler.models import (
    CrawledTour,
    CrawlerConfiguration,
    CrawlerSession,
    CrawlerSessionStatus,
    CrawlFrontier,
    FrontierState,
)
from app.crawler.tasks import resume_stale as resume_stale_task
from app.realtime import events
from app.tours.link_lookup import NOT_ALLOWED
from tests import factories
from tests.fakes.crawl_site import CrawlSite, running_crawl_site

BASE = "/v2/crawler"
TOURS = 12
# The tours the fake site serves that the crawler may file: the numbered ones, the flaky and the slow.
FILEABLE = TOURS + 2


@pytest.fixture
def site(monkeypatch: pytest.MonkeyPatch) -> Iterator[CrawlSite]:
    """A fresh fake provider; the guard lets the crawler reach 127.0.0.1/32 only (as the lookup's tests do)."""
    monkeypatch.setattr(get_settings(), "discover_allowed_networks", ["127.0.0.1/32"])
    with running_crawl_site(tours=TOURS, slow_seconds=0.5) as fake:
        yield fake


@pytest.fixture
def admin(db: Session) -> dict[str, str]:
    person = factories.user(db, admin=True)
    db.commit()
    return factories.bearer(person)


@pytest.fixture
def pushed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any], str]]:
    sent: list[tuple[str, dict[str, Any], str]] = []
    monkeypatch.setattr(events, "emit_now", lambda name, data, *, room: sent.append((name, data, room)))
    return sent


def configuration_body(db: Session, site: CrawlSite, **overrides: Any) -> dict[str, Any]:
    vendor = factories.vendor(db, f"Fake{db.scalar(select(func.count()).select_from(CrawlerConfiguration))}")
    db.commit()
    body: dict[str, Any] = {
        "name": "Fake provider",
        "vendor_id": vendor.id,
        "start_urls": [],
        "sitemap_urls": [site.url("/sitemap_index.xml")],
        "rate_limit": 0,
        "concurrency": 4,
        "tour_link_pattern": site.tour_pattern,
    }
    return {**body, **overrides}


def configure(client: TestClient, admin: dict[str, str], body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"{BASE}/configuration", json=body, headers=admin)
    assert response.status_code == 200, response.text
    saved: dict[str, Any] = response.json()
    return saved


def queued_session(db: Session, configuration_id: int) -> int:
    """A queued session without a task submitted: the test drives the worker itself."""
    session = CrawlerSession(configuration_id=configuration_id, status=CrawlerSessionStatus.queued)
    db.add(session)
    db.commit()
    return session.id


def filed_links(db: Session) -> list[str]:
    db.expire_all()
    return list(db.scalars(select(CrawledTour.link_normalised).order_by(CrawledTour.link_normalised)))


# --------------------------------------------------------------------------- access and input


CALLS = [
    ("get", "/configuration", None),
    ("post", "/configuration", {"name": "x"}),
    ("post", "/configuration/remove", {"id": 1}),
    ("post", "/start", {"configuration_id": 1}),
    ("post", "/stop", {"session_id": 1}),
    ("post", "/sign", {"session_id": 1}),
    ("get", "/status?session_id=1", None),
    ("get", "/sessions", None),
    ("get", "/tours", None),
]


@pytest.mark.parametrize(("method", "path", "body"), CALLS)
def test_every_call_is_for_admins(
    client: TestClient, db: Session, method: str, path: str, body: dict[str, Any] | None
) -> None:
    user = factories.bearer(factories.user(db))
    db.commit()
    kwargs: dict[str, Any] = {"json": body} if body is not None else {}
    assert client.request(method, BASE + path, **kwargs).status_code == 401
    assert client.request(method, BASE + path, headers=user, **kwargs).status_code == 403


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": " "}, "name"),
        ({"rate_limit": -1}, "rate_limit"),
        ({"rate_limit": 1000}, "rate_limit"),
        ({"concurrency": 0}, "concurrency"),
        ({"max_pages": 0}, "max_pages"),
        ({"max_depth": 11}, "max_depth"),
        ({"tour_link_pattern": "(unclosed"}, "tour_link_pattern"),
        ({"start_urls": ["ftp://example.com/"]}, "start_urls"),
        ({"sitemap_urls": [], "start_urls": []}, "start_urls"),
        ({"vendor_id": 999999}, "vendor_id"),
        ({"id": 999999}, "id"),
    ],
)
def test_a_bad_configuration_is_a_400_naming_the_field(
    client: TestClient, db: Session, admin: dict[str, str], site: CrawlSite, change: dict[str, Any], field: str
) -> None:
    response = client.post(f"{BASE}/configuration", json=configuration_body(db, site, **change), headers=admin)
    assert response.status_code == 400, response.text
    assert any(key == field or key.startswith(f"{field}.") for key in response.json()["fields"]), response.json()


def test_a_host_without_a_link_pattern_needs_one(
    client: TestClient, db: Session, admin: dict[str, str], site: CrawlSite
) -> None:
    body = configuration_body(db, site, tour_link_pattern=None)
    vendor = db.get(factories.Vendor, body["vendor_id"])
    assert vendor is not None
    vendor.link_pattern = None
    db.commit()
    response = client.post(f"{BASE}/configuration", json=body, headers=admin)
    assert response.status_code == 400 and "tour_link_pattern" in response.json()["fields"]


def test_configurations_are_added_listed_changed_and_removed(
    client: TestClient, db: Session, admin: dict[str, str], site: CrawlSite
) -> None:
    saved = configure(client, admin, configuration_body(db, site, rate_limit=2.5))
    assert saved["rate_limit"] == 2.5 and saved["sitemap_urls"] == [site.url("/sitemap_index.xml")]
    assert saved["last_session"] is None
    changed = configure(client, admin, {**configuration_body(db, site), "id": saved["id"], "name": "Renamed"})
    assert changed["id"] == saved["id"] and changed["name"] == "Renamed"
    listed = client.get(f"{BASE}/configuration", headers=admin).json()["data"]
    assert [row["name"] for row in listed] == ["Renamed"]
    assert client.get(f"{BASE}/configuration", params={"id": saved["id"]}, headers=admin).status_code == 200
    assert client.get(f"{BASE}/configuration", params={"id": 999999}, headers=admin).status_code == 404
    removed = client.post(f"{BASE}/configuration/remove", json={"id": saved["id"]}, headers=admin)
    assert removed.status_code == 200
    assert client.get(f"{BASE}/configuration", headers=admin).json()["data"] == []
    again = client.post(f"{BASE}/configuration/remove", json={"id": saved["id"]}, headers=admin)
    assert again.status_code == 400 and "id" in again.json()["fields"]


def test_session_calls_answer_404_or_400_for_unknown_ids(client: TestClient, admin: dict[str, str]) -> None:
    assert client.post(f"{BASE}/start", json={"configuration_id": 999999}, headers=admin).status_code == 400
    assert client.post(f"{BASE}/stop", json={"session_id": 999999}, headers=admin).status_code == 404
    assert client.post(f"{BASE}/sign", json={"session_id": 999999}, headers=admin).status_code == 404
    assert client.get(f"{BASE}/status", params={"session_id": 999999}, headers=admin).status_code == 404
    bad = client.get(f"{BASE}/status", params={"session_id": "x"}, headers=admin)
    assert bad.status_code == 400 and "session_id" in bad.json()["fields"]


# --------------------------------------------------------------------------- a crawl


def test_a_crawl_files_each_tour_once_politely_and_safely(
    client: TestClient,
    db: Session,
    admin: dict[str, str],
    site: CrawlSite,
    pushed: list[tuple[str, dict[str, Any], str]],
) -> None:
    saved = configure(client, admin, configuration_body(db, site, start_urls=[site.url("/list")]))
    # Tasks run eagerly in tests: the whole crawl runs as the start call commits.
    started = client.post(f"{BASE}/start", json={"configuration_id": saved["id"]}, headers=admin)
    assert started.status_code == 200, started.text
    session_id = started.json()["session_id"]
    status = client.get(f"{BASE}/status", params={"session_id": session_id}, headers=admin).json()
    assert status["status"] == "finished", status
    assert status["new_tours"] == FILEABLE and status["total_tours"] == FILEABLE
    assert status["pid"] and status["pages_waiting"] == 0

    # Each tour fetched once, whatever spelling and however many times the sitemaps and the list gave it.
    assert all(site.hits[f"/tours/{n}"] == 1 for n in range(TOURS))
    assert site.hits["/tours/0/"] == 0
    assert len(filed_links(db)) == FILEABLE == len(set(filed_links(db)))
    # robots.txt: the forbidden page is never fetched; the gzipped sitemap was read.
    assert site.hits["/private/secret"] == 0 and site.hits["/sitemaps/tours-1.xml.gz"] == 1
    # The 500 was retried (twice failing, then filed); the slow page waited for.
    assert site.hits["/tours/flaky"] == 3
    frontier = {row.url: row for row in db.scalars(select(CrawlFrontier).where(CrawlFrontier.session_id == session_id))}
    assert frontier[site.url("/tours/flaky")].state is FrontierState.done
    assert frontier[site.url("/tours/flaky")].attempts == 3
    assert frontier[site.url("/private/secret")].state is FrontierState.skipped
    # The redirect to 127.0.0.2 (loopback, outside the allowed 127.0.0.1/32) is refused by the guard.
    refused = frontier[site.url("/tours/to-loopback")]
    assert refused.state is FrontierState.failed and refused.last_error == NOT_ALLOWED and refused.attempts == 1

    page = client.get(f"{BASE}/tours", params={"session_id": session_id, "limit": 200}, headers=admin).json()
    assert page["total_items"] == FILEABLE
    first = next(row for row in page["data"] if row["link"] == site.url("/tours/0"))
    assert first["title"] == "Tour 0" and first["description"] == "A virtual tour of Tour 0"
    assert first["image"] == site.url("/images/Tour-0.jpg") and first["status"] == "new"

    statuses = [data for name, data, room in pushed if name == events.CRAWLER_STATUS and room == events.ADMINS_ROOM]
    assert statuses[0]["status"] == "queued" and statuses[-1]["status"] == "finished"
    assert statuses[-1]["new_tours"] == FILEABLE


def test_a_second_session_files_nothing_again_and_asks_conditionally(
    client: TestClient, db: Session, admin: dict[str, str], site: CrawlSite
) -> None:
    saved = configure(client, admin, configuration_body(db, site))
    first = client.post(f"{BASE}/start", json={"configuration_id": saved["id"]}, headers=admin).json()
    signed = client.post(f"{BASE}/sign", json={"session_id": first["session_id"]}, headers=admin)
    assert signed.status_code == 200 and signed.json()["signed_at"]
    second = client.post(f"{BASE}/start", json={"configuration_id": saved["id"]}, headers=admin).json()
    status = client.get(f"{BASE}/status", params={"session_id": second["session_id"]}, headers=admin).json()
    assert status["status"] == "finished"
    assert status["new_tours"] == 0 and status["total_tours"] == FILEABLE
    # The pending tours were asked with If-None-Match and answered 304 Not Modified.
    assert site.hits["304"] == FILEABLE
    assert len(filed_links(db)) == FILEABLE
    listed = client.get(f"{BASE}/sessions", params={"configuration_id": saved["id"]}, headers=admin).json()["data"]
    assert [row["session_id"] for row in listed] == [second["session_id"], first["session_id"]]
    assert client.get(f"{BASE}/sessions", params={"active": True}, headers=admin).json()["data"] == []


def test_a_killed_worker_is_resumed_without_filing_a_tour_twice(
    client: TestClient, db: Session, admin: dict[str, str], site: CrawlSite
) -> None:
    saved = configure(client, admin, configuration_body(db, site, concurrency=2))
    session_id = queued_session(db, saved["id"])
    sessions = get_sessionmaker()

    # Worker A crawls a few batches and dies: nothing released, the session still says running.
    first = engine.Crawl(sessions, session_id, pid="host-a:101", batch_size=4).run(max_batches=4)
    assert first.status == "paused"
    db.expire_all()
    half = db.get(CrawlerSession, session_id)
    assert half is not None and half.status is CrawlerSessionStatus.running and half.pid == "host-a:101"
    filed_by_a = half.new_tours
    assert 0 < filed_by_a < FILEABLE

    # While A's heartbeat is fresh, no other worker may take the session.
    assert engine.Crawl(sessions, session_id, pid="host-b:202").run().status == "not claimed"
    # A stays silent: the watchdog finds the session stale.
    db.execute(
        update(CrawlerSession)
        .where(CrawlerSession.id == session_id)
        .values(heartbeat_at=utcnow() - timedelta(minutes=5))
    )
    db.commit()
    # The worst case: A had filed tours whose frontier rows a crash left pending (they are fetched again).
    db.execute(
        update(CrawlFrontier)
        .where(CrawlFrontier.session_id == session_id, CrawlFrontier.state == FrontierState.done)
        .values(state=FrontierState.pending)
    )
    db.commit()

    # The watchdog task finds the session stale and queues its run (tasks run eagerly in tests).
    assert resume_stale_task() == {"resumed": [session_id]}
    status = client.get(f"{BASE}/status", params={"session_id": session_id}, headers=admin).json()
    assert status["status"] == "finished" and status["pid"] == engine.worker_pid()
    assert status["new_tours"] == FILEABLE
    links = filed_links(db)
    assert len(links) == FILEABLE == len(set(links))


def test_stop_ends_a_running_crawl_and_sign_needs_an_ended_session(
    client: TestClient, db: Session, admin: dict[str, str], site: CrawlSite
) -> None:
    saved = configure(client, admin, configuration_body(db, site, rate_limit=4, concurrency=1))
    session_id = queued_session(db, saved["id"])
    worker = threading.Thread(target=engine.Crawl(get_sessionmaker(), session_id).run)
    worker.start()
    time.sleep(1.5)
    early = client.post(f"{BASE}/sign", json={"session_id": session_id}, headers=admin)
    assert early.status_code == 409
    active = client.get(f"{BASE}/sessions", params={"active": True}, headers=admin).json()["data"]
    assert [row["session_id"] for row in active] == [session_id]
    stopped = client.post(f"{BASE}/stop", json={"session_id": session_id}, headers=admin)
    assert stopped.status_code == 200
    body = stopped.json()
    assert body["status"] == "stopped" and {"session_id", "total_tours", "new_tours", "pid"} <= body.keys()
    worker.join(timeout=20)
    assert not worker.is_alive()
    db.expire_all()
    session = db.get(CrawlerSession, session_id)
    assert session is not None and session.status is CrawlerSessionStatus.stopped
    assert session.new_tours < FILEABLE  # it stopped before the end
    assert client.post(f"{BASE}/sign", json={"session_id": session_id}, headers=admin).status_code == 200
    again = client.post(f"{BASE}/start", json={"configuration_id": saved["id"]}, headers=admin)
    assert again.status_code == 200  # a stopped session no longer blocks a new one


def test_start_refuses_a_second_session_of_a_running_configuration(
    client: TestClient, db: Session, admin: dict[str, str], site: CrawlSite
) -> None:
    saved = configure(client, admin, configuration_body(db, site))
    queued_session(db, saved["id"])
    response = client.post(f"{BASE}/start", json={"configuration_id": saved["id"]}, headers=admin)
    assert response.status_code == 409


def test_the_rate_limit_holds(client: TestClient, db: Session, admin: dict[str, str], site: CrawlSite) -> None:
    rate = 8.0
    saved = configure(
        client, admin, configuration_body(db, site, rate_limit=rate, concurrency=4, start_urls=[site.url("/list")])
    )
    session_id = queued_session(db, saved["id"])
    engine.Crawl(get_sessionmaker(), session_id).run()
    starts = sorted(site.started)
    assert len(starts) >= TOURS
    gaps = [later - earlier for earlier, later in itertools.pairwise(starts)]
    # Requests start at least 1/rate apart (a little scheduling jitter aside), even with 4 in flight.
    assert min(gaps) >= 1 / rate - 0.02, gaps
    assert (len(starts) - 1) / (starts[-1] - starts[0]) <= rate * 1.05
