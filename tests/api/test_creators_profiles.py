"""Spec §4 "Creator update" and pending items, §5 "Creator", §7 Creators: POST and PUT / (200
`CreatorProfile.Updated` / 201 `CreatorProfile.AddEditPending`), approval-items (GET and PUT),
DELETE /, creator-logo upload, admin-creator-activate-deactivate and admin-stats; the links are
checked against a local fake site, never the internet."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.core.settings import get_settings
from app.creators.models import Creator, LinkCheck
from app.moderation.models import ApprovalItem, ApprovalStatus
from app.notifications.models import OutgoingMail
from app.users.models import User
from tests import factories
from tests.api.test_engagement import cheap_passwords
from tests.fakes.tour_pages import TourPages, running_tour_pages

BASE = "/v2/creators"
ROOT = f"{BASE}/"
APPROVALS = f"{BASE}/approval-items"


@pytest.fixture(scope="module")
def site() -> Iterator[TourPages]:
    with running_tour_pages() as fake:
        yield fake


@pytest.fixture(autouse=True)
def fresh_limits() -> Iterator[None]:
    reset_rate_limits()
    yield
    reset_rate_limits()


@pytest.fixture
def local_site(site: TourPages, monkeypatch: pytest.MonkeyPatch) -> TourPages:
    """Let the link check reach the fake site on 127.0.0.1 (refused by default, as any private address)."""
    monkeypatch.setattr(get_settings(), "discover_allowed_networks", ["127.0.0.1/32"])
    site.add("/studio", "<html><title>Studio</title></html>")
    return site


@dataclass
class People:
    user: User
    other: User
    admin: User


@pytest.fixture
def people(db: Session, monkeypatch: pytest.MonkeyPatch) -> People:
    cheap_passwords(monkeypatch)
    found = People(
        user=factories.user(db, platform_username="lena.pano", email="lena@example.com"),
        other=factories.user(db),
        admin=factories.user(db, admin=True),
    )
    db.commit()
    return found


def png(size: tuple[int, int] = (1200, 900), color: str = "navy", exif: bool = False) -> bytes:
    image = Image.new("RGB", size, color)
    buffer = io.BytesIO()
    if exif:
        tags = Image.Exif()
        tags[0x010E] = "secret description"  # ImageDescription
        image.save(buffer, format="PNG", exif=tags.tobytes())
    else:
        image.save(buffer, format="PNG")
    return buffer.getvalue()


def upload_logo(client: TestClient, user: User, content: bytes | None = None, name: str = "logo.png") -> Any:
    return client.post(
        f"{BASE}/creator-logo",
        files={"image": (name, content if content is not None else png(), "application/octet-stream")},
        headers=factories.bearer(user),
    )


def payload(logo: str, **changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "creator_name": "Lena Panoramas",
        "user_name": "lena.pano",
        "description": "Virtual tours of old towns",
        "logo": logo,
        "img_settings": {"bgColor": "white", "logoScale": 12, "profileScale": 10},
        "services": ["360 photo", "Drone"],
        "contact_email": "studio@example.com",
        "phone": "4912345",
        "area_served": ["Tallinn"],
        "default_view": "map",
    }
    body.update(changes)
    return body


def become_creator(client: TestClient, user: User, **changes: Any) -> Any:
    logo = upload_logo(client, user).json()["path"]
    return client.post(ROOT, json=payload(logo, **changes), headers=factories.bearer(user))


def decide(client: TestClient, admin: User, item_id: int, action: str = "approve", **extra: Any) -> Any:
    return client.put(APPROVALS, json={"id": item_id, "action": action, **extra}, headers=factories.bearer(admin))


# ------------------------------------------------------------------------------------------ logo


def test_the_logo_is_sniffed_resized_and_stripped(client: TestClient, people: People) -> None:
    answer = upload_logo(client, people.user, png(exif=True), name="logo.txt")
    assert answer.status_code == 200, answer.text
    path = answer.json()["path"]
    assert path.startswith("/uploads/creator-logos/") and path.endswith(".png")
    stored = Image.open(get_settings().uploads_dir / "creator-logos" / path.rsplit("/", 1)[-1])
    assert max(stored.size) == 600  # shrunk to the profile's size
    assert not stored.getexif() and "exif" not in stored.info
    assert client.get(f"{BASE}/creator-logo", params={"image": path}).json()["path"] == path
    refused = upload_logo(client, people.user, b"<svg onload=alert(1)>", name="logo.png")
    assert refused.status_code == 400 and "image" in refused.json()["fields"]
    assert upload_logo(client, people.user, b"x" * (2 * 1024 * 1024 + 1)).status_code == 400


# --------------------------------------------------------------------------- becoming a creator


def test_a_new_profile_waits_for_approval_then_becomes_public(client: TestClient, db: Session, people: People) -> None:
    answer = become_creator(client, people.user)
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["message"] == "CreatorProfile.AddEditPending" and body["pending"] is True and body["data"] is None
    assert client.get(f"{BASE}/by-userid/{people.user.id}").status_code == 404
    state = client.get(f"{BASE}/is-pending-creator", headers=factories.bearer(people.user)).json()
    assert state["is_pending"] is True and state["pending_kind"] == "new_creator_profile"
    # A second POST before the decision: 201 again, and the first item is superseded.
    again = become_creator(client, people.user, creator_name="Lena Tours")
    assert again.status_code == 201
    listed = client.get(APPROVALS, headers=factories.bearer(people.admin)).json()
    assert listed["total_items"] == 1
    item = listed["data"][0]
    assert item["id"] == again.json()["approval_item_id"]
    assert item["kind"] == "new_creator_profile" and item["userid"] == people.user.id and item["current"] is None
    assert item["pending"]["creator_name"] == "Lena Tours"

    approved = decide(client, people.admin, item["id"])
    assert approved.status_code == 200, approved.text
    profile = client.get(f"{BASE}/by-userid/{people.user.id}").json()["data"]
    assert profile["creator_name"] == "Lena Tours"
    assert profile["img_settings"] == {"bgColor": "white", "logoScale": 12, "profileScale": 10}
    assert profile["default_view"] == "map" and profile["area_served"] == ["Tallinn"]
    assert profile["contact_email"] == "studio@example.com"
    mails = db.scalars(select(OutgoingMail).where(OutgoingMail.to_address == "lena@example.com")).all()
    assert [mail.subject for mail in mails] == ["Your creator profile is approved"]
    assert decide(client, people.admin, item["id"]).status_code == 409
    assert become_creator(client, people.user).status_code == 409  # one profile per account
    # The approved profile reaches the index (outbox): the creators grid shows its card.
    grid = client.get("/v2/user-recomendations/filtered-grid", params={"mode": "creators"}).json()["data"]
    assert [card["creator_name"] for card in grid if card["type"] == "creator"] == ["Lena Tours"]


def test_an_edit_waits_and_the_published_profile_stays(client: TestClient, db: Session, people: People) -> None:
    item_id = become_creator(client, people.user).json()["approval_item_id"]
    decide(client, people.admin, item_id)
    profile = client.get(f"{BASE}/by-userid/{people.user.id}").json()["data"]
    edit = client.put(
        ROOT,
        json=payload(profile["logo"], id=profile["id"], description="New words"),
        headers=factories.bearer(people.user),
    )
    assert edit.status_code == 201 and edit.json()["message"] == "CreatorProfile.AddEditPending"
    assert edit.json()["data"]["description"] == "Virtual tours of old towns"
    mine = client.get(f"{BASE}/by-id/{profile['id']}", headers=factories.bearer(people.user)).json()["data"]
    assert mine["description"] == "Virtual tours of old towns" and mine["edit_pending"] is True
    public = client.get(f"{BASE}/by-id/{profile['id']}").json()["data"]
    assert public["edit_pending"] is False  # told to the owner and admins only

    items = client.get(APPROVALS, params={"kind": "creator_profile_edit"}, headers=factories.bearer(people.admin))
    item = items.json()["data"][0]
    assert item["current"]["description"] == "Virtual tours of old towns"
    assert item["pending"]["description"] == "New words"
    assert decide(client, people.admin, item["id"], "reject", review_note="Too short").status_code == 200
    assert client.get(f"{BASE}/by-id/{profile['id']}").json()["data"]["description"] == "Virtual tours of old towns"

    second = client.put(
        ROOT, json=payload(profile["logo"], description="Better words"), headers=factories.bearer(people.user)
    )
    decide(client, people.admin, second.json()["approval_item_id"])
    assert client.get(f"{BASE}/by-id/{profile['id']}").json()["data"]["description"] == "Better words"


def test_admins_and_trusted_creators_apply_at_once(client: TestClient, db: Session, people: People) -> None:
    logo = upload_logo(client, people.admin).json()["path"]
    created = client.post(ROOT, json=payload(logo, userid=people.user.id), headers=factories.bearer(people.admin))
    assert created.status_code == 200 and created.json()["message"] == "CreatorProfile.Updated"
    creator_id = created.json()["data"]["id"]
    row = db.get(Creator, creator_id)
    assert row is not None
    row.trusted = True
    db.commit()
    edited = client.put(ROOT, json=payload(logo, services=["Matterport"]), headers=factories.bearer(people.user))
    assert edited.status_code == 200 and edited.json()["message"] == "CreatorProfile.Updated"
    assert edited.json()["data"]["services"] == ["Matterport"]
    assert client.get(f"{BASE}/is-pending-creator", headers=factories.bearer(people.user)).json()["is_pending"] is False


def test_put_without_a_profile_is_404_and_someone_elses_is_refused(client: TestClient, people: People) -> None:
    logo = upload_logo(client, people.user).json()["path"]
    assert client.put(ROOT, json=payload(logo), headers=factories.bearer(people.user)).status_code == 404
    other = client.post(ROOT, json=payload(logo, userid=people.other.id), headers=factories.bearer(people.user))
    assert other.status_code == 403


# ------------------------------------------------------------------------------------- §5 rules


def test_required_fields_and_profanity(client: TestClient, db: Session, people: People) -> None:
    nameless = factories.user(db, platform_username=None)
    db.commit()
    answer = client.post(
        ROOT,
        json={"creator_name": "shit studio", "description": "fuck this", "area_served": []},
        headers=factories.bearer(nameless),
    )
    assert answer.status_code == 400
    fields = answer.json()["fields"]
    assert fields["creator_name"] == "Invalid Creator Name"
    assert fields["description"] == "Invalid Description"
    assert fields["area_served"] == "Location is required"
    assert fields["logo"] == "Logo is required"
    assert fields["user_name"] == "Username is required"


def test_logo_background_featured_limit_and_foreign_logo(client: TestClient, db: Session, people: People) -> None:
    logo = upload_logo(client, people.user).json()["path"]
    red = client.post(ROOT, json=payload(logo, img_settings={"bgColor": "red"}), headers=factories.bearer(people.user))
    assert red.status_code == 400 and "img_settings.bgColor" in red.json()["fields"]
    catalog = factories.catalog(db)
    guids = [catalog.tour(db, people.user).guid for _ in range(11)]
    foreign = catalog.tour(db, people.other).guid
    db.commit()
    many = client.post(ROOT, json=payload(logo, featured_tours=guids), headers=factories.bearer(people.user))
    assert many.status_code == 400
    assert many.json()["fields"]["featured_tours"] == "You can't add more than 10 featured locations"
    theirs = client.post(ROOT, json=payload(logo, featured_tours=[foreign]), headers=factories.bearer(people.user))
    assert theirs.json()["fields"]["featured_tours"] == "Only your own tours can be featured"
    elsewhere = client.post(ROOT, json=payload("https://evil.example/logo.png"), headers=factories.bearer(people.user))
    assert elsewhere.status_code == 400 and "logo" in elsewhere.json()["fields"]


def test_a_taken_creator_name_or_username_is_409(client: TestClient, db: Session, people: People) -> None:
    factories.creator(db, people.other, creator_name="Lena Panoramas")
    db.commit()
    assert become_creator(client, people.user).status_code == 409
    taken = become_creator(client, people.user, creator_name="Another", user_name=people.other.platform_username)
    assert taken.status_code == 409 and "user_name" in taken.json()["fields"]


def test_links_must_answer(client: TestClient, db: Session, people: People, local_site: TourPages) -> None:
    live = local_site.url("/studio")
    answer = become_creator(
        client, people.user, website=live, youtube=local_site.url("/missing"), instagram="http://10.0.0.1/x"
    )
    assert answer.status_code == 400, answer.text
    fields = answer.json()["fields"]
    assert set(fields) == {"youtube", "instagram"}
    assert "404" in fields["youtube"] and fields["youtube"].startswith("This link does not answer")
    assert "private" in fields["instagram"]
    malformed = become_creator(client, people.user, facebook="javascript:alert(1)")
    assert malformed.status_code == 400 and "facebook" in malformed.json()["fields"]
    hits = local_site.hits["/studio"]
    assert become_creator(client, people.user, website=live).status_code == 201
    assert local_site.hits["/studio"] == hits  # checked within the day: answered from the cache
    assert db.scalar(select(LinkCheck.live).where(LinkCheck.url == live)) is True


def test_an_offline_site_is_a_clear_400(client: TestClient, people: People, local_site: TourPages) -> None:
    closed = f"http://127.0.0.1:{_closed_port()}/"
    answer = become_creator(client, people.user, twitter=closed)
    assert answer.status_code == 400
    assert answer.json()["fields"]["twitter"].startswith("This link does not answer: the page could not be reached")


def _closed_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# ------------------------------------------------------------------------------ delete, admins


def test_delete_activate_and_stats(client: TestClient, db: Session, people: People) -> None:
    item_id = become_creator(client, people.user).json()["approval_item_id"]
    stats = client.get(f"{BASE}/admin-stats", headers=factories.bearer(people.admin)).json()["data"]
    assert stats["pending_new"] == 1 and stats["total"] == 0
    decide(client, people.admin, item_id)
    creator_id = client.get(f"{BASE}/by-userid/{people.user.id}").json()["data"]["id"]
    stats = client.get(f"{BASE}/admin-stats", headers=factories.bearer(people.admin)).json()["data"]
    assert (stats["total"], stats["active"], stats["pending_new"]) == (1, 1, 0)

    hidden = client.post(
        f"{BASE}/admin-creator-activate-deactivate",
        json={"creator_id": creator_id, "is_active": False},
        headers=factories.bearer(people.admin),
    )
    assert hidden.status_code == 200 and hidden.json()["data"]["is_active"] is False
    assert client.get(f"{BASE}/by-id/{creator_id}").status_code == 404
    client.post(
        f"{BASE}/admin-creator-activate-deactivate",
        json={"creator_id": creator_id, "is_active": True},
        headers=factories.bearer(people.admin),
    )
    assert client.get(f"{BASE}/by-id/{creator_id}").status_code == 200

    refused = client.delete(ROOT, params={"user_id": people.user.id}, headers=factories.bearer(people.other))
    assert refused.status_code == 403
    deleted = client.delete(ROOT, params={"creator_id": creator_id}, headers=factories.bearer(people.user))
    assert deleted.status_code == 200 and deleted.json()["creator_id"] == creator_id
    assert client.get(f"{BASE}/by-id/{creator_id}").status_code == 404
    assert client.delete(ROOT, headers=factories.bearer(people.user)).status_code == 404
    grid = client.get("/v2/user-recomendations/filtered-grid", params={"mode": "creators"}).json()["data"]
    assert [card for card in grid if card["type"] == "creator"] == []


def test_approving_a_name_taken_meanwhile_is_409_and_keeps_the_item(
    client: TestClient, db: Session, people: People
) -> None:
    item_id = become_creator(client, people.user).json()["approval_item_id"]
    factories.creator(db, people.other, creator_name="lena panoramas")
    db.commit()
    assert decide(client, people.admin, item_id).status_code == 409
    item = db.get(ApprovalItem, item_id)
    assert item is not None and item.status == ApprovalStatus.pending
