"""POST /v2/notifications/user-message (spec §6 admins: notifications to users): the message is stored
as the account's in-app notification and pushed to its room; the account lists and marks them read."""

from __future__ import annotations

from datetime import datetime

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.notifications.models import Notification
from app.realtime import events
from tests import factories
from tests.api.test_engagement import RecordedEmits, record_emits

MESSAGE = "/v2/notifications/user-message"


@pytest.fixture
def emits(monkeypatch: pytest.MonkeyPatch) -> RecordedEmits:
    return record_emits(monkeypatch)


def test_an_admins_message_is_stored_and_pushed_to_that_user(
    client: TestClient, db: Session, emits: RecordedEmits
) -> None:
    admin, user, other = factories.user(db, admin=True), factories.user(db), factories.user(db)
    db.commit()
    body = {"userid": user.id, "title": "  Your tours  ", "message": "Please add a preview image to your tours."}
    response = client.post(MESSAGE, json=body, headers=factories.bearer(admin))
    assert response.status_code == 200, response.text
    sent = response.json()["data"]
    assert sent["title"] == "Your tours" and sent["text"] == "Please add a preview image to your tours."
    assert sent["kind"] == "user_message" and sent["read_at"] is None
    row = db.scalars(select(Notification)).one()
    assert (row.user_id, row.data) == (user.id, {"from_userid": admin.id})
    [pushed] = emits.of(events.NOTIFICATION, events.user_room(user.id))
    assert {key: pushed[key] for key in ("id", "title", "text")} == {
        "id": row.id,
        "title": "Your tours",
        "text": sent["text"],
    }
    assert datetime.fromisoformat(pushed["created_at"]) == datetime.fromisoformat(
        sent["created_at"].replace("Z", "+00:00")
    )
    assert emits.of(events.NOTIFICATION, events.user_room(other.id)) == []

    mine = client.get("/v2/notifications/", headers=factories.bearer(user)).json()
    assert [item["id"] for item in mine["data"]] == [row.id] and mine["unread"] == 1
    assert client.get("/v2/notifications/", headers=factories.bearer(other)).json()["total_items"] == 0
    read = client.put("/v2/notifications/read", json={"ids": [row.id]}, headers=factories.bearer(other))
    assert read.json()["updated"] == 0  # someone else's notification is not theirs to mark
    read = client.put("/v2/notifications/read", json={"ids": [row.id]}, headers=factories.bearer(user))
    assert read.status_code == 200 and read.json()["updated"] == 1
    after = client.get("/v2/notifications/", headers=factories.bearer(user)).json()
    assert after["unread"] == 0 and after["data"][0]["read_at"] is not None
    assert (
        client.get("/v2/notifications/", params={"unread_only": True}, headers=factories.bearer(user)).json()["data"]
        == []
    )


def test_only_admins_send_and_the_body_is_checked(client: TestClient, db: Session) -> None:
    admin, user, cm = factories.user(db, admin=True), factories.user(db), factories.user(db, roles=["CM"])
    db.commit()
    good = {"userid": user.id, "title": "Hi", "message": "Text"}
    assert client.post(MESSAGE, json=good).status_code == 401
    for person in (user, cm):
        assert client.post(MESSAGE, json=good, headers=factories.bearer(person)).status_code == 403
    for bad, field in (
        ({**good, "title": "   "}, "title"),
        ({**good, "message": ""}, "message"),
        ({**good, "title": "x" * 201}, "title"),
        ({**good, "userid": 0}, "userid"),
    ):
        response = client.post(MESSAGE, json=bad, headers=factories.bearer(admin))
        assert response.status_code == 400 and field in response.json()["fields"], bad
    missing = client.post(MESSAGE, json={**good, "userid": 999_999}, headers=factories.bearer(admin))
    assert missing.status_code == 404
    assert db.scalars(select(Notification)).all() == []
