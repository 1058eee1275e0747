"""GET /v2/virtualtours/discover: the Add media form's link lookup, against the local fake provider."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.core.security import issue_guest_token
from app.core.settings import get_settings
from app.tours.link_lookup import LINK_FORMAT, NOT_ALLOWED, NOTHING_FOUND, UNKNOWN_HOST
from app.vendors.models import Vendor, VendorStatus
from tests import factories
from tests.fakes.tour_pages import TourPages, running_tour_pages

DISCOVER = "/v2/virtualtours/discover"


@pytest.fixture(scope="module")
def pages() -> Iterator[TourPages]:
    with running_tour_pages() as fake:
        yield fake


@pytest.fixture(autouse=True)
def fresh_limits() -> Iterator[None]:
    reset_rate_limits()
    yield
    reset_rate_limits()


@pytest.fixture
def local_provider(pages: TourPages, monkeypatch: pytest.MonkeyPatch) -> TourPages:
    """Let the lookup reach the fake on 127.0.0.1, as the e2e server's settings do."""
    monkeypatch.setattr(get_settings(), "discover_allowed_networks", ["127.0.0.1/32"])
    return pages


@pytest.fixture
def headers(db: Session) -> dict[str, str]:
    person = factories.user(db)
    db.commit()
    return factories.bearer(person)


def lookup(client: TestClient, headers: dict[str, str], url: str, **params: str) -> dict[str, object]:
    response = client.get(DISCOVER, params={"url": url, **params}, headers=headers)
    assert response.status_code == 200, response.text
    data: dict[str, object] = response.json()["data"]
    return data


def refusal(client: TestClient, headers: dict[str, str], url: str, **params: str) -> dict[str, object]:
    response = client.get(DISCOVER, params={"url": url, **params}, headers=headers)
    assert response.status_code == 400, response.text
    body: dict[str, object] = response.json()
    return body


def test_signed_in_users_only(client: TestClient, local_provider: TourPages) -> None:
    url = local_provider.url("/tours/louvre")
    assert client.get(DISCOVER, params={"url": url}).status_code == 401
    guest = {"Authorization": f"Bearer {issue_guest_token('someone')}"}
    assert client.get(DISCOVER, params={"url": url}, headers=guest).status_code == 401


def test_a_local_address_is_refused_unless_configured(
    client: TestClient, headers: dict[str, str], pages: TourPages, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert get_settings().discover_allowed_networks == []
    before = pages.hits["/tours/louvre"]
    body = refusal(client, headers, pages.url("/tours/louvre"))
    assert body["message"] == NOT_ALLOWED and body["fields"] == {"url": NOT_ALLOWED}
    assert pages.hits["/tours/louvre"] == before  # refused before any connection
    monkeypatch.setattr(get_settings(), "discover_allowed_networks", ["127.0.0.1/32"])
    assert lookup(client, headers, pages.url("/tours/louvre"))["OpenGraph"]
    assert pages.hits["/tours/louvre"] == before + 1


def test_a_museum_page_gives_its_preview_and_its_place(
    client: TestClient, headers: dict[str, str], local_provider: TourPages
) -> None:
    data = lookup(client, headers, local_provider.url("/tours/louvre"))
    assert data == {
        "OpenGraph": {
            "title": "Louvre Museum — Grande Galerie in 360°",
            "description": "Walk through the Grande Galerie of the Louvre museum: Italian paintings, sculptures "
            "and the Mona Lisa.",
            "image": local_provider.url("/images/louvre.jpg"),
        },
        "address_id": "place.2988507",
        "address_str": "Paris, Ile-de-France, France",
        "host": None,  # not one of the caller's own hosts (tests/api/test_vendors_hosts.py)
    }
    # The address id is one the locations calls understand.
    address = client.get("/v2/locations/get-address", params={"address_id": str(data["address_id"])})
    assert address.status_code == 200 and address.json()["city"] == "Paris"


def test_a_postal_address_without_coordinates_is_searched_by_name(
    client: TestClient, headers: dict[str, str], local_provider: TourPages
) -> None:
    data = lookup(client, headers, local_provider.url("/tours/krakow"))
    assert data["OpenGraph"] == {
        "title": "Wawel Royal Castle",
        "description": "Courtyards and state rooms of the royal castle.",
        "image": local_provider.url("/images/wawel.jpg"),
    }
    assert data["address_str"] == "Kraków, Lesser Poland Voivodeship, Poland"
    assert str(data["address_id"]).startswith("place.")


def test_opengraph_coordinates_and_a_latin1_page(
    client: TestClient, headers: dict[str, str], local_provider: TourPages
) -> None:
    data = lookup(client, headers, local_provider.url("/tours/geo-meta"))
    assert data["OpenGraph"] == {
        "title": "Sagrada Família: nave in 360°",
        "description": "Gaudí's basilica, stained glass and towers.",
        "image": local_provider.url("/images/sagrada.jpg"),
    }
    assert str(data["address_str"]).endswith(", Catalonia, Spain")  # Gràcia, the district of the basilica


def test_oembed_fills_the_image_and_redirects_are_followed(
    client: TestClient, headers: dict[str, str], local_provider: TourPages
) -> None:
    data = lookup(client, headers, local_provider.url("/tours/oembed-only"))
    assert data == {
        "OpenGraph": {
            "title": "Only oEmbed here",
            "description": "",
            "image": local_provider.url("/images/oembed.jpg"),
        },
        "address_id": None,
        "address_str": None,
        "host": None,
    }
    redirected = lookup(client, headers, local_provider.url("/redirect-to-louvre"))
    assert redirected["address_id"] == "place.2988507"


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/files/tour.pdf", "The link is not a web page (application/pdf)"),
        ("/missing", "The page could not be reached (it answered 404)"),
        ("/redirect-private", NOT_ALLOWED),
        ("/redirect-loop", "The link redirects too many times"),
        ("/tours/no-metadata", NOTHING_FOUND),
    ],
)
def test_failures_are_readable_400s_on_the_url(
    client: TestClient, headers: dict[str, str], local_provider: TourPages, path: str, message: str
) -> None:
    body = refusal(client, headers, local_provider.url(path))
    assert body["message"] == message and body["fields"] == {"url": message}


def test_bad_links_and_missing_parameters_are_400s(client: TestClient, headers: dict[str, str]) -> None:
    assert refusal(client, headers, "file:///etc/passwd")["fields"] == {
        "url": "Only http:// and https:// links can be looked up"
    }
    missing = client.get(DISCOVER, headers=headers)
    assert missing.status_code == 400 and "url" in missing.json()["fields"]


def test_the_link_must_match_the_chosen_host(
    client: TestClient, db: Session, headers: dict[str, str], local_provider: TourPages
) -> None:
    db.add_all(
        [
            Vendor(name="FakeTours", slug="faketours", link_pattern=local_provider.link_pattern),
            Vendor(name="Elsewhere", slug="elsewhere", link_pattern=r"^https://elsewhere\.example/.+$"),
            Vendor(name="Branded", slug="branded", link_pattern=r"^https://branded\.example/.+$", is_white_label=True),
        ]
    )
    db.commit()
    url = local_provider.url("/tours/louvre")
    assert lookup(client, headers, url, vendor_name="faketours")["address_id"] == "place.2988507"
    assert refusal(client, headers, url, vendor_name="Elsewhere")["fields"] == {"url": LINK_FORMAT}
    assert refusal(client, headers, url, vendor_name="Nobody")["fields"] == {"vendor_name": UNKNOWN_HOST}
    # A white-label host serves tours under its customers' domains: any link may be its.
    assert lookup(client, headers, url, vendor_name="Branded")["OpenGraph"]


def test_the_lookup_is_rate_limited_per_user(
    client: TestClient, db: Session, headers: dict[str, str], local_provider: TourPages, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "auth_rate_limit_per_account", "2/minute")
    url = local_provider.url("/tours/krakow")
    for _ in range(2):
        lookup(client, headers, url)
    limited = client.get(DISCOVER, params={"url": url}, headers=headers)
    assert limited.status_code == 429 and "Too many attempts" in limited.json()["message"]
    other = factories.user(db)
    db.commit()
    assert client.get(DISCOVER, params={"url": url}, headers=factories.bearer(other)).status_code == 200


def test_pending_hosts_are_known_too(
    client: TestClient, db: Session, headers: dict[str, str], local_provider: TourPages
) -> None:
    """A user's own custom host awaiting approval is still the host they chose in the form."""
    db.add(Vendor(name="Mine", slug="mine", link_pattern=local_provider.link_pattern, status=VendorStatus.pending))
    db.commit()
    assert lookup(client, headers, local_provider.url("/tours/krakow"), vendor_name="Mine")["address_id"]
