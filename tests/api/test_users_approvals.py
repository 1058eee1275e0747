"""Spec §4 "Pending approval items" of the users domain (new user, user profile edit, profile image):
filing, the moderation-queue push, GET and PUT /v2/users/approval-items, and the mail the user gets."""

from __future__ import annotations

import io
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.core.security import hash_password
from app.core.settings import get_settings
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.notifications.models import OutgoingMail
from app.platform.models import PlatformConfig
from app.realtime import events
from app.users.models import User
from tests import factories

SIGN_UP = {
    "email": "newcomer@example.com",
    "password": "Secret1!",
    "first_name": "New",
    "last_name": "Comer",
    "platform_username": "new.comer",
}

# The moderation push counts every kind of the queue (app/moderation/service.py).
NOTHING_WAITS = {kind.value: 0 for kind in ApprovalKind}


class RecordingEmitter:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any], str]] = []

    def emit(self, event: str, data: dict[str, Any], *, room: str) -> None:
        self.sent.append((event, data, room))

    def queue_pushes(self) -> list[dict[str, Any]]:
        return [data for event, data, room in self.sent if event == events.MODERATION_QUEUE and room == "admins"]


@pytest.fixture(autouse=True)
def fresh_limits() -> Iterator[None]:
    reset_rate_limits()
    yield


@lru_cache
def _password_hash(password: str) -> str:
    return hash_password(password)


@pytest.fixture(autouse=True)
def quick_passwords(monkeypatch: pytest.MonkeyPatch) -> None:
    # Argon2 is slow on purpose; these tests build many accounts with the same password.
    monkeypatch.setattr(factories, "hash_password", _password_hash)


@pytest.fixture
def emitter(monkeypatch: pytest.MonkeyPatch) -> RecordingEmitter:
    recorder = RecordingEmitter()
    monkeypatch.setattr(events, "get_emitter", lambda: recorder)
    return recorder


def png_bytes(colour: str = "teal") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (24, 24), colour).save(buffer, format="PNG")
    return buffer.getvalue()


def items(client: TestClient, admin: User, **params: Any) -> dict[str, Any]:
    response = client.get("/v2/users/approval-items", params=params, headers=factories.bearer(admin))
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def decide(client: TestClient, admin: User, item_id: int, action: str, note: str | None = None) -> Any:
    body: dict[str, Any] = {"id": item_id, "action": action}
    if note is not None:
        body["review_note"] = note
    return client.put("/v2/users/approval-items", json=body, headers=factories.bearer(admin))


def mails_to(db: Session, address: str) -> list[OutgoingMail]:
    db.expire_all()
    return list(db.scalars(select(OutgoingMail).where(OutgoingMail.to_address == address).order_by(OutgoingMail.id)))


def sign_up(client: TestClient) -> dict[str, Any]:
    response = client.post("/v2/users/sign-up", json=SIGN_UP)
    assert response.status_code in (200, 201), response.text
    return response.json()  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------------------- new user


def test_sign_up_files_a_new_user_item_and_tells_the_admins(
    client: TestClient, db: Session, emitter: RecordingEmitter
) -> None:
    admin = factories.user(db, admin=True)
    db.commit()
    sign_up(client)
    newcomer = db.scalars(select(User).where(User.email == "newcomer@example.com")).one()
    assert emitter.queue_pushes() == [
        {
            "kind": "new_user",
            "id": emitter.queue_pushes()[0]["id"],
            "item_id": emitter.queue_pushes()[0]["id"],
            "action": "added",
            "pending": {**NOTHING_WAITS, "new_user": 1},
        }
    ]
    page = items(client, admin)
    assert page["total_items"] == 1 and page["limit"] == 20 and page["offset"] == 0
    item = page["data"][0]
    assert (item["kind"], item["status"], item["userid"]) == ("new_user", "pending", newcomer.id)
    assert item["pending"] == {
        "email": "newcomer@example.com",
        "first_name": "New",
        "last_name": "Comer",
        "platform_username": "new.comer",
        "auth_system": "email",
    }
    assert item["current"] == item["pending"]
    assert item["user"]["username"] == "New Comer" and item["user"]["is_active"] is True


def test_approving_a_new_user_confirms_it_and_mails_them(
    client: TestClient, db: Session, emitter: RecordingEmitter
) -> None:
    admin = factories.user(db, admin=True)
    db.commit()
    token = sign_up(client)["user_jwt"]
    item_id = items(client, admin)["data"][0]["id"]
    response = decide(client, admin, item_id, "approve")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["message"] == "Approved"
    assert body["data"]["status"] == "approved" and body["data"]["reviewed_by"] == admin.id
    assert body["data"]["reviewed_at"] is not None
    assert emitter.queue_pushes()[-1] == {
        "kind": "new_user",
        "id": item_id,
        "item_id": item_id,
        "action": "approved",
        "pending": NOTHING_WAITS,
    }
    (mail,) = mails_to(db, "newcomer@example.com")
    assert mail.subject == "Your TourAtlas account is approved" and mail.body_text.startswith("Hello New,")
    assert mail.template == "approval.new_user.approved"
    # The account keeps working; the queue is empty; the decision is on record.
    assert client.get("/v2/users/", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    assert items(client, admin)["total_items"] == 0
    assert [entry["id"] for entry in items(client, admin, status="approved")["data"]] == [item_id]
    again = decide(client, admin, item_id, "reject")
    assert again.status_code == 409 and again.json()["message"] == "This item has already been approved"


def test_rejecting_a_new_user_drafts_the_account(client: TestClient, db: Session) -> None:
    admin = factories.user(db, admin=True)
    db.commit()
    token = sign_up(client)["user_jwt"]
    item_id = items(client, admin)["data"][0]["id"]
    response = decide(client, admin, item_id, "reject", note="  Looks like spam  ")
    assert response.status_code == 200 and response.json()["data"]["review_note"] == "Looks like spam"
    newcomer = db.scalars(select(User).where(User.email == "newcomer@example.com")).one()
    db.refresh(newcomer)
    assert newcomer.is_active is False
    assert client.get("/v2/users/", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    (mail,) = mails_to(db, "newcomer@example.com")
    assert mail.subject == "Your TourAtlas account was not approved"
    assert "Note from the administrator: Looks like spam" in mail.body_text


# ------------------------------------------------------------------------------- user profile edit


def _pending_rename(client: TestClient, db: Session, new_name: str = "new.name") -> tuple[User, User, int]:
    admin = factories.user(db, admin=True)
    owner = factories.user(db, platform_username="old.name", email="owner@example.com", first_name="Olga")
    factories.creator(db, owner)
    db.commit()
    response = client.put(
        "/v2/users/user-params", json={"params": {"platform_username": new_name}}, headers=factories.bearer(owner)
    )
    assert response.status_code == 201
    page = items(client, admin, kind="user_profile_edit")
    assert page["total_items"] == 1
    return admin, owner, page["data"][0]["id"]


def test_profile_edit_item_shows_pending_and_current_values(
    client: TestClient, db: Session, emitter: RecordingEmitter
) -> None:
    admin, _owner, item_id = _pending_rename(client, db)
    item = items(client, admin)["data"][0]
    assert item["id"] == item_id and item["kind"] == "user_profile_edit"
    assert item["pending"] == {"platform_username": "new.name"} and item["current"] == {"platform_username": "old.name"}
    assert emitter.queue_pushes()[-1]["pending"] == {**NOTHING_WAITS, "user_profile_edit": 1}
    assert items(client, admin, kind="new_user")["total_items"] == 0


def test_approving_a_profile_edit_applies_it(client: TestClient, db: Session) -> None:
    admin, owner, item_id = _pending_rename(client, db)
    response = decide(client, admin, item_id, "approve")
    assert response.status_code == 200
    assert response.json()["data"]["current"] == {"platform_username": "new.name"}
    me = client.get("/v2/users/", headers=factories.bearer(owner)).json()
    assert me["platform_username"] == "new.name" and me["profile_edit_pending"] is False
    (mail,) = mails_to(db, "owner@example.com")
    assert mail.subject == "Your profile changes are approved" and mail.body_text.startswith("Hello Olga,")


def test_a_name_taken_meanwhile_cannot_be_approved_and_the_edit_can_be_rejected(
    client: TestClient, db: Session
) -> None:
    admin, owner, item_id = _pending_rename(client, db)
    factories.user(db, platform_username="New.Name")
    db.commit()
    taken = decide(client, admin, item_id, "approve")
    assert taken.status_code == 409 and taken.json()["fields"] == {
        "platform_username": "This username is already taken"
    }
    assert items(client, admin)["data"][0]["status"] == "pending"
    assert mails_to(db, "owner@example.com") == []
    rejected = decide(client, admin, item_id, "reject")
    assert rejected.status_code == 200
    me = client.get("/v2/users/", headers=factories.bearer(owner)).json()
    assert me["platform_username"] == "old.name" and me["profile_edit_pending"] is False
    assert [mail.subject for mail in mails_to(db, "owner@example.com")] == ["Your profile changes were not approved"]
    # With the flag cleared, the owner may propose another name.
    retry = client.put(
        "/v2/users/user-params", json={"params": {"platform_username": "other.name"}}, headers=factories.bearer(owner)
    )
    assert retry.status_code == 201


# ----------------------------------------------------------------------------------- profile image


def test_profile_images_wait_and_a_newer_one_supersedes(client: TestClient, db: Session) -> None:
    admin, user = factories.user(db, admin=True), factories.user(db, email="pic@example.com")
    db.add(PlatformConfig(id=1, restrict_access=False, images_approval=True))
    db.commit()

    def upload(colour: str) -> str:
        response = client.post(
            "/v2/users/profile-image",
            files={"image": ("me.png", png_bytes(colour), "image/png")},
            headers=factories.bearer(user),
        )
        assert response.status_code == 201
        return response.json()["path"]  # type: ignore[no-any-return]

    first, second = upload("red"), upload("blue")
    page = items(client, admin, kind="profile_image")
    assert page["total_items"] == 1 and page["data"][0]["pending"] == {"profile_img": second}
    assert page["data"][0]["current"] == {"profile_img": None}
    superseded = items(client, admin, kind="profile_image", status="rejected")["data"]
    assert [(entry["pending"], entry["review_note"]) for entry in superseded] == [
        ({"profile_img": first}, "Replaced by a newer submission")
    ]
    assert decide(client, admin, page["data"][0]["id"], "approve").status_code == 200
    assert client.get("/v2/users/", headers=factories.bearer(user)).json()["profile_img"] == second
    assert [mail.subject for mail in mails_to(db, "pic@example.com")] == ["Your profile image is approved"]


def test_a_rejected_profile_image_is_removed(client: TestClient, db: Session) -> None:
    admin, user = factories.user(db, admin=True), factories.user(db)
    db.add(PlatformConfig(id=1, restrict_access=False, images_approval=True))
    db.commit()
    path = client.post(
        "/v2/users/profile-image", files={"image": ("me.png", png_bytes(), "image/png")}, headers=factories.bearer(user)
    ).json()["path"]
    stored = get_settings().uploads_dir / "profile-images" / path.rsplit("/", 1)[-1]
    assert stored.is_file()
    item_id = items(client, admin)["data"][0]["id"]
    assert decide(client, admin, item_id, "reject").status_code == 200
    assert not stored.exists()
    assert client.get("/v2/users/", headers=factories.bearer(user)).json()["profile_img"] is None


# ------------------------------------------------------------------------------------- bad input


def test_bad_decisions_are_refused(client: TestClient, db: Session) -> None:
    admin = factories.user(db, admin=True)
    tour_item = ApprovalItem(kind=ApprovalKind.new_virtual_tour, status=ApprovalStatus.pending, payload={})
    own_item = ApprovalItem(
        kind=ApprovalKind.new_user, status=ApprovalStatus.pending, entity_type="user", entity_id=admin.id, payload={}
    )
    db.add_all([tour_item, own_item])
    db.commit()
    missing = decide(client, admin, 999_999, "approve")
    assert missing.status_code == 404 and missing.json()["fields"] == {"id": "Approval item not found"}
    # Another domain's item is not this call's to decide.
    assert decide(client, admin, tour_item.id, "approve").status_code == 404
    own = decide(client, admin, own_item.id, "reject")
    assert own.status_code == 400 and own.json()["message"] == "You cannot decide on your own account"
    wrong_action = client.put(
        "/v2/users/approval-items", json={"id": own_item.id, "action": "maybe"}, headers=factories.bearer(admin)
    )
    assert wrong_action.status_code == 400 and "action" in wrong_action.json()["fields"]
    long_note = decide(client, admin, own_item.id, "approve", note="x" * 1001)
    assert long_note.status_code == 400 and "review_note" in long_note.json()["fields"]
    bad_kind = client.get("/v2/users/approval-items", params={"kind": "new_ad"}, headers=factories.bearer(admin))
    assert bad_kind.status_code == 400 and "kind" in bad_kind.json()["fields"]
    # Only the users' kinds are listed.
    assert [entry["id"] for entry in items(client, admin)["data"]] == [own_item.id]


def test_approval_items_page_through_the_queue_oldest_first(client: TestClient, db: Session) -> None:
    admin = factories.user(db, admin=True)
    people = [factories.user(db) for _ in range(5)]
    for person in people:
        db.add(
            ApprovalItem(
                kind=ApprovalKind.new_user,
                status=ApprovalStatus.pending,
                entity_type="user",
                entity_id=person.id,
                payload={"email": person.email},
            )
        )
        db.flush()
    db.commit()
    first = items(client, admin, limit=2)
    second = items(client, admin, limit=2, offset=2)
    assert first["total_items"] == second["total_items"] == 5
    assert [entry["userid"] for entry in first["data"] + second["data"]] == [person.id for person in people[:4]]
    assert items(client, admin, status="all", limit=100)["total_items"] == 5
