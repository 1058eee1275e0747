"""/v2/locations (spec §7 Location): parse the query, call the service, shape the answer.

Coordinates are always 'longitude,latitude' (the spec's order); a malformed value is a 400 naming
the parameter. `map-area` and `filtered-area` read the search index and are served elsewhere.
"""

from __future__ import annotations

import hashlib
import math
from typing import Annotated

from fastapi import APIRouter, Depends, Header, Path, Query, Request
from fastapi.responses import Response

from app.core import vector_tiles
from app.core.access import public
from app.core.deps import DbSession, GeocoderDep
from app.core.errors import error_responses, field_error
from app.core.settings import get_settings
from app.core.static import accepted_encodings
from app.locations import basemap, service
from app.locations.geo import BBox, LngLat
from app.locations.ports import PLACE_TYPES
from app.locations.schemas import (
    AddressCountriesOut,
    AddressCountryOut,
    AddressOut,
    BasemapOut,
    CountriesOut,
    CountryOut,
    LocationFeatureOut,
    LocationOut,
    MapStyleOut,
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


# A basemap tile's address names the basemap's version, so a browser may keep it for a week: new data
# comes under a new address.
BASEMAP_MAX_AGE_SECONDS = 7 * 24 * 3600
# The deepest zoom any basemap may have (PMTiles archives stop well before; the offline one at 10).
MAX_BASEMAP_ZOOM = 24


def _basemap_key(version: str) -> str:
    return hashlib.blake2b(version.encode(), digest_size=6).hexdigest()


@router.get("/basemap", response_model=BasemapOut, dependencies=[Depends(public)])
def basemap_info() -> BasemapOut:
    """The map's basemap: the offline one (coasts, lakes, borders, rivers, place names; no network
    needed) or the PMTiles archive BASEMAP_PMTILES names, and the styles on offer."""
    settings = get_settings()
    current = basemap.current_basemap(settings)
    hosted = {
        "streets": settings.map_style_streets_url,
        "dark": settings.map_style_dark_url,
        "satellite": settings.map_style_satellite_url,
    }
    # Streets and Dark are drawn from the basemap's tiles when no hosted style is set; Satellite has
    # no offline imagery, so it is offered only with its hosted style.
    styles = [
        MapStyleOut(name=name, url=url.strip() or None)
        for name, url in hosted.items()
        if url.strip() or name != "satellite"
    ]
    return BasemapOut(
        tiles=f"/v2/locations/basemap/{{z}}/{{x}}/{{y}}.mvt?v={_basemap_key(current.version)}",
        tile_schema=current.schema,
        min_zoom=current.min_zoom,
        max_zoom=current.max_zoom,
        attribution=current.attribution,
        styles=styles,
    )


@router.get(
    "/basemap/{z}/{x}/{y}.mvt",
    response_class=Response,
    responses=vector_tiles.TILE_RESPONSES,
    dependencies=[Depends(public)],
)
def basemap_tile(
    request: Request,
    z: int = Path(ge=0, le=MAX_BASEMAP_ZOOM, description="zoom, from the basemap's min_zoom to its max_zoom"),
    x: int = Path(ge=0, le=(1 << MAX_BASEMAP_ZOOM) - 1, description="column, 0 to 2^z - 1"),
    y: int = Path(ge=0, le=(1 << MAX_BASEMAP_ZOOM) - 1, description="row from the north, 0 to 2^z - 1"),
    v: str | None = Query(None, max_length=64, description="the basemap's version, as /basemap gives it"),
    if_none_match: str | None = Header(None),
) -> Response:
    """One vector tile of the basemap (layers as /basemap's tile_schema says)."""
    current = basemap.current_basemap(get_settings())
    tile = vector_tiles.tile_address(z, x, y, max_zoom=current.max_zoom)
    if tile.z < current.min_zoom:
        raise field_error("z", f"Zoom must be from {current.min_zoom} to {current.max_zoom}")
    found = current.tile(tile.z, tile.x, tile.y)
    content, headers = found.content, {}
    if found.encoding == "gzip":
        if "gzip" in accepted_encodings(request.headers.get("accept-encoding", "")):
            headers = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
        else:
            content = basemap.decompressed(found)
    return vector_tiles.tile_response(
        content,
        if_none_match=if_none_match,
        cache_control=f"public, max-age={BASEMAP_MAX_AGE_SECONDS}",
        etag=vector_tiles.etag_of(content, current.version),
        headers=headers,
    )


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
