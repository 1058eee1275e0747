"""Spec §7 Releases: release notes (GET for everybody, POST and DELETE for admins) with the §3 wire
names and the 'Version ' prefix rule, the version notice a newly published release sends, and the
facebook-post call through the Graph adapter against a local fake Graph API."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.settings import get_settings
from app.platform.models import PLATFORM_CONFIG_ID, PlatformConfig
from app.realtime import events
from app.releases.models import Release, ReleaseItem
from app.releases.schemas import ITEMS_PER_LIST_MAX
from tests import factories
from tests.api.test_engagement import RecordedEmits, record_emits
from tests.fakes.facebook_graph import FakeGraph, running_graph

NOTES = "/v2/releases/release-notes"
FACEBOOK = "/v2/facebook-post/"


def release_body(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "releaseName": "Spring update",
        "releaseVersion": "2.4.0",
        "releaseDate": "2026-03-02",
        "releaseTime": "10:30",
        "listNewItems": [{"title": "Updates page", "description": "Read what changed"}],
        "listImprovedItems": [{"title": "Faster map"}],
        "listFixedItems": [{"title": "Saved tours list", "description": "No longer empty after sign-in"}],
        "listComingSoonItems": [{"title": "Offline tours"}],
    }
    body.update(changes)
    return body


@pytest.fixture
def emits(monkeypatch: pytest.MonkeyPatch) -> RecordedEmits:
    return record_emits(monkeypatch)


@pytest.fixture
def admin(db: Session) -> dict[str, str]:
    headers = factories.bearer(factories.user(db, admin=True))
    db.commit()
    return headers


@pytest.fixture
def member(db: Session) -> dict[str, str]:
    headers = factories.bearer(factories.user(db))
    db.commit()
    return headers


def test_an_admin_publishes_a_release_that_everybody_reads(
    client: TestClient, db: Session, admin: dict[str, str], emits: RecordedEmits
) -> None:
    saved = client.post(NOTES, json=release_body(), headers=admin)
    assert saved.status_code == 200, saved.text
    release = saved.json()["data"]
    assert release["releaseVersion"] == "Version 2.4.0"
    assert [item["type"] for item in release["listComingSoonItems"]] == ["Coming Soon"]
    assert release["listFixedItems"][0]["description"] == "No longer empty after sign-in"
    assert saved.json()["announced_version"] == "2.4.0"
    # The existing version notice: gui_version and the app:version event to every open page.
    assert db.get(PlatformConfig, PLATFORM_CONFIG_ID).gui_version == "2.4.0"  # type: ignore[union-attr]
    assert emits.of(events.APP_VERSION, events.EVERYONE_ROOM) == [{"gui_version": "2.4.0"}]

    read = client.get(NOTES)  # a guest reads the Updates page too
    assert read.status_code == 200
    assert read.json()["total_items"] == 1
    assert read.json()["data"][0]["listNewItems"][0]["title"] == "Updates page"


@pytest.mark.parametrize(
    ("given", "stored"),
    [("2.4.1", "Version 2.4.1"), ("Version 2.4.1", "Version 2.4.1"), ("version  2.4.1 ", "Version 2.4.1")],
)
def test_the_version_prefix_is_added_when_missing(
    client: TestClient, admin: dict[str, str], given: str, stored: str
) -> None:
    saved = client.post(NOTES, json=release_body(releaseVersion=given), headers=admin)
    assert saved.json()["data"]["releaseVersion"] == stored


def test_editing_replaces_the_items_and_an_older_release_announces_nothing(
    client: TestClient, db: Session, admin: dict[str, str], emits: RecordedEmits
) -> None:
    newer = client.post(NOTES, json=release_body(), headers=admin).json()["data"]
    older = client.post(
        NOTES, json=release_body(releaseVersion="2.3.0", releaseDate="2026-01-10"), headers=admin
    ).json()
    assert older["announced_version"] is None  # not the newest: the pages are not told about an old version
    edited = client.post(
        NOTES, json=release_body(id=newer["id"], listNewItems=[], listFixedItems=[{"title": "Only fix"}]), headers=admin
    )
    assert edited.status_code == 200
    assert edited.json()["data"]["listNewItems"] == []
    assert [item["title"] for item in edited.json()["data"]["listFixedItems"]] == ["Only fix"]
    assert db.scalar(select(Release).where(Release.id == newer["id"])) is not None
    listed = client.get(NOTES).json()["data"]
    assert [row["releaseVersion"] for row in listed] == ["Version 2.4.0", "Version 2.3.0"]


def test_deleting_a_release_removes_its_items(client: TestClient, db: Session, admin: dict[str, str]) -> None:
    release_id = client.post(NOTES, json=release_body(), headers=admin).json()["data"]["id"]
    deleted = client.delete(NOTES, params={"release_id": release_id}, headers=admin)
    assert deleted.status_code == 200 and deleted.json()["release_id"] == release_id
    assert db.scalars(select(ReleaseItem)).all() == []
    assert client.delete(NOTES, params={"release_id": release_id}, headers=admin).status_code == 404


def test_only_admins_write_release_notes(client: TestClient, member: dict[str, str]) -> None:
    assert client.post(NOTES, json=release_body(), headers=member).status_code == 403
    assert client.post(NOTES, json=release_body()).status_code == 401
    assert client.delete(NOTES, params={"release_id": 1}, headers=member).status_code == 403
    assert client.post(FACEBOOK, json={}, headers=member).status_code == 403


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"releaseName": "  "}, "releaseName"),
        ({"releaseVersion": "Version "}, "releaseVersion"),
        ({"releaseVersion": "x" * 33}, "releaseVersion"),
        ({"releaseTime": "25:00"}, "releaseTime"),
        ({"releaseDate": "not a date"}, "releaseDate"),
        ({"listFixedItems": [{"title": " "}]}, "listFixedItems.0.title"),
        ({"listNewItems": [{"title": "t" * 256}]}, "listNewItems.0.title"),
        ({"listNewItems": [{"title": "a"}] * (ITEMS_PER_LIST_MAX + 1)}, "listNewItems"),
    ],
)
def test_bad_release_input_is_a_400_naming_the_field(
    client: TestClient, admin: dict[str, str], changes: dict[str, Any], field: str
) -> None:
    answer = client.post(NOTES, json=release_body(**changes), headers=admin)
    assert answer.status_code == 400, answer.text
    assert field in answer.json()["fields"]


def test_editing_a_missing_release_is_a_404(client: TestClient, admin: dict[str, str]) -> None:
    assert client.post(NOTES, json=release_body(id=999), headers=admin).status_code == 404


# ------------------------------------------------------------------------------------ facebook-post


@pytest.fixture
def graph(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGraph]:
    with running_graph() as fake:
        settings = get_settings()
        monkeypatch.setattr(settings, "facebook_page_graph_url", fake.url)
        monkeypatch.setattr(settings, "facebook_page_id", fake.page_id)
        monkeypatch.setattr(settings, "facebook_page_access_token", fake.page_token)
        monkeypatch.setattr(settings, "social_http_timeout_seconds", 3.0)
        yield fake


FACEBOOK_BODY = {
    "release_name": "Spring update",
    "release_version": "2.4.0",
    "release_date": "2026-03-02",
    "list_new": ["Updates page"],
    "list_improved": [],
    "list_fixed": ["Saved tours list", " "],
    "list_coming_soon": ["Offline tours"],
}


def test_a_release_is_posted_to_the_facebook_page(client: TestClient, admin: dict[str, str], graph: FakeGraph) -> None:
    answer = client.post(FACEBOOK, json=FACEBOOK_BODY, headers=admin)
    assert answer.status_code == 200, answer.text
    assert answer.json()["post_id"] == f"{graph.page_id}_1"
    [post] = graph.posts
    assert post.startswith("Spring update — Version 2.4.0 (2026-03-02)")
    assert "New:\n• Updates page" in post and "Fixed:\n• Saved tours list" in post
    assert "Improved" not in post and "Coming Soon:\n• Offline tours" in post


def test_graph_refusals_and_outages_are_503_with_the_reason(
    client: TestClient, admin: dict[str, str], graph: FakeGraph, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "facebook_page_access_token", "stale")
    refused = client.post(FACEBOOK, json=FACEBOOK_BODY, headers=admin)
    assert refused.status_code == 503
    assert refused.json()["message"] == "Facebook refused the post: Invalid OAuth access token."
    monkeypatch.setattr(get_settings(), "facebook_page_access_token", graph.page_token)
    graph.outage = True
    assert client.post(FACEBOOK, json=FACEBOOK_BODY, headers=admin).json()["message"] == (
        "Facebook refused the post: HTTP 503"
    )
    monkeypatch.setattr(get_settings(), "facebook_page_graph_url", "http://127.0.0.1:9/v19.0")
    unreachable = client.post(FACEBOOK, json=FACEBOOK_BODY, headers=admin)
    assert unreachable.status_code == 503 and unreachable.json()["message"].startswith("Facebook could not be reached")
    assert graph.posts == []


def test_facebook_post_is_refused_while_not_configured(client: TestClient, admin: dict[str, str]) -> None:
    answer = client.post(FACEBOOK, json=FACEBOOK_BODY, headers=admin)
    assert answer.status_code == 503 and answer.json()["message"] == "Posting to Facebook is not configured"


def test_facebook_post_requires_name_and_version(client: TestClient, admin: dict[str, str], graph: FakeGraph) -> None:
    answer = client.post(FACEBOOK, json={**FACEBOOK_BODY, "release_name": " ", "release_version": ""}, headers=admin)
    assert answer.status_code == 400
    assert set(answer.json()["fields"]) == {"release_name", "release_version"}
