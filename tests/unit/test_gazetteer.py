"""The offline gazetteer against its real data (built once per test process, about 3 s)."""

from __future__ import annotations

import math

import pytest

from app.locations import gazetteer
from app.locations.gazetteer import Gazetteer, iter_places, normalise
from app.locations.geo import bbox_around_points, longitude_span
from app.locations.ports import Place

BERLIN = (13.405, 52.52)
PARIS = (2.3522, 48.8566)
MID_ATLANTIC = (-30.0, 30.0)


@pytest.fixture(scope="module")
def geocoder() -> Gazetteer:
    gazetteer.warm_up()
    return Gazetteer()


def _distance_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    lng1, lat1, lng2, lat2 = map(math.radians, (*a, *b))
    half = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lng2 - lng1) / 2) ** 2
    return 2 * 6371 * math.asin(math.sqrt(half))


def _inside(place: Place, point: tuple[float, float]) -> bool:
    assert place.bbox is not None
    west, south, east, north = place.bbox
    inside_lng = west <= point[0] <= east if west <= east else (point[0] >= west or point[0] <= east)
    return inside_lng and south <= point[1] <= north


# --- forward ---------------------------------------------------------------------------------------


def test_search_finds_the_city_first(geocoder: Gazetteer) -> None:
    places = geocoder.search("Berlin")
    assert places[0].place_name == "Berlin, Germany"
    assert places[0].place_type == ("place",)
    assert places[0].country_code == "DE"
    assert _distance_km(places[0].center, BERLIN) < 10
    assert _inside(places[0], BERLIN)


def test_search_matches_prefixes_accents_and_alternate_names(geocoder: Gazetteer) -> None:
    assert geocoder.search("ber")[0].text == "Berlin"
    assert geocoder.search("münchen")[0].text == "Munich"
    assert geocoder.search("MUNCHEN")[0].text == "Munich"
    assert geocoder.search("saint etienne")[0].text == "Saint-Étienne"
    assert geocoder.search("東京")[0].text == "Tokyo"


def test_search_ranks_by_population(geocoder: Gazetteer) -> None:
    names = [place.text for place in geocoder.search("san fr", limit=5)]
    assert names[0] == "San Francisco"


def test_a_comma_narrows_by_region_or_country(geocoder: Gazetteer) -> None:
    texas = geocoder.search("Paris, Texas")
    assert [place.place_name for place in texas] == ["Paris, Texas, United States"]
    assert geocoder.search("paris texas")[0].place_name == "Paris, Texas, United States"
    assert geocoder.search("Paris, FR")[0].country_code == "FR"


def test_search_filters_by_type(geocoder: Gazetteer) -> None:
    countries = geocoder.search("ge", types=["country"])
    assert [place.id for place in countries[:2]] == ["country.DE", "country.GE"]
    assert all(place.place_type == ("country",) for place in countries)
    regions = geocoder.search("bavaria", types=["region"])
    assert regions[0].place_name == "Bavaria, Germany"
    assert regions[0].bbox is not None and _inside(regions[0], (11.58, 48.14))  # Munich


def test_search_for_types_the_gazetteer_lacks_finds_nothing(geocoder: Gazetteer) -> None:
    assert geocoder.search("berlin", types=["address", "poi"]) == []
    assert geocoder.search("  ,  ") == []
    assert geocoder.search("zzzzqqqq") == []


def test_proximity_favours_nearby_places(geocoder: Gazetteer) -> None:
    houston = (-95.37, 29.76)
    near = geocoder.search("spring", proximity=houston, limit=3)
    assert near[0].place_name == "Spring, Texas, United States"
    london = geocoder.search("lon", proximity=(-81.25, 42.98), limit=1)  # London, Ontario
    assert london[0].place_name.endswith("Canada")


def test_bbox_keeps_only_places_inside(geocoder: Gazetteer) -> None:
    europe = (-25.0, 34.0, 45.0, 72.0)
    places = geocoder.search("san", bbox=europe, limit=10)
    assert places
    assert all(-25 <= place.center[0] <= 45 and 34 <= place.center[1] <= 72 for place in places)


def test_limit_caps_results_and_never_repeats_a_place(geocoder: Gazetteer) -> None:
    places = geocoder.search("a", limit=10)
    assert len(places) == 10
    assert len({place.id for place in places}) == 10


# --- reverse ---------------------------------------------------------------------------------------


def test_reverse_gives_place_region_and_country(geocoder: Gazetteer) -> None:
    place, region, country = geocoder.reverse(*PARIS)
    assert place.place_name == "Paris, Ile-de-France, France"
    assert region.id == "region.FR.ile-de-france"
    assert country.id == "country.FR"
    assert place.part("region") is not None and place.part("country") is not None


def test_reverse_filters_types_and_limits(geocoder: Gazetteer) -> None:
    assert [place.id for place in geocoder.reverse(*PARIS, types=["country"])] == ["country.FR"]
    assert len(geocoder.reverse(*PARIS, limit=1)) == 1


def test_reverse_in_the_countryside_finds_the_nearest_locality(geocoder: Gazetteer) -> None:
    place = geocoder.reverse(10.0, 51.0)[0]  # rural Thuringia
    assert place.country_code == "DE"
    assert _distance_km(place.center, (10.0, 51.0)) < 20
    assert geocoder.lookup(place.id) == place


def test_reverse_works_across_the_antimeridian(geocoder: Gazetteer) -> None:
    east = geocoder.reverse(179.99, -16.5)[0]
    west = geocoder.reverse(-179.99, -16.5)[0]
    assert east.country_code == west.country_code == "FJ"


def test_mid_ocean_and_poles_resolve_to_nothing(geocoder: Gazetteer) -> None:
    assert geocoder.reverse(*MID_ATLANTIC) == []
    assert geocoder.reverse(-140.0, -45.0) == []  # South Pacific
    assert geocoder.reverse(0.0, 89.0) == []


# --- lookup, countries, index documents ------------------------------------------------------------


def test_lookup_by_id(geocoder: Gazetteer) -> None:
    berlin = geocoder.search("berlin", limit=1)[0]
    assert geocoder.lookup(berlin.id) == berlin
    country = geocoder.lookup("country.DE")
    assert country is not None and country.text == "Germany"
    assert geocoder.lookup("place.0") is None
    assert geocoder.lookup("place.rg99999999") is None
    assert geocoder.lookup("nonsense") is None


def test_countries_are_complete_sorted_and_framed(geocoder: Gazetteer) -> None:
    countries = geocoder.countries()
    codes = [country.code for country in countries]
    assert len(countries) >= 245 and len(set(codes)) == len(codes)
    assert [country.name for country in countries] == sorted(country.name for country in countries)
    assert {"DE", "FR", "US", "XK", "AQ", "BV"} <= set(codes)
    assert not {"AN", "CS"} & set(codes)  # retired codes
    by_code = {country.code: country for country in countries}
    germany = by_code["DE"]
    assert germany.bbox is not None
    west, south, east, north = germany.bbox
    assert 5 < west < 6.5 and 47 < south < 47.5 and 14.5 < east < 15.5 and 54.5 < north < 55.5
    assert 5 < germany.center[0] < 15 and 47 < germany.center[1] < 55


def test_countries_across_the_antimeridian_keep_a_narrow_box(geocoder: Gazetteer) -> None:
    russia = next(country for country in geocoder.countries() if country.code == "RU")
    assert russia.bbox is not None
    west, _, east, _ = russia.bbox
    assert west > east  # RFC 7946: west > east crosses the antimeridian
    assert 15 < west < 25 and -175 < east < -165


def test_iter_places_yields_countries_and_cities() -> None:
    documents = list(iter_places())
    kinds = {document.kind for document in documents}
    assert kinds == {"country", "place"}
    assert len({document.id for document in documents}) == len(documents)
    countries = [document for document in documents if document.kind == "country"]
    cities = [document for document in documents if document.kind == "place"]
    assert len(cities) > 30000
    assert all(document.bbox is not None for document in countries)
    assert all(document.bbox is None for document in cities)
    small = {document.name for document in cities if document.population < 15000}
    assert {"The Valley", "Vaduz"} <= small  # capitals, whatever their size
    assert "Thomas Magena home" not in small  # a stray GeoNames record of no population
    assert len(small) < 100
    berlin = next(document for document in cities if document.id == "place.2950159")
    assert berlin.name == "Berlin" and berlin.country == "DE" and berlin.population > 3_000_000
    assert abs(berlin.lat - 52.52) < 0.1 and abs(berlin.lng - 13.4) < 0.1


# --- helpers ---------------------------------------------------------------------------------------


def test_normalise_folds_case_accents_and_punctuation() -> None:
    assert normalise("Saint-Étienne") == "saint etienne"
    assert normalise("  SÃO   Paulo ") == "sao paulo"
    assert normalise("\u2019s-Hertogenbosch") == "s hertogenbosch"


def test_longitude_span_takes_the_short_way_round() -> None:
    assert longitude_span([10.0, 20.0]) == (10.0, 20.0)
    assert longitude_span([170.0, -170.0]) == (170.0, 190.0)
    assert bbox_around_points([170.0, -170.0], [0.0, 1.0], padding_deg=0.0) == (170.0, 0.0, -170.0, 1.0)
