"""Spec §4 "Pending approval items" and §7 Pending: GET /v2/pending/approval-items lists what waits for
an admin across every domain with the count per kind, and every moderation push carries the same
counts (the admins' badge reads one, then follows the other)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.moderation.models import ApprovalKind
from app.realtime import events
from app.users import approval_queue
from tests import factories
from tests.api.test_engagement import RecordedEmits, record_emits
from tests.api.test_tours import Setup, add, build_setup

PENDING = "/v2/pending/approval-items"
NOTHING_WAITS = {kind.value: 0 for kind in ApprovalKind}


@pytest.fixture
def s(db: Session, monkeypatch: pytest.MonkeyPatch) -> Setup:
    return build_setup(db, monkeypatch)


@pytest.fixture
def emits(monkeypatch: pytest.MonkeyPatch) -> RecordedEmits:
    return record_emits(monkeypatch)


def pending(client: TestClient, s: Setup, **params: Any) -> dict[str, Any]:
    response = client.get(PENDING, params=params, headers=s.headers(s.admin))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def file_new_user(db: Session) -> int:
    newcomer = factories.user(db)
    item = approval_queue.file_new_user(db, newcomer)
    db.commit()
    return item.id


def to_drafts(client: TestClient, s: Setup, guid: str) -> None:
    response = client.post("/v2/virtualtours/pending/remove", json={"tours": [guid]}, headers=s.headers(s.user))
    assert response.status_code == 200 and response.json()["tours"] == [guid]


def activate(client: TestClient, s: Setup, guid: str) -> None:
    response = client.put(
        f"/v2/virtualtours/{guid}", json={"guid": guid, "task": "activate"}, headers=s.headers(s.user)
    )
    assert response.status_code == 200, response.text


def test_an_empty_queue_names_every_kind_with_zero(client: TestClient, s: Setup) -> None:
    assert pending(client, s) == {"data": [], "pending": NOTHING_WAITS, "total_items": 0, "limit": 20, "offset": 0}
    assert set(NOTHING_WAITS) >= {
        "category_request",
        "creator_profile_edit",
        "new_alternative_custom_provider",
        "new_alternative_provider",
        "new_creator_profile",
        "new_custom_provider",
        "new_provider",
        "new_user",
        "new_virtual_tour",
        "user_profile_edit",
        "vt_edit",
    }  # the kinds of spec §4, by these names


def test_items_of_every_domain_are_listed_oldest_first_with_their_counts(
    client: TestClient, db: Session, s: Setup
) -> None:
    user_item = file_new_user(db)
    guid = add(client, s, s.user)["data"]["guid"]
    # Trusted: listed at once, and only its audit after the fact waits (a tab of its own).
    trusted = add(client, s, s.trusted_user, link="https://kuula.co/share/Tr001")["data"]["guid"]
    body = pending(client, s)
    assert body["pending"] == {**NOTHING_WAITS, "new_user": 1, "new_virtual_tour": 1, "trusted_audit": 1}
    assert body["total_items"] == 3
    assert [(item["kind"], item["entity_type"]) for item in body["data"]] == [
        ("new_user", "user"),
        ("new_virtual_tour", "tour"),
        ("trusted_audit", "tour"),
    ]
    assert body["data"][2]["payload"]["guid"] == trusted
    assert body["data"][0]["id"] == user_item
    tour_item = body["data"][1]
    assert tour_item["userid"] == s.user.id and tour_item["payload"]["guid"] == guid


def test_one_kind_a_page_at_a_time_and_counts_alone(client: TestClient, db: Session, s: Setup) -> None:
    for _ in range(3):
        file_new_user(db)
    add(client, s, s.user)
    only_users = pending(client, s, kind="new_user", limit=2, offset=1)
    assert [item["kind"] for item in only_users["data"]] == ["new_user", "new_user"]
    assert only_users["total_items"] == 3 and (only_users["limit"], only_users["offset"]) == (2, 1)
    counts_only = pending(client, s, limit=0)
    assert counts_only["data"] == [] and counts_only["total_items"] == 4
    assert counts_only["pending"] == {**NOTHING_WAITS, "new_user": 3, "new_virtual_tour": 1}


def test_bad_parameters_are_400_with_the_field(client: TestClient, s: Setup) -> None:
    for params in ({"kind": "bogus"}, {"limit": 101}, {"limit": -1}, {"offset": -1}):
        response = client.get(PENDING, params=params, headers=s.headers(s.admin))
        assert response.status_code == 400, params
        # `kind` may be repeated: its field is named with the position of the bad value (kind.0).
        assert {name.split(".")[0] for name in response.json()["fields"]} == set(params)


def test_only_admins_see_the_queue(client: TestClient, s: Setup) -> None:
    assert client.get(PENDING).status_code == 401
    for person in (s.user, s.creator_user, s.cm):
        assert client.get(PENDING, headers=s.headers(person)).status_code == 403


def test_a_pending_draft_does_not_wait_until_it_is_sent_again(client: TestClient, s: Setup) -> None:
    guid = add(client, s, s.user)["data"]["guid"]
    to_drafts(client, s, guid)
    body = pending(client, s)
    assert body["pending"]["new_virtual_tour"] == 0 and body["data"] == []
    activate(client, s, guid)
    body = pending(client, s)
    assert body["pending"]["new_virtual_tour"] == 1 and [item["payload"]["guid"] for item in body["data"]] == [guid]


def test_every_push_carries_the_counts_the_call_answers(
    client: TestClient, db: Session, s: Setup, emits: RecordedEmits
) -> None:
    """Users and tours announce through one function: after each change the admins' badge shows what
    GET /v2/pending/approval-items would answer, whichever domain changed."""
    item_id = file_new_user(db)
    assert emits.of(events.MODERATION_QUEUE, events.ADMINS_ROOM)[-1] == {
        "kind": "new_user",
        "id": item_id,
        "item_id": item_id,
        "action": "added",
        "pending": pending(client, s)["pending"],
    }
    guid = add(client, s, s.user)["data"]["guid"]
    pushed = emits.of(events.MODERATION_QUEUE, events.ADMINS_ROOM)[-1]
    assert (pushed["kind"], pushed["id"], pushed["action"]) == ("new_virtual_tour", guid, "added")
    assert pushed["pending"] == pending(client, s)["pending"] == {**NOTHING_WAITS, "new_user": 1, "new_virtual_tour": 1}
    to_drafts(client, s, guid)
    pushed = emits.of(events.MODERATION_QUEUE, events.ADMINS_ROOM)[-1]
    assert pushed["action"] == "removed" and pushed["pending"] == pending(client, s)["pending"]
    assert pushed["pending"]["new_user"] == 1  # a tour's push keeps the users' count
