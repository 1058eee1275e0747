"""Spec §7 Creators, the reading calls: by-id, by-userid, creator-by-creator-name, get-meta-creator,
creator-logo-path, creator-logo (GET) and is-pending-creator; who sees a hidden profile."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.creators.models import Creator, CreatorFeaturedTour
from app.moderation.models import ApprovalItem, ApprovalKind
from app.users.models import User
from tests import factories
from tests.api.test_engagement import cheap_passwords

BASE = "/v2/creators"


@dataclass
class Scene:
    owner: User
    profile: Creator
    stranger: User
    admin: User
    listed_guid: str
    draft_guid: str


@pytest.fixture
def scene(db: Session, monkeypatch: pytest.MonkeyPatch) -> Scene:
    cheap_passwords(monkeypatch)
    owner = factories.user(db, platform_username="studio.north")
    profile = factories.creator(
        db,
        owner,
        creator_name="North Studio",
        description="Panoramas of the north " * 20,
        logo="/uploads/creator-logos/" + "a" * 32 + ".png",
        area_served=["Oslo", "Bergen"],
        services=["360 photo"],
        website="https://north.example",
        social_instagram="https://instagram.example/north",
    )
    catalog = factories.catalog(db)
    listed = catalog.tour(db, owner, title="Fjord")
    draft = catalog.tour(db, owner, title="Draft", status="draft")
    db.add_all(
        [
            CreatorFeaturedTour(creator_id=profile.id, tour_id=listed.id, position=0),
            CreatorFeaturedTour(creator_id=profile.id, tour_id=draft.id, position=1),
        ]
    )
    scene = Scene(
        owner=owner,
        profile=profile,
        stranger=factories.user(db),
        admin=factories.user(db, admin=True),
        listed_guid=listed.guid,
        draft_guid=draft.guid,
    )
    db.commit()
    return scene


def test_by_id_shows_the_public_profile_to_anyone(client: TestClient, scene: Scene) -> None:
    answer = client.get(f"{BASE}/by-id/{scene.profile.id}")
    assert answer.status_code == 200, answer.text
    data = answer.json()["data"]
    assert data["creator_name"] == "North Studio"
    assert data["userid"] == scene.owner.id
    assert data["user_name"] == "studio.north"
    assert data["area_served"] == ["Oslo", "Bergen"]
    assert data["instagram"] == "https://instagram.example/north"
    assert data["img_settings"] == {"bgColor": "black", "logoScale": 10, "profileScale": 10}
    assert data["default_view"] == "grid"
    assert data["is_follow"] is False and data["is_owner"] is False and data["edit_pending"] is False
    # A draft featured tour is the owner's business only.
    assert [tour["id"] for tour in data["featured_tours"]] == [scene.listed_guid]
    assert data["activeTours"] == 1

    own = client.get(f"{BASE}/by-id/{scene.profile.id}", headers=factories.bearer(scene.owner)).json()["data"]
    assert own["is_owner"] is True
    assert [tour["id"] for tour in own["featured_tours"]] == [scene.listed_guid, scene.draft_guid]


def test_by_userid_and_by_name(client: TestClient, scene: Scene) -> None:
    assert client.get(f"{BASE}/by-userid/{scene.owner.id}").json()["data"]["id"] == scene.profile.id
    for name in ("studio.north", "STUDIO.NORTH", "north studio"):
        answer = client.get(f"{BASE}/creator-by-creator-name/{name}")
        assert answer.status_code == 200, name
        assert answer.json()["data"]["id"] == scene.profile.id
    assert client.get(f"{BASE}/creator-by-creator-name/nobody").status_code == 404
    assert client.get(f"{BASE}/by-userid/{scene.stranger.id}").status_code == 404
    assert client.get(f"{BASE}/by-id/999999").status_code == 404


def test_a_deactivated_profile_is_hidden_except_from_its_owner_and_admins(
    client: TestClient, db: Session, scene: Scene
) -> None:
    profile = db.get(Creator, scene.profile.id)
    assert profile is not None
    profile.is_active = False
    db.commit()
    path = f"{BASE}/by-id/{scene.profile.id}"
    assert client.get(path).status_code == 404
    assert client.get(path, headers=factories.bearer(scene.stranger)).status_code == 404
    assert client.get(path, headers=factories.bearer(scene.owner)).status_code == 200
    assert client.get(path, headers=factories.bearer(scene.admin)).status_code == 200
    assert client.get(f"{BASE}/creator-by-creator-name/studio.north").status_code == 404
    assert client.get(f"{BASE}/get-meta-creator/{scene.profile.id}/").status_code == 404
    assert client.get(f"{BASE}/creator-logo-path/{scene.owner.id}").status_code == 404


def test_meta_and_logo_path(client: TestClient, scene: Scene) -> None:
    meta = client.get(f"{BASE}/get-meta-creator/{scene.profile.id}/").json()
    assert meta["title"] == "North Studio"
    assert meta["url"] == f"/creator/{scene.profile.id}"
    assert meta["image"] == scene.profile.logo
    assert len(meta["description"]) <= 200 and meta["description"].endswith("…")
    path = client.get(f"{BASE}/creator-logo-path/{scene.owner.id}").json()["path"]
    assert path == scene.profile.logo
    assert client.get(f"{BASE}/creator-logo-path/{scene.stranger.id}").status_code == 404
    # A logo name that was never stored, or a path outside the logos folder, is not found.
    assert client.get(f"{BASE}/creator-logo", params={"image": "../../etc/passwd"}).status_code == 404
    assert client.get(f"{BASE}/creator-logo").status_code == 404


def test_is_pending_creator(client: TestClient, db: Session, scene: Scene) -> None:
    path = f"{BASE}/is-pending-creator"
    answer = client.get(path, headers=factories.bearer(scene.stranger)).json()
    assert answer == {
        "userid": scene.stranger.id,
        "is_pending": False,
        "pending_kind": None,
        "creator_id": None,
        "approval_item_id": None,
    }
    item = ApprovalItem(
        kind=ApprovalKind.new_creator_profile,
        entity_type="user",
        entity_id=scene.stranger.id,
        submitted_by_user_id=scene.stranger.id,
        payload={},
    )
    db.add(item)
    db.commit()
    answer = client.get(path, headers=factories.bearer(scene.stranger)).json()
    assert answer["is_pending"] is True and answer["pending_kind"] == "new_creator_profile"
    # Someone else's state is for admins only.
    other = client.get(path, params={"userid": scene.stranger.id}, headers=factories.bearer(scene.owner))
    assert other.status_code == 403
    by_admin = client.get(path, params={"userid": scene.stranger.id}, headers=factories.bearer(scene.admin))
    assert by_admin.json()["approval_item_id"] == item.id
    assert client.get(path).status_code == 401
