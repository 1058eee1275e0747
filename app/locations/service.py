"""Locations (spec §7 Location): search, reverse geocoding, addresses and countries.

Every answer comes from the `Geocoder` port; the settings choose the adapter (hosted when
GEOCODER_URL is set, the offline gazetteer otherwise). The only table read here is `tours`, for the
countries that have something to show.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.errors import AppError, NotFound, field_error
from app.core.settings import get_settings
from app.locations import gazetteer
from app.locations.geo import BBox, LngLat
from app.locations.hosted import HostedGeocoder
from app.locations.ports import Country, Geocoder, GeocoderError, Place
from app.tours.models import Tour
from app.tours.queries import discoverable_clause

logger = logging.getLogger("touratlas.locations")

UNRESOLVED_ADDRESS = "Unresolved address"  # spec §8: the text of a reverse-geocoding failure
# A user's location is framed at city level: precise enough for 'Near Me', and no street address.
USER_LOCATION_TYPES = ("place", "locality", "region", "country")


@dataclass(frozen=True, slots=True)
class Address:
    """A place read as a postal address (spec §3 Media address: street, city, province, zip, country)."""

    address_id: str
    address_str: str
    street: str | None
    city: str | None
    province: str | None
    zip: str | None
    country: str | None
    country_code: str | None
    center: LngLat
    bbox: BBox | None


@dataclass(frozen=True, slots=True)
class UserLocation:
    center: LngLat
    bbox: BBox | None
    text: str


@dataclass(frozen=True, slots=True)
class AddressCountry:
    """A country named on active tours; `country` is None when the stored name matches no known country."""

    name: str
    country: Country | None
    vt_count: int


@lru_cache(maxsize=1)
def get_geocoder() -> Geocoder:
    """The process's geocoder (a FastAPI dependency, so tests can override it)."""
    settings = get_settings()
    if settings.geocoder_url:
        return HostedGeocoder(settings.geocoder_url, settings.geocoder_token, countries=gazetteer.country_list)
    return gazetteer.Gazetteer()


@contextmanager
def _geocoder_errors() -> Iterator[None]:
    try:
        yield
    except GeocoderError as exc:
        raise AppError(str(exc), status_code=503) from exc


def search_locations(
    geocoder: Geocoder,
    text: str,
    *,
    types: Sequence[str] = (),
    proximity: LngLat | None = None,
    bbox: BBox | None = None,
    limit: int = 5,
) -> list[Place]:
    with _geocoder_errors():
        return geocoder.search(text, types=types, proximity=proximity, bbox=bbox, limit=limit)


def find_location(
    geocoder: Geocoder, *, place_id: str | None, coordinates: LngLat | None, types: Sequence[str] = ()
) -> Place:
    """The place with this id, or else the most specific place at the coordinates."""
    place = _find_place(geocoder, place_id=place_id, coordinates=coordinates, types=types, id_field="id")
    if place is None:
        raise NotFound("Location not found")
    return place


def find_address(geocoder: Geocoder, *, address_id: str | None, coordinates: LngLat | None) -> Address:
    """The address of a place id, or of the most specific place at the coordinates (the map pin)."""
    place = _find_place(geocoder, place_id=address_id, coordinates=coordinates, types=(), id_field="address_id")
    if place is None:
        raise NotFound("Address not found")
    return address_of(place)


def _find_place(
    geocoder: Geocoder, *, place_id: str | None, coordinates: LngLat | None, types: Sequence[str], id_field: str
) -> Place | None:
    if place_id:
        with _geocoder_errors():
            return geocoder.lookup(place_id, near=coordinates)
    if coordinates is None:
        raise field_error(id_field, f"Give {id_field} or coordinates ('longitude,latitude')")
    with _geocoder_errors():
        places = geocoder.reverse(*coordinates, types=types, limit=1)
    return places[0] if places else None


def address_of(place: Place) -> Address:
    street = None
    if "address" in place.place_type:
        street = " ".join(part for part in (place.address_number, place.text) if part)
    city = place.part("place") or place.part("locality")
    province, postcode, country = place.part("region"), place.part("postcode"), place.part("country")
    return Address(
        address_id=place.id,
        address_str=place.place_name,
        street=street,
        city=city.text if city else None,
        province=province.text if province else None,
        zip=postcode.text if postcode else None,
        country=country.text if country else None,
        country_code=place.country_code,
        center=place.center,
        bbox=place.bbox,
    )


def user_location(geocoder: Geocoder, coordinates: LngLat) -> UserLocation:
    """Where the user is: their own point as the centre, the surrounding place's bbox and name.

    Never fails: a point far from everything, or a geocoder that cannot answer, reads as
    'Unresolved address' (spec §8), because the client stores whatever this returns.
    """
    try:
        places = geocoder.reverse(*coordinates, types=USER_LOCATION_TYPES, limit=1)
    except GeocoderError as exc:
        logger.warning("reverse geocoding failed for the user location: %s", exc)
        places = []
    if not places:
        return UserLocation(center=coordinates, bbox=None, text=UNRESOLVED_ADDRESS)
    return UserLocation(center=coordinates, bbox=places[0].bbox, text=places[0].place_name)


def list_countries(geocoder: Geocoder) -> list[Country]:
    with _geocoder_errors():
        return geocoder.countries()


def address_countries(session: Session) -> list[AddressCountry]:
    """The countries of discoverable tours (public, active, approved, of an active account) with their
    counts, by name (the filters' country list: an unlisted tour's country is not told).

    Tours store the ISO code; codes are matched case-insensitively and merged, and a code no country
    has (a retired one) is still listed, under the code itself, so its tours stay reachable by filter.
    """
    rows = session.execute(
        select(Tour.address_country, func.count())
        .where(discoverable_clause(), Tour.address_country.is_not(None), Tour.address_country != "")
        .group_by(Tour.address_country)
    ).all()
    counts: dict[str, AddressCountry] = {}
    for stored_value, count in rows:
        value = (stored_value or "").strip()
        if not value:
            continue
        country = gazetteer.resolve_country(value)
        key = country.code if country else value
        total = count + (counts[key].vt_count if key in counts else 0)
        counts[key] = AddressCountry(name=country.name if country else value, country=country, vt_count=total)
    return sorted(counts.values(), key=lambda entry: entry.name.casefold())
