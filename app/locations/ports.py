"""The geocoder port: what the locations domain needs from a maps service (spec §7 Location).

Two adapters implement it: the offline gazetteer (`gazetteer.Gazetteer`, the embedded default) and
a Mapbox-Geocoding-v5-compatible hosted service (`hosted.HostedGeocoder`, chosen when GEOCODER_URL
is set). Results mirror the Mapbox feature model (id, text, place_name, place_type, center, bbox,
context) because that is what the map client already speaks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from app.locations.geo import BBox, LngLat

# Spec §7: the search types of the maps service, from the widest to the most specific.
PLACE_TYPES: tuple[str, ...] = ("country", "region", "postcode", "place", "locality", "neighborhood", "address", "poi")


class GeocoderError(Exception):
    """The geocoder could not answer (unreachable, refused the token, rate limited, bad reply)."""


@dataclass(frozen=True, slots=True)
class PlaceContext:
    """One enclosing feature of a place, e.g. its region or country (Mapbox `context` entry)."""

    id: str
    text: str
    short_code: str | None = None  # 'de' for a country, 'DE-BY' for a region, when known

    @property
    def kind(self) -> str:
        return self.id.split(".", 1)[0]


@dataclass(frozen=True, slots=True)
class Place:
    id: str  # '<type>.<identifier>', e.g. 'place.2950159' or 'country.DE'
    text: str  # the place's own name
    place_name: str  # the full, comma-separated name: 'Munich, Bavaria, Germany'
    place_type: tuple[str, ...]
    center: LngLat
    bbox: BBox | None = None
    short_code: str | None = None
    address_number: str | None = None  # house number of an 'address' feature
    context: tuple[PlaceContext, ...] = ()

    def part(self, kind: str) -> PlaceContext | None:
        """The feature of the given type this place is or lies in (itself first, then its context)."""
        if kind in self.place_type:
            return PlaceContext(self.id, self.text, self.short_code)
        return next((entry for entry in self.context if entry.kind == kind), None)

    @property
    def country_code(self) -> str | None:
        country = self.part("country")
        if country is None or not country.short_code:
            return None
        return country.short_code.split("-", 1)[0].upper()


@dataclass(frozen=True, slots=True)
class Country:
    code: str  # ISO 3166-1 alpha-2, upper case
    name: str
    center: LngLat
    bbox: BBox | None


class Geocoder(Protocol):
    def search(
        self,
        text: str,
        *,
        types: Sequence[str] = (),
        proximity: LngLat | None = None,
        bbox: BBox | None = None,
        limit: int = 5,
    ) -> list[Place]:
        """Places whose names start with `text`, best first; `types` empty means every type."""
        ...

    def reverse(self, lng: float, lat: float, *, types: Sequence[str] = (), limit: int = 5) -> list[Place]:
        """The features at a point, most specific first (e.g. place, region, country); [] when nothing is near."""
        ...

    def lookup(self, place_id: str, *, near: LngLat | None = None) -> Place | None:
        """The place with this id. `near` (the place's centre, as returned earlier) lets services that
        cannot fetch by id find it again by reverse geocoding."""
        ...

    def countries(self) -> list[Country]:
        """Every country, sorted by name."""
        ...
