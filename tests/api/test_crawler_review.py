"""The crawler tours tab's decisions: an admin approves crawled tours into published tours (owner,
media type, category and tags chosen; each tour's own link, title, description, picture and place
kept; listed in the feed at once) or rejects them (later crawls skip their links); bad choices are a
400 that publishes nothing, a tour that cannot be published alone is reported and keeps waiting."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.classifications.dictionaries import normalise_link
from app.classifications.models import Category, MediaType, Tag
from app.core.settings import get_settings
from app.crawler.models import CrawledTour, CrawledTourStatus
from app.crawler.schemas import MAX_REVIEWED_AT_ONCE
from app.realtime import events
from app.tours import images
from app.users.models import User
from app.vendors.models import Vendor
from tests import factories
from tests.fakes.crawl_site import CrawlSite, place_of, running_crawl_site

BASE = "/v2/crawler"
TOURS = 6


@pytest.fixture
def site(monkeypatch: pytest.MonkeyPatch) -> Iterator[CrawlSite]:
    monkeypatch.setattr(get_settings(), "discover_allowed_networks", ["127.0.0.1/32"])
    with running_crawl_site(tours=TOURS, with_extras=False) as fake:
        yield fake


@dataclass
class World:
    admin: User
    owner: User
    vendor: Vendor
    parks: Category
    museums: Category
    panorama: MediaType
    tags: list[Tag]

    def headers(self, person: User | None = None) -> dict[str, str]:
        return factories.bearer(person or self.admin)

    def choices(self, **overrides: Any) -> dict[str, Any]:
        body: dict[str, Any] = {
            "userid": self.owner.id,
            "media_type_id": self.panorama.id,
            "category_id": self.parks.id,
            "subcategory_id": self.parks.subcategories[0].id,
            "tags": [{"id": self.tags[0].id}],
            "third_party_creator": "Fake Provider Studio",
        }
        return {**body, **overrides}


@pytest.fixture
def world(db: Session, site: CrawlSite) -> World:
    admin = factories.user(db, admin=True)
    owner = factories.user(db)
    factories.creator(db, owner)
    # The host's own link format is the fake site's: its crawled links are in it.
    vendor = factories.vendor(db, "FakeCrawlHost", site.tour_pattern)
    parks = factories.category(db, "Parks", ("Gardens",))
    museums = factories.category(db, "Museums")
    panorama = factories.media_type(db, "360 Panorama")
    tags = [factories.tag(db, "Roses", parks), factories.tag(db, "Fountains", parks)]
    db.commit()
    db.refresh(parks)
    return World(admin, owner, vendor, parks, museums, panorama, tags)


def crawl(client: TestClient, world: World, site: CrawlSite) -> dict[str, dict[str, Any]]:
    """Configure and run a crawl of the fake site (tasks run eagerly): its filed tours by title."""
    body = {
        "name": "Fake provider",
        "vendor_id": world.vendor.id,
        "sitemap_urls": [site.url("/sitemap_index.xml")],
        "rate_limit": 0,
        "concurrency": 4,
    }
    saved = client.post(f"{BASE}/configuration", json=body, headers=world.headers())
    assert saved.status_code == 200, saved.text
    started = client.post(f"{BASE}/start", json={"configuration_id": saved.json()["id"]}, headers=world.headers())
    assert started.status_code == 200, started.text
    return waiting(client, world)


def waiting(client: TestClient, world: World, status: str = "new") -> dict[str, dict[str, Any]]:
    page = client.get(f"{BASE}/tours", params={"status": status, "limit": 200}, headers=world.headers())
    assert page.status_code == 200, page.text
    return {row["title"]: row for row in page.json()["data"]}


def decide(client: TestClient, world: World, action: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"{BASE}/tours/{action}", json=body, headers=world.headers())
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def grid_guids(client: TestClient) -> list[str]:
    cards = client.get("/v2/user-recomendations/filtered-grid", params={"mode": "media", "limit": 50}).json()["data"]
    return [card["guid"] for card in cards]


# --------------------------------------------------------------------------- access and input


@pytest.mark.parametrize(
    ("action", "body"), [("approve", {"ids": [1], "media_type_id": 1, "category_id": 1}), ("reject", {"ids": [1]})]
)
def test_only_admins_decide(client: TestClient, db: Session, action: str, body: dict[str, Any]) -> None:
    user = factories.bearer(factories.user(db))
    db.commit()
    assert client.post(f"{BASE}/tours/{action}", json=body).status_code == 401
    assert client.post(f"{BASE}/tours/{action}", json=body, headers=user).status_code == 403


def test_the_list_names_the_source_session_and_provider(client: TestClient, world: World, site: CrawlSite) -> None:
    filed = crawl(client, world, site)
    assert len(filed) == TOURS
    row = filed["Tour 2"]
    assert row["configuration_name"] == "Fake provider" and row["vendor_name"] == "FakeCrawlHost"
    assert row["vendor_id"] == world.vendor.id and row["session_id"] > 0 and row["tour_guid"] is None
    assert row["image"] == site.url("/images/Tour-2.jpg")
    place = place_of("Tour 2")
    assert place is not None and row["coordinate"] == f"{place[0]},{place[1]}"
    assert filed["Tour 1"]["coordinate"] is None


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"ids": []}, "ids"),
        ({"ids": list(range(1, MAX_REVIEWED_AT_ONCE + 2))}, "ids"),
        ({"category_id": None}, "category_id"),
        ({"media_type_id": "x"}, "media_type_id"),
        ({"category_id": 999999}, "category_id"),
        ({"media_type_id": 999999}, "media_type_id"),
        ({"subcategory_id": 999999}, "subcategory_id"),
        ({"tags": [{"id": 999999}]}, "tags"),
        ({"userid": 999999}, "userid"),
        ({"userid": None, "platform_username": "nobody-here"}, "platform_username"),
        ({"creator_website": "http://plain.example.com"}, "creator_website"),
        ({"address_str": "Qzxqzx Nowhere Vvvv"}, "address_str"),
    ],
)
def test_a_bad_choice_is_a_400_and_publishes_nothing(
    client: TestClient, db: Session, world: World, site: CrawlSite, change: dict[str, Any], field: str
) -> None:
    filed = crawl(client, world, site)
    body = {**world.choices(ids=[filed["Tour 1"]["id"], filed["Tour 2"]["id"]]), **change}
    body = {key: value for key, value in body.items() if value is not None}
    response = client.post(f"{BASE}/tours/approve", json=body, headers=world.headers())
    assert response.status_code == 400, response.text
    assert any(key == field or key.startswith(f"{field}.") for key in response.json()["fields"]), response.json()
    assert len(waiting(client, world)) == TOURS
    assert grid_guids(client) == []


def test_an_inactive_owner_is_refused(client: TestClient, db: Session, world: World, site: CrawlSite) -> None:
    filed = crawl(client, world, site)
    owner = db.get(User, world.owner.id)
    assert owner is not None
    owner.is_active = False
    db.commit()
    response = client.post(
        f"{BASE}/tours/approve", json=world.choices(ids=[filed["Tour 1"]["id"]]), headers=world.headers()
    )
    assert response.status_code == 400 and "userid" in response.json()["fields"]


# --------------------------------------------------------------------------- approving


def test_approved_tours_are_published_with_the_choices_and_their_own_content(
    client: TestClient, db: Session, world: World, site: CrawlSite
) -> None:
    filed = crawl(client, world, site)
    even, odd = filed["Tour 2"], filed["Tour 3"]
    answer = decide(client, world, "approve", world.choices(ids=[even["id"], odd["id"]]))
    assert [(row["id"], row["status"]) for row in answer["data"]] == [(even["id"], "approved"), (odd["id"], "approved")]
    assert answer["pending"] == TOURS - 2
    guids = [row["guid"] for row in answer["data"]]

    published = client.get(f"/v2/virtualtours/{guids[0]}").json()
    assert published["title"] == "Tour 2" and published["description"] == "A virtual tour of Tour 2"
    assert published["link"] == even["link"] and published["userid"] == world.owner.id
    assert published["category_id"] == world.parks.id and published["media_type_id"] == world.panorama.id
    assert published["subcategory_id"] == world.parks.subcategories[0].id
    assert [tag["id"] for tag in published["tags"]] == [world.tags[0].id]
    assert published["vendor"]["id"] == world.vendor.id
    assert published["third_party_creator"] == "Fake Provider Studio"
    # The plain-http picture was fetched through the guard and stored as an upload.
    assert images.is_stored_preview(published["preview_picture"]), published["preview_picture"]
    assert site.hits["/images/Tour-2.jpg"] == 1
    # The page's place became the tour's; the odd tour's page gave none.
    place = place_of("Tour 2")
    assert place is not None and published["coordinates"] == pytest.approx(list(place), abs=1e-6)
    assert client.get(f"/v2/virtualtours/{guids[1]}").json()["coordinates"] is None

    # Published at once: the feed lists both (the index followed through the outbox).
    assert set(guids) <= set(grid_guids(client))
    imported = waiting(client, world, "imported")
    assert {row["tour_guid"] for row in imported.values()} == set(guids)
    assert set(waiting(client, world)) == {f"Tour {n}" for n in range(TOURS)} - {"Tour 2", "Tour 3"}

    again = decide(client, world, "approve", world.choices(ids=[even["id"], 999999]))
    assert [row["status"] for row in again["data"]] == ["conflict", "not_found"]


def test_the_owner_is_the_admin_unless_one_is_named(
    client: TestClient, db: Session, world: World, site: CrawlSite
) -> None:
    filed = crawl(client, world, site)
    mine = decide(client, world, "approve", world.choices(ids=[filed["Tour 1"]["id"]], userid=None))
    guid = mine["data"][0]["guid"]
    assert client.get(f"/v2/virtualtours/{guid}").json()["userid"] == world.admin.id
    owner = db.get(User, world.owner.id)
    assert owner is not None
    by_name = world.choices(ids=[filed["Tour 3"]["id"]], userid=None, platform_username=owner.platform_username)
    theirs = decide(client, world, "approve", by_name)
    assert client.get(f"/v2/virtualtours/{theirs['data'][0]['guid']}").json()["userid"] == world.owner.id


def test_a_named_address_places_every_tour(client: TestClient, world: World, site: CrawlSite) -> None:
    filed = crawl(client, world, site)
    answer = decide(client, world, "approve", world.choices(ids=[filed["Tour 1"]["id"]], address_str="Paris"))
    published = client.get(f"/v2/virtualtours/{answer['data'][0]['guid']}").json()
    assert published["coordinates"] is not None and published["address_str"] == "Paris"


def test_a_tour_that_cannot_be_published_alone_keeps_waiting(
    client: TestClient, db: Session, world: World, site: CrawlSite
) -> None:
    filed = crawl(client, world, site)
    # The host's link format changed since the crawl: one tour's link is no longer in it.
    vendor = db.get(Vendor, world.vendor.id)
    assert vendor is not None
    vendor.link_pattern = site.tour_pattern + r"(?!1$)"
    db.commit()
    answer = decide(client, world, "approve", world.choices(ids=[filed["Tour 1"]["id"], filed["Tour 4"]["id"]]))
    failed, published = answer["data"]
    assert failed["status"] == "invalid" and "link" in failed["fields"] and failed["guid"] is None
    assert published["status"] == "approved"
    assert "Tour 1" in waiting(client, world) and "Tour 4" not in waiting(client, world)


def test_a_link_already_published_is_set_aside(client: TestClient, db: Session, world: World, site: CrawlSite) -> None:
    filed = crawl(client, world, site)
    by_hand = factories.tour(
        db,
        world.owner,
        category_row=world.parks,
        media_type_row=world.panorama,
        vendor_row=world.vendor,
        link=filed["Tour 5"]["link"],
    )
    by_hand.link_normalised = normalise_link(by_hand.link)
    db.commit()
    answer = decide(client, world, "approve", world.choices(ids=[filed["Tour 5"]["id"]]))
    assert answer["data"][0]["status"] == "exists" and answer["data"][0]["guid"] == by_hand.guid
    assert "Tour 5" not in waiting(client, world)
    assert waiting(client, world, "skipped")["Tour 5"]["tour_guid"] == by_hand.guid


# --------------------------------------------------------------------------- rejecting


def test_rejected_tours_leave_the_tab_and_are_not_filed_again(
    client: TestClient, db: Session, world: World, site: CrawlSite
) -> None:
    filed = crawl(client, world, site)
    rejected = [filed["Tour 0"]["id"], filed["Tour 1"]["id"]]
    answer = decide(client, world, "reject", {"ids": [*rejected, 999999]})
    assert [row["status"] for row in answer["data"]] == ["rejected", "rejected", "not_found"]
    assert answer["pending"] == TOURS - 2
    assert set(waiting(client, world, "skipped")) == {"Tour 0", "Tour 1"}
    assert decide(client, world, "reject", {"ids": rejected})["data"][0]["status"] == "conflict"
    assert decide(client, world, "approve", world.choices(ids=rejected[:1]))["data"][0]["status"] == "conflict"

    # A second crawl counts the rejected links as known: nothing is filed again.
    configuration = client.get(f"{BASE}/configuration", headers=world.headers()).json()["data"][0]
    session_id = configuration["last_session"]["session_id"]
    assert client.post(f"{BASE}/sign", json={"session_id": session_id}, headers=world.headers()).status_code == 200
    again = client.post(f"{BASE}/start", json={"configuration_id": configuration["id"]}, headers=world.headers())
    assert again.json()["status"] in ("queued", "running", "finished")
    status = client.get(f"{BASE}/status", params={"session_id": again.json()["session_id"]}, headers=world.headers())
    assert status.json()["new_tours"] == 0 and status.json()["total_tours"] == TOURS
    db.expire_all()
    statuses = {title: status for title, status in db.execute(select(CrawledTour.title, CrawledTour.status))}
    assert statuses["Tour 0"] is CrawledTourStatus.skipped and statuses["Tour 2"] is CrawledTourStatus.new


def test_the_live_status_carries_the_page_counters(
    client: TestClient, world: World, site: CrawlSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(events, "emit_now", lambda name, data, *, room: sent.append((name, data)))
    crawl(client, world, site)
    last = [data for name, data in sent if name == events.CRAWLER_STATUS][-1]
    assert last["status"] == "finished" and last["new_tours"] == TOURS and last["total_tours"] == TOURS
    assert last["pages_fetched"] >= TOURS + 3 and last["pages_failed"] == 0 and last["configuration_id"] > 0
