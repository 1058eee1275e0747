"""Issue 18 parts 4 and 5 over HTTP: Unlisted tours, and the added-date and "360° only" filters.

Unlisted (decided here, app/tours/queries.py): the tour's page opens for anyone with its link, signed
in or not; its owner's pages (the creator page's grid, map, creator-media and any `userid`-scoped
grid) list it to every visitor; feeds, the map, search, similar tours, the Featured feed, the daily
submission and the counts discovery shows (countries) never do. The owner sets it in the media form
(add and edit, applied at once: no approval) and in Manage Media (tasks make_unlisted / make_public).
"""

from __future__ import annotations

import importlib.util
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.classifications.models import MediaType
from app.tours.models import Tour, TourVisibility
from app.users.models import User
from tests import factories
from tests.api.test_tours import Setup, add, build_setup, grid_guids

GRID = "/v2/user-recomendations/filtered-grid"
MAP = "/v2/user-recomendations/filtered-map"


@pytest.fixture
def s(db: Session, monkeypatch: pytest.MonkeyPatch) -> Setup:
    setup = build_setup(db, monkeypatch)
    setup.panorama.is_360 = True
    db.commit()
    return setup


def task(client: TestClient, s: Setup, person: User, guid: str, name: str) -> Any:
    return client.put(f"/v2/virtualtours/{guid}", json={"guid": guid, "task": name}, headers=s.headers(person))


def map_guids(client: TestClient, **params: Any) -> set[str]:
    response = client.get(MAP, params={"zoom": 3, **params})
    assert response.status_code == 200, response.text
    return {feature["properties"]["guid"] for feature in response.json()["features"]}


def creator_page_guids(client: TestClient, user_id: int, **params: Any) -> list[str]:
    response = client.get(f"/v2/virtualtours/creator/{user_id}", params=params)
    assert response.status_code == 200, response.text
    return [card["guid"] for card in response.json()["data"]]


# ------------------------------------------------------------------------------ unlisted


def test_an_unlisted_tour_opens_by_its_link_and_on_its_owners_pages_only(client: TestClient, s: Setup) -> None:
    public = add(client, s, s.trusted_user, link="https://kuula.co/share/Pub01", title="Harbour at dawn")["data"]
    secret = add(
        client,
        s,
        s.trusted_user,
        link="https://kuula.co/share/Sec01",
        title="Quixotic hideaway",
        visibility="unlisted",
    )["data"]
    assert secret["visibility"] == "unlisted" and public["visibility"] == "public"
    assert secret["status"] == "active" and secret["approval_state"] == "approved"
    owner = s.trusted_user.id

    # Discovery: feed (every feed choice), map, search, similar.
    for feed in (None, "new", "popular", "trending", "user_favorite"):
        params = {"feed": feed} if feed else {}
        assert public["guid"] in grid_guids(client, **params) and secret["guid"] not in grid_guids(client, **params)
    assert secret["guid"] not in grid_guids(client, searchPattern="quixotic")
    assert map_guids(client) == {public["guid"]}
    found = client.get("/v2/user-recomendations/search", params={"searchData": "quixot"}).json()
    assert found["data"] == []
    similar = client.get(f"/v2/user-recomendations/similar-media/{public['guid']}").json()
    assert secret["guid"] not in {card["guid"] for card in similar}

    # By its link: anyone, signed in or not; and its own similar tours.
    for headers in ({}, s.headers(s.user), s.headers(s.admin)):
        page = client.get(f"/v2/virtualtours/{secret['guid']}", headers=headers)
        assert page.status_code == 200 and page.json()["visibility"] == "unlisted"
    assert client.get(f"/v2/user-recomendations/similar-media/{secret['guid']}").status_code == 200

    # Its owner's pages, to every visitor.
    for headers in ({}, s.headers(s.user), s.headers(s.trusted_user)):
        listed = client.get(f"/v2/virtualtours/creator/{owner}", headers=headers).json()
        assert {card["guid"] for card in listed["data"]} == {public["guid"], secret["guid"]}
        assert listed["total_tours"] == 2
    creator_media = client.get(f"/v2/user-recomendations/creator-media/{owner}").json()
    assert {card["guid"] for card in creator_media["data"]} == {public["guid"], secret["guid"]}
    assert set(grid_guids(client, userid=owner)) == {public["guid"], secret["guid"]}
    assert map_guids(client, userid=owner) == {public["guid"], secret["guid"]}
    creator_map = client.get(f"/v2/virtualtours/creator/map/{owner}", params={"zoom": 3}).json()
    assert {feature["properties"]["guid"] for feature in creator_map["features"]} == {public["guid"], secret["guid"]}


def test_the_counts_discovery_shows_leave_unlisted_tours_out(client: TestClient, s: Setup) -> None:
    add(client, s, s.trusted_user, link="https://kuula.co/share/Sec02", visibility="unlisted")
    assert client.get("/v2/locations/address-countries").json()["data"] == []
    add(client, s, s.trusted_user, link="https://kuula.co/share/Pub02")
    countries = client.get("/v2/locations/address-countries").json()["data"]
    assert len(countries) == 1 and countries[0]["code"] == "FR" and countries[0]["vt_count"] == 1


def test_manage_media_makes_a_tour_unlisted_and_public_again(client: TestClient, db: Session, s: Setup) -> None:
    guid = add(client, s, s.trusted_user)["data"]["guid"]
    assert guid in grid_guids(client)
    response = task(client, s, s.trusted_user, guid, "make_unlisted")
    assert response.status_code == 200 and response.json()["data"]["visibility"] == "unlisted"
    assert "unlisted" in response.json()["message"]
    assert guid not in grid_guids(client) and map_guids(client) == set()
    assert creator_page_guids(client, s.trusted_user.id) == [guid]
    counts = client.get(f"/v2/virtualtours/counts/{s.trusted_user.id}", headers=s.headers(s.trusted_user)).json()
    assert counts["unlisted"] == 1 and counts["active"] == 1
    mine = client.get(
        f"/v2/virtualtours/user/{s.trusted_user.id}", params={"status": "unlisted"}, headers=s.headers(s.trusted_user)
    ).json()
    assert [tour["guid"] for tour in mine["data"]] == [guid]
    # A draft keeps its visibility: activated again, it comes back unlisted.
    assert task(client, s, s.trusted_user, guid, "deactivate").status_code == 200
    assert creator_page_guids(client, s.trusted_user.id) == []
    assert task(client, s, s.trusted_user, guid, "activate").json()["data"]["visibility"] == "unlisted"
    assert guid not in grid_guids(client) and creator_page_guids(client, s.trusted_user.id) == [guid]
    response = task(client, s, s.trusted_user, guid, "make_public")
    assert response.status_code == 200 and response.json()["data"]["visibility"] == "public"
    assert guid in grid_guids(client)
    # Only who manages the tour sets it.
    assert task(client, s, s.user, guid, "make_unlisted").status_code == 403
    assert task(client, s, s.admin, guid, "make_unlisted").status_code == 200
    db.expire_all()
    tour = db.scalar(select(Tour).where(Tour.guid == guid))
    assert tour is not None and tour.visibility == TourVisibility.unlisted


def test_the_form_sets_visibility_at_once_even_when_an_edit_waits_for_approval(client: TestClient, s: Setup) -> None:
    guid = add(client, s, s.creator_user, link="https://kuula.co/share/Edt01")["data"]["guid"]
    assert task(client, s, s.admin, guid, "approve").status_code == 200
    assert guid in grid_guids(client)
    edit = {**s.payload(link="https://kuula.co/share/Edt01"), "guid": guid, "visibility": "unlisted"}
    response = client.put("/v2/virtualtours/", json=edit, headers=s.headers(s.creator_user))
    assert response.status_code == 201 and response.json()["data"]["visibility"] == "unlisted"
    assert guid not in grid_guids(client) and client.get(f"/v2/virtualtours/{guid}").status_code == 200
    # A change of content waits for an administrator; the visibility chosen with it does not.
    edit = {**edit, "title": "A new title that waits", "visibility": "public"}
    response = client.put("/v2/virtualtours/", json=edit, headers=s.headers(s.creator_user))
    assert response.status_code == 200 and response.json()["pending"] is True
    assert response.json()["data"]["visibility"] == "public" and guid in grid_guids(client)
    bad = client.post("/v2/virtualtours/", json=s.payload(visibility="secret"), headers=s.headers(s.trusted_user))
    assert bad.status_code == 400 and "visibility" in bad.json()["fields"]


def test_unlisted_tours_are_never_featured_on_the_platform(client: TestClient, s: Setup) -> None:
    guid = add(client, s, s.trusted_user, visibility="unlisted")["data"]["guid"]
    featured = client.post(
        "/v2/virtualtours/featured-tours", json={"tours": [guid], "scope": "platform"}, headers=s.headers(s.admin)
    )
    assert featured.status_code == 400 and "tours" in featured.json()["fields"]
    submitted = client.post(
        "/v2/virtualtours/send-tour-today", json={"guid": guid, "consent": True}, headers=s.headers(s.trusted_user)
    )
    assert submitted.status_code == 400 and "guid" in submitted.json()["fields"]
    # On the owner's own profile it may be featured: that is one of the owner's pages.
    own = client.post("/v2/virtualtours/featured-tours", json={"tours": [guid]}, headers=s.headers(s.trusted_user))
    assert own.status_code == 200, own.text


# ------------------------------------------------------------------------------ date and 360° filters


@pytest.fixture
def dated(db: Session, s: Setup) -> dict[str, Tour]:
    """Tours added 40, 10 and 1 days ago (panoramas) and a 3D model added 5 days ago, one unlisted."""
    model = factories.media_type(db, "3D Model")
    owner = s.trusted_user
    make = {"category_row": s.parks, "vendor_row": s.kuula, "lat": 48.85, "lng": 2.35}
    tours = {
        "old": factories.tour(db, owner, media_type_row=s.panorama, age_days=40, **make),
        "ten": factories.tour(db, owner, media_type_row=s.panorama, age_days=10, **make),
        "new": factories.tour(db, owner, media_type_row=s.panorama, age_days=1, **make),
        "model": factories.tour(db, owner, media_type_row=model, age_days=5, **make),
        "hidden": factories.tour(
            db, owner, media_type_row=s.panorama, age_days=2, visibility=TourVisibility.unlisted, **make
        ),
    }
    db.commit()
    return tours


def _day(days_ago: int) -> str:
    return (datetime.now(UTC) - timedelta(days=days_ago)).date().isoformat()


def _guids(*tours: Tour) -> set[str]:
    return {tour.guid for tour in tours}


def test_the_added_date_range_narrows_every_discovery_call(client: TestClient, dated: dict[str, Tour]) -> None:
    old, ten, new, model = dated["old"], dated["ten"], dated["new"], dated["model"]
    assert set(grid_guids(client)) == _guids(old, ten, new, model)
    assert set(grid_guids(client, added_from=_day(12))) == _guids(ten, new, model)
    assert set(grid_guids(client, added_to=_day(12))) == _guids(old)
    assert set(grid_guids(client, added_from=_day(10), added_to=_day(5))) == _guids(ten, model)
    assert set(grid_guids(client, added_from=_day(1), added_to=_day(1))) == _guids(new)  # one day, both ends in
    for feed in ("new", "popular", "trending"):
        assert set(grid_guids(client, feed=feed, added_from=_day(12))) == _guids(ten, new, model)
    assert map_guids(client, added_from=_day(12)) == _guids(ten, new, model)
    area = client.get(
        "/v2/locations/filtered-area",
        params={"leftX": -180, "leftY": -85, "rightX": 180, "rightY": 85, "zoom": 2, "added_to": _day(12)},
    ).json()
    assert {f["properties"]["guid"] for f in area["features"]} == _guids(old)
    mixed = client.get(GRID, params={"mode": "both", "added_from": _day(12)}).json()
    assert {card["type"] for card in mixed["data"]} == {"vt"} and mixed["total_items"] == 3


def test_the_360_switch_keeps_panoramas_and_360_video(client: TestClient, dated: dict[str, Tour]) -> None:
    old, ten, new, model = dated["old"], dated["ten"], dated["new"], dated["model"]
    assert set(grid_guids(client, only_360="true")) == _guids(old, ten, new)
    assert set(grid_guids(client, only_360="true", added_from=_day(12))) == _guids(ten, new)
    assert set(grid_guids(client, only_360="true", media_types=str(model.media_type_id))) == set()
    assert map_guids(client, only_360="true") == _guids(old, ten, new)
    assert set(grid_guids(client, only_360="false")) == _guids(old, ten, new, model)


def test_the_creator_page_takes_the_new_filters_and_lists_unlisted_tours(
    client: TestClient, s: Setup, dated: dict[str, Tour]
) -> None:
    owner = s.trusted_user.id
    everything = _guids(*dated.values())
    assert set(creator_page_guids(client, owner)) == everything
    assert set(creator_page_guids(client, owner, added_from=_day(3))) == _guids(dated["new"], dated["hidden"])
    assert set(creator_page_guids(client, owner, only_360="true")) == everything - _guids(dated["model"])
    creator_map = client.get(
        f"/v2/virtualtours/creator/map/{owner}", params={"zoom": 3, "added_to": _day(3), "only_360": "true"}
    ).json()
    assert {f["properties"]["guid"] for f in creator_map["features"]} == _guids(dated["old"], dated["ten"])
    scoped = client.get(GRID, params={"userid": owner, "mode": "media", "added_from": _day(3)}).json()
    assert {card["guid"] for card in scoped["data"]} == _guids(dated["new"], dated["hidden"])


BAD_FILTERS: list[tuple[dict[str, str], str]] = [
    ({"added_from": "yesterday"}, "added_from"),
    ({"added_from": "2026-02-30"}, "added_from"),
    ({"added_to": "2026-13-01"}, "added_to"),
    ({"added_from": "2026-05-02", "added_to": "2026-05-01"}, "added_to"),
    ({"only_360": "maybe"}, "only_360"),
]


@pytest.mark.parametrize(("params", "field"), BAD_FILTERS, ids=[case[1] + str(i) for i, case in enumerate(BAD_FILTERS)])
def test_bad_filter_values_are_400_naming_the_field(
    client: TestClient, s: Setup, params: dict[str, str], field: str
) -> None:
    for path in (
        GRID,
        MAP,
        "/v2/locations/filtered-area?leftX=-10&leftY=-10&rightX=10&rightY=10",
        f"/v2/user-recomendations/creator-media/{s.trusted_user.id}",
        f"/v2/virtualtours/creator/{s.trusted_user.id}",
        f"/v2/virtualtours/creator/map/{s.trusted_user.id}",
    ):
        response = client.get(path, params=params)
        assert response.status_code == 400, (path, response.text)
        assert field in response.json()["fields"], (path, response.json())


def test_the_built_in_360_media_types(db: Session) -> None:
    """The seeded dictionaries mark the panoramas and 360 video, and the migration marks the same
    slugs in a database seeded before the column existed."""
    from app.classifications.seed import load_dictionaries

    load_dictionaries(db)
    db.commit()
    marked = set(db.scalars(select(MediaType.slug).where(MediaType.is_360.is_(True))))
    assert marked == {"360-panorama", "panorama-tour", "360-video", "street-view", "aerial-360"}
    path = Path(__file__).resolve().parents[2] / "app/migrations/versions/0015_unlisted_and_360.py"
    spec = importlib.util.spec_from_file_location("migration_0014", path)
    assert spec is not None and spec.loader is not None
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    assert set(migration.BUILT_IN_360_SLUGS) == marked


def test_media_types_list_says_which_are_360(client: TestClient, s: Setup, db: Session) -> None:
    factories.media_type(db, "3D Model")
    db.commit()
    listed = {item["name"]: item["is_360"] for item in client.get("/v2/categories/media-types").json()["data"]}
    assert listed == {"360 Panorama": True, "3D Model": False}
    assert db.scalar(select(MediaType.is_360).where(MediaType.name == "3D Model")) is False
