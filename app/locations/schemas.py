"""Wire shapes of /v2/locations (spec §7 Location). Points are [longitude, latitude]; a bbox is
[west, south, east, north], with west > east when it crosses the antimeridian (RFC 7946)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.locations.ports import Country, Place
from app.locations.service import Address, AddressCountry, UserLocation


class CountryOut(BaseModel):
    code: str = Field(description="ISO 3166-1 alpha-2, upper case")
    name: str
    center: list[float]
    bbox: list[float] | None

    @classmethod
    def of(cls, country: Country) -> CountryOut:
        return cls(code=country.code, name=country.name, center=list(country.center), bbox=_list(country.bbox))


class CountriesOut(BaseModel):
    data: list[CountryOut]


class AddressCountryOut(BaseModel):
    code: str | None = Field(description="ISO code; null when the tours' country name matches no known country")
    name: str
    center: list[float] | None
    bbox: list[float] | None
    vt_count: int = Field(description="Active, approved tours in this country")

    @classmethod
    def of(cls, entry: AddressCountry) -> AddressCountryOut:
        country = entry.country
        return cls(
            code=country.code if country else None,
            name=entry.name,
            center=list(country.center) if country else None,
            bbox=_list(country.bbox) if country else None,
            vt_count=entry.vt_count,
        )


class AddressCountriesOut(BaseModel):
    data: list[AddressCountryOut]


class LocationFeatureOut(BaseModel):
    id: str = Field(description="'<type>.<id>'; pass it back as `id` or `address_id`")
    text: str
    place_name: str
    place_type: list[str] = Field(description="country, region, postcode, place, locality, neighborhood, address, poi")
    center: list[float]
    bbox: list[float] | None
    country: str | None = Field(description="ISO 3166-1 alpha-2 code of the place's country")

    @classmethod
    def of(cls, place: Place) -> LocationFeatureOut:
        return cls(
            id=place.id,
            text=place.text,
            place_name=place.place_name,
            place_type=list(place.place_type),
            center=list(place.center),
            bbox=_list(place.bbox),
            country=place.country_code,
        )


class SearchLocationsOut(BaseModel):
    data: list[LocationFeatureOut]


class AddressOut(BaseModel):
    address_id: str
    address_str: str
    street: str | None
    city: str | None
    province: str | None
    zip: str | None
    country: str | None
    country_code: str | None
    center: list[float]
    bbox: list[float] | None

    @classmethod
    def of(cls, address: Address) -> AddressOut:
        return cls(
            address_id=address.address_id,
            address_str=address.address_str,
            street=address.street,
            city=address.city,
            province=address.province,
            zip=address.zip,
            country=address.country,
            country_code=address.country_code,
            center=list(address.center),
            bbox=_list(address.bbox),
        )


class LocationOut(LocationFeatureOut):
    address: AddressOut

    @classmethod
    def of_place(cls, place: Place, address: Address) -> LocationOut:
        return cls(**LocationFeatureOut.of(place).model_dump(), address=AddressOut.of(address))


class UserLocationOut(BaseModel):
    center: list[float] = Field(description="The coordinates asked about")
    bbox: list[float] | None = Field(description="The surrounding place's box; null when unresolved")
    text: str = Field(description="The surrounding place's full name, or 'Unresolved address'")

    @classmethod
    def of(cls, location: UserLocation) -> UserLocationOut:
        return cls(center=list(location.center), bbox=_list(location.bbox), text=location.text)


def _list(bbox: tuple[float, ...] | None) -> list[float] | None:
    return list(bbox) if bbox is not None else None


class MapStyleOut(BaseModel):
    name: Literal["streets", "dark", "satellite"]
    url: str | None = Field(
        description="A hosted MapLibre style to draw instead (MAP_STYLE_*_URL); null: drawn from the basemap's tiles"
    )


class BasemapOut(BaseModel):
    """The map's basemap: where its vector tiles are, what their layers are, and the styles offered.
    A style without a source is not offered (Satellite needs MAP_STYLE_SATELLITE_URL)."""

    tiles: str = Field(description="The tiles' address template, {z}/{x}/{y}, on this site")
    tile_schema: Literal["touratlas", "protomaps"] = Field(
        description="The tiles' layers: touratlas (earth, boundaries, rivers, places: the offline basemap) or "
        "protomaps (a PMTiles basemap, BASEMAP_PMTILES)"
    )
    min_zoom: int
    max_zoom: int = Field(description="The deepest tile; the map draws deeper zooms from it")
    attribution: str
    styles: list[MapStyleOut]
