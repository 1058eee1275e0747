"""POST /v2/categories/document-tags and admin-tag-embeddings on the demo dictionaries: with the real
sentence encoder (loaded once, offline) and with the keyword fallback of EMBEDDINGS_ENABLED=false."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.classifications.models import Category, Tag
from app.classifications.seed import load_dictionaries
from app.classifications.suggestions import EMBEDDINGS_OFF, MAX_SUGGESTED_TAGS, keywords
from app.core.settings import get_settings
from tests import factories

DOCUMENT_TAGS = "/v2/categories/document-tags"
EMBEDDINGS = "/v2/categories/admin-tag-embeddings"

LOUVRE = [
    "Louvre Museum: the Grande Galerie",
    "Walk through the galleries of the Louvre and see Italian paintings, ancient Egyptian antiquities "
    "and Greek sculptures in the museum's permanent collection.",
]
HOTEL = ["Grand Hotel lobby and suites", "A luxury hotel with a spa, an indoor pool and sea-view rooms."]


@pytest.fixture
def dictionaries(db: Session) -> dict[str, int]:
    load_dictionaries(db)
    db.commit()
    return {name: category_id for category_id, name in db.execute(select(Category.id, Category.name))}


@pytest.fixture
def people(db: Session) -> dict[str, dict[str, str]]:
    user, admin = factories.user(db), factories.user(db, admin=True)
    db.commit()
    return {"user": factories.bearer(user), "admin": factories.bearer(admin)}


@pytest.fixture
def embeddings_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(get_settings(), "embeddings_enabled", True)


def suggest(client: TestClient, headers: dict[str, str], documents: list[str]) -> tuple[list[str], int | None]:
    response = client.post(DOCUMENT_TAGS, json={"documents": documents}, headers=headers)
    assert response.status_code == 200, response.text
    body = response.json()
    assert len(body["tags"]) <= MAX_SUGGESTED_TAGS
    return [tag["name"] for tag in body["tags"]], body["category_id"]


def test_a_museum_text_gets_museum_tags_and_category_from_the_encoder(
    client: TestClient,
    db: Session,
    dictionaries: dict[str, int],
    people: dict[str, dict[str, str]],
    embeddings_on: None,
) -> None:
    assert db.scalar(select(func.count()).where(Tag.embedding.is_not(None))) == 0
    names, category_id = suggest(client, people["user"], LOUVRE)
    assert category_id == dictionaries["Museums & Galleries"]
    museum_tags = {"Art Exhibition", "Sculpture", "Ancient Artifacts", "Permanent Collection", "Modern Art"}
    assert museum_tags & set(names[:3]), names
    assert not {"Lobby", "Spa", "Football Stadium", "Hospital"} & set(names)
    # Tag embeddings were computed on the way and kept.
    db.expire_all()
    active = db.scalar(select(func.count()).select_from(Tag).where(Tag.is_active.is_(True)))
    assert db.scalar(select(func.count()).select_from(Tag).where(Tag.embedding.is_not(None))) == active

    hotel_names, hotel_category = suggest(client, people["user"], HOTEL)
    assert hotel_category == dictionaries["Hotels & Resorts"]
    assert {"Lobby", "Spa", "Hotel Room"} & set(hotel_names[:3]), hotel_names


def test_unrelated_text_gets_no_suggestion(
    client: TestClient, dictionaries: dict[str, int], people: dict[str, dict[str, str]], embeddings_on: None
) -> None:
    assert suggest(client, people["user"], ["qwxz vbnm", "zzkj plorf"]) == ([], None)
    assert suggest(client, people["user"], ["", "   "]) == ([], None)


def test_admin_recomputes_every_embedding(
    client: TestClient,
    db: Session,
    dictionaries: dict[str, int],
    people: dict[str, dict[str, str]],
    embeddings_on: None,
) -> None:
    assert client.post(EMBEDDINGS, headers=people["user"]).status_code == 403
    stale = db.scalars(select(Tag).where(Tag.name == "Cathedral")).one()
    stale.embedding = b"\0" * 16  # a vector of another size, e.g. from an older model
    db.commit()
    # A background job (run at once in tests); its progress is read back.
    response = client.post(EMBEDDINGS, headers=people["admin"])
    assert response.status_code == 202, response.text
    total_tags = db.scalar(select(func.count()).select_from(Tag))
    job = client.get(EMBEDDINGS, headers=people["admin"]).json()["data"]
    assert (job["status"], job["done"], job["total"]) == ("done", total_tags, total_tags)
    assert job["message"] == f"Embedded {total_tags} tags"
    db.expire_all()
    assert all(len(tag.embedding or b"") == 384 * 4 for tag in db.scalars(select(Tag)))
    names, category_id = suggest(client, people["user"], ["Cologne Cathedral", "The Gothic nave and its choir."])
    assert category_id == dictionaries["Religious Sites"] and "Cathedral" in names


def test_empty_dictionaries_suggest_nothing(
    client: TestClient, people: dict[str, dict[str, str]], embeddings_on: None
) -> None:
    assert suggest(client, people["user"], LOUVRE) == ([], None)
    response = client.post(EMBEDDINGS, headers=people["admin"])
    assert response.status_code == 202
    assert client.get(EMBEDDINGS, headers=people["admin"]).json()["data"]["done"] == 0


def test_the_keyword_fallback_is_plain_and_deterministic(
    client: TestClient, dictionaries: dict[str, int], people: dict[str, dict[str, str]]
) -> None:
    assert get_settings().embeddings_enabled is False  # as on the e2e server
    names, category_id = suggest(client, people["user"], LOUVRE)
    # 'museum' and 'galleries' name the category; 'Sculpture' and 'Permanent Collection' are its tags.
    assert category_id == dictionaries["Museums & Galleries"]
    assert names == ["Permanent Collection", "Sculpture"]
    assert suggest(client, people["user"], LOUVRE) == (names, category_id)
    cathedral = suggest(client, people["user"], ["Cathedral of Seville", "Gothic cathedral with stained glass."])
    assert cathedral == (["Stained Glass", "Cathedral", "Gothic"], dictionaries["Religious Sites"])
    assert suggest(client, people["user"], ["Something", "with no known word"]) == ([], None)
    admin = client.post(EMBEDDINGS, headers=people["admin"])
    assert admin.status_code == 400 and admin.json()["message"] == EMBEDDINGS_OFF


def test_keywords_are_normalised() -> None:
    assert keywords("Galleries, Churches & Museums of Kraków") == ["gallery", "church", "museum", "krakow"]
    assert keywords("The 360 virtual tour of a Glass House") == ["glass", "house"]


def test_bad_requests_are_400s_and_guests_are_refused(client: TestClient, people: dict[str, dict[str, str]]) -> None:
    assert client.post(DOCUMENT_TAGS, json={"documents": ["Park"]}).status_code == 401
    bodies: list[dict[str, object]] = [
        {},
        {"documents": []},
        {"documents": ["a"] * 6},
        {"documents": ["x" * 4001]},
        {"documents": "Park"},
    ]
    for body in bodies:
        response = client.post(DOCUMENT_TAGS, json=body, headers=people["user"])
        assert response.status_code == 400 and "documents" in " ".join(response.json()["fields"]), body
