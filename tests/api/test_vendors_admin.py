"""Spec §7 Vendors: GET / (unchanged), media-types, moderation-vendors, admin-stats, change-status and
group-subscribers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.classifications import dictionaries
from app.vendors import service
from app.vendors.models import Vendor, VendorCredential, VendorStatus
from app.vendors.router import get_host_resolver
from tests import factories
from tests.api.test_tours import Setup, build_setup
from tests.api.test_vendors_hosts import ask, fake_resolver, pending_item

VENDORS = "/v2/vendors/"


@pytest.fixture
def s(db: Session, monkeypatch: pytest.MonkeyPatch, client: TestClient) -> Iterator[Setup]:
    app = client.app
    assert isinstance(app, FastAPI)
    app.dependency_overrides[get_host_resolver] = lambda: fake_resolver
    reset_rate_limits()
    yield build_setup(db, monkeypatch)
    app.dependency_overrides.clear()


def test_the_public_list_keeps_its_answer(client: TestClient, db: Session, s: Setup) -> None:
    s.kuula.group_name, s.kuula.website = "Panoramas", "https://kuula.co"
    db.commit()
    kuula = next(row for row in client.get(VENDORS).json()["data"] if row["vendor_name"] == "Kuula")
    assert kuula == {
        "vendor_id": s.kuula.id,
        "vendor_name": "Kuula",
        "link_header": None,
        "group_name": "Panoramas",
        "preview_picture_required": False,
        "is_white_label": False,
        "website": "https://kuula.co",
        "link_pattern": s.kuula.link_pattern,
        "embed_template": None,
        "embed_kind": "iframe",
    }


def test_media_types_per_host(client: TestClient, db: Session, s: Setup) -> None:
    walkthrough = factories.media_type(db, dictionaries.WALKTHROUGH)
    vr = factories.media_type(db, dictionaries.VR_EXPERIENCE)
    matterport = factories.vendor(db, "Matterport")
    factories.vendor(db, "Studio Box")
    db.commit()
    answer = {row["vendor_name"]: row for row in client.get("/v2/vendors/media-types").json()["data"]}
    # A built-in host: its dictionary's types, most common first.
    assert answer["Matterport"]["media_types"] == [
        {"id": walkthrough.id, "name": walkthrough.name},
        {"id": vr.id, "name": vr.name},
    ]
    # A host the dictionary does not know: any active type.
    assert {item["name"] for item in answer["Studio Box"]["media_types"]} == {"360 Panorama", walkthrough.name, vr.name}
    one = client.get("/v2/vendors/media-types", params={"vendor_id": matterport.id}).json()["data"]
    assert [row["vendor_id"] for row in one] == [matterport.id]
    assert client.get("/v2/vendors/media-types", params={"vendor_id": 987654}).status_code == 404


def test_moderation_list_stats_and_change_status(client: TestClient, db: Session, s: Setup) -> None:
    admin = s.headers(s.admin)
    _status, body = ask(client, s)
    pending_id = body["data"]["vendor_id"]
    factories.tour(db, s.user, category_row=s.parks, media_type_row=s.panorama, vendor_row=s.kuula)
    factories.tour(db, s.user, category_row=s.parks, media_type_row=s.panorama, vendor_row=s.kuula)
    db.commit()

    listed = client.get("/v2/vendors/moderation-vendors", headers=admin).json()
    assert [row["vendor_name"] for row in listed["data"]] == ["Studio Tours", "Cupix", "Kuula"]  # waiting first
    studio = listed["data"][0]
    assert (studio["status"], studio["is_custom"], studio["userid"]) == ("pending", True, s.creator_user.id)
    assert studio["platform_username"] == s.creator_user.platform_username
    assert listed["data"][2]["tours"] == 2 and listed["total_items"] == 3
    only_custom = client.get("/v2/vendors/moderation-vendors", params={"is_custom": True}, headers=admin).json()
    assert [row["vendor_id"] for row in only_custom["data"]] == [pending_id]
    searched = client.get("/v2/vendors/moderation-vendors", params={"search": "KUU"}, headers=admin).json()
    assert [row["vendor_name"] for row in searched["data"]] == ["Kuula"]
    paged = client.get("/v2/vendors/moderation-vendors", params={"limit": 1, "offset": 1}, headers=admin).json()
    assert [row["vendor_name"] for row in paged["data"]] == ["Cupix"] and paged["total_items"] == 3

    # Withdraw a host: not offered any more, its tours stay; offer it again.
    withdrawn = client.put(
        "/v2/vendors/change-status", json={"vendor_id": s.kuula.id, "status": "inactive"}, headers=admin
    )
    assert withdrawn.status_code == 200 and withdrawn.json()["data"]["status"] == "inactive"
    assert "Kuula" not in [row["vendor_name"] for row in client.get(VENDORS).json()["data"]]
    creator_choices = client.get("/v2/vendors/allowed-vendors", headers=s.headers(s.creator_user)).json()["data"]
    assert "Kuula" not in [row["vendor_name"] for row in creator_choices]
    refused = client.post("/v2/virtualtours/", json=s.payload(), headers=s.headers(s.trusted_user))
    assert refused.status_code == 400 and refused.json()["fields"] == {"vendor": "Unknown host"}

    stats = client.get("/v2/vendors/admin-stats", headers=admin).json()["data"]
    assert stats["total"] == 3 and stats["custom"] == 1 and stats["public"] == 2
    assert stats["by_status"] == {"approved": 1, "pending": 1, "rejected": 0, "inactive": 1}
    assert stats["pending_requests"]["new_custom_provider"] == 1
    assert stats["tours_by_vendor"] == [{"vendor_id": s.kuula.id, "vendor_name": "Kuula", "tours": 2}]
    assert stats["connected_accounts"] == 0 and stats["group_subscribers"] == {}

    offered = client.put(
        "/v2/vendors/change-status", json={"vendor_id": s.kuula.id, "status": "approved"}, headers=admin
    )
    assert offered.status_code == 200 and "Kuula" in [row["vendor_name"] for row in client.get(VENDORS).json()["data"]]
    # A pending host is decided through the approval items.
    waiting = client.put(
        "/v2/vendors/change-status", json={"vendor_id": pending_id, "status": "approved"}, headers=admin
    )
    assert waiting.status_code == 409 and waiting.json()["message"] == service.DECIDE_FIRST
    assert pending_item(db, pending_id).status == "pending"
    unknown = client.put("/v2/vendors/change-status", json={"vendor_id": 987654, "status": "approved"}, headers=admin)
    assert unknown.status_code == 404
    bad = client.put("/v2/vendors/change-status", json={"vendor_id": s.kuula.id, "status": "pending"}, headers=admin)
    assert bad.status_code == 400
    for path in ("/v2/vendors/moderation-vendors", "/v2/vendors/admin-stats"):
        assert client.get(path, headers=s.headers(s.creator_user)).status_code == 403


def test_stats_count_connected_accounts(client: TestClient, db: Session, s: Setup) -> None:
    matterport = factories.vendor(db, "Matterport")
    credential = VendorCredential(user_id=s.creator_user.id, vendor_id=matterport.id)
    credential.set_key("k" * 16)
    credential.set_secret("s" * 16)
    db.add(credential)
    db.commit()
    assert client.get("/v2/vendors/admin-stats", headers=s.headers(s.admin)).json()["data"]["connected_accounts"] == 1


def test_group_subscriptions(client: TestClient, db: Session, s: Setup) -> None:
    s.kuula.group_name, s.cupix.group_name = "Panoramas", "3D capture"
    db.commit()

    def subscribe(person: Any, group: str) -> tuple[int, dict[str, Any]]:
        response = client.post("/v2/vendors/group-subscribers", json={"group_name": group}, headers=s.headers(person))
        return response.status_code, response.json()

    assert subscribe(s.user, "Panoramas")[1]["data"]["group_name"] == "Panoramas"
    status, body = subscribe(s.user, "Panoramas")
    assert status == 200 and body["message"] == "You already follow Panoramas"
    assert subscribe(s.user, "3D capture")[0] == 200
    assert subscribe(s.creator_user, "Panoramas")[0] == 200
    status, body = subscribe(s.user, "Knitting")
    assert (status, body["fields"]) == (400, {"group_name": service.UNKNOWN_GROUP})
    assert subscribe(s.user, "")[0] == 400

    mine = client.get("/v2/vendors/group-subscribers", headers=s.headers(s.user)).json()
    assert [row["group_name"] for row in mine["data"]] == ["3D capture", "Panoramas"] and mine["total_items"] == 2
    # A user sees only their own, whatever they ask; an admin sees a group's subscribers.
    asked = client.get("/v2/vendors/group-subscribers", params={"userid": s.creator_user.id}, headers=s.headers(s.user))
    assert {row["userid"] for row in asked.json()["data"]} == {s.user.id}
    group = client.get(
        "/v2/vendors/group-subscribers", params={"group_name": "Panoramas"}, headers=s.headers(s.admin)
    ).json()
    assert {row["userid"] for row in group["data"]} == {s.user.id, s.creator_user.id}
    assert client.get("/v2/vendors/admin-stats", headers=s.headers(s.admin)).json()["data"]["group_subscribers"] == {
        "3D capture": 1,
        "Panoramas": 2,
    }

    left = client.delete("/v2/vendors/group-subscribers", params={"group_name": "Panoramas"}, headers=s.headers(s.user))
    assert left.status_code == 200 and left.json()["message"] == "You no longer follow Panoramas"
    again = client.delete(
        "/v2/vendors/group-subscribers", params={"group_name": "Panoramas"}, headers=s.headers(s.user)
    )
    assert again.status_code == 200 and again.json()["message"] == "You do not follow Panoramas"
    mine = client.get("/v2/vendors/group-subscribers", headers=s.headers(s.user)).json()
    assert [row["group_name"] for row in mine["data"]] == ["3D capture"]
    assert client.get("/v2/vendors/group-subscribers").status_code == 401


def test_a_withdrawn_custom_host_comes_back_with_its_owner(client: TestClient, db: Session, s: Setup) -> None:
    """Drafting an account withdraws its approved custom hosts (spec §4); reactivation restores them."""
    _status, body = ask(client, s)
    vendor_id = body["data"]["vendor_id"]
    client.put(
        "/v2/vendors/approval-items",
        json={"id": pending_item(db, vendor_id).id, "action": "approve"},
        headers=s.headers(s.admin),
    )
    admin = s.headers(s.admin)
    client.post(
        "/v2/users/admin-user-activate-deactivate",
        json={"userid": s.creator_user.id, "is_active": False},
        headers=admin,
    )
    db.expire_all()
    vendor = db.get(Vendor, vendor_id)
    assert vendor is not None and vendor.status == VendorStatus.inactive
    client.post(
        "/v2/users/admin-user-activate-deactivate", json={"userid": s.creator_user.id, "is_active": True}, headers=admin
    )
    db.expire_all()
    assert db.get(Vendor, vendor_id).status == VendorStatus.approved  # type: ignore[union-attr]
