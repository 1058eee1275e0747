"""Spec §7 Users: current user, account settings (§4 "Account save"), field checks (§5 "Account"),
profile image, interests, guide, search, groups, account states (§4 "User account") and deletion."""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence

import pytest
from fastapi.testclient import TestClient
from PIL import Image
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.moderation.models import ApprovalItem, ApprovalKind
from app.platform.models import PlatformConfig
from app.tours.models import TourStatus
from app.users import service as users_service
from app.users.models import User
from app.vendors.models import VendorStatus
from tests import factories


@pytest.fixture(autouse=True)
def fresh_limits() -> Iterator[None]:
    reset_rate_limits()
    yield


def png_bytes(size: tuple[int, int] = (40, 40)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, "teal").save(buffer, format="PNG")
    return buffer.getvalue()


# ------------------------------------------------------------------------------------ current user


def test_current_user_has_the_spec_wire_names(client: TestClient, db: Session) -> None:
    user = factories.user(db, first_name="Ada", last_name="Lovelace", platform_username="ada.l", phone="123")
    owned = factories.creator(db, user)
    db.commit()
    body = client.get("/v2/users/", headers=factories.bearer(user)).json()
    for name in (
        "userid",
        "email",
        "first_name",
        "last_name",
        "phone",
        "platform_username",
        "user_settings",
        "auth_system",
        "creatorId",
        "profile_img",
        "is_active",
        "user_active",
        "guide_steps",
        "roles",
        "potential_creator",
        "user_system_id",
        "username",
    ):
        assert name in body, name
    assert "password" not in body and "password_hash" not in body
    assert body["username"] == "Ada Lovelace" and body["creatorId"] == owned.id
    assert body["user_settings"] == {"imageScale": 10, "bgColor": "white"}
    assert body["guide_steps"] == {"completeGuide": False}
    assert client.get("/v2/users/").status_code == 401


def test_user_params_are_read_by_the_owner_or_an_admin(client: TestClient, db: Session) -> None:
    user, other, admin = factories.user(db), factories.user(db), factories.user(db, admin=True)
    db.commit()
    own = client.get("/v2/users/user-params", params={"userid": user.id}, headers=factories.bearer(user))
    assert own.status_code == 200 and own.json()["userid"] == user.id
    denied = client.get("/v2/users/user-params", params={"userid": other.id}, headers=factories.bearer(user))
    assert denied.status_code == 403
    by_admin = client.get("/v2/users/user-params", params={"userid": other.id}, headers=factories.bearer(admin))
    assert by_admin.json()["userid"] == other.id


# ---------------------------------------------------------------------------------------- settings


def test_account_save_200_saves_at_once(client: TestClient, db: Session) -> None:
    user = factories.user(db)
    db.commit()
    params = {
        "first_name": "Grace",
        "last_name": "Hopper",
        "phone": "5551234",
        "email": "Grace@Example.com",
        "platform_username": "grace.hopper",
        "user_settings": {"bgColor": "black"},
        "consent_emails": True,
    }
    response = client.put(
        "/v2/users/user-params", json={"userid": user.id, "params": params}, headers=factories.bearer(user)
    )
    assert response.status_code == 200
    data = response.json()["data"]
    assert (data["username"], data["email"], data["platform_username"]) == (
        "Grace Hopper",
        "grace@example.com",
        "grace.hopper",
    )
    assert data["user_settings"] == {"imageScale": 10, "bgColor": "black"} and data["consent_emails"] is True
    cleared = client.put("/v2/users/user-params", json={"params": {"phone": ""}}, headers=factories.bearer(user))
    assert cleared.json()["data"]["phone"] is None


def test_account_save_201_when_a_creator_renames_and_waits_for_approval(client: TestClient, db: Session) -> None:
    user = factories.user(db, platform_username="old.name")
    factories.creator(db, user)
    db.commit()
    params = {"platform_username": "new.name", "first_name": "Renamed"}
    response = client.put("/v2/users/user-params", json={"params": params}, headers=factories.bearer(user))
    assert response.status_code == 201
    body = response.json()
    assert body["pending_fields"] == ["platform_username"]
    assert body["data"]["platform_username"] == "old.name" and body["data"]["first_name"] == "Renamed"
    assert body["data"]["profile_edit_pending"] is True
    item = db.scalars(select(ApprovalItem)).one()
    assert (item.kind, item.entity_id, item.payload) == (
        ApprovalKind.user_profile_edit,
        user.id,
        {"changes": {"platform_username": "new.name"}},
    )
    again = client.put(
        "/v2/users/user-params", json={"params": {"platform_username": "newer.name"}}, headers=factories.bearer(user)
    )
    assert again.status_code == 409
    assert again.json()["message"] == "Your previous profile changes are still waiting for approval"

    # What moderation calls on approval.
    target = db.get(User, user.id)
    assert target is not None
    db.refresh(target)
    users_service.apply_profile_edit(db, target, item.payload["changes"])
    db.commit()
    assert (target.platform_username, target.profile_edit_pending) == ("new.name", False)


def test_trusted_creators_and_admins_rename_at_once(client: TestClient, db: Session) -> None:
    trusted = factories.user(db, trusted=True)
    factories.creator(db, trusted)
    plain_creator, admin = factories.user(db), factories.user(db, admin=True)
    factories.creator(db, plain_creator)
    db.commit()
    own = client.put(
        "/v2/users/user-params",
        json={"params": {"platform_username": "trusted.one"}},
        headers=factories.bearer(trusted),
    )
    assert own.status_code == 200
    body = {"userid": plain_creator.id, "params": {"platform_username": "renamed.by.admin"}}
    by_admin = client.put("/v2/users/user-params", json=body, headers=factories.bearer(admin))
    assert by_admin.status_code == 200 and by_admin.json()["data"]["platform_username"] == "renamed.by.admin"


def test_account_save_409_names_the_taken_field(client: TestClient, db: Session) -> None:
    user = factories.user(db)
    factories.user(db, email="taken@example.com", platform_username="taken.name")
    db.commit()
    headers = factories.bearer(user)
    email = client.put("/v2/users/user-params", json={"params": {"email": "TAKEN@example.com"}}, headers=headers)
    assert email.status_code == 409 and email.json() | {"request_id": None} == {
        "message": "This email is already taken",
        "fields": {"email": "This email is already taken"},
        "request_id": None,
    }
    name = client.put("/v2/users/user-params", json={"params": {"platform_username": "Taken.Name"}}, headers=headers)
    assert name.status_code == 409 and name.json()["fields"] == {"platform_username": "This username is already taken"}


def test_account_save_validates_fields_and_refuses_others_accounts(client: TestClient, db: Session) -> None:
    user, other = factories.user(db), factories.user(db)
    db.commit()
    headers = factories.bearer(user)
    bad = {"phone": "12-34", "first_name": "R2D2", "email": "nope", "platform_username": "ab"}
    response = client.put("/v2/users/user-params", json={"params": bad}, headers=headers)
    assert response.status_code == 400
    assert response.json()["fields"] == {
        "email": "Invalid email",
        "first_name": "Invalid first name",
        "phone": "Phone number must contain digits only",
        "platform_username": "Username is too short",
    }
    foreign = client.put(
        "/v2/users/user-params", json={"userid": other.id, "params": {"first_name": "X"}}, headers=headers
    )
    assert foreign.status_code == 403


# ---------------------------------------------------------------------------------- field checks


def test_users_info_check_follows_the_username_rules(client: TestClient, db: Session) -> None:
    owner = factories.user(db, platform_username="ada.lovelace", email="ada@example.com")
    db.commit()

    def check(headers: dict[str, str] | None = None, **params: str) -> dict[str, object]:
        response = client.get("/v2/users/users-info-check", params=params, headers=headers or {})
        assert response.status_code == 200
        return dict(response.json())

    short = check(platform_username="ada")
    assert short["platform_username_available"] is None  # not looked up at 4 characters or fewer
    assert short["fields"] == {"platform_username": "Username is too short"}
    taken = check(platform_username="ADA.Lovelace")
    assert taken["platform_username_available"] is False and taken["valid"] is False
    own = check(factories.bearer(owner), platform_username="ada.lovelace")
    assert own == {"valid": True, "fields": {}, "platform_username_available": True, "email_available": None}
    assert check(platform_username="fuck.this")["fields"] == {
        "platform_username": "Username must not contain inappropriate words"
    }
    assert check(email="ada@example.com")["email_available"] is False
    assert check(email="free@example.com") == {
        "valid": True,
        "fields": {},
        "platform_username_available": None,
        "email_available": True,
    }
    assert check(email="broken")["fields"] == {"email": "Invalid email"}


def test_get_existed_usernames_emails(client: TestClient, db: Session) -> None:
    factories.user(db, platform_username="ada.lovelace", email="ada@example.com")
    db.commit()
    found = client.get(
        "/v2/users/get_existed_usernames_emails", params={"username": "Ada.Lovelace", "user_email": "ADA@example.com"}
    )
    assert found.json() == {"username_exists": True, "email_exists": True}
    missing = client.get("/v2/users/get_existed_usernames_emails", params={"username": "nobody.here"})
    assert missing.json() == {"username_exists": False, "email_exists": None}


def test_suggested_usernames_are_valid_and_free(db: Session) -> None:
    factories.user(db, platform_username="bo000")
    db.commit()
    suggestion = users_service.suggest_platform_username(db, "bo@example.com")
    assert suggestion.startswith("bo") and len(suggestion) >= 5 and suggestion != "bo000"
    assert users_service.suggest_platform_username(db, "shit@example.com", "Ann.Lee") == "Ann.Lee"


# ---------------------------------------------------------------------------------- profile image


def test_profile_image_upload_and_lookup(client: TestClient, db: Session) -> None:
    user = factories.user(db)
    db.commit()
    headers = factories.bearer(user)
    uploaded = client.post(
        "/v2/users/profile-image", files={"image": ("me.png", png_bytes(), "image/png")}, headers=headers
    )
    assert uploaded.status_code == 200 and uploaded.json()["pending"] is False
    path = uploaded.json()["path"]
    assert path.startswith("/uploads/profile-images/") and path.endswith(".png")
    assert client.get(path).status_code == 200
    assert client.get("/v2/users/", headers=headers).json()["profile_img"] == path
    name = path.rsplit("/", 1)[1]
    assert client.get("/v2/users/profile-image", params={"image": name}).json()["path"] == path
    assert client.get("/v2/users/profile-image", headers=headers).json()["path"] == path
    missing = client.get("/v2/users/profile-image", params={"image": "0" * 32 + ".png"})
    assert missing.status_code == 404 and missing.json()["message"] == "Image not found"
    traversal = client.get("/v2/users/profile-image", params={"image": "../../touratlas.db"})
    assert traversal.status_code == 404


def test_profile_image_is_sniffed_and_size_limited(client: TestClient, db: Session) -> None:
    user = factories.user(db)
    db.commit()
    headers = factories.bearer(user)
    fake = client.post(
        "/v2/users/profile-image", files={"image": ("me.png", b"<svg></svg>", "image/png")}, headers=headers
    )
    assert fake.status_code == 400 and fake.json()["message"] == "Upload a JPG, PNG or WEBP image"
    big = client.post(
        "/v2/users/profile-image",
        files={"image": ("big.png", b"\0" * (2 * 1024 * 1024 + 10), "image/png")},
        headers=headers,
    )
    assert big.status_code == 400 and big.json()["message"] == "The image is 2.0 MB; the maximum is 2 MB"


def test_profile_image_waits_for_approval_when_images_approval_is_on(client: TestClient, db: Session) -> None:
    user = factories.user(db)
    db.add(PlatformConfig(id=1, restrict_access=False, images_approval=True))
    db.commit()
    response = client.post(
        "/v2/users/profile-image", files={"image": ("me.png", png_bytes(), "image/png")}, headers=factories.bearer(user)
    )
    assert response.status_code == 201 and response.json()["pending"] is True
    item = db.scalars(select(ApprovalItem)).one()
    assert item.kind == ApprovalKind.profile_image and item.payload == {"profile_img": response.json()["path"]}
    db.expire_all()
    refreshed = db.get(User, user.id)
    assert refreshed is not None and refreshed.profile_img is None


# ------------------------------------------------------------------------------- interests, guide


def test_interests_are_replaced_in_order(client: TestClient, db: Session) -> None:
    user = factories.user(db)
    parks, museums = factories.category(db, "Parks"), factories.category(db, "Museums")
    db.commit()
    headers = factories.bearer(user)
    assert client.get("/v2/users/user-interests", headers=headers).json() == {"data": []}
    body = {"interests": [{"category_id": museums.id}, {"category_id": parks.id}]}
    saved = client.put("/v2/users/user-interests", json=body, headers=headers)
    assert saved.status_code == 200
    assert saved.json()["data"] == [
        {"category_id": museums.id, "name": "Museums", "position": 0},
        {"category_id": parks.id, "name": "Parks", "position": 1},
    ]
    reordered = client.put("/v2/users/user-interests", json={"interests": [{"category_id": parks.id}]}, headers=headers)
    assert [item["category_id"] for item in reordered.json()["data"]] == [parks.id]


def test_interests_rules(client: TestClient, db: Session) -> None:
    user = factories.user(db)
    categories = [factories.category(db, f"Category {number}") for number in range(21)]
    db.commit()
    headers = factories.bearer(user)

    def put(ids: Sequence[int | None]) -> dict[str, object]:
        response = client.put(
            "/v2/users/user-interests", json={"interests": [{"category_id": i} for i in ids]}, headers=headers
        )
        return {"status": response.status_code, **response.json()}

    twenty = [category.id for category in categories[:20]]
    assert put(twenty)["status"] == 200
    too_many = put([category.id for category in categories])
    assert too_many["status"] == 400 and too_many["message"] == "You can't add more than 20 interests"
    duplicate = put([twenty[0], twenty[0]])
    assert duplicate["status"] == 400 and duplicate["message"] == "This category is already among your interests"
    empty = put([twenty[0], None])
    assert empty["status"] == 400 and empty["fields"] == {
        "interests.1.category_id": "Choose a category for every interest"
    }
    unknown = put([999_999])
    assert unknown["status"] == 400 and unknown["message"] == "This category does not exist"
    assert len(client.get("/v2/users/user-interests", headers=headers).json()["data"]) == 20


def test_guide_steps_complete_the_guide(client: TestClient, db: Session) -> None:
    user = factories.user(db)
    db.commit()
    headers = factories.bearer(user)
    assert client.get("/v2/users/user-guide-steps", headers=headers).json() == {"guide_steps": {"completeGuide": False}}
    step = client.post("/v2/users/user-guide-steps", json={"guide_steps": {"filters": True}}, headers=headers)
    assert step.json() == {"guide_steps": {"completeGuide": False, "filters": True}}
    done = client.post("/v2/users/user-guide-steps", json={"guide_steps": {"completeGuide": True}}, headers=headers)
    assert done.json()["guide_steps"] == {"completeGuide": True, "filters": True}
    assert client.get("/v2/users/", headers=headers).json()["guide_steps"]["completeGuide"] is True
    bad = client.post("/v2/users/user-guide-steps", json={"guide_steps": {"completeGuide": "yes"}}, headers=headers)
    assert bad.status_code == 400


# ----------------------------------------------------------------------------- search and groups


def test_user_search_by_search_pattern(client: TestClient, db: Session) -> None:
    cm = factories.user(db, roles=["CM"])
    ada = factories.user(db, platform_username="ada.lovelace", first_name="Ada", last_name="Lovelace")
    factories.user(db, platform_username="grace_hopper")
    factories.user(db, platform_username="ada.deleted", is_deleted=True)
    db.commit()
    response = client.get("/v2/users/search-users", params={"searchPattern": "ADA"}, headers=factories.bearer(cm))
    assert response.status_code == 200
    page = response.json()["data"]
    assert page["total_items"] == 1 and page["data"][0]["userid"] == ada.id
    assert page["data"][0]["username"] == "Ada Lovelace"
    # LIKE wildcards in the pattern are plain characters.
    underscore = client.get("/v2/users/search-users", params={"searchPattern": "_"}, headers=factories.bearer(cm))
    assert [item["platform_username"] for item in underscore.json()["data"]["data"]] == ["grace_hopper"]


def test_user_groups_count_their_members(client: TestClient, db: Session) -> None:
    admin = factories.user(db, admin=True)
    factories.user(db, roles=["CM"])
    creator_owner = factories.user(db, potential_creator=True)
    factories.creator(db, creator_owner)
    factories.user(db, is_active=False)
    db.commit()
    response = client.get("/v2/users/user-groups", headers=factories.bearer(admin))
    counts = {group["id"]: group["count"] for group in response.json()["data"]}
    assert counts == {
        "all": 3,
        "users": 2,
        "creators": 1,
        "potential_creators": 1,
        "admins": 1,
        "content_managers": 1,
        "beta_testers": 0,
    }


# --------------------------------------------------------------------------------- account states


def _owned_content(db: Session, owner: User) -> dict[str, int]:
    category, media = factories.category(db, "Parks"), factories.media_type(db, "360 panorama")
    public_host = factories.vendor(db, "Host")
    custom_host = factories.vendor(db, "Custom")
    custom_host.is_custom, custom_host.owner_user_id = True, owner.id
    pending_host = factories.vendor(db, "Pending")
    pending_host.is_custom, pending_host.owner_user_id, pending_host.status = True, owner.id, VendorStatus.pending
    profile = factories.creator(db, owner)
    active = factories.tour(db, owner, category_row=category, media_type_row=media, vendor_row=public_host)
    draft = factories.tour(
        db, owner, category_row=category, media_type_row=media, vendor_row=custom_host, status=TourStatus.draft
    )
    db.commit()
    return {
        "creator": profile.id,
        "custom": custom_host.id,
        "pending": pending_host.id,
        "active": active.id,
        "draft": draft.id,
    }


def test_drafting_deactivates_account_profile_hosts_and_tours(client: TestClient, db: Session) -> None:
    from app.creators.models import Creator
    from app.tours.models import Tour
    from app.vendors.models import Vendor

    admin, owner = factories.user(db, admin=True), factories.user(db, email="owner@example.com")
    ids = _owned_content(db, owner)
    owner_headers = factories.bearer(owner, ids["creator"])
    body = {"userid": owner.id, "is_active": False}
    response = client.post("/v2/users/admin-user-activate-deactivate", json=body, headers=factories.bearer(admin))
    assert response.status_code == 200 and response.json()["data"]["is_active"] is False
    db.expire_all()
    assert db.get(Creator, ids["creator"]).is_active is False  # type: ignore[union-attr]
    assert db.get(Vendor, ids["custom"]).status == VendorStatus.inactive  # type: ignore[union-attr]
    assert db.get(Vendor, ids["pending"]).status == VendorStatus.pending  # type: ignore[union-attr]
    assert {db.get(Tour, ids[key]).status for key in ("active", "draft")} == {TourStatus.draft}  # type: ignore[union-attr]
    # Its tokens stop working and signing in reads the drafted-account notice.
    assert client.get("/v2/users/", headers=owner_headers).status_code == 401
    signed_in = client.post("/v2/users/sign-in", json={"email": "owner@example.com", "password": "Secret1!"})
    assert signed_in.status_code == 403 and "write to support" in signed_in.json()["message"]

    reactivated = client.post(
        "/v2/users/admin-user-activate-deactivate", json={**body, "is_active": True}, headers=factories.bearer(admin)
    )
    assert reactivated.status_code == 200
    db.expire_all()
    assert db.get(Creator, ids["creator"]).is_active is True  # type: ignore[union-attr]
    assert db.get(Vendor, ids["custom"]).status == VendorStatus.approved  # type: ignore[union-attr]
    assert db.get(Vendor, ids["pending"]).status == VendorStatus.pending  # type: ignore[union-attr]
    # Reactivation sends every tour to the owner's drafts.
    assert {db.get(Tour, ids[key]).status for key in ("active", "draft")} == {TourStatus.draft}  # type: ignore[union-attr]
    assert (
        client.post("/v2/users/sign-in", json={"email": "owner@example.com", "password": "Secret1!"}).status_code == 200
    )


def test_drafted_accounts_leave_the_index(client: TestClient, db: Session) -> None:
    admin, owner = factories.user(db, admin=True), factories.user(db)
    ids = _owned_content(db, owner)
    grid = client.get("/v2/user-recomendations/filtered-grid", params={"mode": "media"}).json()
    assert grid["total_items"] == 1
    client.post(
        "/v2/users/admin-user-activate-deactivate",
        json={"userid": owner.id, "is_active": False},
        headers=factories.bearer(admin),
    )
    after = client.get("/v2/user-recomendations/filtered-grid", params={"mode": "media"}).json()
    assert after["total_items"] == 0, ids


def test_content_managers_reactivate_but_only_admins_draft(client: TestClient, db: Session) -> None:
    cm, admin = factories.user(db, roles=["CM"]), factories.user(db, admin=True)
    target = factories.user(db, is_active=False)
    active = factories.user(db)
    db.commit()
    reactivate = {"userid": target.id, "is_active": True}
    assert (
        client.post(
            "/v2/users/admin-user-activate-deactivate", json=reactivate, headers=factories.bearer(cm)
        ).status_code
        == 200
    )
    draft = {"userid": active.id, "is_active": False}
    assert (
        client.post("/v2/users/admin-user-activate-deactivate", json=draft, headers=factories.bearer(cm)).status_code
        == 403
    )
    self_draft = {"userid": admin.id, "is_active": False}
    assert (
        client.post(
            "/v2/users/admin-user-activate-deactivate", json=self_draft, headers=factories.bearer(admin)
        ).status_code
        == 400
    )


def test_delete_user_marks_it_deleted_and_keeps_the_rows(client: TestClient, db: Session) -> None:
    user = factories.user(db, email="gone@example.com")
    other, admin = factories.user(db), factories.user(db, admin=True)
    db.commit()
    headers = factories.bearer(user)
    assert client.delete("/v2/users/", params={"user_id": other.id}, headers=headers).status_code == 403
    response = client.delete("/v2/users/", params={"user_id": user.id}, headers=headers)
    assert response.status_code == 200 and response.json()["message"] == "User Deleted"
    db.expire_all()
    deleted = db.get(User, user.id)
    assert deleted is not None and deleted.is_deleted and deleted.deleted_at is not None
    assert client.get("/v2/users/", headers=headers).status_code == 401
    signed_in = client.post("/v2/users/sign-in", json={"email": "gone@example.com", "password": "Secret1!"})
    assert signed_in.status_code == 403 and signed_in.json()["message"] == "User Deleted"
    by_admin = client.delete("/v2/users/", params={"user_id": other.id}, headers=factories.bearer(admin))
    assert by_admin.status_code == 200
