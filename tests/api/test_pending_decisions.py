"""Spec §7 Pending, the unified calls: PUT /v2/pending/approval-items decides items of any kind through
the one decision path (each item on its own), GET lists them with a summary and a search, and
GET /pending-api/v1/pending/approval-item shows one item with both versions."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.notifications.models import OutgoingMail
from app.realtime import events
from app.tours.models import Tour
from app.users import approval_queue
from app.users.models import User
from tests import factories
from tests.api.test_engagement import RecordedEmits, record_emits
from tests.api.test_tours import Setup, add, build_setup, grid_guids

PENDING = "/v2/pending/approval-items"
DETAIL = "/pending-api/v1/pending/approval-item"


@pytest.fixture
def s(db: Session, monkeypatch: pytest.MonkeyPatch) -> Setup:
    return build_setup(db, monkeypatch)


@pytest.fixture
def emits(monkeypatch: pytest.MonkeyPatch) -> RecordedEmits:
    return record_emits(monkeypatch)


def decide(client: TestClient, s: Setup, ids: list[int], decision: str, reason: str | None = None) -> Any:
    return client.put(PENDING, json={"ids": ids, "decision": decision, "reason": reason}, headers=s.headers(s.admin))


def listing(client: TestClient, s: Setup, **params: Any) -> dict[str, Any]:
    response = client.get(PENDING, params=params, headers=s.headers(s.admin))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def item_of(db: Session, kind: ApprovalKind, **where: Any) -> ApprovalItem:
    db.expire_all()
    statement = select(ApprovalItem).where(ApprovalItem.kind == kind)
    for name, value in where.items():
        statement = statement.where(getattr(ApprovalItem, name) == value)
    return db.scalars(statement.order_by(ApprovalItem.id.desc())).first()  # type: ignore[return-value]


def new_tour_item(client: TestClient, db: Session, s: Setup, **overrides: Any) -> tuple[str, int]:
    guid = add(client, s, s.user, **overrides)["data"]["guid"]
    tour = db.scalars(select(Tour).where(Tour.guid == guid)).one()
    return guid, item_of(db, ApprovalKind.new_virtual_tour, entity_id=tour.id).id


def file_new_user(db: Session, **fields: Any) -> tuple[User, int]:
    newcomer = factories.user(db, **fields)
    item = approval_queue.file_new_user(db, newcomer)
    db.commit()
    return newcomer, item.id


def mails_to(db: Session, address: str) -> list[OutgoingMail]:
    db.expire_all()
    return list(db.scalars(select(OutgoingMail).where(OutgoingMail.to_address == address).order_by(OutgoingMail.id)))


def test_items_of_two_domains_are_approved_in_one_call(client: TestClient, db: Session, s: Setup) -> None:
    guid, tour_item = new_tour_item(client, db, s)
    newcomer, user_item = file_new_user(db)
    response = decide(client, s, [tour_item, user_item], "approve")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["data"] == [
        {"id": tour_item, "status": "approved", "message": "Approved"},
        {"id": user_item, "status": "approved", "message": "Approved"},
    ]
    assert body["pending"]["new_virtual_tour"] == 0 and body["pending"]["new_user"] == 0
    assert guid in grid_guids(client)  # applied, and the index followed through the outbox
    decided = item_of(db, ApprovalKind.new_virtual_tour, id=tour_item)
    assert decided.status == ApprovalStatus.approved and decided.reviewed_by_user_id == s.admin.id
    assert decided.reviewed_at is not None and decided.review_note is None
    [tour_mail] = mails_to(db, s.user.email)
    assert tour_mail.subject == "Your virtual tour is approved"
    assert '"Sunrise over the rose garden"' in tour_mail.body_text
    assert tour_mail.template == "approval.new_virtual_tour.approved"
    assert [mail.subject for mail in mails_to(db, newcomer.email)] == ["Your TourAtlas account is approved"]


def test_a_rejection_needs_a_reason_which_is_recorded_and_mailed(client: TestClient, db: Session, s: Setup) -> None:
    guid, item_id = new_tour_item(client, db, s)
    for reason in (None, "", "  x ", "no" * 501):
        response = decide(client, s, [item_id], "reject", reason)
        assert response.status_code == 400, reason
        assert set(response.json()["fields"]) == {"reason"}
    assert item_of(db, ApprovalKind.new_virtual_tour, id=item_id).status == ApprovalStatus.pending
    response = decide(client, s, [item_id], "reject", "  The link shows a login page  ")
    assert response.status_code == 200 and response.json()["data"][0]["status"] == "rejected"
    item = item_of(db, ApprovalKind.new_virtual_tour, id=item_id)
    assert item.status == ApprovalStatus.rejected and item.review_note == "The link shows a login page"
    [mail] = mails_to(db, s.user.email)
    assert mail.subject == "Your virtual tour was not approved"
    assert mail.body_text.startswith("Hello ")
    assert "Note from the administrator: The link shows a login page" in mail.body_text
    tour = client.get(f"/v2/virtualtours/{guid}", headers=s.headers(s.user)).json()
    assert tour["approval_state"] == "rejected" and guid not in grid_guids(client)


def test_one_id_decided_twice_is_409_and_one_unknown_is_404(client: TestClient, db: Session, s: Setup) -> None:
    _newcomer, item_id = file_new_user(db)
    assert decide(client, s, [item_id], "approve").status_code == 200
    again = decide(client, s, [item_id], "reject", "Changed my mind")
    assert again.status_code == 409 and again.json()["message"] == "This item has already been approved"
    missing = decide(client, s, [987_654], "approve")
    assert missing.status_code == 404 and missing.json()["message"] == "Approval item not found"


def test_each_item_is_decided_on_its_own(client: TestClient, db: Session, s: Setup) -> None:
    """A VT edit whose new link was taken meanwhile fails alone: the other items stay decided."""
    guid = add(client, s, s.user)["data"]["guid"]
    client.put(f"/v2/virtualtours/{guid}", json={"task": "approve"}, headers=s.headers(s.admin))
    edited = client.put(
        "/v2/virtualtours/",
        json={**s.payload(link="https://kuula.co/share/Zz999"), "guid": guid},
        headers=s.headers(s.user),
    )
    assert edited.status_code == 200, edited.text
    edit_item = item_of(db, ApprovalKind.vt_edit).id
    add(client, s, s.trusted_user, link="https://kuula.co/share/Zz999")  # takes the link meanwhile
    _first, first_user = file_new_user(db)
    _second, second_user = file_new_user(db)
    response = decide(client, s, [first_user, edit_item, 555_555, second_user, first_user], "approve")
    assert response.status_code == 200, response.text
    assert [(row["id"], row["status"]) for row in response.json()["data"]] == [
        (first_user, "approved"),
        (edit_item, "conflict"),
        (555_555, "not_found"),
        (second_user, "approved"),
    ]
    assert response.json()["data"][1]["message"] == "Link is not unique"
    assert item_of(db, ApprovalKind.vt_edit, id=edit_item).status == ApprovalStatus.pending
    assert item_of(db, ApprovalKind.new_user, id=second_user).status == ApprovalStatus.approved
    assert client.get(f"/v2/virtualtours/{guid}").json()["link"] == "https://kuula.co/share/Ab123"


def test_approving_something_withdrawn_is_409_and_rejecting_it_closes_it(
    client: TestClient, db: Session, s: Setup
) -> None:
    guid, item_id = new_tour_item(client, db, s)
    removed = client.post("/v2/virtualtours/pending/remove", json={"tours": [guid]}, headers=s.headers(s.user))
    assert removed.status_code == 200
    response = decide(client, s, [item_id], "approve")
    assert response.status_code == 409 and response.json()["message"] == "This item has already been withdrawn"
    assert item_of(db, ApprovalKind.new_virtual_tour, id=item_id).status == ApprovalStatus.pending
    closed = decide(client, s, [item_id], "reject", "Withdrawn by the owner")
    assert closed.status_code == 200 and closed.json()["data"][0]["status"] == "rejected"
    assert mails_to(db, s.user.email) == []  # nothing to tell about a tour the owner took back
    tour = client.get(f"/v2/virtualtours/{guid}", headers=s.headers(s.user)).json()
    assert tour["status"] == "draft" and tour["approval_state"] == "pending"


def test_every_decision_is_pushed_with_its_item_id(
    client: TestClient, db: Session, s: Setup, emits: RecordedEmits
) -> None:
    guid, item_id = new_tour_item(client, db, s)
    added = emits.of(events.MODERATION_QUEUE, events.ADMINS_ROOM)[-1]
    assert (added["id"], added["item_id"], added["action"]) == (guid, item_id, "added")
    decide(client, s, [item_id], "approve")
    pushed = emits.of(events.MODERATION_QUEUE, events.ADMINS_ROOM)[-1]
    assert (pushed["kind"], pushed["id"], pushed["item_id"], pushed["action"]) == (
        "new_virtual_tour",
        guid,
        item_id,
        "approved",
    )
    assert pushed["pending"] == listing(client, s, limit=0)["pending"]


def test_an_admin_cannot_decide_on_their_own_account(client: TestClient, db: Session, s: Setup) -> None:
    item = approval_queue.file_new_user(db, s.admin)
    db.commit()
    response = decide(client, s, [item.id], "approve")
    assert response.status_code == 409 and response.json()["message"] == "You cannot decide on your own account"


def test_a_kind_no_domain_decides_yet_is_a_clear_409(
    client: TestClient, db: Session, s: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every kind has its domain's handler now; one taken out of the registry stands for a kind a
    domain has not registered yet."""
    from app.moderation import registry

    registry.registered_kinds()  # the handler modules loaded
    monkeypatch.delitem(registry._HANDLERS, ApprovalKind.profile_image)
    item = ApprovalItem(kind=ApprovalKind.profile_image, status=ApprovalStatus.pending, payload={"title": "A picture"})
    db.add(item)
    db.commit()
    response = decide(client, s, [item.id], "approve")
    assert response.status_code == 409 and response.json()["message"] == "Items of this kind cannot be decided yet"
    row = listing(client, s, kind="profile_image")["data"][0]
    assert row["summary"] == {"title": "A picture", "username": None, "preview_picture": None, "link": None}


# ------------------------------------------------------------------------------ the list


def test_each_row_has_a_summary_and_several_kinds_can_be_asked(client: TestClient, db: Session, s: Setup) -> None:
    guid, tour_item = new_tour_item(client, db, s, preview_picture="https://img.example.com/rose.jpg")
    newcomer, user_item = file_new_user(db, first_name="Olga", last_name="Petrova")
    rows = listing(client, s, kind=["new_user", "new_virtual_tour"])["data"]
    assert [row["id"] for row in rows] == [tour_item, user_item]
    assert rows[0]["summary"] == {
        "title": "Sunrise over the rose garden",
        "username": s.user.platform_username,
        "preview_picture": "https://img.example.com/rose.jpg",
        "link": "https://kuula.co/share/Ab123",
    }
    assert rows[1]["summary"]["title"] == "Olga Petrova"
    assert rows[1]["summary"]["username"] == newcomer.platform_username
    assert [row["id"] for row in listing(client, s, kind="new_user")["data"]] == [user_item]
    assert guid


def test_search_matches_title_username_and_creator_name(client: TestClient, db: Session, s: Setup) -> None:
    _guid, tour_item = new_tour_item(client, db, s, title="Moonlight in the old harbour")
    creator_tour = add(client, s, s.creator_user, link="https://kuula.co/share/Cr001", title="Plain title")
    creator_item = item_of(db, ApprovalKind.new_virtual_tour, submitted_by_user_id=s.creator_user.id).id
    _newcomer, user_item = file_new_user(db, platform_username="harbourmaster_77")

    def found(text: str) -> list[int]:
        return [row["id"] for row in listing(client, s, search=text)["data"]]

    assert found("HARBOUR") == [tour_item, user_item]
    assert found("harbourmaster") == [user_item]
    assert found(s.creator.creator_name[:6]) == [creator_item]
    assert found("100%_sure") == []
    assert listing(client, s, search="moonlight")["total_items"] == 1
    assert creator_tour["data"]["guid"]


# ------------------------------------------------------------------------------ one item


def test_one_item_with_both_versions(client: TestClient, db: Session, s: Setup) -> None:
    guid = add(client, s, s.user)["data"]["guid"]
    client.put(f"/v2/virtualtours/{guid}", json={"task": "approve"}, headers=s.headers(s.admin))
    client.put("/v2/virtualtours/", json={**s.payload(title="Roses at dawn"), "guid": guid}, headers=s.headers(s.user))
    edit = item_of(db, ApprovalKind.vt_edit)
    response = client.get(DETAIL, params={"id": edit.id}, headers=s.headers(s.admin))
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["kind"] == "vt_edit" and body["status"] == "pending"
    assert body["userid"] == s.user.id and body["username"] == s.user.platform_username
    assert body["current"] == {"title": "Sunrise over the rose garden"}
    assert body["proposed"] == {"title": "Roses at dawn"}
    assert body["summary"]["title"] == "Roses at dawn"
    assert (body["reviewed_by"], body["reviewed_at"], body["review_note"]) == (None, None, None)

    decide(client, s, [edit.id], "reject", "Keep the old title")
    decided = client.get(DETAIL, params={"id": edit.id}, headers=s.headers(s.admin)).json()
    assert decided["status"] == "rejected" and decided["reviewed_by"] == s.admin.id
    assert decided["review_note"] == "Keep the old title" and decided["reviewed_at"] is not None

    _newcomer, user_item = file_new_user(db)
    new_user = client.get(DETAIL, params={"id": user_item}, headers=s.headers(s.admin)).json()
    assert new_user["current"] is None and new_user["proposed"]["email"] == _newcomer.email


def test_one_item_unknown_or_not_an_admin(client: TestClient, db: Session, s: Setup) -> None:
    assert client.get(DETAIL, params={"id": 424_242}, headers=s.headers(s.admin)).status_code == 404
    assert client.get(DETAIL, params={"id": 0}, headers=s.headers(s.admin)).status_code == 400
    _newcomer, item_id = file_new_user(db)
    assert client.get(DETAIL, params={"id": item_id}).status_code == 401
    for person in (s.user, s.cm, s.creator_user):
        assert client.get(DETAIL, params={"id": item_id}, headers=s.headers(person)).status_code == 403
        put = client.put(PENDING, json={"ids": [item_id], "decision": "approve"}, headers=s.headers(person))
        assert put.status_code == 403


def test_the_decision_body_is_checked(client: TestClient, s: Setup) -> None:
    for body, field in (
        ({"ids": [], "decision": "approve"}, "ids"),
        ({"ids": list(range(1, 102)), "decision": "approve"}, "ids"),
        ({"ids": [1], "decision": "maybe"}, "decision"),
        ({"ids": [0], "decision": "approve"}, "ids.0"),
    ):
        response = client.put(PENDING, json=body, headers=s.headers(s.admin))
        assert response.status_code == 400, body
        assert field in response.json()["fields"], response.json()


def test_a_category_request_is_decided_through_the_unified_call(client: TestClient, db: Session, s: Setup) -> None:
    from app.classifications.models import Category

    item = ApprovalItem(
        kind=ApprovalKind.category_request,
        status=ApprovalStatus.pending,
        payload={"category": "Lighthouses of the north", "subcategory": None},
    )
    db.add(item)
    db.commit()
    row = next(entry for entry in listing(client, s, kind="category_request")["data"] if entry["id"] == item.id)
    assert row["summary"]["title"] == "“Lighthouses of the north”"
    response = decide(client, s, [item.id], "approve")
    assert response.status_code == 200, response.text
    assert response.json()["data"][0]["status"] == "approved"
    db.expire_all()
    assert db.scalar(select(Category).where(Category.name == "Lighthouses of the north")) is not None
    again = decide(client, s, [item.id], "approve")
    assert again.status_code == 409
