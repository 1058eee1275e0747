"""Spec §7 Media over HTTP: adding and editing tours under the §5 Media form rules, reading one tour,
and how approval decides what the feed lists. Addresses go through the real offline gazetteer."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.classifications.models import Category, MediaType, Tag
from app.core.security import hash_password
from app.creators.models import Creator
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.tours import rules
from app.tours.models import ApprovalState, Tour
from app.users.models import User
from app.vendors.models import Vendor
from tests import factories

KUULA_PATTERN = r"^https?://(?:www\.)?kuula\.co/share/[A-Za-z0-9]{5}/?$"
NOT_FOUND_TEXT = "Unfortunately this Virtual Tour could not be found..."
EIFFEL = "48.8584,2.2945"
# Spec §3 "Media (tour) read".
MEDIA_READ_FIELDS = (
    *("guid", "userid", "address", "address_id", "preview_picture", "description", "link", "title"),
    *("vt_website", "creator_website", "third_party_creator", "subcategory_id", "media_type_id", "category_id"),
    *("tags", "camera_id", "vendor", "is_ai_generated", "views", "likes", "shared", "saves", "status"),
    *("coordinates", "provider_version"),
)


@lru_cache
def _password_hash(password: str) -> str:
    return hash_password(password)


@dataclass
class Setup:
    parks: Category
    museums: Category
    panorama: MediaType
    kuula: Vendor
    cupix: Vendor
    tags: list[Tag]
    user: User
    creator_user: User
    creator: Creator
    trusted_user: User
    trusted_creator: Creator
    admin: User
    cm: User

    def headers(self, person: User) -> dict[str, str]:
        creator = person.creator
        return factories.bearer(person, creator.id if creator is not None else None)

    def payload(self, **overrides: Any) -> dict[str, Any]:
        body: dict[str, Any] = {
            "vendor": self.kuula.id,
            "link": "https://kuula.co/share/Ab123",
            "title": "Sunrise over the rose garden",
            "description": "A quiet morning walk among the roses.",
            "media_type_id": self.panorama.id,
            "category_id": self.parks.id,
            "subcategory_id": self.parks.subcategories[0].id,
            "coordinate": EIFFEL,
            "tags": [{"id": self.tags[0].id}, {"id": self.tags[1].id}],
            "approve_needed": True,
        }
        body.update(overrides)
        return body


def build_setup(db: Session, monkeypatch: pytest.MonkeyPatch) -> Setup:
    """Classifications, a plain user, an untrusted creator, a trusted creator, an admin and a CM."""
    monkeypatch.setattr(factories, "hash_password", _password_hash)
    parks = factories.category(db, "Parks", ("City Parks", "Gardens"))
    museums = factories.category(db, "Museums", ("Art",))
    panorama = factories.media_type(db, "360 Panorama")
    kuula = factories.vendor(db, "Kuula", KUULA_PATTERN)
    cupix = factories.vendor(db, "Cupix", r"^https://cupix\.works/sv/[a-z0-9]+$")
    cupix.preview_picture_required = True
    tags = [factories.tag(db, f"Tag {number}", parks) for number in range(12)]
    user = factories.user(db)
    creator_user = factories.user(db)
    creator = factories.creator(db, creator_user)
    trusted_user = factories.user(db)
    trusted_creator = factories.creator(db, trusted_user, trusted=True)
    admin = factories.user(db, admin=True)
    cm = factories.user(db, roles=["CM"])
    db.commit()
    db.refresh(parks)
    return Setup(parks, museums, panorama, kuula, cupix, tags, user, creator_user, creator, trusted_user,
                 trusted_creator, admin, cm)  # fmt: skip


@pytest.fixture
def s(db: Session, monkeypatch: pytest.MonkeyPatch) -> Setup:
    return build_setup(db, monkeypatch)


def add(client: TestClient, s: Setup, person: User, **overrides: Any) -> dict[str, Any]:
    response = client.post("/v2/virtualtours/", json=s.payload(**overrides), headers=s.headers(person))
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def grid_guids(client: TestClient, **params: Any) -> list[str]:
    response = client.get("/v2/user-recomendations/filtered-grid", params={"mode": "media", **params})
    assert response.status_code == 200, response.text
    return [card["guid"] for card in response.json()["data"] if card["type"] == "vt"]


# ------------------------------------------------------------------------------ adding


def test_a_users_tour_waits_for_approval_and_the_feed_does_not_list_it(
    client: TestClient, db: Session, s: Setup
) -> None:
    answer = add(client, s, s.user)
    tour = answer["data"]
    assert answer["pending"] is True and answer["message"].startswith("Your virtual tour has been added")
    assert tour["status"] == "active" and tour["approval_state"] == "pending" and tour["is_owned"] is True
    assert tour["coordinates"] == [48.8584, 2.2945] and tour["address"]["country"] == "FR"
    assert [tag["id"] for tag in tour["tags"]] == [s.tags[0].id, s.tags[1].id]
    assert tour["vendor"] == {"id": s.kuula.id, "name": "Kuula"}
    item = db.scalar(select(ApprovalItem).where(ApprovalItem.kind == ApprovalKind.new_virtual_tour))
    assert item is not None and item.status == ApprovalStatus.pending
    assert tour["guid"] not in grid_guids(client)
    hidden = client.get(f"/v2/virtualtours/{tour['guid']}")
    assert hidden.status_code == 404 and hidden.json()["message"] == NOT_FOUND_TEXT
    assert client.get(f"/v2/virtualtours/{tour['guid']}", headers=s.headers(s.user)).status_code == 200
    assert client.get(f"/v2/virtualtours/{tour['guid']}", headers=s.headers(s.admin)).status_code == 200


def test_a_tour_added_and_approved_shows_in_the_feed(client: TestClient, db: Session, s: Setup) -> None:
    guid = add(client, s, s.user)["data"]["guid"]
    approve = client.put(f"/v2/virtualtours/{guid}", json={"guid": guid, "task": "approve"}, headers=s.headers(s.admin))
    assert approve.status_code == 200 and approve.json()["data"]["approval_state"] == "approved"
    assert guid in grid_guids(client)
    public = client.get(f"/v2/virtualtours/{guid}").json()
    assert public["is_owned"] is False and public["title"] == "Sunrise over the rose garden"
    item = db.scalar(select(ApprovalItem).where(ApprovalItem.kind == ApprovalKind.new_virtual_tour))
    assert item is not None and item.status == ApprovalStatus.approved


def test_trusted_creators_skip_approval_and_their_vt_count_follows(client: TestClient, db: Session, s: Setup) -> None:
    answer = add(client, s, s.trusted_user)
    assert answer["pending"] is False and answer["data"]["approval_state"] == "approved"
    assert answer["data"]["creator_id"] == s.trusted_creator.id
    assert answer["data"]["guid"] in grid_guids(client)
    db.expire_all()
    assert db.get(Creator, s.trusted_creator.id).vt_count == 1  # type: ignore[union-attr]
    untrusted = add(client, s, s.creator_user, link="https://kuula.co/share/Zz999")
    assert untrusted["pending"] is True
    db.expire_all()
    assert db.get(Creator, s.creator.id).vt_count == 0  # type: ignore[union-attr]


def test_admins_tours_are_approved_and_approve_needed_changes_nothing(client: TestClient, s: Setup) -> None:
    assert add(client, s, s.admin, approve_needed=True)["pending"] is False
    assert add(client, s, s.user, link="https://kuula.co/share/Qq111", approve_needed=False)["pending"] is True


def test_the_address_text_is_resolved_to_coordinates_and_parts(client: TestClient, s: Setup) -> None:
    tour = add(client, s, s.trusted_user, coordinate=None, address_str="Paris, France")["data"]
    lat, lng = tour["coordinates"]
    assert abs(lat - 48.85) < 0.1 and abs(lng - 2.35) < 0.1
    assert tour["address"]["city"] == "Paris" and tour["address"]["country"] == "FR"
    assert tour["address_str"] == "Paris, France" and tour["address_id"].startswith("place.")


def test_an_address_id_from_the_location_search_is_resolved(client: TestClient, s: Setup) -> None:
    place = client.get("/v2/locations/search-locations", params={"search_text": "Berlin"}).json()
    place_id = place["data"][0]["id"]
    tour = add(client, s, s.trusted_user, coordinate=None, address_id=place_id)["data"]
    assert tour["address_id"] == place_id and tour["address"]["country"] == "DE"


def test_an_address_that_cannot_be_located_is_404_so_the_pin_picker_opens(
    client: TestClient, db: Session, s: Setup
) -> None:
    for location in ({"address_str": "Qwzxqwzx Nowhere"}, {"address_id": "place.999999999"}):
        response = client.post(
            "/v2/virtualtours/", json=s.payload(coordinate=None, **location), headers=s.headers(s.user)
        )
        assert response.status_code == 404, response.text
        assert response.json()["message"] == "Address not found"
    assert db.scalar(select(Tour)) is None


def test_the_pin_wins_over_the_address_text(client: TestClient, s: Setup) -> None:
    tour = add(client, s, s.trusted_user, address_str="Berlin", coordinate="35.68,139.65")["data"]
    assert tour["coordinates"] == [35.68, 139.65] and tour["address"]["country"] == "JP"
    assert tour["address_str"] == "Berlin"  # the user's own words stay; the point is the pin's


def test_the_address_is_required_only_with_a_physical_address(client: TestClient, s: Setup) -> None:
    response = client.post("/v2/virtualtours/", json=s.payload(coordinate=None), headers=s.headers(s.user))
    assert response.status_code == 400 and response.json()["fields"] == {"address_str": "Adrress is required"}
    tour = add(client, s, s.user, coordinate=None, physical_address=False)["data"]
    assert tour["coordinates"] is None


@pytest.mark.parametrize("coordinate", ["48.8", "x,y", "91,0", "0,181", "nan,1"])
def test_a_malformed_pin_is_a_400(client: TestClient, s: Setup, coordinate: str) -> None:
    response = client.post("/v2/virtualtours/", json=s.payload(coordinate=coordinate), headers=s.headers(s.user))
    assert response.status_code == 400 and "coordinate" in response.json()["fields"]


def test_a_link_that_exists_answers_208_under_any_spelling(client: TestClient, db: Session, s: Setup) -> None:
    add(client, s, s.user)
    again = client.post(
        "/v2/virtualtours/",
        json=s.payload(link="http://www.kuula.co/share/Ab123/", title="Another title"),
        headers=s.headers(s.creator_user),
    )
    assert again.status_code == 208
    assert again.json()["message"] == "Link already exists" and again.json()["data"] is None
    assert again.json()["fields"] == {"link": "Link is not unique"}
    assert len(db.scalars(select(Tour)).all()) == 1


# ------------------------------------------------------------------------------ the §5 rules


def _tags(s: Setup, count: int) -> list[dict[str, int]]:
    return [{"id": tag.id} for tag in s.tags[:count]]


RULE_CASES: list[tuple[str, Any, str, str]] = [
    ("link", None, "link", rules.LINK_REQUIRED),
    ("link", "   ", "link", rules.LINK_REQUIRED),
    ("link", "https://kuula.co/tour/Ab123", "link", rules.LINK_FORMAT),
    ("link", "https://sketchfab.com/3d-models/x", "link", rules.LINK_FORMAT),
    ("title", None, "title", rules.TITLE_REQUIRED),
    ("title", "This shit is great", "title", rules.INVALID_TITLE),
    ("description", "What a shit view", "description", rules.INVALID_DESCRIPTION),
    ("description", "a" * 4001, "description", rules.DESCRIPTION_TOO_LONG),
    ("media_type_id", None, "media_type_id", rules.MEDIA_TYPE_REQUIRED),
    ("media_type_id", 999_999, "media_type_id", rules.UNKNOWN_MEDIA_TYPE),
    ("category_id", None, "category_id", rules.CATEGORY_REQUIRED),
    ("category_id", 999_999, "category_id", rules.UNKNOWN_CATEGORY),
    ("vendor", None, "vendor", rules.HOST_REQUIRED),
    ("vendor", 999_999, "vendor", rules.UNKNOWN_HOST),
    ("camera_id", 999_999, "camera_id", rules.UNKNOWN_CAMERA),
    ("vt_website", "http://example.com/tour", "vt_website", rules.WEBSITE_HTTPS),
    ("vt_website", "example.com", "vt_website", rules.WEBSITE_HTTPS),
    ("creator_website", "https://studio.example", "third_party_creator", rules.CM_FIELDS_ONLY),
    ("third_party_creator", "Studio North", "third_party_creator", rules.CM_FIELDS_ONLY),
    ("preview_picture", "ftp://example.com/a.jpg", "preview_picture", rules.IMAGE_LINK),
    ("preview_picture", "/uploads/previews/" + "a" * 32 + "-card.jpg", "preview_picture", rules.IMAGE_NOT_FOUND),
    ("tags", [{"id": 999_999}], "tags", rules.UNKNOWN_TAGS),
]


@pytest.mark.parametrize(("key", "value", "field", "message"), RULE_CASES)
def test_media_form_rules(
    client: TestClient, db: Session, s: Setup, key: str, value: Any, field: str, message: str
) -> None:
    response = client.post("/v2/virtualtours/", json=s.payload(**{key: value}), headers=s.headers(s.user))
    assert response.status_code == 400, response.text
    assert response.json()["fields"][field] == message
    assert db.scalar(select(Tour)) is None


def test_at_most_ten_tags(client: TestClient, s: Setup) -> None:
    response = client.post("/v2/virtualtours/", json=s.payload(tags=_tags(s, 11)), headers=s.headers(s.user))
    assert response.status_code == 400 and response.json()["fields"]["tags"] == "At most 10 tags"
    assert len(add(client, s, s.user, tags=_tags(s, 10))["data"]["tags"]) == 10


def test_the_subcategory_must_belong_to_the_category(client: TestClient, s: Setup) -> None:
    foreign = s.museums.subcategories[0].id
    response = client.post("/v2/virtualtours/", json=s.payload(subcategory_id=foreign), headers=s.headers(s.user))
    assert response.status_code == 400 and response.json()["fields"]["subcategory_id"] == rules.SUBCATEGORY_MISMATCH
    assert add(client, s, s.user, subcategory_id=None)["data"]["subcategory_id"] is None


def test_a_host_that_demands_a_preview_image(client: TestClient, s: Setup) -> None:
    body = s.payload(vendor=s.cupix.id, link="https://cupix.works/sv/abc123")
    response = client.post("/v2/virtualtours/", json=body, headers=s.headers(s.user))
    assert response.status_code == 400 and response.json()["fields"]["preview_picture"] == "Image are required"
    with_image = {**body, "preview_picture": "https://cdn.cupix.works/preview/abc123.jpg"}
    assert client.post("/v2/virtualtours/", json=with_image, headers=s.headers(s.user)).status_code == 201


def test_every_failing_field_is_named_at_once(client: TestClient, s: Setup) -> None:
    body = s.payload(link="nope", title="", media_type_id=None, vt_website="http://x.example", coordinate=None)
    response = client.post("/v2/virtualtours/", json=body, headers=s.headers(s.user))
    assert response.status_code == 400
    fields = response.json()["fields"]
    assert fields == {
        "link": rules.LINK_FORMAT,
        "title": rules.TITLE_REQUIRED,
        "media_type_id": rules.MEDIA_TYPE_REQUIRED,
        "vt_website": rules.WEBSITE_HTTPS,
        "address_str": rules.ADDRESS_REQUIRED,
    }
    assert response.json()["message"] == rules.LINK_FORMAT


def test_a_custom_host_without_a_pattern_takes_links_of_its_website(client: TestClient, db: Session, s: Setup) -> None:
    custom = factories.vendor(db, "Studio Host", pattern="")
    custom.link_pattern, custom.website, custom.is_custom = None, "https://tours.studio.example", True
    custom.owner_user_id = s.user.id  # a custom host is its owner's (tests/api/test_vendors_hosts.py)
    db.commit()
    ok = s.payload(vendor=custom.id, link="https://tours.studio.example/t/42")
    assert client.post("/v2/virtualtours/", json=ok, headers=s.headers(s.user)).status_code == 201
    wrong = s.payload(vendor=custom.id, link="https://elsewhere.example/t/42")
    response = client.post("/v2/virtualtours/", json=wrong, headers=s.headers(s.user))
    assert response.status_code == 400 and response.json()["fields"]["link"] == rules.LINK_FORMAT


def test_new_category_mode_files_a_category_request(client: TestClient, db: Session, s: Setup) -> None:
    body = s.payload(newCategory={"category": "Parks", "subcategory": "Dog Parks"}, category_id=None)
    tour = add(client, s, s.user, **{key: body[key] for key in ("newCategory", "category_id")})["data"]
    assert tour["category_id"] == s.parks.id  # an existing name is that category
    item = db.scalar(select(ApprovalItem).where(ApprovalItem.kind == ApprovalKind.category_request))
    assert item is not None and item.payload == {
        "category": "Parks",
        "subcategory": "Dog Parks",
        "tour_guid": tour["guid"],
    }
    unknown = s.payload(newCategory={"category": "Lighthouses"}, category_id=None, link="https://kuula.co/share/Lh001")
    response = client.post("/v2/virtualtours/", json=unknown, headers=s.headers(s.user))
    assert response.status_code == 400 and response.json()["fields"]["category_id"] == rules.CATEGORY_REQUIRED
    blank = s.payload(newCategory={"category": " "}, link="https://kuula.co/share/Lh002")
    response = client.post("/v2/virtualtours/", json=blank, headers=s.headers(s.user))
    assert response.status_code == 400 and response.json()["fields"]["newCategory"] == rules.NEW_CATEGORY_WARNING


def test_save_as_draft(client: TestClient, s: Setup) -> None:
    tour = add(client, s, s.trusted_user, is_active=False)["data"]
    assert tour["status"] == "draft" and tour["approval_state"] == "approved"
    assert tour["guid"] not in grid_guids(client)


# ------------------------------------------------------------------------------ on behalf of


def test_a_content_manager_adds_for_a_third_party_creator(client: TestClient, db: Session, s: Setup) -> None:
    body = s.payload(
        platform_username=s.creator_user.platform_username.upper(),  # type: ignore[union-attr]
        third_party_creator="Studio North",
        creator_website="https://studio-north.example",
    )
    response = client.post("/v2/virtualtours/on-behalf-of", json=body, headers=s.headers(s.cm))
    assert response.status_code == 201, response.text
    tour = response.json()["data"]
    assert tour["userid"] == s.creator_user.id and tour["third_party_creator"] == "Studio North"
    assert tour["creator_website"] == "https://studio-north.example" and tour["is_owned"] is False
    row = db.scalar(select(Tour).where(Tour.guid == tour["guid"]))
    assert row is not None and row.created_by_user_id == s.cm.id and row.approval_state == ApprovalState.approved


def test_a_content_manager_manages_the_tours_they_added(client: TestClient, db: Session, s: Setup) -> None:
    body = s.payload(platform_username=s.user.platform_username)
    guid = client.post("/v2/virtualtours/on-behalf-of", json=body, headers=s.headers(s.cm)).json()["data"]["guid"]
    renamed = client.put(
        "/v2/virtualtours/", json={**s.payload(title="Renamed by the CM"), "guid": guid}, headers=s.headers(s.cm)
    )
    assert renamed.status_code == 201 and renamed.json()["data"]["title"] == "Renamed by the CM"
    other_cm = factories.user(db, roles=["CM"])
    db.commit()
    assert client.delete(f"/v2/virtualtours/{guid}", headers=s.headers(other_cm)).status_code == 403
    assert client.delete(f"/v2/virtualtours/{guid}", headers=s.headers(s.cm)).status_code == 200


def test_on_behalf_of_needs_a_user(client: TestClient, s: Setup) -> None:
    response = client.post("/v2/virtualtours/on-behalf-of", json=s.payload(), headers=s.headers(s.admin))
    assert response.status_code == 400 and response.json()["fields"] == {"platform_username": "select user"}
    unknown = client.post(
        "/v2/virtualtours/on-behalf-of", json=s.payload(platform_username="nobody.here"), headers=s.headers(s.admin)
    )
    assert unknown.status_code == 400 and unknown.json()["fields"] == {"platform_username": "select user"}
    by_id = client.post("/v2/virtualtours/on-behalf-of", json=s.payload(userid=s.user.id), headers=s.headers(s.admin))
    assert by_id.status_code == 201 and by_id.json()["data"]["userid"] == s.user.id


def test_only_staff_name_another_owner(client: TestClient, s: Setup) -> None:
    response = client.post("/v2/virtualtours/", json=s.payload(userid=s.admin.id), headers=s.headers(s.user))
    assert response.status_code == 403
    assert add(client, s, s.admin, userid=s.user.id)["data"]["userid"] == s.user.id


def test_a_drafted_account_gets_no_tours(client: TestClient, db: Session, s: Setup) -> None:
    s.user.is_active = False
    db.commit()
    response = client.post("/v2/virtualtours/", json=s.payload(userid=s.user.id), headers=s.headers(s.admin))
    assert response.status_code == 400 and response.json()["message"] == "This account is not active"


# ------------------------------------------------------------------------------ editing


def _edit(client: TestClient, s: Setup, person: User, guid: str, **overrides: Any) -> Any:
    return client.put("/v2/virtualtours/", json={**s.payload(**overrides), "guid": guid}, headers=s.headers(person))


def test_an_approved_tour_keeps_its_published_version_until_the_edit_is_approved(
    client: TestClient, db: Session, s: Setup
) -> None:
    guid = add(client, s, s.user)["data"]["guid"]
    client.put(f"/v2/virtualtours/{guid}", json={"task": "approve"}, headers=s.headers(s.admin))
    response = _edit(client, s, s.user, guid, title="Roses at dawn", tags=[{"id": s.tags[2].id}])
    assert response.status_code == 200, response.text
    assert response.json()["pending"] is True and response.json()["data"]["edit_pending"] is True
    assert response.json()["data"]["title"] == "Sunrise over the rose garden"
    db.expire_all()
    assert db.get(User, s.user.id).tour_edit_pending is True  # type: ignore[union-attr]
    assert client.get(f"/v2/virtualtours/{guid}").json()["title"] == "Sunrise over the rose garden"

    items = client.get("/v2/virtualtours/approval-items", headers=s.headers(s.admin)).json()["data"]
    edit = next(item for item in items if item["kind"] == "vt_edit")
    assert edit["changes"] == {"title": "Roses at dawn", "tag_ids": [s.tags[2].id]}
    assert edit["current"] == {"title": "Sunrise over the rose garden", "tag_ids": [s.tags[0].id, s.tags[1].id]}
    decided = client.put(
        "/v2/virtualtours/approval-items", json={"ids": [edit["id"]], "action": "approve"}, headers=s.headers(s.admin)
    )
    assert decided.status_code == 200 and decided.json()["ids"] == [edit["id"]]
    tour = client.get(f"/v2/virtualtours/{guid}").json()
    assert tour["title"] == "Roses at dawn" and [tag["id"] for tag in tour["tags"]] == [s.tags[2].id]
    assert tour["edit_pending"] is False
    db.expire_all()
    assert db.get(User, s.user.id).tour_edit_pending is False  # type: ignore[union-attr]
    cards = client.get("/v2/user-recomendations/filtered-grid", params={"mode": "media"}).json()["data"]
    assert [card["title"] for card in cards if card["type"] == "vt"] == ["Roses at dawn"]


def test_a_rejected_edit_leaves_the_tour_as_it_was(client: TestClient, s: Setup) -> None:
    guid = add(client, s, s.user)["data"]["guid"]
    client.put(f"/v2/virtualtours/{guid}", json={"task": "approve"}, headers=s.headers(s.admin))
    _edit(client, s, s.user, guid, title="A newer title")
    second = _edit(client, s, s.user, guid, title="The newest title")  # replaces the waiting proposal
    assert second.status_code == 200
    items = client.get("/v2/virtualtours/approval-items", headers=s.headers(s.admin)).json()["data"]
    assert [item["changes"] for item in items] == [{"title": "The newest title"}]
    rejected = client.put(
        "/v2/virtualtours/approval-items",
        json={"ids": [items[0]["id"]], "action": "reject", "review_note": "Keep it short"},
        headers=s.headers(s.admin),
    )
    assert rejected.status_code == 200
    assert client.get(f"/v2/virtualtours/{guid}").json()["title"] == "Sunrise over the rose garden"
    again = client.put(
        "/v2/virtualtours/approval-items",
        json={"ids": [items[0]["id"]], "action": "approve"},
        headers=s.headers(s.admin),
    )
    assert again.status_code == 200 and again.json()["ids"] == []  # decided already


def test_pending_and_trusted_edits_apply_at_once(client: TestClient, s: Setup) -> None:
    pending_guid = add(client, s, s.user)["data"]["guid"]
    response = _edit(client, s, s.user, pending_guid, title="Still waiting, renamed")
    assert response.status_code == 201 and response.json()["data"]["title"] == "Still waiting, renamed"
    assert response.json()["pending"] is True
    trusted_guid = add(client, s, s.trusted_user, link="https://kuula.co/share/Tr001")["data"]["guid"]
    response = _edit(
        client, s, s.trusted_user, trusted_guid, title="Trusted rename", link="https://kuula.co/share/Tr001"
    )
    assert response.status_code == 201 and response.json()["message"] == "Your virtual tour has been updated"
    assert "Trusted rename" in [
        card["title"]
        for card in client.get("/v2/user-recomendations/filtered-grid", params={"mode": "media"}).json()["data"]
    ]


def test_an_edited_rejected_tour_goes_back_to_moderation(client: TestClient, db: Session, s: Setup) -> None:
    guid = add(client, s, s.user)["data"]["guid"]
    item = db.scalar(select(ApprovalItem).where(ApprovalItem.kind == ApprovalKind.new_virtual_tour))
    assert item is not None
    client.put(
        "/v2/virtualtours/approval-items", json={"ids": [item.id], "action": "reject"}, headers=s.headers(s.admin)
    )
    assert client.get(f"/v2/virtualtours/{guid}", headers=s.headers(s.user)).json()["approval_state"] == "rejected"
    response = _edit(client, s, s.user, guid, title="Better title")
    assert response.status_code == 201 and response.json()["data"]["approval_state"] == "pending"
    pending = client.get("/v2/virtualtours/pending", headers=s.headers(s.admin)).json()
    assert [tour["guid"] for tour in pending["data"]] == [guid]


def test_the_host_cannot_change_and_the_location_stays(client: TestClient, s: Setup) -> None:
    guid = add(client, s, s.trusted_user)["data"]["guid"]
    response = _edit(client, s, s.trusted_user, guid, vendor=s.cupix.id)
    assert response.status_code == 400 and response.json()["fields"]["vendor"] == rules.HOST_FIXED
    moved = _edit(client, s, s.trusted_user, guid, coordinate="35.68,139.65", vendor=None)
    assert moved.status_code == 201 and moved.json()["data"]["coordinates"] == [48.8584, 2.2945]


def test_an_edit_may_not_take_another_tours_link(client: TestClient, s: Setup) -> None:
    add(client, s, s.trusted_user, link="https://kuula.co/share/Aa001")
    guid = add(client, s, s.trusted_user, link="https://kuula.co/share/Bb002")["data"]["guid"]
    response = _edit(client, s, s.trusted_user, guid, link="https://www.kuula.co/share/Aa001")
    assert response.status_code == 409 and response.json()["fields"] == {"link": "Link is not unique"}
    same = _edit(client, s, s.trusted_user, guid, link="https://kuula.co/share/Bb002/")
    assert same.status_code == 201


def test_only_the_owner_or_an_admin_edits(client: TestClient, s: Setup) -> None:
    guid = add(client, s, s.user)["data"]["guid"]
    assert _edit(client, s, s.creator_user, guid).status_code == 403
    assert _edit(client, s, s.admin, guid, title="Fixed by an admin").status_code == 201
    missing = _edit(client, s, s.user, "f" * 32)
    assert missing.status_code == 404 and missing.json()["message"] == NOT_FOUND_TEXT


# ------------------------------------------------------------------------------ reading


def test_media_read_has_the_spec_fields(client: TestClient, s: Setup) -> None:
    guid = add(client, s, s.trusted_user, vt_website="https://garden.example/visit", is_ai_generated=True)["data"][
        "guid"
    ]
    tour = client.get(f"/v2/virtualtours/{guid}").json()
    missing = [name for name in MEDIA_READ_FIELDS if name not in tour]
    assert missing == []
    assert set(tour["address"]) == {"street", "city", "province", "zip", "country"}
    assert tour["vt_website"] == "https://garden.example/visit" and tour["is_ai_generated"] is True
    assert tour["views"] == tour["likes"] == tour["shared"] == tour["saves"] == 0


def test_a_drafted_owners_tours_are_not_found(client: TestClient, db: Session, s: Setup) -> None:
    guid = add(client, s, s.trusted_user)["data"]["guid"]
    db.get(User, s.trusted_user.id).user_active = False  # type: ignore[union-attr]
    db.commit()
    assert client.get(f"/v2/virtualtours/{guid}").status_code == 404
