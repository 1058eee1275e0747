"""Trusted creators (issue 14 part 7, beyond the spec): an admin marks a creator trusted; its new tours
skip the queue (published at once) and are listed for an audit after the fact
(GET /v2/pending/approval-items?kind=trusted_audit): approving marks the tour audited, rejecting moves
it to the owner's drafts with a mailed reason."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.notifications.models import OutgoingMail
from tests.api.test_tours import Setup, add, build_setup, grid_guids

PENDING = "/v2/pending/approval-items"


@pytest.fixture
def s(db: Session, monkeypatch: pytest.MonkeyPatch) -> Setup:
    return build_setup(db, monkeypatch)


def mark(client: TestClient, s: Setup, creator_id: int, trusted: bool, person: Any = None) -> Any:
    return client.put(
        "/v2/creators/trusted",
        json={"creator_id": creator_id, "trusted": trusted},
        headers=s.headers(person or s.admin),
    )


def audits(client: TestClient, s: Setup) -> list[dict[str, Any]]:
    response = client.get(PENDING, params={"kind": "trusted_audit"}, headers=s.headers(s.admin))
    assert response.status_code == 200, response.text
    data: list[dict[str, Any]] = response.json()["data"]
    return data


def mails_to(db: Session, address: str) -> list[OutgoingMail]:
    db.expire_all()
    return list(db.scalars(select(OutgoingMail).where(OutgoingMail.to_address == address)))


def test_an_admin_marks_a_creator_trusted_and_its_tours_skip_the_queue(
    client: TestClient, db: Session, s: Setup
) -> None:
    before = add(client, s, s.creator_user)
    assert before["pending"] is True and audits(client, s) == []
    answer = mark(client, s, s.creator.id, True)
    assert answer.status_code == 200 and answer.json()["data"]["trusted"] is True
    after = add(client, s, s.creator_user, link="https://kuula.co/share/Tr777", title="Harbour at night")
    assert after["pending"] is False and after["data"]["approval_state"] == "approved"
    assert after["data"]["guid"] in grid_guids(client)  # published at once
    [row] = audits(client, s)
    assert row["payload"]["guid"] == after["data"]["guid"] and row["userid"] == s.creator_user.id
    assert row["summary"]["title"] == "Harbour at night"
    assert row["summary"]["username"] == s.creator_user.platform_username
    # Untrusted again: the next tour waits in the queue like anybody's.
    assert mark(client, s, s.creator.id, False).json()["data"]["trusted"] is False
    assert add(client, s, s.creator_user, link="https://kuula.co/share/Tr778")["pending"] is True
    assert len(audits(client, s)) == 1


def test_approving_an_audit_marks_it_audited_and_tells_nobody(client: TestClient, db: Session, s: Setup) -> None:
    guid = add(client, s, s.trusted_user)["data"]["guid"]
    [row] = audits(client, s)
    response = client.put(PENDING, json={"ids": [row["id"]], "decision": "approve"}, headers=s.headers(s.admin))
    assert response.status_code == 200 and response.json()["data"][0]["status"] == "approved"
    assert response.json()["pending"]["trusted_audit"] == 0
    assert audits(client, s) == [] and guid in grid_guids(client)
    db.expire_all()
    item = db.get(ApprovalItem, row["id"])
    assert item is not None and item.status == ApprovalStatus.approved and item.reviewed_by_user_id == s.admin.id
    assert mails_to(db, s.trusted_user.email) == []


def test_rejecting_an_audit_moves_the_tour_to_drafts_with_a_mailed_reason(
    client: TestClient, db: Session, s: Setup
) -> None:
    guid = add(client, s, s.trusted_user)["data"]["guid"]
    [row] = audits(client, s)
    detail = client.get("/pending-api/v1/pending/approval-item", params={"id": row["id"]}, headers=s.headers(s.admin))
    assert detail.json()["current"]["guid"] == guid and detail.json()["proposed"] == {}
    response = client.put(
        PENDING,
        json={"ids": [row["id"]], "decision": "reject", "reason": "The preview shows another place"},
        headers=s.headers(s.admin),
    )
    assert response.status_code == 200 and response.json()["data"][0]["status"] == "rejected"
    tour = client.get(f"/v2/virtualtours/{guid}", headers=s.headers(s.trusted_user)).json()
    assert tour["status"] == "draft" and guid not in grid_guids(client)  # the index followed
    [mail] = mails_to(db, s.trusted_user.email)
    assert mail.subject == "Your virtual tour was moved to drafts"
    assert "Note from the administrator: The preview shows another place" in mail.body_text


def test_staff_adding_for_a_trusted_creator_files_no_audit(client: TestClient, db: Session, s: Setup) -> None:
    response = client.post(
        "/v2/virtualtours/on-behalf-of",
        json={**s.payload(), "userid": s.trusted_user.id},
        headers=s.headers(s.cm),
    )
    assert response.status_code == 201, response.text
    assert db.scalars(select(ApprovalItem).where(ApprovalItem.kind == ApprovalKind.trusted_audit)).all() == []


def test_a_deleted_tour_takes_its_audit_along(client: TestClient, db: Session, s: Setup) -> None:
    guid = add(client, s, s.trusted_user)["data"]["guid"]
    assert client.delete(f"/v2/virtualtours/{guid}", headers=s.headers(s.trusted_user)).status_code == 200
    assert audits(client, s) == []


def test_only_admins_mark_creators_trusted(client: TestClient, s: Setup) -> None:
    for person in (s.user, s.cm, s.creator_user):
        assert mark(client, s, s.creator.id, True, person).status_code == 403
    assert mark(client, s, 987_654, True).status_code == 404
    bad = client.put("/v2/creators/trusted", json={"creator_id": s.creator.id}, headers=s.headers(s.admin))
    assert bad.status_code == 400 and "trusted" in bad.json()["fields"]
