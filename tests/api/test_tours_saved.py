"""GET /v2/virtualtours/saved/{userid}: a user's saved tours as media cards (spec §3 Media card),
newest save first, for the Saved tours modal (spec §2)."""

from __future__ import annotations

from datetime import timedelta
from functools import lru_cache
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.core.db import utcnow
from app.core.security import hash_password, issue_guest_token
from app.engagement.models import TourSave
from app.tours.models import ApprovalState, Tour, TourStatus
from app.users.models import User
from tests import factories

MEDIA_CARD_FIELDS = {
    *("type", "guid", "title", "preview_picture", "views", "saves", "is_save", "is_owned", "created_ago"),
    *("media_type_id", "userid"),
}


@lru_cache
def _password_hash(password: str) -> str:
    return hash_password(password)


@pytest.fixture(autouse=True)
def cheap_passwords(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(factories, "hash_password", _password_hash)


def saved(client: TestClient, person: User, userid: int | None = None, **params: Any) -> dict[str, Any]:
    response = client.get(
        f"/v2/virtualtours/saved/{userid or person.id}", params=params, headers=factories.bearer(person)
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def titles(page: dict[str, Any]) -> list[str]:
    return [card["title"] for card in page["data"]]


def save_at(db: Session, person: User, tour: Tour, minutes_ago: int) -> None:
    db.add(TourSave(user_id=person.id, tour_id=tour.id, created_at=utcnow() - timedelta(minutes=minutes_ago)))


@pytest.fixture
def catalog(db: Session) -> factories.Catalog:
    return factories.catalog(db)


def test_saved_tours_are_media_cards_newest_save_first(
    client: TestClient, db: Session, catalog: factories.Catalog
) -> None:
    owner, reader, other = factories.user(db), factories.user(db), factories.user(db)
    made = {name: catalog.tour(db, owner, title=name, age_days=3) for name in ("Alps", "Baltic", "Crete", "Delft")}
    save_at(db, reader, made["Alps"], minutes_ago=30)
    save_at(db, reader, made["Crete"], minutes_ago=5)
    save_at(db, reader, made["Baltic"], minutes_ago=60)
    save_at(db, other, made["Delft"], minutes_ago=1)  # someone else's save
    db.commit()

    page = saved(client, reader)
    assert titles(page) == ["Crete", "Alps", "Baltic"]
    assert (page["total_items"], page["limit"], page["offset"]) == (3, 48, 0)
    card = page["data"][0]
    assert set(card) == MEDIA_CARD_FIELDS
    assert card["type"] == "vt" and card["guid"] == made["Crete"].guid and card["userid"] == owner.id
    assert card["is_save"] is True and card["is_owned"] is False
    assert card["media_type_id"] == catalog.media_type.id and card["created_ago"] == "3 days ago"

    second = saved(client, reader, limit=2, offset=2)
    assert titles(second) == ["Baltic"] and second["total_items"] == 3
    assert titles(saved(client, other)) == ["Delft"]
    nobody = factories.user(db)
    db.commit()
    assert saved(client, nobody) == {"data": [], "total_items": 0, "limit": 48, "offset": 0}


def test_saving_and_unsaving_through_the_player_calls(
    client: TestClient, db: Session, catalog: factories.Catalog
) -> None:
    owner, reader = factories.user(db), factories.user(db)
    first, second = catalog.tour(db, owner, title="First"), catalog.tour(db, owner, title="Second")
    db.commit()
    headers = factories.bearer(reader)
    for tour in (first, second):
        body = {"id": tour.guid, "saves": 1, "isSave": True}
        assert client.post("/v2/virtualtours/post_saves", json=body, headers=headers).status_code == 200
    page = saved(client, reader)
    assert set(titles(page)) == {"First", "Second"} and page["total_items"] == 2
    assert all(card["saves"] == 1 for card in page["data"])

    unsave = {"id": first.guid, "saves": 0, "isSave": False}
    assert client.post("/v2/virtualtours/post_saves", json=unsave, headers=headers).status_code == 200
    page = saved(client, reader)
    assert titles(page) == ["Second"] and page["total_items"] == 1


def test_tours_no_longer_listed_are_left_out(client: TestClient, db: Session, catalog: factories.Catalog) -> None:
    owner, leaver, reader = factories.user(db), factories.user(db), factories.user(db)
    listed = catalog.tour(db, owner, title="Listed")
    draft = catalog.tour(db, owner, title="Draft", status=TourStatus.draft)
    pending = catalog.tour(db, owner, title="Pending", approval_state=ApprovalState.pending)
    orphaned = catalog.tour(db, leaver, title="Owner drafted")
    for number, tour in enumerate((listed, draft, pending, orphaned)):
        save_at(db, reader, tour, minutes_ago=number)
    leaver.is_active = False
    db.commit()
    page = saved(client, reader)
    assert titles(page) == ["Listed"] and page["total_items"] == 1

    draft.status = TourStatus.active  # published again: the save was kept
    db.commit()
    assert titles(saved(client, reader)) == ["Listed", "Draft"]


def test_oneself_or_an_admin_only(client: TestClient, db: Session, catalog: factories.Catalog) -> None:
    owner, reader, stranger = factories.user(db), factories.user(db), factories.user(db)
    admin = factories.user(db, admin=True)
    tour = catalog.tour(db, owner, title="Shared")
    save_at(db, reader, tour, minutes_ago=1)
    db.commit()
    path = f"/v2/virtualtours/saved/{reader.id}"
    assert client.get(path, headers=factories.bearer(stranger)).status_code == 403
    assert client.get(path).status_code == 401
    guest = {"Authorization": f"Bearer {issue_guest_token('someone')}"}
    assert client.get(path, headers=guest).status_code == 401

    as_admin = saved(client, admin, userid=reader.id)
    # The cards' flags are the caller's: the admin did not save it.
    assert titles(as_admin) == ["Shared"] and as_admin["data"][0]["is_save"] is False
    assert client.get("/v2/virtualtours/saved/987654", headers=factories.bearer(admin)).status_code == 404


def test_a_saved_tour_transferred_to_the_saver_is_owned(
    client: TestClient, db: Session, catalog: factories.Catalog
) -> None:
    owner, reader = factories.user(db), factories.user(db)
    tour = catalog.tour(db, owner)
    save_at(db, reader, tour, minutes_ago=1)
    db.commit()
    assert saved(client, reader)["data"][0]["is_owned"] is False
    tour.user_id = reader.id  # a tour transfer keeps the saves
    db.commit()
    card = saved(client, reader)["data"][0]
    assert card["is_owned"] is True and card["userid"] == reader.id


def test_created_ago_in_the_callers_language(client: TestClient, db: Session, catalog: factories.Catalog) -> None:
    owner, reader = factories.user(db), factories.user(db)
    save_at(db, reader, catalog.tour(db, owner, age_days=2), minutes_ago=1)
    db.commit()
    headers = {**factories.bearer(reader), "Accept-Language": "ru"}
    response = client.get(f"/v2/virtualtours/saved/{reader.id}", headers=headers)
    assert response.json()["data"][0]["created_ago"] == "2 дня назад"


@pytest.mark.parametrize("params", [{"limit": 0}, {"limit": 101}, {"offset": -1}])
def test_paging_is_bounded(client: TestClient, db: Session, params: dict[str, int]) -> None:
    reader = factories.user(db)
    db.commit()
    response = client.get(f"/v2/virtualtours/saved/{reader.id}", params=params, headers=factories.bearer(reader))
    assert response.status_code == 400
