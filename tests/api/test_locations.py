"""/v2/locations over HTTP: a small app with the error handlers and the locations router, the real
offline gazetteer, and an in-memory SQLite database for address-countries."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

import app.creators.models  # noqa: F401 - registers the tables tours refer to
from app.classifications.models import Category, MediaType
from app.core.db import Base, get_db
from app.core.errors import install_error_handlers
from app.locations import gazetteer
from app.locations.geo import BBox, LngLat
from app.locations.ports import Country, GeocoderError, Place
from app.locations.router import router
from app.locations.service import get_geocoder
from app.tours.models import ApprovalState, Tour, TourStatus
from app.users.models import User
from app.vendors.models import Vendor

BERLIN = "13.405,52.52"
PARIS = "2.3522,48.8566"
MID_ATLANTIC = "-30,30"


@pytest.fixture(scope="module")
def sessions() -> Iterator[sessionmaker[Session]]:
    engine = create_engine("sqlite://", connect_args={"check_same_thread": False}, poolclass=StaticPool)
    Base.metadata.create_all(engine)
    yield sessionmaker(bind=engine, expire_on_commit=False)
    engine.dispose()


@pytest.fixture(scope="module")
def api(sessions: sessionmaker[Session]) -> Iterator[FastAPI]:
    gazetteer.warm_up()
    application = FastAPI()
    install_error_handlers(application)
    application.include_router(router)

    def test_db() -> Iterator[Session]:
        with sessions() as session:
            yield session
            session.commit()

    application.dependency_overrides[get_db] = test_db
    yield application


@pytest.fixture
def client(api: FastAPI) -> Iterator[TestClient]:
    with TestClient(api) as test_client:
        yield test_client
    api.dependency_overrides.pop(get_geocoder, None)


class FailingGeocoder:
    """A hosted geocoder that is down."""

    def search(
        self,
        text: str,
        *,
        types: Sequence[str] = (),
        proximity: LngLat | None = None,
        bbox: BBox | None = None,
        limit: int = 5,
    ) -> list[Place]:
        raise GeocoderError("The geocoding service is unreachable")

    def reverse(self, lng: float, lat: float, *, types: Sequence[str] = (), limit: int = 5) -> list[Place]:
        raise GeocoderError("The geocoding service is unreachable")

    def lookup(self, place_id: str, *, near: LngLat | None = None) -> Place | None:
        raise GeocoderError("The geocoding service is unreachable")

    def countries(self) -> list[Country]:
        raise GeocoderError("The geocoding service is unreachable")


def _bad_request(response: Any, field: str) -> dict[str, Any]:
    assert response.status_code == 400, response.text
    body: dict[str, Any] = response.json()
    assert field in body["fields"], body
    return body


# --- countries -------------------------------------------------------------------------------------


def test_countries_lists_every_country(client: TestClient) -> None:
    response = client.get("/v2/locations/countries")
    assert response.status_code == 200
    data = response.json()["data"]
    assert len(data) >= 245
    germany = next(country for country in data if country["code"] == "DE")
    assert germany["name"] == "Germany"
    assert len(germany["center"]) == 2 and len(germany["bbox"]) == 4


def _add_tour(session: Session, owner: User, number: int, country: str | None, **state: Any) -> None:
    session.add(
        Tour(
            user_id=owner.id,
            vendor_id=1,
            media_type_id=1,
            category_id=1,
            title=f"Tour {number}",
            link=f"https://tours.example/{number}",
            link_normalised=f"tours.example/{number}",
            address_country=country,
            **state,
        )
    )


def test_address_countries_lists_countries_of_listed_tours(client: TestClient, sessions: sessionmaker[Session]) -> None:
    listed = {"status": TourStatus.active, "approval_state": ApprovalState.approved}
    with sessions() as session:
        session.add_all(
            [
                Vendor(id=1, name="Host", slug="host"),
                MediaType(id=1, name="360", slug="360"),
                Category(id=1, name="Homes", slug="homes"),
            ]
        )
        owner = User(email="owner@example.com")
        blocked = User(email="blocked@example.com", user_active=False)
        session.add_all([owner, blocked])
        session.flush()
        _add_tour(session, owner, 1, "DE", **listed)
        _add_tour(session, owner, 2, "de", **listed)
        _add_tour(session, owner, 3, "FR", **listed)
        _add_tour(session, owner, 4, "ZZ", **listed)
        _add_tour(session, owner, 5, None, **listed)
        _add_tour(session, owner, 6, "IT", status=TourStatus.draft, approval_state=ApprovalState.approved)
        _add_tour(session, owner, 7, "ES", status=TourStatus.active, approval_state=ApprovalState.pending)
        _add_tour(session, blocked, 8, "PT", **listed)
        session.commit()

    response = client.get("/v2/locations/address-countries")
    assert response.status_code == 200
    data = response.json()["data"]
    assert [(entry["code"], entry["name"], entry["vt_count"]) for entry in data] == [
        ("FR", "France", 1),
        ("DE", "Germany", 2),
        (None, "ZZ", 1),
    ]
    assert data[1]["bbox"] is not None and data[2]["bbox"] is None


# --- search-locations ------------------------------------------------------------------------------


def test_search_locations_answers_mapbox_shaped_features(client: TestClient) -> None:
    response = client.get("/v2/locations/search-locations", params={"search_text": "berlin"})
    assert response.status_code == 200
    first = response.json()["data"][0]
    assert first["id"] == "place.2950159"
    assert first["text"] == "Berlin"
    assert first["place_name"] == "Berlin, Germany"
    assert first["place_type"] == ["place"]
    assert first["country"] == "DE"
    assert len(first["center"]) == 2 and len(first["bbox"]) == 4


def test_search_locations_options(client: TestClient) -> None:
    params = {"search_text": "ge", "types": "country", "limit": "2"}
    data = client.get("/v2/locations/search-locations", params=params).json()["data"]
    assert [feature["id"] for feature in data] == ["country.DE", "country.GE"]
    near_houston = {"search_text": "spring", "proximity": "-95.37,29.76", "limit": "1"}
    data = client.get("/v2/locations/search-locations", params=near_houston).json()["data"]
    assert data[0]["place_name"] == "Spring, Texas, United States"
    in_europe = {"search_text": "san", "bbox": "-25,34,45,72", "limit": "3"}
    data = client.get("/v2/locations/search-locations", params=in_europe).json()["data"]
    assert data and all(-25 <= feature["center"][0] <= 45 for feature in data)


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({}, "search_text"),
        ({"search_text": "   "}, "search_text"),
        ({"search_text": "x" * 257}, "search_text"),
        ({"search_text": "berlin", "types": "place,city"}, "types"),
        ({"search_text": "berlin", "limit": "0"}, "limit"),
        ({"search_text": "berlin", "limit": "many"}, "limit"),
        ({"search_text": "berlin", "proximity": "13.4"}, "proximity"),
        ({"search_text": "berlin", "proximity": "200,10"}, "proximity"),
        ({"search_text": "berlin", "bbox": "1,2,3"}, "bbox"),
        ({"search_text": "berlin", "bbox": "0,50,10,40"}, "bbox"),
    ],
)
def test_search_locations_rejects_bad_input(client: TestClient, params: dict[str, str], field: str) -> None:
    _bad_request(client.get("/v2/locations/search-locations", params=params), field)


def test_search_locations_reports_an_unavailable_geocoder(client: TestClient, api: FastAPI) -> None:
    api.dependency_overrides[get_geocoder] = FailingGeocoder
    response = client.get("/v2/locations/search-locations", params={"search_text": "berlin"})
    assert response.status_code == 503
    assert response.json()["message"] == "The geocoding service is unreachable"


# --- user-location-by-coords -----------------------------------------------------------------------


def test_user_location_resolves_the_surrounding_place(client: TestClient) -> None:
    response = client.get("/v2/locations/user-location-by-coords", params={"coordinates": PARIS})
    assert response.status_code == 200
    body = response.json()
    assert body["center"] == [2.3522, 48.8566]
    assert body["text"] == "Paris, Ile-de-France, France"
    west, south, east, north = body["bbox"]
    assert west < 2.3522 < east and south < 48.8566 < north


def test_user_location_mid_ocean_is_unresolved(client: TestClient) -> None:
    response = client.get("/v2/locations/user-location-by-coords", params={"coordinates": MID_ATLANTIC})
    assert response.status_code == 200
    assert response.json() == {"center": [-30.0, 30.0], "bbox": None, "text": "Unresolved address"}


def test_user_location_survives_a_geocoder_outage(client: TestClient, api: FastAPI) -> None:
    api.dependency_overrides[get_geocoder] = FailingGeocoder
    response = client.get("/v2/locations/user-location-by-coords", params={"coordinates": BERLIN})
    assert response.status_code == 200
    assert response.json()["text"] == "Unresolved address"


@pytest.mark.parametrize("coordinates", ["", "abc", "13.4", "13.4,52.5,1", "nan,52", "13.4,91", "-181,0", "52.5;13.4"])
def test_user_location_rejects_malformed_coordinates(client: TestClient, coordinates: str) -> None:
    response = client.get("/v2/locations/user-location-by-coords", params={"coordinates": coordinates})
    body = _bad_request(response, "coordinates")
    assert "coordinates" in body["message"]


def test_user_location_requires_coordinates(client: TestClient) -> None:
    _bad_request(client.get("/v2/locations/user-location-by-coords"), "coordinates")


# --- location and get-address ----------------------------------------------------------------------


def test_location_by_id_and_by_coordinates(client: TestClient) -> None:
    by_id = client.get("/v2/locations/location", params={"id": "place.2950159"})
    assert by_id.status_code == 200
    body = by_id.json()
    assert body["place_name"] == "Berlin, Germany"
    assert body["address"]["city"] == "Berlin" and body["address"]["country_code"] == "DE"

    by_point = client.get("/v2/locations/location", params={"coordinates": PARIS, "types": "region"})
    assert by_point.status_code == 200
    assert by_point.json()["id"] == "region.FR.ile-de-france"


def test_location_errors(client: TestClient) -> None:
    missing = client.get("/v2/locations/location", params={"id": "place.0"})
    assert missing.status_code == 404 and missing.json()["message"] == "Location not found"
    ocean = client.get("/v2/locations/location", params={"coordinates": MID_ATLANTIC})
    assert ocean.status_code == 404
    _bad_request(client.get("/v2/locations/location"), "id")
    _bad_request(client.get("/v2/locations/location", params={"coordinates": "x,y"}), "coordinates")
    _bad_request(client.get("/v2/locations/location", params={"coordinates": PARIS, "types": "town"}), "types")


def test_get_address_reads_a_map_pin_as_an_address(client: TestClient) -> None:
    response = client.get("/v2/locations/get-address", params={"coordinates": PARIS})
    assert response.status_code == 200
    address = response.json()
    assert address["city"] == "Paris"
    assert address["province"] == "Ile-de-France"
    assert address["country"] == "France" and address["country_code"] == "FR"
    assert address["address_str"] == "Paris, Ile-de-France, France"
    assert address["street"] is None and address["zip"] is None

    again = client.get("/v2/locations/get-address", params={"address_id": address["address_id"]})
    assert again.status_code == 200 and again.json() == address


def test_get_address_errors(client: TestClient) -> None:
    ocean = client.get("/v2/locations/get-address", params={"coordinates": MID_ATLANTIC})
    assert ocean.status_code == 404 and ocean.json()["message"] == "Address not found"
    _bad_request(client.get("/v2/locations/get-address"), "address_id")
    _bad_request(client.get("/v2/locations/get-address", params={"coordinates": "13.4,95"}), "coordinates")
