"""Spec §7 Ads (`/v2/ads/`, issue 15 parts 1 and 2): every call, its rules, errors and roles; the
approval flow through the one approval model (PUT /v2/ads/approval-items and the unified PUT
/v2/pending/approval-items); the Sponsored cards the feed serves from the index."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.ads.models import Ad, AdApprovalState
from app.classifications.models import Rank, RankEntityType, RankSource, Tag
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.notifications.models import OutgoingMail
from tests import factories
from tests.api.test_engagement import cheap_passwords, guest_headers

ADS = "/v2/ads"
PREVIEW = "https://img.example.com/ad.jpg"


@dataclass
class World:
    creator: Any
    creator_id: int
    other_creator: Any
    other_creator_id: int
    user: Any
    admin: Any
    tags: list[Tag]
    db: Session

    def headers(self, who: Any) -> dict[str, str]:
        if who is self.creator:
            return factories.bearer(who, self.creator_id)
        if who is self.other_creator:
            return factories.bearer(who, self.other_creator_id)
        return factories.bearer(who)


@pytest.fixture
def w(db: Session, monkeypatch: pytest.MonkeyPatch) -> World:
    cheap_passwords(monkeypatch)
    creator = factories.user(db, first_name="Cara")
    profile = factories.creator(db, creator)
    other = factories.user(db)
    other_profile = factories.creator(db, other)
    user = factories.user(db)
    admin = factories.user(db, admin=True)
    category = factories.category(db, "Ad topics")
    tags = [factories.tag(db, f"tag{number}", category) for number in range(12)]
    db.commit()
    return World(creator, profile.id, other, other_profile.id, user, admin, tags, db)


def form(**fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "title": "Visit the museum",
        "description": "A fine museum",
        "link": "https://museum.example.com/visit",
        "preview_picture": PREVIEW,
        "tags": [],
    }
    body.update(fields)
    return body


def add(client: TestClient, w: World, who: Any = None, **fields: Any) -> Any:
    return client.post(f"{ADS}/", json=form(**fields), headers=w.headers(who or w.creator))


def add_approved(client: TestClient, w: World, **fields: Any) -> int:
    """An ad of the creator, approved by an admin through PUT approval-items."""
    response = add(client, w, **fields)
    assert response.status_code == 201, response.text
    ad_id = int(response.json()["data"]["id"])
    item = pending_item(w.db, ApprovalKind.new_ad, ad_id)
    decided = client.put(
        f"{ADS}/approval-items", json={"ids": [item.id], "action": "approve"}, headers=w.headers(w.admin)
    )
    assert decided.status_code == 200, decided.text
    return ad_id


def pending_item(db: Session, kind: ApprovalKind, ad_id: int) -> ApprovalItem:
    db.expire_all()
    item = db.scalar(
        select(ApprovalItem).where(
            ApprovalItem.kind == kind, ApprovalItem.entity_id == ad_id, ApprovalItem.status == ApprovalStatus.pending
        )
    )
    assert item is not None
    return item


def ad_row(db: Session, ad_id: int) -> Ad:
    db.expire_all()
    row = db.get(Ad, ad_id)
    assert row is not None
    return row


def feed(client: TestClient, headers: dict[str, str] | None = None, **params: Any) -> list[dict[str, Any]]:
    query = {"mode": "media", "limit": 48, "seed": "s1", **params}
    response = client.get("/v2/user-recomendations/filtered-grid", params=query, headers=headers or {})
    assert response.status_code == 200, response.text
    data: list[dict[str, Any]] = response.json()["data"]
    return data


def sponsored(cards: list[dict[str, Any]]) -> list[int]:
    return [card["id"] for card in cards if card["type"] == "ad"]


def tours_for_the_feed(db: Session, count: int = 48) -> None:
    owner = factories.user(db)
    catalog = factories.catalog(db)
    for _ in range(count):
        catalog.tour(db, owner)
    db.commit()


# ------------------------------------------------------------------------------ adding: roles and rules


def test_a_creator_adds_an_ad_that_waits_for_approval(client: TestClient, w: World) -> None:
    response = add(client, w, tags=[{"id": w.tags[0].id}, {"id": w.tags[1].id}])
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["pending"] is True and "waits for an administrator" in body["message"]
    data = body["data"]
    assert data["approval_state"] == "pending" and data["status"] == "active" and data["is_owned"] is True
    assert [tag["id"] for tag in data["tags"]] == [w.tags[0].id, w.tags[1].id]
    item = pending_item(w.db, ApprovalKind.new_ad, data["id"])
    assert item.submitted_by_user_id == w.creator.id
    # Not served, not shown to others, shown to the owner.
    assert client.get(f"{ADS}/{data['id']}").status_code == 404
    assert client.get(f"{ADS}/{data['id']}", headers=w.headers(w.user)).status_code == 404
    assert client.get(f"{ADS}/{data['id']}", headers=w.headers(w.creator)).status_code == 200


def test_plain_users_and_guests_cannot_add_ads(client: TestClient, w: World) -> None:
    assert add(client, w, who=w.user).status_code == 403
    assert client.post(f"{ADS}/", json=form()).status_code == 401
    assert client.post(f"{ADS}/", json=form(), headers=guest_headers("g")).status_code == 401


def test_an_admin_adds_on_behalf_of_a_user_and_it_is_approved(client: TestClient, w: World) -> None:
    response = client.post(
        f"{ADS}/on-behalf-of",
        json=form(platform_username=w.creator.platform_username),
        headers=w.headers(w.admin),
    )
    assert response.status_code == 201, response.text
    data = response.json()["data"]
    assert data["user_id"] == w.creator.id and data["approval_state"] == "approved"
    assert ad_row(w.db, data["id"]).created_by_user_id == w.admin.id
    # Nobody named: 'select user'; the creator and a CM may not.
    missing = client.post(f"{ADS}/on-behalf-of", json=form(link="https://x.example.com/a"), headers=w.headers(w.admin))
    assert missing.status_code == 400 and missing.json()["fields"] == {"platform_username": "select user"}
    cm = factories.user(w.db, roles=["CM"])
    w.db.commit()
    assert client.post(f"{ADS}/on-behalf-of", json=form(), headers=factories.bearer(cm)).status_code == 403
    assert client.post(f"{ADS}/on-behalf-of", json=form(), headers=w.headers(w.creator)).status_code == 403


def test_only_admins_name_another_owner_in_post(client: TestClient, w: World) -> None:
    refused = add(client, w, userid=w.other_creator.id)
    assert refused.status_code == 403
    by_admin = add(client, w, who=w.admin, userid=w.other_creator.id)
    assert by_admin.status_code == 201 and by_admin.json()["data"]["user_id"] == w.other_creator.id


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"link": ""}, "link", "Link is required"),
        ({"link": None}, "link", "Link is required"),
        ({"link": "http://museum.example.com/visit"}, "link", "The link must start with https://"),
        ({"link": "https://nodot"}, "link", "The link must start with https://"),
        ({"title": "  "}, "title", "Title is required"),
        ({"title": "shit museum"}, "title", "Invalid Title"),
        ({"description": "a shit place"}, "description", "Invalid description"),
        ({"preview_picture": None}, "preview_picture", "Image are required"),
        (
            {"preview_picture": "http://img.example.com/a.jpg"},
            "preview_picture",
            "The image must be an uploaded image or an https:// address",
        ),
        (
            {"preview_picture": "/uploads/previews/" + "a" * 32 + "-card.jpg"},
            "preview_picture",
            "The image was not found: upload it again",
        ),
    ],
)
def test_bad_input_is_a_400_naming_the_field(
    client: TestClient, w: World, fields: dict[str, Any], field: str, message: str
) -> None:
    response = add(client, w, **fields)
    assert response.status_code == 400, response.text
    assert response.json()["fields"][field] == message


def test_tags_at_most_ten_and_known(client: TestClient, w: World) -> None:
    eleven = add(client, w, tags=[{"id": tag.id} for tag in w.tags[:11]])
    assert eleven.status_code == 400 and eleven.json()["fields"] == {"tags": "At most 10 tags"}
    unknown = add(client, w, tags=[{"id": 987654}])
    assert unknown.status_code == 400 and unknown.json()["fields"] == {"tags": "Unknown tags"}
    ten = add(client, w, tags=[{"id": tag.id} for tag in w.tags[:10]])
    assert ten.status_code == 201 and len(ten.json()["data"]["tags"]) == 10


def test_a_taken_link_is_a_409_and_link_exists_says_so(client: TestClient, w: World) -> None:
    first = add(client, w)
    assert first.status_code == 201
    again = add(client, w, who=w.other_creator)
    assert again.status_code == 409 and again.json()["message"] == "Error: Link already exists"
    assert again.json()["fields"] == {"link": "Error: Link already exists"}
    link = form()["link"]
    mine = client.get(f"{ADS}/link_exists", params={"link": link}, headers=w.headers(w.creator)).json()
    theirs = client.get(f"{ADS}/link_exists", params={"link": link}, headers=w.headers(w.user)).json()
    free = client.get(f"{ADS}/link_exists", params={"link": "https://free.example.com/"}, headers=w.headers(w.user))
    assert mine == {"exists": True, "id": first.json()["data"]["id"]}
    assert theirs == {"exists": True, "id": None}  # not served yet: its id is not the caller's to see
    assert free.json() == {"exists": False, "id": None}
    assert client.get(f"{ADS}/link_exists", params={"link": link}).status_code == 401


def _png(size: tuple[int, int] = (800, 600)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, "teal").save(buffer, format="PNG")
    return buffer.getvalue()


def test_preview_image_upload_goes_through_the_image_pipeline(client: TestClient, w: World) -> None:
    uploaded = client.post(
        f"{ADS}/preview-image", files={"image": ("ad.png", _png(), "image/png")}, headers=w.headers(w.creator)
    )
    assert uploaded.status_code == 201, uploaded.text
    path = uploaded.json()["path"]
    assert path.startswith("/uploads/previews/") and uploaded.json()["source_type"] == "png"
    added = add(client, w, preview_picture=path)
    assert added.status_code == 201 and added.json()["data"]["preview_picture"] == path
    assert added.json()["data"]["preview_picture_large"] == path.replace("-card.jpg", ".jpg")
    not_an_image = client.post(
        f"{ADS}/preview-image", files={"image": ("ad.png", b"hello", "image/png")}, headers=w.headers(w.creator)
    )
    assert not_an_image.status_code == 400
    user = client.post(
        f"{ADS}/preview-image", files={"image": ("a.png", _png(), "image/png")}, headers=w.headers(w.user)
    )
    assert user.status_code == 403


# ------------------------------------------------------------------------------ approval, end to end


def test_approve_through_ads_approval_items_then_served_in_the_feed_and_mailed(client: TestClient, w: World) -> None:
    tours_for_the_feed(w.db)
    ad_id = int(add(client, w).json()["data"]["id"])
    assert sponsored(feed(client)) == []
    listed = client.get(f"{ADS}/approval-items", headers=w.headers(w.admin)).json()
    assert [(row["kind"], row["ad_id"]) for row in listed["data"]] == [("new_ad", ad_id)]
    item_id = listed["data"][0]["id"]
    decided = client.put(
        f"{ADS}/approval-items", json={"ids": [item_id], "action": "approve"}, headers=w.headers(w.admin)
    )
    assert decided.status_code == 200 and decided.json()["ids"] == [item_id]
    assert ad_row(w.db, ad_id).approval_state == AdApprovalState.approved
    assert sponsored(feed(client)) == [ad_id]
    mail = w.db.scalars(select(OutgoingMail).where(OutgoingMail.to_address == w.creator.email)).all()
    assert [m.subject for m in mail] == ["Your ad is approved"]
    # Decided already: skipped; unknown: 404.
    again = client.put(
        f"{ADS}/approval-items", json={"ids": [item_id], "action": "approve"}, headers=w.headers(w.admin)
    )
    assert again.status_code == 200 and again.json()["ids"] == []
    unknown = client.put(
        f"{ADS}/approval-items", json={"ids": [987654], "action": "approve"}, headers=w.headers(w.admin)
    )
    assert unknown.status_code == 404


def test_approve_and_reject_through_the_unified_pending_call(client: TestClient, w: World) -> None:
    tours_for_the_feed(w.db)
    first = int(add(client, w).json()["data"]["id"])
    second = int(add(client, w, link="https://museum.example.com/second").json()["data"]["id"])
    queue = client.get("/v2/pending/approval-items", params={"kind": "new_ad"}, headers=w.headers(w.admin)).json()
    assert {row["id"] for row in queue["data"]} == {
        pending_item(w.db, ApprovalKind.new_ad, first).id,
        pending_item(w.db, ApprovalKind.new_ad, second).id,
    }
    assert queue["data"][0]["summary"]["title"] == "Visit the museum"
    approve = client.put(
        "/v2/pending/approval-items",
        json={"ids": [pending_item(w.db, ApprovalKind.new_ad, first).id], "decision": "approve"},
        headers=w.headers(w.admin),
    )
    assert approve.status_code == 200, approve.text
    reject = client.put(
        "/v2/pending/approval-items",
        json={
            "ids": [pending_item(w.db, ApprovalKind.new_ad, second).id],
            "decision": "reject",
            "reason": "The picture is unreadable",
        },
        headers=w.headers(w.admin),
    )
    assert reject.status_code == 200, reject.text
    assert ad_row(w.db, first).approval_state == AdApprovalState.approved
    assert ad_row(w.db, second).approval_state == AdApprovalState.rejected
    assert sponsored(feed(client)) == [first]
    rejected_mail = w.db.scalar(select(OutgoingMail).where(OutgoingMail.subject == "Your ad was not approved"))
    assert rejected_mail is not None and "The picture is unreadable" in rejected_mail.body_text


def test_an_edit_waits_while_the_published_version_stays(client: TestClient, w: World) -> None:
    tours_for_the_feed(w.db)
    ad_id = add_approved(client, w, tags=[{"id": w.tags[0].id}])
    edited = client.put(
        f"{ADS}/{ad_id}",
        json=form(title="A new title", link="https://museum.example.com/new", tags=[{"id": w.tags[2].id}]),
        headers=w.headers(w.creator),
    )
    assert edited.status_code == 200, edited.text
    assert edited.json()["pending"] is True and edited.json()["data"]["edit_pending"] is True
    # The published version is what everyone sees, in the ad and in the feed.
    row = ad_row(w.db, ad_id)
    assert (row.title, row.link) == ("Visit the museum", "https://museum.example.com/visit")
    assert [link.tag_id for link in row.tag_links] == [w.tags[0].id]
    card = next(card for card in feed(client) if card["type"] == "ad")
    assert card["title"] == "Visit the museum"
    item = pending_item(w.db, ApprovalKind.ad_edit, ad_id)
    listed = client.get(f"{ADS}/approval-items", headers=w.headers(w.admin)).json()["data"]
    edit_row = next(row for row in listed if row["kind"] == "ad_edit")
    assert edit_row["changes"]["title"] == "A new title" and edit_row["current"]["title"] == "Visit the museum"
    # A second edit replaces the proposal.
    client.put(
        f"{ADS}/{ad_id}",
        json=form(title="The newest title", link="https://museum.example.com/new", tags=[{"id": w.tags[2].id}]),
        headers=w.headers(w.creator),
    )
    assert pending_item(w.db, ApprovalKind.ad_edit, ad_id).id == item.id
    decided = client.put(
        "/v2/pending/approval-items", json={"ids": [item.id], "decision": "approve"}, headers=w.headers(w.admin)
    )
    assert decided.status_code == 200, decided.text
    row = ad_row(w.db, ad_id)
    assert (row.title, row.link) == ("The newest title", "https://museum.example.com/new")
    assert [link.tag_id for link in row.tag_links] == [w.tags[2].id]
    card = next(card for card in feed(client) if card["type"] == "ad")
    assert card["title"] == "The newest title" and card["link"] == "https://museum.example.com/new"
    assert w.db.scalar(select(OutgoingMail).where(OutgoingMail.subject == "Your ad changes are approved"))


def test_a_rejected_edit_keeps_the_published_version(client: TestClient, w: World) -> None:
    ad_id = add_approved(client, w)
    client.put(f"{ADS}/{ad_id}", json=form(title="Changed"), headers=w.headers(w.creator))
    item = pending_item(w.db, ApprovalKind.ad_edit, ad_id)
    response = client.put(
        f"{ADS}/approval-items", json={"ids": [item.id], "action": "reject"}, headers=w.headers(w.admin)
    )
    assert response.status_code == 200
    assert ad_row(w.db, ad_id).title == "Visit the museum"
    assert client.get(f"{ADS}/{ad_id}").json()["edit_pending"] is False


def test_an_edit_of_a_pending_ad_applies_and_an_admin_edit_applies_at_once(client: TestClient, w: World) -> None:
    ad_id = int(add(client, w).json()["data"]["id"])
    pending_edit = client.put(f"{ADS}/{ad_id}", json=form(title="Fixed title"), headers=w.headers(w.creator))
    assert pending_edit.status_code == 201 and ad_row(w.db, ad_id).title == "Fixed title"
    approved = add_approved(client, w, link="https://museum.example.com/two")
    by_admin = client.put(
        f"{ADS}/{approved}",
        json=form(title="Admin title", link="https://museum.example.com/two", is_featured=True, featured_order=1),
        headers=w.headers(w.admin),
    )
    assert by_admin.status_code == 201 and ad_row(w.db, approved).title == "Admin title"
    assert ad_row(w.db, approved).is_featured is True
    # Featuring is an admin's.
    refused = client.put(f"{ADS}/{approved}", json=form(is_featured=False), headers=w.headers(w.creator))
    assert refused.status_code == 403


def test_a_rejected_ad_edited_goes_back_to_the_queue(client: TestClient, w: World) -> None:
    ad_id = int(add(client, w).json()["data"]["id"])
    item = pending_item(w.db, ApprovalKind.new_ad, ad_id)
    client.put(f"{ADS}/approval-items", json={"ids": [item.id], "action": "reject"}, headers=w.headers(w.admin))
    assert ad_row(w.db, ad_id).approval_state == AdApprovalState.rejected
    client.put(f"{ADS}/{ad_id}", json=form(title="Better title"), headers=w.headers(w.creator))
    assert ad_row(w.db, ad_id).approval_state == AdApprovalState.pending
    assert pending_item(w.db, ApprovalKind.new_ad, ad_id).id != item.id


def test_an_edit_to_a_link_taken_is_a_409(client: TestClient, w: World) -> None:
    add(client, w, who=w.other_creator, link="https://taken.example.com/")
    ad_id = add_approved(client, w)
    response = client.put(f"{ADS}/{ad_id}", json=form(link="https://taken.example.com/"), headers=w.headers(w.creator))
    assert response.status_code == 409 and response.json()["message"] == "Error: Link already exists"


# ------------------------------------------------------------------------------ tasks, reading, deleting


def test_tasks_activate_deactivate_approve(client: TestClient, w: World) -> None:
    ad_id = int(add(client, w).json()["data"]["id"])
    draft = client.put(f"{ADS}/{ad_id}", json={"task": "deactivate"}, headers=w.headers(w.creator))
    assert draft.status_code == 200 and draft.json()["data"]["status"] == "draft"
    # A pending draft is not in the moderation queue.
    assert client.get(f"{ADS}/approval-items", headers=w.headers(w.admin)).json()["total_items"] == 0
    assert client.put(f"{ADS}/{ad_id}", json={"task": "approve"}, headers=w.headers(w.creator)).status_code == 403
    active = client.put(f"{ADS}/{ad_id}", json={"task": "activate"}, headers=w.headers(w.creator))
    assert active.json()["data"]["status"] == "active" and "waits" in active.json()["message"]
    assert client.get(f"{ADS}/approval-items", headers=w.headers(w.admin)).json()["total_items"] == 1
    approved = client.put(f"{ADS}/{ad_id}", json={"task": "approve"}, headers=w.headers(w.admin))
    assert approved.status_code == 200 and approved.json()["data"]["approval_state"] == "approved"
    item = w.db.scalar(select(ApprovalItem).where(ApprovalItem.entity_id == ad_id, ApprovalItem.kind == "new_ad"))
    assert item is not None and item.status == ApprovalStatus.approved and item.reviewed_by_user_id == w.admin.id
    assert client.get(f"{ADS}/{ad_id}").status_code == 200  # served: anyone may read it
    other = client.put(f"{ADS}/{ad_id}", json={"task": "deactivate"}, headers=w.headers(w.other_creator))
    assert other.status_code == 403
    assert client.put(f"{ADS}/{ad_id}", json={"task": "nap"}, headers=w.headers(w.creator)).status_code == 400
    assert client.put(f"{ADS}/987654", json={"task": "activate"}, headers=w.headers(w.creator)).status_code == 404
    # Any segment is an ad id: a word, or a number beyond the ids, is an ad that does not exist.
    assert client.get(f"{ADS}/on-behalf-of").status_code == 404
    assert client.get(f"{ADS}/99999999999").status_code == 404
    assert client.delete(f"{ADS}/x1", headers=w.headers(w.creator)).status_code == 404


def test_user_list_counts_and_filters(client: TestClient, w: World) -> None:
    first = add_approved(client, w)
    second = int(add(client, w, link="https://museum.example.com/2", title="Second").json()["data"]["id"])
    client.put(f"{ADS}/{second}", json={"task": "deactivate"}, headers=w.headers(w.creator))
    page = client.get(f"{ADS}/user/{w.creator.id}", headers=w.headers(w.creator)).json()
    assert page["total_items"] == 2 and [ad["id"] for ad in page["data"]] == [second, first]
    drafts = client.get(f"{ADS}/user/{w.creator.id}", params={"status": "draft"}, headers=w.headers(w.creator))
    assert [ad["id"] for ad in drafts.json()["data"]] == [second]
    found = client.get(f"{ADS}/user/{w.creator.id}", params={"searchPattern": "seco"}, headers=w.headers(w.creator))
    assert [ad["id"] for ad in found.json()["data"]] == [second]
    counts = client.get(f"{ADS}/counts/{w.creator.id}", headers=w.headers(w.creator)).json()
    assert counts == {"total": 2, "active": 1, "draft": 1, "pending": 1, "rejected": 0, "featured": 0}
    assert client.get(f"{ADS}/user/{w.creator.id}", headers=w.headers(w.other_creator)).status_code == 403
    assert client.get(f"{ADS}/counts/{w.creator.id}", headers=w.headers(w.user)).status_code == 403
    assert client.get(f"{ADS}/user/{w.creator.id}", headers=w.headers(w.admin)).json()["total_items"] == 2


def test_delete_one_and_every_ad_of_a_user(client: TestClient, w: World) -> None:
    first = add_approved(client, w)
    add(client, w, link="https://museum.example.com/2")
    source = RankSource(name="Sponsor level")
    w.db.add(source)
    w.db.flush()
    w.db.add(Rank(rank_source_id=source.id, entity_type=RankEntityType.ad, entity_id=first, value=3))
    w.db.commit()
    assert client.delete(f"{ADS}/{first}", headers=w.headers(w.other_creator)).status_code == 403
    assert client.delete(f"{ADS}/{first}", headers=w.headers(w.creator)).status_code == 200
    assert w.db.scalar(select(func.count()).select_from(Rank).where(Rank.entity_id == first)) == 0
    assert client.delete(f"{ADS}/{first}", headers=w.headers(w.creator)).status_code == 404
    body = {"userid": w.creator.id}
    assert client.request("DELETE", f"{ADS}/user-media", json=body, headers=w.headers(w.user)).status_code == 403
    removed = client.request("DELETE", f"{ADS}/user-media", json=body, headers=w.headers(w.creator))
    assert removed.status_code == 200 and removed.json()["message"] == "1 ad(s) deleted"
    assert w.db.scalar(select(func.count()).select_from(Ad)) == 0
    assert w.db.scalar(select(func.count()).select_from(ApprovalItem).where(ApprovalItem.kind == "new_ad")) == 0


def test_featured_ads_and_ad_tags(client: TestClient, w: World) -> None:
    first = add_approved(client, w, tags=[{"id": w.tags[0].id}, {"id": w.tags[1].id}])
    second = add_approved(client, w, link="https://museum.example.com/2", tags=[{"id": w.tags[0].id}])
    hidden = int(add(client, w, link="https://museum.example.com/3", tags=[{"id": w.tags[5].id}]).json()["data"]["id"])
    w.db.expire_all()
    for ad_id, order in ((second, 1), (first, 2), (hidden, 3)):
        row = w.db.get(Ad, ad_id)
        assert row is not None
        row.is_featured, row.featured_order = True, order
    w.db.commit()
    featured = client.get(f"{ADS}/featured-ads").json()["data"]
    assert [card["id"] for card in featured] == [second, first]
    assert set(featured[0]) == {"type", "id", "title", "preview_picture", "link", "user_id"}
    tags = client.get(f"{ADS}/user/ad-tags/{w.creator.id}").json()["data"]
    assert [(tag["id"], tag["ad_count"]) for tag in tags] == [(w.tags[0].id, 2), (w.tags[1].id, 1)]


def test_admin_stats_with_a_zero_filled_daily_series(client: TestClient, w: World) -> None:
    add_approved(client, w)
    add(client, w, link="https://museum.example.com/2")
    stats = client.get(f"{ADS}/admin-stats", headers=w.headers(w.admin))
    assert stats.status_code == 200
    body = stats.json()
    assert (body["total"], body["served"], body["pending"]) == (2, 1, 1)
    series = body["daily"]["series"]
    assert len(series) == 30 and series[-1]["count"] == 2 and sum(day["count"] for day in series) == 2
    ranged = client.get(
        f"{ADS}/admin-stats", params={"date_from": "2020-01-01", "date_to": "2020-01-03"}, headers=w.headers(w.admin)
    ).json()["daily"]
    assert ranged["total"] == 0 and [day["count"] for day in ranged["series"]] == [0, 0, 0]
    bad = client.get(
        f"{ADS}/admin-stats", params={"date_from": "2020-01-03", "date_to": "2020-01-01"}, headers=w.headers(w.admin)
    )
    assert bad.status_code == 400 and "date_from" in bad.json()["fields"]
    assert client.get(f"{ADS}/admin-stats", headers=w.headers(w.creator)).status_code == 403


# ------------------------------------------------------------------------------ engagement and counting


def test_likes_saves_shares_and_stats(client: TestClient, w: World) -> None:
    ad_id = add_approved(client, w)
    like = client.post(f"{ADS}/post_likes", json={"id": ad_id, "isLike": True}, headers=w.headers(w.user))
    assert like.status_code == 200 and (like.json()["likes"], like.json()["user_like"]) == (1, 1)
    again = client.post(f"{ADS}/post_likes", json={"id": ad_id, "isLike": True}, headers=w.headers(w.user))
    assert again.json()["likes"] == 1
    save = client.post(f"{ADS}/post_saves", json={"id": ad_id, "isSave": True}, headers=w.headers(w.user))
    assert save.json()["saves"] == 1
    own = client.post(f"{ADS}/post_saves", json={"id": ad_id, "isSave": True}, headers=w.headers(w.creator))
    assert own.status_code == 400 and own.json()["fields"] == {"id": "You cannot save your own ad"}
    assert client.post(f"{ADS}/post_shares", json={"id": ad_id}).json()["shared"] == 1
    assert client.post(f"{ADS}/post_likes", json={"id": ad_id, "isLike": True}).status_code == 401
    stats = client.get(f"{ADS}/ad-stats/{ad_id}", headers=w.headers(w.user)).json()
    assert (stats["likes"], stats["saves"], stats["shared"], stats["user_like"], stats["user_save"]) == (1, 1, 1, 1, 1)
    unlike = client.post(f"{ADS}/post_likes", json={"id": ad_id, "isLike": False}, headers=w.headers(w.user))
    assert unlike.json()["likes"] == 0
    unlike = client.post(f"{ADS}/post_likes", json={"id": ad_id, "isLike": False}, headers=w.headers(w.user))
    assert unlike.json()["likes"] == 0
    pending = int(add(client, w, link="https://museum.example.com/p").json()["data"]["id"])
    missing = client.post(f"{ADS}/post_likes", json={"id": pending, "isLike": True}, headers=w.headers(w.user))
    assert missing.status_code == 404


def test_an_impression_counts_once_per_viewer_per_page_view(client: TestClient, w: World) -> None:
    ad_id = add_approved(client, w)
    user = w.headers(w.user)
    shown = [client.get(f"{ADS}/show/{ad_id}", params={"page_view": "pv-1"}, headers=user).json() for _ in range(3)]
    assert [answer["counted"] for answer in shown] == [True, False, False]  # re-renders
    assert shown[0]["link"] == form()["link"] and shown[0]["type"] == "ad"
    assert client.get(f"{ADS}/show/{ad_id}", params={"page_view": "pv-2"}, headers=user).json()["counted"] is True
    guest = guest_headers("someone")
    assert client.get(f"{ADS}/show/{ad_id}", params={"page_view": "pv-1"}, headers=guest).json()["counted"] is True
    # No page view id: once per viewer per day.
    assert client.get(f"{ADS}/show/{ad_id}", headers=guest).json()["counted"] is True
    assert client.get(f"{ADS}/show/{ad_id}", headers=guest).json()["counted"] is False
    bad = client.get(f"{ADS}/show/{ad_id}", params={"page_view": "no spaces!"})
    assert bad.status_code == 400 and "page_view" in bad.json()["fields"]
    assert ad_row(w.db, ad_id).views == 4
    # The owner looking at an unserved ad is no impression.
    pending = int(add(client, w, link="https://museum.example.com/p").json()["data"]["id"])
    looked = client.get(f"{ADS}/show/{pending}", headers=w.headers(w.creator))
    assert looked.status_code == 200 and looked.json()["counted"] is False
    assert client.get(f"{ADS}/show/{pending}").status_code == 404


def test_clicks_are_counted_once_per_page_view(client: TestClient, w: World) -> None:
    ad_id = add_approved(client, w)
    body = {"page_view": "pv-1"}
    first = client.post(f"{ADS}/click/{ad_id}", json=body).json()
    second = client.post(f"{ADS}/click/{ad_id}", json=body).json()
    other_view = client.post(f"{ADS}/click/{ad_id}", json={"page_view": "pv-2"}).json()
    assert (first["counted"], second["counted"], other_view["counted"]) == (True, False, True)
    assert first["link"] == form()["link"] and other_view["clicks"] == 2
    client.get(f"{ADS}/show/{ad_id}", params={"page_view": "pv-1"})
    stats = client.get(f"{ADS}/ad-stats/{ad_id}").json()
    assert (stats["views"], stats["clicks"], stats["ctr"]) == (1, 2, 2.0)
    assert client.post(f"{ADS}/click/987654").status_code == 404


# ------------------------------------------------------------------------------ ranks and embeddings


def test_ranks_calls(client: TestClient, w: World) -> None:
    ad_id = add_approved(client, w)
    source = RankSource(name="Sponsor level")
    w.db.add(source)
    w.db.commit()
    admin = w.headers(w.admin)
    added = client.post(f"{ADS}/ranks", json={"ad_id": ad_id, "rank_source_id": source.id, "value": 5}, headers=admin)
    assert (
        added.status_code == 201 and added.json()["ad_id"] == ad_id and added.json()["rank_source"] == "Sponsor level"
    )
    twice = client.post(f"{ADS}/ranks", json={"ad_id": ad_id, "rank_source_id": source.id, "value": 5}, headers=admin)
    assert twice.status_code == 409
    unknown = client.post(
        f"{ADS}/ranks", json={"ad_id": 987654, "rank_source_id": source.id, "value": 1}, headers=admin
    )
    assert unknown.status_code == 404
    rank_id = added.json()["id"]
    edited = client.put(f"{ADS}/ranks", json={"id": rank_id, "value": 7}, headers=admin)
    assert edited.status_code == 200 and edited.json()["value"] == 7
    listed = client.get(f"{ADS}/ranks", params={"ad_id": ad_id}, headers=admin).json()
    assert listed["total_items"] == 1 and listed["data"][0]["value"] == 7
    bulk = client.post(
        f"{ADS}/ranks/bulk", json={"ranks": [{"ad_id": ad_id, "rank_source_id": source.id, "value": 9}]}, headers=admin
    )
    assert bulk.status_code == 200 and (bulk.json()["created"], bulk.json()["updated"]) == (0, 1)
    bad_bulk = client.post(
        f"{ADS}/ranks/bulk", json={"ranks": [{"ad_id": 987654, "rank_source_id": source.id, "value": 9}]}, headers=admin
    )
    assert bad_bulk.status_code == 400 and bad_bulk.json()["fields"] == {"ranks.0.ad_id": "Unknown ads"}
    assert client.post(f"{ADS}/ranks/calc", headers=admin).status_code == 202
    assert client.request("DELETE", f"{ADS}/ranks", json={"id": rank_id}, headers=admin).status_code == 200
    assert client.request("DELETE", f"{ADS}/ranks", json={"id": rank_id}, headers=admin).status_code == 404
    assert client.get(f"{ADS}/ranks", headers=w.headers(w.creator)).status_code == 403


def test_embeddings_call_is_refused_while_embeddings_are_off(client: TestClient, w: World) -> None:
    response = client.post(f"{ADS}/embeddings", headers=w.headers(w.admin))
    assert response.status_code == 400 and "EMBEDDINGS_ENABLED" in response.json()["message"]
    assert client.post(f"{ADS}/embeddings", headers=w.headers(w.creator)).status_code == 403
