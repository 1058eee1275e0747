"""/v2/locations (spec §7 Location): parse the query, call the service, shape the answer.

Coordinates are always 'longitude,latitude' (the spec's order); a malformed value is a 400 naming
the parameter. `map-area` and `filtered-area` read the search index and are served elsewhere.
"""

from __future__ import annotations

import math
from typing import Annotated

from fastapi import APIRouter, Depends, Query

from app.core.access import public
from app.core.deps import DbSession, GeocoderDep
from app.core.errors import error_responses, field_error
from app.locations import service
from app.locations.geo import BBox, LngLat
from app.locations.ports import PLACE_TYPES
from app.locations.schemas import (
    AddressCountriesOut,
    AddressCountryOut,
    AddressOut,
    CountriesOut,
    CountryOut,
    LocationFeatureOut,
    LocationOut,
    SearchLocationsOut,
    UserLocationOut,
)

router = APIRouter(prefix="/v2/locations", tags=["locations"])

MAX_SEARCH_TEXT = 256  # Mapbox's own limit, kept for the gazetteer too so both adapters agree
COORDINATES_HELP = "'longitude,latitude', e.g. 13.405,52.52"


@router.get("/countries", response_model=CountriesOut, dependencies=[Depends(public)])
def countries(geocoder: GeocoderDep) -> CountriesOut:
    """Every country with its ISO code, name, centre and bbox, sorted by name."""
    return CountriesOut(data=[CountryOut.of(country) for country in service.list_countries(geocoder)])


@router.get("/address-countries", response_model=AddressCountriesOut, dependencies=[Depends(public)])
def address_countries(db: DbSession) -> AddressCountriesOut:
    """The countries that have at least one active, approved tour, with how many."""
    return AddressCountriesOut(data=[AddressCountryOut.of(entry) for entry in service.address_countries(db)])


@router.get("/search-locations", response_model=SearchLocationsOut, dependencies=[Depends(public)])
def search_locations(
    geocoder: GeocoderDep,
    search_text: Annotated[str, Query(max_length=MAX_SEARCH_TEXT)],
    types: str | None = None,
    limit: Annotated[int, Query(ge=1, le=10)] = 5,
    proximity: str | None = None,
    bbox: str | None = None,
) -> SearchLocationsOut:
    """Places whose names start with `search_text`, best first.

    - `types`: comma list of country, region, postcode, place, locality, neighborhood, address, poi;
    - `proximity`: 'longitude,latitude' to favour places near it; `bbox`: 'west,south,east,north'
      to keep only places inside it; `limit`: 1 to 10 (default 5).
    A comma in `search_text` narrows by region or country: 'Paris, Texas'.
    """
    if not search_text.strip():
        raise field_error("search_text", "Type a place to search for")
    places = service.search_locations(
        geocoder,
        search_text,
        types=_types(types),
        proximity=_point(proximity, "proximity") if proximity else None,
        bbox=_bbox(bbox) if bbox else None,
        limit=limit,
    )
    return SearchLocationsOut(data=[LocationFeatureOut.of(place) for place in places])


@router.get("/location", response_model=LocationOut, dependencies=[Depends(public)], responses=error_responses(404))
def location(
    geocoder: GeocoderDep, id: str | None = None, coordinates: str | None = None, types: str | None = None
) -> LocationOut:
    """One place and its address.

    - `id`: a place id from search-locations (with the hosted geocoder also pass `coordinates`, the
      place's centre, since that service cannot fetch by id);
    - or `coordinates` alone ('longitude,latitude'): the most specific place there, optionally of `types`.
    404 'Location not found' when nothing matches.
    """
    point = _point(coordinates, "coordinates") if coordinates else None
    place = service.find_location(geocoder, place_id=id, coordinates=point, types=_types(types))
    return LocationOut.of_place(place, service.address_of(place))


@router.get("/get-address", response_model=AddressOut, dependencies=[Depends(public)], responses=error_responses(404))
def get_address(geocoder: GeocoderDep, coordinates: str | None = None, address_id: str | None = None) -> AddressOut:
    """The address (street, city, province, zip, country) at a point picked on the map.

    - `coordinates`: 'longitude,latitude'; or `address_id`: a place id (plus its `coordinates` with the
      hosted geocoder). 404 'Address not found' when nothing is there, so the client can ask for a pin.
    """
    point = _point(coordinates, "coordinates") if coordinates else None
    return AddressOut.of(service.find_address(geocoder, address_id=address_id, coordinates=point))


@router.get("/user-location-by-coords", response_model=UserLocationOut, dependencies=[Depends(public)])
def user_location_by_coords(geocoder: GeocoderDep, coordinates: str) -> UserLocationOut:
    """The user's location: `coordinates` ('longitude,latitude') as the centre, the surrounding place's
    bbox and name, or a null bbox and 'Unresolved address' when no place is near."""
    return UserLocationOut.of(service.user_location(geocoder, _point(coordinates, "coordinates")))


def _numbers(value: str, count: int, field: str, expected: str) -> list[float]:
    parts = value.split(",")
    message = f"{field} must be {expected}"
    if len(parts) != count:
        raise field_error(field, message)
    try:
        numbers = [float(part) for part in parts]
    except ValueError:
        raise field_error(field, message) from None
    if not all(math.isfinite(number) for number in numbers):
        raise field_error(field, message)
    return numbers


def _check_range(field: str, lng: float, lat: float) -> None:
    if not -180.0 <= lng <= 180.0:
        raise field_error(field, f"{field}: longitude must be between -180 and 180")
    if not -90.0 <= lat <= 90.0:
        raise field_error(field, f"{field}: latitude must be between -90 and 90")


def _point(value: str, field: str) -> LngLat:
    lng, lat = _numbers(value, 2, field, COORDINATES_HELP)
    _check_range(field, lng, lat)
    return (lng, lat)


def _bbox(value: str) -> BBox:
    west, south, east, north = _numbers(value, 4, "bbox", "'west,south,east,north' in degrees")
    _check_range("bbox", west, south)
    _check_range("bbox", east, north)
    if south > north:
        raise field_error("bbox", "bbox: south must not be greater than north")
    return (west, south, east, north)


def _types(value: str | None) -> tuple[str, ...]:
    if not value:
        return ()
    types = tuple(dict.fromkeys(part.strip().lower() for part in value.split(",") if part.strip()))
    unknown = [kind for kind in types if kind not in PLACE_TYPES]
    if unknown:
        raise field_error("types", f"Unknown type '{unknown[0]}'; use {', '.join(PLACE_TYPES)}")
    return types
