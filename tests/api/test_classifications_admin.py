"""Spec §7 Categories, the administrators' calls (issue 14 part 3): categories, subcategories, media
types, capture devices and tags with their names in English and Russian, the rules (unique names in
each language, no orphan subcategories, nothing in use deactivated), icons, translations, category
requests, tag embeddings, gui_version."""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest
from fastapi.testclient import TestClient
from PIL import Image
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.classifications.models import Category, EmbeddingJobStatus, Subcategory, Tag, TagEmbeddingJob
from app.core.outbox import OutboxEntry
from app.core.settings import get_settings
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.notifications.models import OutgoingMail
from app.tours.models import Tour
from app.users.models import User
from tests import factories

BASE = "/v2/categories"
RU = {"Accept-Language": "ru"}


@dataclass
class World:
    user: User
    admin: dict[str, str]
    member: dict[str, str]
    catalog: factories.Catalog


@pytest.fixture
def world(db: Session) -> World:
    user, admin = factories.user(db), factories.user(db, admin=True)
    catalog = factories.catalog(db)
    db.commit()
    return World(user=user, admin=factories.bearer(admin), member=factories.bearer(user), catalog=catalog)


def _ok(response: object, status: int = 200) -> dict:  # type: ignore[type-arg]
    assert response.status_code == status, response.text  # type: ignore[attr-defined]
    return response.json()  # type: ignore[attr-defined,no-any-return]


def _png(size: tuple[int, int] = (400, 300)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGBA", size, (200, 30, 30, 255)).save(buffer, format="PNG")
    return buffer.getvalue()


# ------------------------------------------------------------------------------ categories


def test_categories_are_created_with_names_in_each_language_and_read_in_the_callers(
    client: TestClient, world: World
) -> None:
    created = _ok(
        client.post(f"{BASE}/", json={"name": "  Zoos ", "translations": {"ru": "Зоопарки"}}, headers=world.admin), 201
    )["data"]
    assert created["name"] == "Zoos" and created["translations"] == {"ru": "Зоопарки"} and created["tours"] == 0
    english = {row["id"]: row["name"] for row in _ok(client.get(f"{BASE}/"))["data"]}
    russian = {row["id"]: row["name"] for row in _ok(client.get(f"{BASE}/", headers=RU))["data"]}
    assert english[created["id"]] == "Zoos" and russian[created["id"]] == "Зоопарки"
    # A category without a Russian name reads in English for everybody.
    assert russian[world.catalog.category.id] == "Museums"


def test_category_names_are_unique_in_each_language(client: TestClient, world: World) -> None:
    _ok(client.post(f"{BASE}/", json={"name": "Zoos", "translations": {"ru": "Зоопарки"}}, headers=world.admin), 201)
    same_en = client.post(f"{BASE}/", json={"name": "museums"}, headers=world.admin)
    assert same_en.status_code == 409 and same_en.json()["fields"] == {
        "name": "A category named “museums” already exists"
    }
    same_ru = client.post(
        f"{BASE}/", json={"name": "Aquariums", "translations": {"ru": "зоопарки"}}, headers=world.admin
    )
    assert same_ru.status_code == 409 and "translations.ru" in same_ru.json()["fields"]
    # Nothing of a refused request stays.
    assert "Aquariums" not in {row["name"] for row in _ok(client.get(f"{BASE}/"))["data"]}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "   "}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"name": "Bad\nname"}, "name"),
        ({"name": "Ok", "translations": {"de": "Gut"}}, "translations.de"),
        ({"name": "Ok", "translations": {"en": "Ok"}}, "translations.en"),
        ({"name": "Ok", "image_search": "../../etc/passwd"}, "image_search"),
        ({"name": "Ok", "source_image_search": "cloud", "image_search": "https://evil.example/x.png"}, "image_search"),
        ({"name": "Ok", "position": 2**40}, "position"),
    ],
)
def test_bad_category_input_is_a_400_naming_the_field(
    client: TestClient, world: World, body: dict[str, object], field: str
) -> None:
    response = client.post(f"{BASE}/", json=body, headers=world.admin)
    assert response.status_code == 400, response.text
    assert field in response.json()["fields"] and response.json()["message"]


def test_only_admins_write_classifications(client: TestClient, world: World) -> None:
    cat = world.catalog.category.id
    for method, path, body in [
        ("POST", f"{BASE}/", {"name": "Zoos"}),
        ("PUT", f"{BASE}/", {"id": cat, "name": "Zoos"}),
        ("POST", f"{BASE}/subcategories", {"category_id": cat, "name": "Lions"}),
        ("POST", f"{BASE}/admin-media-types", {"name": "Hologram"}),
        ("POST", f"{BASE}/admin-capture-devices", {"camera_name": "Cam"}),
        ("POST", f"{BASE}/admin-tags", {"name": "Lion", "topic_id": cat}),
        (
            "POST",
            "/v2/languages/language-translations",
            {"kind": "category", "id": cat, "language": "ru", "name": "Музеи"},
        ),
    ]:
        assert client.request(method, path, json=body, headers=world.member).status_code == 403, path
        assert client.request(method, path, json=body).status_code == 401, path
    assert client.get(f"{BASE}/admin-categories", headers=world.member).status_code == 403


def test_a_category_in_use_cannot_be_deactivated(client: TestClient, db: Session, world: World) -> None:
    museums = world.catalog.category
    world.catalog.tour(db, world.user)
    db.commit()
    refused = client.put(f"{BASE}/", json={"id": museums.id, "is_active": False}, headers=world.admin)
    assert refused.status_code == 409
    assert refused.json()["message"].startswith("Category “Museums” is in use (used by 1 tour)")
    assert refused.json()["fields"]["is_active"] == refused.json()["message"]
    # Renaming and re-ordering a used category are fine.
    renamed = _ok(
        client.put(f"{BASE}/", json={"id": museums.id, "name": "Museums & Art", "position": 7}, headers=world.admin)
    )
    assert renamed["data"]["name"] == "Museums & Art" and renamed["data"]["tours"] == 1
    unused = _ok(client.post(f"{BASE}/", json={"name": "Zoos"}, headers=world.admin), 201)["data"]
    _ok(client.put(f"{BASE}/", json={"id": unused["id"], "is_active": False}, headers=world.admin))
    assert unused["id"] not in {row["id"] for row in _ok(client.get(f"{BASE}/"))["data"]}
    listed = _ok(client.get(f"{BASE}/admin-categories", params={"is_active": False}, headers=world.admin))
    assert [row["id"] for row in listed["data"]] == [unused["id"]] and listed["total_items"] == 1
    assert client.put(f"{BASE}/", json={"id": 987654, "name": "X"}, headers=world.admin).status_code == 404


def test_a_category_with_active_subcategories_cannot_be_deactivated(client: TestClient, world: World) -> None:
    zoo = _ok(client.post(f"{BASE}/", json={"name": "Zoos"}, headers=world.admin), 201)["data"]
    lions = _ok(
        client.post(f"{BASE}/subcategories", json={"category_id": zoo["id"], "name": "Lions"}, headers=world.admin), 201
    )
    refused = client.put(f"{BASE}/", json={"id": zoo["id"], "is_active": False}, headers=world.admin)
    assert refused.status_code == 409 and "1 active subcategory" in refused.json()["message"]
    _ok(client.put(f"{BASE}/subcategories", json={"id": lions["data"]["id"], "is_active": False}, headers=world.admin))
    _ok(client.put(f"{BASE}/", json={"id": zoo["id"], "is_active": False}, headers=world.admin))


# ------------------------------------------------------------------------------ subcategories


def test_subcategories_need_an_existing_active_category(client: TestClient, db: Session, world: World) -> None:
    missing = client.post(f"{BASE}/subcategories", json={"category_id": 987654, "name": "Orphan"}, headers=world.admin)
    assert missing.status_code == 400 and missing.json()["fields"] == {"category_id": "Category not found"}
    zoo = _ok(client.post(f"{BASE}/", json={"name": "Zoos", "is_active": False}, headers=world.admin), 201)["data"]
    inactive = client.post(
        f"{BASE}/admin-subcategories", json={"category_id": zoo["id"], "name": "Lions"}, headers=world.admin
    )
    assert inactive.status_code == 400 and "category_id" in inactive.json()["fields"]
    assert db.scalar(select(Subcategory).where(Subcategory.name == "Orphan")) is None


def test_subcategory_names_are_unique_within_their_category(client: TestClient, world: World) -> None:
    museums = world.catalog.category.id
    zoo = _ok(client.post(f"{BASE}/", json={"name": "Zoos"}, headers=world.admin), 201)["data"]["id"]
    first = _ok(
        client.post(
            f"{BASE}/subcategories",
            json={"category_id": museums, "name": "Modern", "translations": {"ru": "Современные"}},
            headers=world.admin,
        ),
        201,
    )["data"]
    assert (
        client.post(
            f"{BASE}/subcategories", json={"category_id": museums, "name": "MODERN"}, headers=world.admin
        ).status_code
        == 409
    )
    clash_ru = client.post(
        f"{BASE}/admin-subcategories",
        json={"category_id": museums, "name": "Contemporary", "translations": {"ru": "современные"}},
        headers=world.admin,
    )
    assert clash_ru.status_code == 409
    # The same names in another category are another scope.
    other = _ok(
        client.post(
            f"{BASE}/subcategories",
            json={"category_id": zoo, "name": "Modern", "translations": {"ru": "Современные"}},
            headers=world.admin,
        ),
        201,
    )["data"]
    # Moving it next to its namesake clashes; so does its Russian name.
    assert (
        client.put(
            f"{BASE}/subcategories", json={"id": other["id"], "category_id": museums}, headers=world.admin
        ).status_code
        == 409
    )
    listed = _ok(client.get(f"{BASE}/subcategories", params={"category_id": museums}, headers=RU))["data"]
    assert [(row["id"], row["name"]) for row in listed] == [(first["id"], "Современные")]
    page = _ok(client.get(f"{BASE}/admin-subcategories", params={"category_id": zoo}, headers=world.admin))
    assert page["total_items"] == 1 and page["data"][0]["translations"] == {"ru": "Современные"}


def test_a_subcategory_in_use_cannot_be_deactivated_or_moved(client: TestClient, db: Session, world: World) -> None:
    museums = world.catalog.category
    sub = Subcategory(name="Modern", category_id=museums.id)
    db.add(sub)
    db.flush()
    world.catalog.tour(db, world.user, subcategory_id=sub.id)
    db.commit()
    zoo = _ok(client.post(f"{BASE}/", json={"name": "Zoos"}, headers=world.admin), 201)["data"]["id"]
    assert (
        client.put(
            f"{BASE}/admin-subcategories", json={"id": sub.id, "is_active": False}, headers=world.admin
        ).status_code
        == 409
    )
    assert (
        client.put(f"{BASE}/subcategories", json={"id": sub.id, "category_id": zoo}, headers=world.admin).status_code
        == 409
    )


# ------------------------------------------------------------------------------ media types, capture devices


def test_media_types_and_capture_devices(client: TestClient, db: Session, world: World) -> None:
    media = _ok(
        client.post(
            f"{BASE}/admin-media-types",
            json={"name": "Hologram", "translations": {"ru": "Голограмма"}},
            headers=world.admin,
        ),
        201,
    )["data"]
    assert client.post(f"{BASE}/admin-media-types", json={"name": "360 PHOTO"}, headers=world.admin).status_code == 409
    device = _ok(
        client.post(f"{BASE}/admin-capture-devices", json={"camera_name": "Insta360 X4"}, headers=world.admin), 201
    )["data"]
    assert (
        client.post(
            f"{BASE}/admin-capture-devices", json={"camera_name": "insta360 x4"}, headers=world.admin
        ).status_code
        == 409
    )
    bad = client.post(f"{BASE}/admin-capture-devices", json={"camera_name": ""}, headers=world.admin)
    assert bad.status_code == 400 and "camera_name" in bad.json()["fields"]
    world.catalog.tour(db, world.user, camera_id=device["camera_id"])
    db.commit()
    used_type = client.put(
        f"{BASE}/admin-media-types", json={"id": world.catalog.media_type.id, "is_active": False}, headers=world.admin
    )
    assert used_type.status_code == 409 and "Media type “360 photo”" in used_type.json()["message"]
    used_device = client.put(
        f"{BASE}/admin-capture-devices",
        json={"camera_id": device["camera_id"], "is_active": False},
        headers=world.admin,
    )
    assert used_device.status_code == 409
    _ok(client.put(f"{BASE}/admin-media-types", json={"id": media["id"], "is_active": False}, headers=world.admin))
    names_ru = {row["id"]: row["name"] for row in _ok(client.get(f"{BASE}/media-types", headers=RU))["data"]}
    assert media["id"] not in names_ru  # deactivated: no longer offered
    _ok(client.put(f"{BASE}/admin-media-types", json={"id": media["id"], "is_active": True}, headers=world.admin))
    names_ru = {row["id"]: row["name"] for row in _ok(client.get(f"{BASE}/media-types", headers=RU))["data"]}
    assert names_ru[media["id"]] == "Голограмма"
    devices = _ok(client.get(f"{BASE}/admin-capture-devices", params={"search": "insta"}, headers=world.admin))
    assert devices["total_items"] == 1 and devices["data"][0]["tours"] == 1
    types = _ok(client.get(f"{BASE}/admin-media-types", headers=world.admin))
    assert {row["name"]: row["tours"] for row in types["data"]} == {"360 photo": 1, "Hologram": 0}
    assert [row["camera_name"] for row in _ok(client.get(f"{BASE}/capture-devices"))["data"]] == ["Insta360 X4"]


# ------------------------------------------------------------------------------ tags


def test_tags_unique_per_topic_embedded_by_the_worker_and_indexed(
    client: TestClient, db: Session, world: World
) -> None:
    museums = world.catalog.category.id
    tag = _ok(
        client.post(
            f"{BASE}/admin-tags",
            json={
                "name": "Sculpture",
                "description": "Statues",
                "topic_id": museums,
                "translations": {"ru": "Скульптура"},
            },
            headers=world.admin,
        ),
        201,
    )["data"]
    assert tag["topic_type"] == "category" and tag["embedded"] is False and tag["uses"] == 0
    assert (
        client.post(
            f"{BASE}/admin-tags", json={"name": "sculpture", "topic_id": museums}, headers=world.admin
        ).status_code
        == 409
    )
    no_topic = client.post(f"{BASE}/admin-tags", json={"name": "X", "topic_id": 987654}, headers=world.admin)
    assert no_topic.status_code == 400 and "topic_id" in no_topic.json()["fields"]
    # The same name under a media type is another scope.
    _ok(
        client.post(
            f"{BASE}/admin-tags",
            json={"name": "Sculpture", "topic_type": "media_type", "topic_id": world.catalog.media_type.id},
            headers=world.admin,
        ),
        201,
    )
    found = _ok(client.get(f"{BASE}/tags", params={"search": "скульп"}, headers=RU))["data"]
    assert [(row["id"], row["name"]) for row in found] == [(tag["id"], "Скульптура")]

    row = db.get(Tag, tag["id"])
    assert row is not None
    tour = world.catalog.tour(db, world.user, tags=(row,))
    row.embedding = b"\1" * 16
    db.commit()
    renamed = _ok(client.put(f"{BASE}/admin-tags", json={"id": tag["id"], "name": "Sculptures"}, headers=world.admin))
    assert renamed["data"]["embedded"] is False and renamed["data"]["uses"] == 1  # the vector is stale now
    entries = {(entry.topic, entry.aggregate_id) for entry in db.scalars(select(OutboxEntry))}
    assert ("index.tag", str(tag["id"])) in entries and ("index.tour", str(tour.id)) in entries
    refused = client.put(f"{BASE}/admin-tags", json={"id": tag["id"], "is_active": False}, headers=world.admin)
    assert refused.status_code == 409 and "used by 1 tour" in refused.json()["message"]
    page = _ok(
        client.get(f"{BASE}/admin-tags", params={"topic_type": "category", "search": "sculp"}, headers=world.admin)
    )
    assert page["total_items"] == 1 and page["data"][0]["translations"] == {"ru": "Скульптура"}


def test_a_changed_tag_is_embedded_by_the_worker(
    client: TestClient, db: Session, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "embeddings_enabled", True)
    created = _ok(
        client.post(
            f"{BASE}/admin-tags",
            json={"name": "Stained Glass", "topic_id": world.catalog.category.id},
            headers=world.admin,
        ),
        201,
    )["data"]
    db.expire_all()
    # The task ran after the commit (tasks run eagerly in tests): the vector is there.
    stored = db.get(Tag, created["id"])
    assert stored is not None and stored.embedding is not None and len(stored.embedding) == 384 * 4
    job = _ok(client.post(f"{BASE}/admin-tag-embeddings", headers=world.admin), 202)["data"]
    progress = _ok(client.get(f"{BASE}/admin-tag-embeddings", headers=world.admin))["data"]
    assert progress["id"] == job["id"] and progress["status"] == "done" and progress["done"] == progress["total"] == 1
    assert db.scalar(select(TagEmbeddingJob.status)) == EmbeddingJobStatus.done


def test_tag_embeddings_need_embeddings_on(client: TestClient, world: World) -> None:
    assert get_settings().embeddings_enabled is False
    refused = client.post(f"{BASE}/admin-tag-embeddings", headers=world.admin)
    assert refused.status_code == 400 and "EMBEDDINGS_ENABLED" in refused.json()["message"]
    assert _ok(client.get(f"{BASE}/admin-tag-embeddings", headers=world.admin))["data"] is None


# ------------------------------------------------------------------------------ icons


def test_category_icons_are_sniffed_resized_and_served(client: TestClient, db: Session, world: World) -> None:
    upload = _ok(
        client.post(f"{BASE}/category-icon", files={"image": ("icon.txt", _png(), "text/plain")}, headers=world.admin),
        201,
    )
    name, path = upload["image"], upload["path"]
    assert path == f"/uploads/category-icons/{name}" and name.endswith(".png")
    stored = get_settings().uploads_dir / "category-icons" / name
    with Image.open(stored) as image:
        assert max(image.size) == 128 and image.mode == "RGBA"
    assert _ok(client.get(f"{BASE}/category-icon", params={"type": "cloud", "image": name}))["path"] == path
    assert client.get(path).status_code == 200
    assert client.get(f"{BASE}/category-icon", params={"image": "0" * 32 + ".png"}).status_code == 404
    assert client.get(f"{BASE}/category-icon", params={"type": "local", "image": "trees"}).status_code == 400
    # A text file called .png is refused by its content.
    fake = client.post(
        f"{BASE}/category-icon", files={"image": ("x.png", b"<svg onload=alert(1)>", "image/png")}, headers=world.admin
    )
    assert fake.status_code == 400 and fake.json()["fields"] == {"image": "Upload a JPG, PNG or WEBP image"}
    assert (
        client.post(
            f"{BASE}/category-icon", files={"image": ("i.png", _png(), "image/png")}, headers=world.member
        ).status_code
        == 403
    )

    category = world.catalog.category.id
    saved = _ok(
        client.put(
            f"{BASE}/", json={"id": category, "source_image_search": "cloud", "image_search": path}, headers=world.admin
        )
    )["data"]
    assert saved["image_search"] == name and saved["icon_path"] == path
    public = {row["id"]: row for row in _ok(client.get(f"{BASE}/"))["data"]}
    assert public[category]["source_image_search"] == "cloud" and public[category]["image_search"] == name
    local = _ok(
        client.put(
            f"{BASE}/",
            json={"id": category, "source_image_search": "local", "image_search": "trees"},
            headers=world.admin,
        )
    )["data"]
    assert local["icon_path"] is None and local["image_search"] == "trees"


# ------------------------------------------------------------------------------ translations


def test_language_translations_set_a_name_in_one_language(client: TestClient, world: World) -> None:
    url = "/v2/languages/language-translations"
    museums = world.catalog.category.id
    zoo = _ok(
        client.post(f"{BASE}/", json={"name": "Zoos", "translations": {"ru": "Зоопарки"}}, headers=world.admin), 201
    )["data"]
    saved = _ok(
        client.post(
            url, json={"kind": "category", "id": museums, "language": "ru", "name": "Музеи"}, headers=world.admin
        )
    )
    assert saved == {
        "message": "Saved",
        "kind": "category",
        "id": museums,
        "name": "Museums",
        "translations": {"ru": "Музеи"},
    }
    clash = client.post(
        url, json={"kind": "category", "id": museums, "language": "ru", "name": "ЗООПАРКИ"}, headers=world.admin
    )
    assert clash.status_code == 409
    renamed = _ok(
        client.post(
            url, json={"kind": "category", "id": museums, "language": "en", "name": "Galleries"}, headers=world.admin
        )
    )
    assert renamed["name"] == "Galleries"
    assert (
        client.post(
            url, json={"kind": "category", "id": zoo["id"], "language": "en", "name": "galleries"}, headers=world.admin
        ).status_code
        == 409
    )
    removed = _ok(
        client.post(url, json={"kind": "category", "id": museums, "language": "ru", "name": ""}, headers=world.admin)
    )
    assert removed["translations"] == {}
    bad = client.post(url, json={"kind": "category", "id": museums, "language": "xx", "name": "?"}, headers=world.admin)
    assert bad.status_code == 400 and "language" in bad.json()["fields"]
    gone = client.post(url, json={"kind": "tag", "id": 987654, "language": "ru", "name": "?"}, headers=world.admin)
    assert gone.status_code == 404
    device = _ok(
        client.post(f"{BASE}/admin-capture-devices", json={"camera_name": "Ricoh Theta"}, headers=world.admin), 201
    )["data"]
    ru_device = _ok(
        client.post(
            url,
            json={"kind": "capture_device", "id": device["camera_id"], "language": "ru", "name": "Рико Тета"},
            headers=world.admin,
        )
    )
    assert ru_device["name"] == "Ricoh Theta" and ru_device["translations"] == {"ru": "Рико Тета"}


# ------------------------------------------------------------------------------ category requests


def _request(db: Session, owner: User, tour: Tour, category: str, subcategory: str | None) -> ApprovalItem:
    item = ApprovalItem(
        kind=ApprovalKind.category_request,
        status=ApprovalStatus.pending,
        entity_type="tour",
        entity_id=tour.id,
        payload={"category": category, "subcategory": subcategory, "tour_guid": tour.guid},
        submitted_by_user_id=owner.id,
    )
    db.add(item)
    db.commit()
    return item


def test_an_approved_category_request_creates_the_category_and_moves_the_tour(
    client: TestClient, db: Session, world: World
) -> None:
    tour = world.catalog.tour(db, world.user)
    item = _request(db, world.user, tour, " Zoos ", "Big Cats")
    listed = _ok(client.get(f"{BASE}/approval-items", headers=world.admin))
    assert listed["total_items"] == 1 and listed["data"][0]["category"] == " Zoos "
    assert listed["data"][0]["existing_category_id"] is None and listed["data"][0]["tour_guid"] == tour.guid
    assert client.get(f"{BASE}/approval-items", headers=world.member).status_code == 403
    decided = _ok(
        client.put(
            f"{BASE}/approval-items",
            json={"id": item.id, "action": "approve", "review_note": "Welcome"},
            headers=world.admin,
        )
    )
    assert decided["message"] == "Approved" and decided["data"]["status"] == "approved"
    db.expire_all()
    zoo = db.scalar(select(Category).where(Category.name == "Zoos"))
    assert zoo is not None and zoo.is_active
    cats = db.scalar(select(Subcategory).where(Subcategory.category_id == zoo.id))
    assert cats is not None and cats.name == "Big Cats"
    moved = db.get(Tour, tour.id)
    assert moved is not None and (moved.category_id, moved.subcategory_id) == (zoo.id, cats.id)
    mail = db.scalar(select(OutgoingMail).where(OutgoingMail.to_address == world.user.email))
    assert mail is not None and "approved" in mail.subject and "Welcome" in mail.body_text
    again = client.put(f"{BASE}/approval-items", json={"id": item.id, "action": "reject"}, headers=world.admin)
    assert again.status_code == 409 and again.json()["message"] == "This item has already been approved"
    assert (
        client.put(f"{BASE}/approval-items", json={"id": 987654, "action": "approve"}, headers=world.admin).status_code
        == 404
    )


def test_a_request_for_an_existing_category_reuses_it_and_a_rejection_changes_nothing(
    client: TestClient, db: Session, world: World
) -> None:
    tour = world.catalog.tour(db, world.user)
    zoo = factories.category(db, "Zoos")
    db.commit()
    reuse = _request(db, world.user, tour, "zoos", None)
    listed = _ok(client.get(f"{BASE}/approval-items", headers=world.admin))["data"]
    assert listed[0]["existing_category_id"] == zoo.id
    _ok(client.put(f"{BASE}/approval-items", json={"id": reuse.id, "action": "approve"}, headers=world.admin))
    db.expire_all()
    assert db.scalar(select(Category).where(Category.name.ilike("zoos"))).id == zoo.id  # type: ignore[union-attr]
    assert db.get(Tour, tour.id).category_id == zoo.id  # type: ignore[union-attr]

    rejected = _request(db, world.user, tour, "Aquariums", "Sharks")
    answer = _ok(
        client.put(
            f"{BASE}/approval-items",
            json={"id": rejected.id, "action": "reject", "review_note": "Too narrow"},
            headers=world.admin,
        )
    )
    assert answer["data"]["status"] == "rejected" and answer["data"]["review_note"] == "Too narrow"
    db.expire_all()
    assert db.scalar(select(Category).where(Category.name == "Aquariums")) is None
    assert db.get(Tour, tour.id).category_id == zoo.id  # type: ignore[union-attr]
    history = _ok(client.get(f"{BASE}/approval-items", params={"status": "all"}, headers=world.admin))
    assert [row["status"] for row in history["data"]] == ["approved", "rejected"]


# ------------------------------------------------------------------------------ gui_version


def test_config_put_announces_a_gui_version(client: TestClient, world: World) -> None:
    saved = _ok(client.put("/v2/config/", json={"gui_version": "2.7.0"}, headers=world.admin))
    assert saved["gui_version"] == "2.7.0"
    assert _ok(client.get("/v2/config/app-version"))["gui_version"] == "2.7.0"
    for bad in ("", "   ", "2.7 beta", "x" * 33):
        response = client.put("/v2/config/", json={"gui_version": bad}, headers=world.admin)
        assert response.status_code == 400 and "gui_version" in response.json()["fields"], bad
    assert client.put("/v2/config/", json={"gui_version": "9.9.9"}, headers=world.member).status_code == 403
    assert _ok(client.get("/v2/config/app-version"))["gui_version"] == "2.7.0"
