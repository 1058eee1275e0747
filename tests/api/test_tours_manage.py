"""Spec §7 Media over HTTP, after adding: the owner's actions (tasks, delete, drafts), the moderation
queue and approval items, the manage-media dashboard, featured tours, the daily featured
submission, creator pages and the admins' statistics."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.creators.models import Creator, CreatorFeaturedTour
from app.moderation.models import ApprovalItem, ApprovalKind
from app.notifications.models import OutgoingMail
from app.realtime import events
from app.tours.models import DailyFeaturedSubmission, Tour
from app.users.models import User
from tests import factories
from tests.api.test_tours import Setup, add, build_setup, grid_guids


@pytest.fixture
def s(db: Session, monkeypatch: pytest.MonkeyPatch) -> Setup:
    return build_setup(db, monkeypatch)


def links(count: int, prefix: str = "Lk") -> list[str]:
    return [f"https://kuula.co/share/{prefix}{number:03d}" for number in range(count)]


def add_many(client: TestClient, s: Setup, person: User, count: int, prefix: str = "Lk", **overrides: Any) -> list[str]:
    return [
        add(client, s, person, link=link, title=f"Tour {prefix} {number:02d}", **overrides)["data"]["guid"]
        for number, link in enumerate(links(count, prefix))
    ]


def task(client: TestClient, s: Setup, person: User, guid: str, name: str) -> Any:
    return client.put(f"/v2/virtualtours/{guid}", json={"guid": guid, "task": name}, headers=s.headers(person))


# ------------------------------------------------------------------------------ tasks and deleting


def test_deactivate_and_activate_move_a_tour_between_drafts_and_the_feed(
    client: TestClient, db: Session, s: Setup
) -> None:
    guid = add(client, s, s.trusted_user)["data"]["guid"]
    response = task(client, s, s.trusted_user, guid, "deactivate")
    assert response.status_code == 200 and response.json()["data"]["status"] == "draft"
    assert guid not in grid_guids(client)
    db.expire_all()
    assert db.get(Creator, s.trusted_creator.id).vt_count == 0  # type: ignore[union-attr]
    response = task(client, s, s.trusted_user, guid, "activate")
    assert response.status_code == 200 and response.json()["message"] == "The virtual tour is active"
    assert guid in grid_guids(client)
    db.expire_all()
    assert db.get(Creator, s.trusted_creator.id).vt_count == 1  # type: ignore[union-attr]


def test_tasks_are_for_the_owner_and_approve_is_for_admins(client: TestClient, s: Setup) -> None:
    guid = add(client, s, s.user)["data"]["guid"]
    assert task(client, s, s.creator_user, guid, "deactivate").status_code == 403
    assert task(client, s, s.user, guid, "approve").status_code == 403
    assert task(client, s, s.admin, guid, "deactivate").status_code == 200
    activated = task(client, s, s.user, guid, "activate")
    assert activated.json()["message"] == "The virtual tour is active and waits for an administrator's approval"
    mismatch = client.put(
        f"/v2/virtualtours/{guid}", json={"guid": "0" * 32, "task": "activate"}, headers=s.headers(s.user)
    )
    assert mismatch.status_code == 400
    unknown = client.put(f"/v2/virtualtours/{guid}", json={"task": "explode"}, headers=s.headers(s.user))
    assert unknown.status_code == 400


def test_delete_a_tour(client: TestClient, db: Session, s: Setup) -> None:
    guid = add(client, s, s.trusted_user)["data"]["guid"]
    assert client.delete(f"/v2/virtualtours/{guid}", headers=s.headers(s.user)).status_code == 403
    response = client.delete(f"/v2/virtualtours/{guid}", headers=s.headers(s.trusted_user))
    assert response.status_code == 200
    assert client.get(f"/v2/virtualtours/{guid}", headers=s.headers(s.trusted_user)).status_code == 404
    assert guid not in grid_guids(client)
    assert client.delete(f"/v2/virtualtours/{guid}", headers=s.headers(s.trusted_user)).status_code == 404
    db.expire_all()
    assert db.get(Creator, s.trusted_creator.id).vt_count == 0  # type: ignore[union-attr]


def test_deleting_a_pending_tour_removes_its_approval_item(client: TestClient, db: Session, s: Setup) -> None:
    guid = add(client, s, s.user)["data"]["guid"]
    assert client.delete(f"/v2/virtualtours/{guid}", headers=s.headers(s.admin)).status_code == 200
    assert db.scalar(select(ApprovalItem).where(ApprovalItem.kind == ApprovalKind.new_virtual_tour)) is None


def test_delete_user_media(client: TestClient, db: Session, s: Setup) -> None:
    add_many(client, s, s.user, 3)
    add(client, s, s.creator_user, link="https://kuula.co/share/Keep1")
    forbidden = client.request(
        "DELETE", "/v2/virtualtours/user-media", json={"userid": s.user.id}, headers=s.headers(s.creator_user)
    )
    assert forbidden.status_code == 403
    response = client.request(
        "DELETE", "/v2/virtualtours/user-media", json={"userid": s.user.id}, headers=s.headers(s.user)
    )
    assert response.status_code == 200 and response.json()["message"] == "3 tour(s) deleted"
    assert [tour.user_id for tour in db.scalars(select(Tour))] == [s.creator_user.id]


# ------------------------------------------------------------------------------ the moderation queue


def test_pending_lists_active_tours_waiting_oldest_first(client: TestClient, s: Setup) -> None:
    first, second = add_many(client, s, s.user, 2)
    add(client, s, s.trusted_user, link="https://kuula.co/share/Tr001")
    add(client, s, s.user, link="https://kuula.co/share/Dr001", is_active=False)
    page = client.get("/v2/virtualtours/pending", headers=s.headers(s.admin)).json()
    assert [tour["guid"] for tour in page["data"]] == [first, second] and page["total_items"] == 2
    assert page["data"][0]["owner_email"] == s.user.email
    searched = client.get("/v2/virtualtours/pending", params={"searchPattern": "Lk 01"}, headers=s.headers(s.admin))
    assert [tour["guid"] for tour in searched.json()["data"]] == [second]


def test_pending_remove_sends_tours_back_to_drafts(client: TestClient, s: Setup) -> None:
    first, second = add_many(client, s, s.user, 2)
    other = add(client, s, s.creator_user, link="https://kuula.co/share/Ot001")["data"]["guid"]
    forbidden = client.post("/v2/virtualtours/pending/remove", json={"tours": [other]}, headers=s.headers(s.user))
    assert forbidden.status_code == 403
    response = client.post("/v2/virtualtours/pending/remove", json={"tours": [first]}, headers=s.headers(s.user))
    assert response.status_code == 200 and response.json()["tours"] == [first]
    mine = client.get(f"/v2/virtualtours/{first}", headers=s.headers(s.user)).json()
    assert mine["status"] == "draft" and mine["approval_state"] == "pending"
    page = client.get("/v2/virtualtours/pending", headers=s.headers(s.admin)).json()
    assert [tour["guid"] for tour in page["data"]] == [second, other]
    unknown = client.post("/v2/virtualtours/pending/remove", json={"tours": ["0" * 32]}, headers=s.headers(s.user))
    assert unknown.status_code == 404


def test_delete_pending_deletes_only_tours_that_wait(client: TestClient, db: Session, s: Setup) -> None:
    waiting = add(client, s, s.user)["data"]["guid"]
    listed = add(client, s, s.trusted_user, link="https://kuula.co/share/Tr001")["data"]["guid"]
    response = client.request(
        "DELETE", "/v2/virtualtours/pending", json={"tours": [waiting, listed]}, headers=s.headers(s.admin)
    )
    assert response.status_code == 200 and response.json()["tours"] == [waiting]
    assert [tour.guid for tour in db.scalars(select(Tour))] == [listed]


def test_approval_items_list_new_tours_and_edits(client: TestClient, s: Setup) -> None:
    new_guid = add(client, s, s.user)["data"]["guid"]
    edited = add(client, s, s.user, link="https://kuula.co/share/Ed001")["data"]["guid"]
    task(client, s, s.admin, edited, "approve")
    client.put(
        "/v2/virtualtours/",
        json={**s.payload(link="https://kuula.co/share/Ed001", title="Edited"), "guid": edited},
        headers=s.headers(s.user),
    )
    page = client.get("/v2/virtualtours/approval-items", headers=s.headers(s.admin)).json()
    assert [(item["kind"], item["guid"]) for item in page["data"]] == [
        ("new_virtual_tour", new_guid),
        ("vt_edit", edited),
    ]
    assert page["data"][0]["platform_username"] == s.user.platform_username
    new_item = page["data"][0]["id"]
    response = client.put(
        "/v2/virtualtours/approval-items", json={"ids": [new_item], "action": "approve"}, headers=s.headers(s.admin)
    )
    assert response.status_code == 200 and response.json()["message"] == "1 item(s) approved"
    assert new_guid in grid_guids(client)
    missing = client.put(
        "/v2/virtualtours/approval-items", json={"ids": [999_999], "action": "approve"}, headers=s.headers(s.admin)
    )
    assert missing.status_code == 404


def test_rejecting_a_new_tour_keeps_it_out_of_the_feed(client: TestClient, s: Setup) -> None:
    guid = add(client, s, s.user)["data"]["guid"]
    item = client.get("/v2/virtualtours/approval-items", headers=s.headers(s.admin)).json()["data"][0]
    client.put(
        "/v2/virtualtours/approval-items", json={"ids": [item["id"]], "action": "reject"}, headers=s.headers(s.admin)
    )
    assert client.get(f"/v2/virtualtours/{guid}", headers=s.headers(s.user)).json()["approval_state"] == "rejected"
    assert guid not in grid_guids(client)
    assert client.get("/v2/virtualtours/pending", headers=s.headers(s.admin)).json()["total_items"] == 0


def test_the_admins_hear_when_the_queue_changes(client: TestClient, s: Setup, monkeypatch: pytest.MonkeyPatch) -> None:
    pushed: list[tuple[str, dict[str, Any], str]] = []
    monkeypatch.setattr(events, "emit_now", lambda name, data, *, room: pushed.append((name, data, room)))
    guid = add(client, s, s.user)["data"]["guid"]
    trusted = add(client, s, s.trusted_user, link="https://kuula.co/share/Tr001")["data"]["guid"]  # listed at once
    task(client, s, s.admin, guid, "approve")
    queue = [
        (data["action"], data["id"], data["pending"]) for name, data, room in pushed if name == events.MODERATION_QUEUE
    ]
    # Every kind is counted (app/moderation/service.py): this tour waits, the trusted one only for its audit.
    audit = {**{kind.value: 0 for kind in ApprovalKind}, "trusted_audit": 1}
    assert queue == [
        ("added", guid, {**audit, "trusted_audit": 0, "new_virtual_tour": 1}),
        ("added", trusted, {**audit, "new_virtual_tour": 1}),
        ("approved", guid, audit),
    ]
    assert {room for name, _data, room in pushed if name == events.MODERATION_QUEUE} == {events.ADMINS_ROOM}


def test_a_failed_save_pushes_nothing(client: TestClient, s: Setup, monkeypatch: pytest.MonkeyPatch) -> None:
    pushed: list[str] = []
    monkeypatch.setattr(events, "emit_now", lambda name, data, *, room: pushed.append(name))
    response = client.post(
        "/v2/virtualtours/", json=s.payload(coordinate=None, address_str="Qwzxqwzx"), headers=s.headers(s.user)
    )
    assert response.status_code == 404 and pushed == []


# ------------------------------------------------------------------------------ lookups by link


def test_link_exists_compares_normalised_links(client: TestClient, s: Setup) -> None:
    guid = add(client, s, s.user)["data"]["guid"]
    mine = client.get(
        "/v2/virtualtours/link_exists", params={"link": "http://www.KUULA.co/share/Ab123/"}, headers=s.headers(s.user)
    )
    assert mine.json() == {"exists": True, "guid": guid}
    theirs = client.get(
        "/v2/virtualtours/link_exists",
        params={"link": "https://kuula.co/share/Ab123"},
        headers=s.headers(s.creator_user),
    )
    assert theirs.json() == {"exists": True, "guid": None}  # a pending tour of someone else stays unnamed
    fresh = client.get(
        "/v2/virtualtours/link_exists", params={"link": "https://kuula.co/share/Ab124"}, headers=s.headers(s.user)
    )
    assert fresh.json() == {"exists": False, "guid": None}


def test_get_by_link(client: TestClient, s: Setup) -> None:
    guid = add(client, s, s.user)["data"]["guid"]
    params = {"link": "https://kuula.co/share/Ab123"}
    assert client.get("/v2/virtualtours/get-by-link", params=params).status_code == 404
    assert client.get("/v2/virtualtours/get-by-link", params=params, headers=s.headers(s.user)).json()["guid"] == guid
    task(client, s, s.admin, guid, "approve")
    assert client.get("/v2/virtualtours/get-by-link", params=params).json()["guid"] == guid


# ------------------------------------------------------------------------------ the manage-media dashboard


def test_the_dashboard_lists_the_owners_tours_with_filters_and_sorts(client: TestClient, db: Session, s: Setup) -> None:
    mine = s.headers(s.trusted_user)
    zebra = add(client, s, s.trusted_user, link="https://kuula.co/share/Zb001", title="Zebra park")["data"]["guid"]
    apple = add(client, s, s.trusted_user, link="https://kuula.co/share/Ap001", title="apple orchard")["data"]["guid"]
    draft = add(client, s, s.trusted_user, link="https://kuula.co/share/Dr001", title="Middle", is_active=False)
    museum = add(
        client,
        s,
        s.trusted_user,
        link="https://kuula.co/share/Mu001",
        title="Museum hall",
        category_id=s.museums.id,
        subcategory_id=s.museums.subcategories[0].id,
    )["data"]["guid"]
    url = f"/v2/virtualtours/user/{s.trusted_user.id}"

    def guids(**params: Any) -> list[str]:
        response = client.get(url, params=params, headers=mine)
        assert response.status_code == 200, response.text
        return [tour["guid"] for tour in response.json()["data"]]

    assert guids() == [museum, draft["data"]["guid"], apple, zebra]  # newest first
    assert guids(sort="title", order="asc") == [apple, draft["data"]["guid"], museum, zebra]
    assert guids(status="draft") == [draft["data"]["guid"]]
    assert guids(status="active", sort="date", order="asc") == [zebra, apple, museum]
    assert guids(category=s.museums.id) == [museum]
    assert guids(subcategory=s.museums.subcategories[0].id) == [museum]
    assert guids(provider=s.cupix.id) == []
    assert guids(searchPattern="ORCH") == [apple]
    page = client.get(url, params={"limit": 2, "offset": 1}, headers=mine).json()
    assert page["total_items"] == 4 and len(page["data"]) == 2 and page["limit"] == 2
    assert client.get(url, headers=s.headers(s.user)).status_code == 403
    assert client.get(url, headers=s.headers(s.admin)).status_code == 200

    featured = client.post("/v2/virtualtours/featured-tours", json={"tours": [zebra, museum]}, headers=mine)
    assert featured.status_code == 200
    assert guids(sort="featured") == [zebra, museum, draft["data"]["guid"], apple]


def test_counts_by_state(client: TestClient, s: Setup) -> None:
    first, second, third = add_many(client, s, s.user, 3)
    add(client, s, s.user, link="https://kuula.co/share/Dr001", is_active=False)
    task(client, s, s.admin, first, "approve")
    item = next(
        item
        for item in client.get("/v2/virtualtours/approval-items", headers=s.headers(s.admin)).json()["data"]
        if item["guid"] == second
    )
    client.put(
        "/v2/virtualtours/approval-items", json={"ids": [item["id"]], "action": "reject"}, headers=s.headers(s.admin)
    )
    counts = client.get(f"/v2/virtualtours/counts/{s.user.id}", headers=s.headers(s.user)).json()
    assert counts == {"total": 4, "active": 1, "draft": 1, "pending": 1, "rejected": 1, "featured": 0, "unlisted": 0}
    assert third
    assert client.get(f"/v2/virtualtours/counts/{s.user.id}", headers=s.headers(s.creator_user)).status_code == 403


# ------------------------------------------------------------------------------ featured tours


def test_a_creator_orders_up_to_ten_featured_tours(client: TestClient, db: Session, s: Setup) -> None:
    guids = add_many(client, s, s.trusted_user, 11)
    headers = s.headers(s.trusted_user)
    too_many = client.post("/v2/virtualtours/featured-tours", json={"tours": guids}, headers=headers)
    assert too_many.status_code == 400 and too_many.json()["message"] == "You can't add more than 10 featured locations"
    chosen = [guids[3], guids[0], guids[7]]
    response = client.post("/v2/virtualtours/featured-tours", json={"tours": chosen}, headers=headers)
    assert response.status_code == 200 and response.json()["tours"] == chosen
    reordered = [guids[7], guids[3]]
    client.post("/v2/virtualtours/featured-tours", json={"tours": reordered}, headers=headers)
    rows = db.scalars(
        select(Tour.guid)
        .join(CreatorFeaturedTour, CreatorFeaturedTour.tour_id == Tour.id)
        .where(CreatorFeaturedTour.creator_id == s.trusted_creator.id)
        .order_by(CreatorFeaturedTour.position)
    ).all()
    assert list(rows) == reordered


def test_featured_tours_must_be_ones_own_and_published(client: TestClient, s: Setup) -> None:
    mine = add(client, s, s.trusted_user, link="https://kuula.co/share/Mi001", is_active=False)["data"]["guid"]
    theirs = add(client, s, s.creator_user, link="https://kuula.co/share/Th001")["data"]["guid"]
    headers = s.headers(s.trusted_user)
    assert client.post("/v2/virtualtours/featured-tours", json={"tours": [theirs]}, headers=headers).status_code == 403
    assert client.post("/v2/virtualtours/featured-tours", json={"tours": [mine]}, headers=headers).status_code == 400
    not_a_creator = client.post("/v2/virtualtours/featured-tours", json={"tours": []}, headers=s.headers(s.user))
    assert not_a_creator.status_code == 403
    for_them = client.post(
        "/v2/virtualtours/featured-tours",
        json={"tours": [theirs], "userid": s.creator_user.id},
        headers=s.headers(s.admin),
    )
    assert for_them.status_code == 200


def test_admins_order_the_featured_feed(client: TestClient, s: Setup) -> None:
    first, second, third = add_many(client, s, s.trusted_user, 3)
    headers = s.headers(s.admin)
    body = {"tours": [third, first], "scope": "platform"}
    assert (
        client.post("/v2/virtualtours/featured-tours", json=body, headers=s.headers(s.trusted_user)).status_code == 403
    )
    assert client.post("/v2/virtualtours/featured-tours", json=body, headers=headers).status_code == 200
    assert grid_guids(client, feed="featured")[:2] == [third, first]
    client.post("/v2/virtualtours/featured-tours", json={"tours": [second], "scope": "platform"}, headers=headers)
    tours = {guid: client.get(f"/v2/virtualtours/{guid}").json() for guid in (first, second, third)}
    assert [(tours[guid]["is_featured"], tours[guid]["featured_order"]) for guid in (first, second, third)] == [
        (False, None),
        (True, 1),
        (False, None),
    ]


# ------------------------------------------------------------------------------ daily featured submission


def test_send_tour_today_once_a_day(client: TestClient, db: Session, s: Setup) -> None:
    guid = add(client, s, s.trusted_user)["data"]["guid"]
    body = {
        "guid": guid,
        "description": "Our newest garden tour",
        "social_links": {"instagram": "https://instagram.com/garden"},
        "consent": True,
    }
    headers = s.headers(s.trusted_user)
    response = client.post("/v2/virtualtours/send-tour-today", json=body, headers=headers)
    assert response.status_code == 201, response.text
    row = db.scalar(select(DailyFeaturedSubmission))
    assert row is not None and row.social_links == {"instagram": "https://instagram.com/garden"}
    assert row.consent_creator_mention is True
    mails = list(db.scalars(select(OutgoingMail).where(OutgoingMail.to_address == s.admin.email)))
    assert [mail.template for mail in mails] == ["tours.daily_featured_submission"]
    assert f"/virtualtours/{guid}" in mails[0].body_text and "https://instagram.com/garden" in mails[0].body_text
    assert "Our newest garden tour" in mails[0].body_text and "creator: yes" in mails[0].body_text
    again = client.post("/v2/virtualtours/send-tour-today", json=body, headers=headers)
    assert again.status_code == 409
    assert again.json()["message"] == "You have already submitted a tour today: come back tomorrow"
    # The refused second submission mailed nobody.
    to_admin = select(func.count()).select_from(OutgoingMail).where(OutgoingMail.to_address == s.admin.email)
    assert db.scalar(to_admin) == 1


def test_send_tour_today_rules(client: TestClient, s: Setup) -> None:
    pending = add(client, s, s.creator_user)["data"]["guid"]
    headers = s.headers(s.creator_user)
    body = {"guid": pending, "consent": False}
    assert client.post("/v2/virtualtours/send-tour-today", json=body, headers=headers).status_code == 400
    task(client, s, s.admin, pending, "approve")
    bad_link = {**body, "social_links": {"twitter": "http://x.example/me"}}
    assert client.post("/v2/virtualtours/send-tour-today", json=bad_link, headers=headers).status_code == 400
    assert client.post("/v2/virtualtours/send-tour-today", json=body, headers=headers).status_code == 201
    assert client.post("/v2/virtualtours/send-tour-today", json=body, headers=s.headers(s.user)).status_code == 403
    # Only one's own tour, even for an admin (who may manage it) or another creator.
    assert client.post("/v2/virtualtours/send-tour-today", json=body, headers=s.headers(s.admin)).status_code == 403
    theirs = client.post("/v2/virtualtours/send-tour-today", json=body, headers=s.headers(s.trusted_user))
    assert theirs.status_code == 403
    unknown = client.post("/v2/virtualtours/send-tour-today", json={**body, "guid": "0" * 32}, headers=headers)
    assert unknown.status_code == 404
    no_consent = client.post("/v2/virtualtours/send-tour-today", json={"guid": pending}, headers=headers)
    assert no_consent.status_code == 400 and "consent" in no_consent.json()["fields"]
    rude = {**body, "description": "fuck this"}
    assert client.post("/v2/virtualtours/send-tour-today", json=rude, headers=headers).status_code == 400


# ------------------------------------------------------------------------------ creator pages


def test_creator_page_lists_listed_tours_with_favorites(client: TestClient, s: Setup) -> None:
    guids = add_many(client, s, s.trusted_user, 3)
    museum = add(
        client, s, s.trusted_user, link="https://kuula.co/share/Mu001", title="Museum", category_id=s.museums.id,
        subcategory_id=None,
    )["data"]["guid"]  # fmt: skip
    add(client, s, s.trusted_user, link="https://kuula.co/share/Dr001", is_active=False)
    client.post("/v2/virtualtours/featured-tours", json={"tours": [guids[1]]}, headers=s.headers(s.trusted_user))
    url = f"/v2/virtualtours/creator/{s.trusted_user.id}"
    page = client.get(url).json()
    assert page["total_items"] == 4 and page["total_tours"] == 4 and page["limit"] == 50 and page["status"] == 200
    assert {card["guid"] for card in page["data"]} == {*guids, museum} and page["favorite_tours"] == []
    assert all(card["type"] == "vt" for card in page["data"])
    filtered = client.get(url, params={"categories": str(s.museums.id), "includeFavorites": True}).json()
    assert [card["guid"] for card in filtered["data"]] == [museum]
    assert filtered["total_items"] == 1 and filtered["total_tours"] == 4
    assert [card["guid"] for card in filtered["favorite_tours"]] == [guids[1]]
    by_title = client.get(url, params={"sorting": "az", "limit": 2}).json()
    assert [card["title"] for card in by_title["data"]] == ["Museum", "Tour Lk 00"]
    assert client.get("/v2/virtualtours/creator/999999").status_code == 404


def test_creator_map_has_map_feature_properties(client: TestClient, s: Setup) -> None:
    paris = add(client, s, s.trusted_user)["data"]["guid"]
    add(client, s, s.trusted_user, link="https://kuula.co/share/Np001", coordinate=None, physical_address=False)
    add(client, s, s.user, link="https://kuula.co/share/Ot001")
    answer = client.get(f"/v2/virtualtours/creator/map/{s.trusted_user.id}", params={"zoom": 10}).json()
    assert answer["type"] == "FeatureCollection" and answer["total_items"] == 1
    feature = answer["features"][0]
    assert feature["geometry"]["coordinates"] == [2.2945, 48.8584]
    properties = feature["properties"]
    assert properties["guid"] == paris and properties["type"] == "vt" and properties["userid"] == s.trusted_user.id
    for name in ("title", "link", "category_id", "creator_name", "preview_picture", "created_ago", "is_save"):
        assert name in properties


def test_media_tags_of_a_user(client: TestClient, s: Setup) -> None:
    add(client, s, s.trusted_user, link="https://kuula.co/share/Aa001", tags=[{"id": s.tags[0].id}])
    add(
        client,
        s,
        s.trusted_user,
        link="https://kuula.co/share/Aa002",
        tags=[{"id": s.tags[0].id}, {"id": s.tags[3].id}],
    )
    add(client, s, s.trusted_user, link="https://kuula.co/share/Aa003", tags=[{"id": s.tags[5].id}], is_active=False)
    answer = client.get(f"/v2/virtualtours/user/media-tags/{s.trusted_user.id}").json()
    assert answer["data"] == [
        {"id": s.tags[0].id, "name": "Tag 0", "vt_count": 2},
        {"id": s.tags[3].id, "name": "Tag 3", "vt_count": 1},
    ]


# ------------------------------------------------------------------------------ statistics


def test_admin_stats(client: TestClient, s: Setup) -> None:
    add_many(client, s, s.trusted_user, 2)
    add(client, s, s.user, link="https://kuula.co/share/Pe001")
    add(client, s, s.user, link="https://kuula.co/share/Dr001", is_active=False)
    stats = client.get("/v2/virtualtours/admin-stats", headers=s.headers(s.admin)).json()
    assert stats["total"] == 4 and stats["listed"] == 2 and stats["pending"] == 1 and stats["draft"] == 1
    assert stats["added_today"] == 4 and stats["by_vendor"] == {"Kuula": 4} and stats["by_category"] == {"Parks": 4}
    assert stats["edits_pending"] == 0 and stats["rejected"] == 0


def test_factories_tours_are_managed_too(client: TestClient, db: Session, s: Setup) -> None:
    """Tours that did not come through the form (demo corpus, crawler) are managed the same way."""
    row = factories.tour(
        db,
        s.user,
        category_row=s.parks,
        media_type_row=s.panorama,
        vendor_row=s.kuula,
        link="https://kuula.co/share/fa001",
    )
    db.commit()
    assert task(client, s, s.user, row.guid, "deactivate").status_code == 200
    edited = client.put(
        "/v2/virtualtours/",
        json={**s.payload(link=row.link, coordinate=None), "guid": row.guid, "is_active": True},
        headers=s.headers(s.user),
    )
    assert edited.status_code == 200, edited.text  # approved already, so the edit waits
