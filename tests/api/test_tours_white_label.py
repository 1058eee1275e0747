"""Spec §5 "Link is not right format" is one rule for the link lookup (GET discover) and for saving
(POST /v2/virtualtours/): a white-label host takes any http(s) link (its customers serve tours
under their own domains), other hosts their own pattern, a custom host without one its website."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.core.settings import get_settings
from app.tours import rules
from app.vendors.models import Vendor
from tests import factories
from tests.api.test_tours import Setup, build_setup
from tests.fakes.tour_pages import TourPages, running_tour_pages

DISCOVER = "/v2/virtualtours/discover"


@pytest.fixture(scope="module")
def pages() -> Iterator[TourPages]:
    with running_tour_pages() as fake:
        yield fake


@pytest.fixture
def s(db: Session, monkeypatch: pytest.MonkeyPatch, pages: TourPages) -> Iterator[Setup]:
    """The tours setup, with the lookup allowed to reach the fake provider on 127.0.0.1."""
    monkeypatch.setattr(get_settings(), "discover_allowed_networks", ["127.0.0.1/32"])
    reset_rate_limits()
    yield build_setup(db, monkeypatch)
    reset_rate_limits()


def lookup_status(client: TestClient, s: Setup, vendor: Vendor, link: str) -> tuple[int, dict[str, str]]:
    response = client.get(DISCOVER, params={"url": link, "vendor_name": vendor.name}, headers=s.headers(s.user))
    return response.status_code, response.json().get("fields", {})


def save_status(client: TestClient, s: Setup, vendor: Vendor, link: str) -> tuple[int, dict[str, str]]:
    body = s.payload(vendor=vendor.id, link=link, preview_picture="https://cdn.example.com/p.jpg")
    response = client.post("/v2/virtualtours/", json=body, headers=s.headers(s.trusted_user))
    return response.status_code, response.json().get("fields", {})


def white_label(db: Session, vendor: Vendor) -> Vendor:
    vendor.is_white_label = True
    db.commit()
    return vendor


def test_a_white_label_host_takes_a_link_on_its_customers_domain(
    client: TestClient, db: Session, s: Setup, pages: TourPages
) -> None:
    kuula = white_label(db, s.kuula)
    link = pages.url("/tours/louvre")  # not a kuula.co link: a customer's own domain
    status, fields = lookup_status(client, s, kuula, link)
    assert (status, fields) == (200, {})
    status, fields = save_status(client, s, kuula, link)
    assert status == 201, fields
    saved = client.get("/v2/virtualtours/get-by-link", params={"link": link}).json()
    assert saved["link"] == link and saved["vendor"] == {"id": kuula.id, "name": "Kuula"}
    # The host's own links still do, of course.
    assert save_status(client, s, kuula, "https://kuula.co/share/Wl001")[0] == 201


def test_a_white_label_host_still_wants_a_web_link(client: TestClient, db: Session, s: Setup) -> None:
    kuula = white_label(db, s.kuula)
    for link in ("ftp://tours.brand.example/t/1", "tours.brand.example/t/1", "https://localhost/t/1"):
        assert lookup_status(client, s, kuula, link) == (400, {"url": rules.LINK_FORMAT}), link
        assert save_status(client, s, kuula, link) == (400, {"link": rules.LINK_FORMAT}), link


def test_other_hosts_keep_their_pattern_in_both_calls(client: TestClient, s: Setup, pages: TourPages) -> None:
    link = pages.url("/tours/louvre")
    assert not s.kuula.is_white_label
    assert lookup_status(client, s, s.kuula, link) == (400, {"url": rules.LINK_FORMAT})
    assert save_status(client, s, s.kuula, link) == (400, {"link": rules.LINK_FORMAT})
    assert save_status(client, s, s.kuula, "https://kuula.co/share/Ok001")[0] == 201


def test_a_custom_host_without_a_pattern_takes_its_websites_links_in_both_calls(
    client: TestClient, db: Session, s: Setup, pages: TourPages
) -> None:
    custom = factories.vendor(db, "Studio Host", pattern="")
    custom.link_pattern, custom.website, custom.is_custom = None, pages.base_url, True
    custom.owner_user_id = s.trusted_user.id  # a custom host is its owner's (tests/api/test_vendors_hosts.py)
    db.commit()
    own = pages.url("/tours/krakow")
    assert lookup_status(client, s, custom, own) == (200, {})
    assert save_status(client, s, custom, own)[0] == 201
    elsewhere = "https://elsewhere.example/t/42"
    assert lookup_status(client, s, custom, elsewhere) == (400, {"url": rules.LINK_FORMAT})
    assert save_status(client, s, custom, elsewhere) == (400, {"link": rules.LINK_FORMAT})


def test_a_broken_host_pattern_does_not_block_users(
    client: TestClient, db: Session, s: Setup, pages: TourPages
) -> None:
    """The host's record is at fault, not the user's link: both calls let the link through."""
    broken = factories.vendor(db, "Broken", pattern=r"^https?://(unclosed")
    db.commit()
    link = pages.url("/tours/krakow")
    assert lookup_status(client, s, broken, link) == (200, {})
    assert save_status(client, s, broken, link)[0] == 201
