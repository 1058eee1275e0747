"""Spec §7 Support: bug reports with screenshots (uploaded through POST /v2/users/bug-image, looked
up with GET bug-image), the known-bugs link, the admins' statuses; feature requests; contact support
mailed to the support address through the mail port; the help tool's configuration; limits."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.core.settings import TutorialVideo, get_settings
from app.notifications.models import OutgoingMail
from app.support.models import SupportMessage
from app.support.schemas import IMAGES_PER_REPORT_MAX
from app.users.models import User
from tests import factories
from tests.api.test_users_beta import image_bytes, upload

BUGS = "/v2/support/bug-report"
FEATURES = "/v2/support/feature-request"
CONTACT = "/v2/support/contact-support"
TEXT = "The map stays grey after I zoom in twice on a phone."


@pytest.fixture(autouse=True)
def fresh_limits() -> Iterator[None]:
    reset_rate_limits()
    yield
    reset_rate_limits()


@pytest.fixture
def reporter(db: Session) -> User:
    user = factories.user(db, email="ann@example.com")
    db.commit()
    return user


@pytest.fixture
def admin(db: Session) -> dict[str, str]:
    headers = factories.bearer(factories.user(db, admin=True))
    db.commit()
    return headers


def report(client: TestClient, user: User, **changes: Any) -> Any:
    body: dict[str, Any] = {"title": "Grey map", "description": TEXT, "page_url": "https://touratlas.test/map"}
    body.update(changes)
    return client.post(BUGS, json=body, headers={**factories.bearer(user), "User-Agent": "Phone Browser 1.0"})


def test_a_bug_report_with_a_screenshot_reaches_the_admins(
    client: TestClient, db: Session, reporter: User, admin: dict[str, str]
) -> None:
    path = upload(client, factories.bearer(reporter), image_bytes("PNG")).json()["path"]
    sent = report(client, reporter, images=[path])
    assert sent.status_code == 200, sent.text
    data = sent.json()["data"]
    assert data["status"] == "open" and data["user_agent"] == "Phone Browser 1.0"
    assert data["images"] == [{"path": path, "content_type": "image/png"}]

    listed = client.get(BUGS, headers=admin).json()
    assert listed["total_items"] == 1 and listed["known_bugs_url"] == get_settings().known_bugs_url
    assert listed["data"][0]["username"] == reporter.username

    moved = client.put(BUGS, json={"id": data["id"], "status": "in_progress"}, headers=admin)
    assert moved.status_code == 200 and moved.json()["data"]["status"] == "in_progress"
    assert client.get(BUGS, params={"status": "open"}, headers=admin).json()["total_items"] == 0
    assert client.get(BUGS, params={"status": "in_progress"}, headers=admin).json()["total_items"] == 1


def test_the_screenshot_is_looked_up_by_name_or_path(client: TestClient, reporter: User) -> None:
    headers = factories.bearer(reporter)
    path = upload(client, headers, image_bytes("JPEG")).json()["path"]
    name = path.rsplit("/", 1)[-1]
    for given in (path, name):
        found = client.get("/v2/support/bug-image", params={"image": given}, headers=headers)
        assert found.status_code == 200 and found.json()["path"] == path
    for missing in ("0" * 32 + ".png", "/uploads/profile-images/" + name, "../" + name):
        assert client.get("/v2/support/bug-image", params={"image": missing}, headers=headers).status_code == 404


def test_a_report_names_only_uploaded_screenshots(client: TestClient, reporter: User) -> None:
    answer = report(client, reporter, images=["/uploads/bug-images/" + "a" * 32 + ".png"])
    assert answer.status_code == 400 and "images.0" in answer.json()["fields"]
    too_many = report(client, reporter, images=["x.png"] * (IMAGES_PER_REPORT_MAX + 1))
    assert too_many.status_code == 400 and "images" in too_many.json()["fields"]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"title": " "}, "title"),
        ({"description": ""}, "description"),
        ({"title": "t" * 256}, "title"),
        ({"description": "d" * 4001}, "description"),
        ({"page_url": "u" * 2049}, "page_url"),
    ],
)
def test_bad_bug_reports_are_400s_naming_the_field(
    client: TestClient, reporter: User, changes: dict[str, Any], field: str
) -> None:
    answer = report(client, reporter, **changes)
    assert answer.status_code == 400 and field in answer.json()["fields"]


def test_users_see_their_own_reports_and_only_admins_set_statuses(
    client: TestClient, db: Session, reporter: User
) -> None:
    other = factories.user(db)
    db.commit()
    report_id = report(client, reporter).json()["data"]["id"]
    assert client.get(BUGS, headers=factories.bearer(other)).json()["total_items"] == 0
    assert client.get(BUGS, headers=factories.bearer(reporter)).json()["total_items"] == 1
    denied = client.put(BUGS, json={"id": report_id, "status": "fixed"}, headers=factories.bearer(reporter))
    assert denied.status_code == 403
    assert client.post(BUGS, json={"title": "x", "description": "y"}).status_code == 401


def test_a_status_of_a_missing_report_is_a_404_and_unknown_statuses_a_400(
    client: TestClient, admin: dict[str, str]
) -> None:
    assert client.put(BUGS, json={"id": 99, "status": "fixed"}, headers=admin).status_code == 404
    wrong = client.put(BUGS, json={"id": 1, "status": "solved"}, headers=admin)
    assert wrong.status_code == 400 and "status" in wrong.json()["fields"]


def test_bug_reports_are_limited_per_account(client: TestClient, reporter: User) -> None:
    for _ in range(10):
        assert report(client, reporter).status_code == 200
    refused = report(client, reporter)
    assert refused.status_code == 429 and "Retry-After" in refused.headers


# ------------------------------------------------------------------------------- feature requests


def test_feature_requests_and_their_statuses(
    client: TestClient, db: Session, reporter: User, admin: dict[str, str]
) -> None:
    headers = factories.bearer(reporter)
    sent = client.post(FEATURES, json={"title": "Dark map by default", "description": "At night"}, headers=headers)
    assert sent.status_code == 200 and sent.json()["data"]["status"] == "open"
    request_id = sent.json()["data"]["id"]
    assert client.put(FEATURES, json={"id": request_id, "status": "planned"}, headers=headers).status_code == 403
    planned = client.put(FEATURES, json={"id": request_id, "status": "planned"}, headers=admin)
    assert planned.status_code == 200 and planned.json()["data"]["username"] == reporter.username
    assert client.get(FEATURES, params={"status": "planned"}, headers=admin).json()["total_items"] == 1
    assert client.get(FEATURES, headers=headers).json()["data"][0]["status"] == "planned"
    assert client.put(FEATURES, json={"id": 999, "status": "done"}, headers=admin).status_code == 404
    blank = client.post(FEATURES, json={"title": "  "}, headers=headers)
    assert blank.status_code == 400 and blank.json()["fields"] == {"title": "This field is required"}


# -------------------------------------------------------------------------------- contact support


def contact(client: TestClient, user: User, **changes: Any) -> Any:
    body = {"name": "Ann Reporter", "email": "ann@example.com", "subject": "Billing", "message": TEXT}
    body.update(changes)
    return client.post(CONTACT, json=body, headers=factories.bearer(user))


def test_contact_support_is_mailed_to_the_support_address(client: TestClient, db: Session, reporter: User) -> None:
    sent = contact(client, reporter, subject="Billing\r\nBcc: everyone@example.com")
    assert sent.status_code == 200, sent.text
    stored = db.get(SupportMessage, sent.json()["id"])
    assert stored is not None and stored.user_id == reporter.id
    mail = db.scalars(select(OutgoingMail)).one()
    assert mail.to_address == get_settings().support_email
    assert mail.reply_to == "ann@example.com"
    assert "\n" not in mail.subject and mail.subject.startswith("Billing Bcc: everyone@example.com (#")
    assert TEXT in mail.body_text


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": " "}, "name"),
        ({"email": "not-an-address"}, "email"),
        ({"message": "Too short"}, "message"),
        ({"message": "m" * 4001}, "message"),
        ({"subject": "s" * 151}, "subject"),
    ],
)
def test_bad_support_messages_are_400s_naming_the_field(
    client: TestClient, db: Session, reporter: User, changes: dict[str, Any], field: str
) -> None:
    answer = contact(client, reporter, **changes)
    assert answer.status_code == 400 and field in answer.json()["fields"]
    assert db.scalars(select(OutgoingMail)).all() == []


def test_contact_support_is_limited(client: TestClient, reporter: User) -> None:
    for _ in range(5):
        assert contact(client, reporter).status_code == 200
    assert contact(client, reporter).status_code == 429


def test_the_help_config_is_public(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    video = TutorialVideo(title="Add your first tour", url="https://videos.example/first-tour")
    monkeypatch.setattr(get_settings(), "tutorial_videos", [video])
    monkeypatch.setattr(get_settings(), "known_bugs_url", "https://status.example/known-bugs")
    answer = client.get("/v2/support/help-config")
    assert answer.status_code == 200
    assert answer.json() == {
        "known_bugs_url": "https://status.example/known-bugs",
        "tutorial_videos": [{"title": "Add your first tour", "url": "https://videos.example/first-tour"}],
    }
