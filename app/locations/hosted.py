"""The hosted geocoder: any service speaking the Mapbox Geocoding API v5 wire format, over httpx.

Forward: `GET {GEOCODER_URL}/{query}.json?access_token=&types=&limit=&proximity=&bbox=&autocomplete=true`
Reverse: `GET {GEOCODER_URL}/{lng},{lat}.json?access_token=&types=&limit=`
Both answer a GeoJSON FeatureCollection whose features carry `id`, `text`, `place_name`,
`place_type`, `center`, optional `bbox`, `address` (house number), `properties.short_code` and
`context` (the enclosing features). GEOCODER_URL is the endpoint including its dataset, e.g.
`https://api.mapbox.com/geocoding/v5/mapbox.places`.

Mapbox v5 can neither fetch a feature by id nor list countries: `lookup` finds a feature again by
reverse geocoding its centre, and `countries` reads the offline country table.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import quote

import httpx

from app.locations.geo import BBox, LngLat
from app.locations.ports import PLACE_TYPES, Country, GeocoderError, Place, PlaceContext

logger = logging.getLogger("touratlas.locations.hosted")

DEFAULT_TIMEOUT_S = 5.0
# Mapbox answers 404/422 for queries it cannot parse (too long, too many words): no match, not an outage.
NO_MATCH_STATUSES = frozenset({404, 422})


class HostedGeocoder:
    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        countries: Callable[[], list[Country]],
        client: httpx.Client | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
    ) -> None:
        self._base_url = base_url.rstrip("/")
        self._token = token
        self._countries = countries
        self._client = client or httpx.Client(timeout=timeout_s, headers={"Accept": "application/json"})

    def close(self) -> None:
        self._client.close()

    def search(
        self,
        text: str,
        *,
        types: Sequence[str] = (),
        proximity: LngLat | None = None,
        bbox: BBox | None = None,
        limit: int = 5,
    ) -> list[Place]:
        params = {"autocomplete": "true", "limit": str(limit)}
        if types:
            params["types"] = ",".join(types)
        if proximity is not None:
            params["proximity"] = _coordinate_text(proximity)
        if bbox is not None:
            params["bbox"] = ",".join(_number(value) for value in bbox)
        # ';' separates batch queries in Mapbox's path, so everything but letters is escaped.
        return self._features(f"{quote(text.strip(), safe='')}.json", params)

    def reverse(self, lng: float, lat: float, *, types: Sequence[str] = (), limit: int = 5) -> list[Place]:
        params: dict[str, str] = {}
        if types:
            params["types"] = ",".join(types)
        # Mapbox rejects `limit` on a reverse query unless exactly one type is asked for.
        if len(types) == 1:
            params["limit"] = str(limit)
        places = self._features(f"{_coordinate_text((lng, lat))}.json", params)
        return places[:limit]

    def lookup(self, place_id: str, *, near: LngLat | None = None) -> Place | None:
        if near is None:
            return None
        kind = place_id.split(".", 1)[0]
        types = (kind,) if kind in PLACE_TYPES else ()
        return next((place for place in self.reverse(*near, types=types) if place.id == place_id), None)

    def countries(self) -> list[Country]:
        return self._countries()

    def _features(self, path: str, params: dict[str, str]) -> list[Place]:
        payload = self._get(path, params)
        features = payload.get("features") if isinstance(payload, dict) else None
        if not isinstance(features, list):
            raise GeocoderError("The geocoding service answered without features")
        return [place for place in map(parse_feature, features) if place is not None]

    def _get(self, path: str, params: dict[str, str]) -> Any:
        try:
            response = self._client.get(f"{self._base_url}/{path}", params={**params, "access_token": self._token})
        except httpx.HTTPError as exc:
            # Never log the exception text: it carries the URL, and the URL carries the token.
            logger.warning("geocoder unreachable: %s", exc.__class__.__name__)
            raise GeocoderError("The geocoding service is unreachable") from None
        if response.status_code in NO_MATCH_STATUSES:
            return {"features": []}
        if response.status_code in (401, 403):
            raise GeocoderError("The geocoding service refused our access token")
        if response.status_code == 429:
            raise GeocoderError("The geocoding service is rate limiting us")
        if response.status_code != 200:
            raise GeocoderError(f"The geocoding service failed with status {response.status_code}")
        try:
            return response.json()
        except ValueError:
            raise GeocoderError("The geocoding service answered with invalid JSON") from None


def parse_feature(feature: Any) -> Place | None:
    """A Place from one Mapbox feature; None for a feature too malformed to show."""
    if not isinstance(feature, dict):
        return None
    center = _pair(feature.get("center"))
    place_types = feature.get("place_type")
    if center is None or not isinstance(place_types, list) or not feature.get("id") or not feature.get("text"):
        return None
    properties = feature.get("properties")
    if not isinstance(properties, dict):
        properties = {}
    address_number = feature.get("address")
    return Place(
        id=str(feature["id"]),
        text=str(feature["text"]),
        place_name=str(feature.get("place_name") or feature["text"]),
        place_type=tuple(str(kind) for kind in place_types),
        center=center,
        bbox=_bbox(feature.get("bbox")),
        short_code=_optional_text(properties.get("short_code")),
        address_number=str(address_number) if address_number not in (None, "") else None,
        context=_context(feature.get("context")),
    )


def _context(entries: Any) -> tuple[PlaceContext, ...]:
    if not isinstance(entries, list):
        return ()
    return tuple(
        PlaceContext(id=str(entry["id"]), text=str(entry["text"]), short_code=_optional_text(entry.get("short_code")))
        for entry in entries
        if isinstance(entry, dict) and entry.get("id") and entry.get("text")
    )


def _pair(value: Any) -> LngLat | None:
    numbers = _numbers(value, 2)
    return (numbers[0], numbers[1]) if numbers else None


def _bbox(value: Any) -> BBox | None:
    numbers = _numbers(value, 4)
    return (numbers[0], numbers[1], numbers[2], numbers[3]) if numbers else None


def _numbers(value: Any, count: int) -> list[float] | None:
    if not isinstance(value, list) or len(value) != count:
        return None
    if not all(isinstance(item, int | float) and not isinstance(item, bool) for item in value):
        return None
    numbers = [float(item) for item in value]
    return numbers if all(math.isfinite(number) for number in numbers) else None


def _optional_text(value: Any) -> str | None:
    return str(value) if isinstance(value, str) and value else None


def _number(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".")


def _coordinate_text(point: LngLat) -> str:
    return f"{_number(point[0])},{_number(point[1])}"
