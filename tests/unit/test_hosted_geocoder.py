"""The hosted adapter against a local fake server speaking Mapbox Geocoding v5's wire format."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from app.locations.hosted import HostedGeocoder
from app.locations.ports import Country, GeocoderError
from tests.fakes.server import http_server, serve_in_background, stop

TOKEN = "pk.test-token"
DATASET_PATH = "/geocoding/v5/mapbox.places"

MUNICH_PLACE: dict[str, Any] = {
    "id": "place.9397217726497330",
    "type": "Feature",
    "place_type": ["place"],
    "relevance": 1,
    "properties": {"wikidata": "Q1726", "mapbox_id": "dXJuOm1ieHBsYzpBZ1pJN0E"},
    "text": "Munich",
    "place_name": "Munich, Bavaria, Germany",
    "bbox": [11.360777, 48.061596, 11.72291, 48.248216],
    "center": [11.575382, 48.137108],
    "geometry": {"type": "Point", "coordinates": [11.575382, 48.137108]},
    "context": [
        {"id": "region.9407", "short_code": "DE-BY", "wikidata": "Q980", "text": "Bavaria"},
        {"id": "country.8855", "short_code": "de", "wikidata": "Q183", "text": "Germany"},
    ],
}
ADDRESS: dict[str, Any] = {
    "id": "address.4356035406756260",
    "type": "Feature",
    "place_type": ["address"],
    "relevance": 1,
    "properties": {"accuracy": "rooftop"},
    "text": "Marienplatz",
    "place_name": "Marienplatz 8, 80331 Munich, Germany",
    "center": [11.5755, 48.1374],
    "geometry": {"type": "Point", "coordinates": [11.5755, 48.1374]},
    "address": "8",
    "context": [
        {"id": "postcode.8261", "text": "80331"},
        {"id": "locality.2301", "text": "Altstadt-Lehel"},
        {"id": "place.9397217726497330", "wikidata": "Q1726", "text": "Munich"},
        {"id": "region.9407", "short_code": "DE-BY", "wikidata": "Q980", "text": "Bavaria"},
        {"id": "country.8855", "short_code": "de", "wikidata": "Q183", "text": "Germany"},
    ],
}
GERMANY: dict[str, Any] = {
    "id": "country.8855",
    "type": "Feature",
    "place_type": ["country"],
    "properties": {"short_code": "de", "wikidata": "Q183"},
    "text": "Germany",
    "place_name": "Germany",
    "bbox": [5.866315, 47.270238, 15.041832, 55.1286491],
    "center": [10.0183432948567, 51.1334813439932],
}


@dataclass
class FakeMapbox:
    """Answers every GET with the next queued (status, body), recording what was asked."""

    responses: list[tuple[int, Any]] = field(default_factory=list)
    requests: list[tuple[str, dict[str, list[str]]]] = field(default_factory=list)

    def answer(self, status: int, body: Any) -> None:
        self.responses.append((status, body))

    def collection(self, *features: dict[str, Any], query: list[Any] | None = None) -> None:
        self.answer(200, {"type": "FeatureCollection", "query": query or [], "features": list(features)})

    @property
    def last_path(self) -> str:
        return self.requests[-1][0]

    @property
    def last_params(self) -> dict[str, str]:
        return {key: values[0] for key, values in self.requests[-1][1].items()}


@pytest.fixture
def fake() -> Iterator[tuple[FakeMapbox, str]]:
    state = FakeMapbox()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            url = urlsplit(self.path)
            state.requests.append((url.path, parse_qs(url.query)))
            status, body = state.responses.pop(0) if state.responses else (200, {"features": []})
            payload = body.encode() if isinstance(body, str) else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/vnd.geo+json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *_args: Any) -> None:
            pass

    server = http_server()
    server.RequestHandlerClass = Handler
    serve_in_background(server, "fake-mapbox")
    try:
        yield state, f"http://127.0.0.1:{server.server_address[1]}{DATASET_PATH}"
    finally:
        stop(server)


def _countries() -> list[Country]:
    return [Country(code="DE", name="Germany", center=(10.0, 51.0), bbox=(5.8, 47.2, 15.1, 55.1))]


@pytest.fixture
def geocoder(fake: tuple[FakeMapbox, str]) -> Iterator[HostedGeocoder]:
    hosted = HostedGeocoder(fake[1] + "/", TOKEN, countries=_countries)
    yield hosted
    hosted.close()


def test_forward_search_sends_mapbox_parameters(fake: tuple[FakeMapbox, str], geocoder: HostedGeocoder) -> None:
    server, _ = fake
    server.collection(MUNICH_PLACE, query=["munich"])
    places = geocoder.search(
        "München; Bayern", types=["place", "region"], proximity=(11.5, 48.1), bbox=(5.0, 47.0, 15.0, 55.0), limit=3
    )
    assert unquote(server.last_path) == f"{DATASET_PATH}/München; Bayern.json"
    assert "%3B" in server.last_path  # the batch separator is escaped, so this stays one query
    assert server.last_params == {
        "access_token": TOKEN,
        "autocomplete": "true",
        "limit": "3",
        "types": "place,region",
        "proximity": "11.5,48.1",
        "bbox": "5,47,15,55",
    }
    [munich] = places
    assert munich.id == "place.9397217726497330"
    assert munich.place_name == "Munich, Bavaria, Germany"
    assert munich.place_type == ("place",)
    assert munich.center == (11.575382, 48.137108)
    assert munich.bbox == (11.360777, 48.061596, 11.72291, 48.248216)
    assert munich.country_code == "DE"
    region = munich.part("region")
    assert region is not None and region.text == "Bavaria" and region.short_code == "DE-BY"


def test_forward_search_without_options_sends_only_what_is_needed(
    fake: tuple[FakeMapbox, str], geocoder: HostedGeocoder
) -> None:
    server, _ = fake
    server.collection()
    assert geocoder.search("nowhere") == []
    assert server.last_params == {"access_token": TOKEN, "autocomplete": "true", "limit": "5"}


def test_reverse_puts_longitude_first_and_limits_only_single_types(
    fake: tuple[FakeMapbox, str], geocoder: HostedGeocoder
) -> None:
    server, _ = fake
    server.collection(ADDRESS, MUNICH_PLACE, GERMANY, query=[11.5755, 48.1374])
    places = geocoder.reverse(11.5755, 48.1374, limit=2)
    assert server.last_path == f"{DATASET_PATH}/11.5755,48.1374.json"
    assert server.last_params == {"access_token": TOKEN}  # Mapbox refuses limit with several types
    assert [place.id for place in places] == ["address.4356035406756260", "place.9397217726497330"]
    address = places[0]
    assert address.address_number == "8"
    postcode, city = address.part("postcode"), address.part("place")
    assert postcode is not None and postcode.text == "80331"
    assert city is not None and city.text == "Munich"
    assert address.country_code == "DE"

    server.collection(GERMANY)
    [country] = geocoder.reverse(-3.0, 40.0, types=["country"], limit=1)
    assert server.last_params == {"access_token": TOKEN, "types": "country", "limit": "1"}
    assert country.short_code == "de" and country.country_code == "DE"


def test_lookup_finds_a_feature_again_at_its_centre(fake: tuple[FakeMapbox, str], geocoder: HostedGeocoder) -> None:
    server, _ = fake
    server.collection(MUNICH_PLACE)
    place = geocoder.lookup("place.9397217726497330", near=(11.575382, 48.137108))
    assert place is not None and place.text == "Munich"
    assert server.last_params["types"] == "place"
    server.collection(MUNICH_PLACE)
    assert geocoder.lookup("place.1", near=(11.575382, 48.137108)) is None
    requests_before = len(server.requests)
    assert geocoder.lookup("place.9397217726497330") is None  # no centre: nothing to ask
    assert len(server.requests) == requests_before


def test_malformed_features_are_skipped(fake: tuple[FakeMapbox, str], geocoder: HostedGeocoder) -> None:
    server, _ = fake
    broken = [
        "not a feature",
        {"id": "place.1", "text": "No centre", "place_type": ["place"]},
        {"id": "place.2", "text": "Bad centre", "place_type": ["place"], "center": ["x", 1]},
        {"id": "place.3", "text": "NaN", "place_type": ["place"], "center": [float("nan"), 1.0]},
        {"id": "place.4", "text": "Bad bbox", "place_type": ["place"], "center": [1.0, 2.0], "bbox": [1, 2]},
    ]
    server.answer(200, json.dumps({"type": "FeatureCollection", "features": [*broken, MUNICH_PLACE]}))
    places = geocoder.search("x")
    assert [place.id for place in places] == ["place.4", "place.9397217726497330"]
    assert places[0].bbox is None and places[0].place_name == "Bad bbox"


@pytest.mark.parametrize(
    ("status", "body", "message"),
    [
        (401, {"message": "Not Authorized - Invalid Token"}, "refused our access token"),
        (429, {"message": "Rate limit exceeded"}, "rate limiting"),
        (500, {"message": "Internal"}, "status 500"),
        (200, "<html>not json</html>", "invalid JSON"),
        (200, {"type": "FeatureCollection"}, "without features"),
    ],
)
def test_service_failures_raise_geocoder_error(
    fake: tuple[FakeMapbox, str], geocoder: HostedGeocoder, status: int, body: Any, message: str
) -> None:
    server, _ = fake
    server.answer(status, body)
    with pytest.raises(GeocoderError, match=message):
        geocoder.search("berlin")


def test_unparseable_queries_find_nothing(fake: tuple[FakeMapbox, str], geocoder: HostedGeocoder) -> None:
    server, _ = fake
    server.answer(422, {"message": "Query too long - 21/20 tokens"})
    assert geocoder.search(" ".join(["word"] * 21)) == []


def test_an_unreachable_service_fails_without_leaking_the_token() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed once the block ends: nothing listens there
    hosted = HostedGeocoder(f"http://127.0.0.1:{port}{DATASET_PATH}", TOKEN, countries=_countries, timeout_s=2)
    with pytest.raises(GeocoderError) as raised:
        hosted.reverse(13.4, 52.5)
    assert TOKEN not in str(raised.value)
    assert raised.value.__suppress_context__  # the httpx error, whose text carries the URL, is not chained
    hosted.close()


def test_countries_come_from_the_offline_table(geocoder: HostedGeocoder) -> None:
    assert [country.code for country in geocoder.countries()] == ["DE"]
