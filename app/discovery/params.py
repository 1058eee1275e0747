"""Parsing the spec's Filter state from a query string, with 400s that name the field."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Annotated, Any

from fastapi import Header, Query
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute
from pydantic import BaseModel, Field, ValidationError, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from app.core.errors import field_error
from app.core.types import DB_INT_MAX, DbId
from app.discovery.schemas import FeedChoice, Mode, Sorting
from indexer.queries import MAX_RESULT_WINDOW, BBox, TourFilter

GRID_PAGE_SIZE = 48
MAX_PAGE_SIZE = 100
MAX_FILTER_VALUES = 50
MAX_SEARCH_LENGTH = 200


def parse_ids(field: str, raw: str | None) -> tuple[int, ...]:
    if not raw:
        return ()
    values = [part.strip() for part in raw.split(",") if part.strip()]
    if len(values) > MAX_FILTER_VALUES:
        raise field_error(field, f"At most {MAX_FILTER_VALUES} values")
    try:
        ids = tuple(int(value) for value in values)
    except ValueError as exc:
        raise field_error(field, "Expected a comma-separated list of numbers") from exc
    # The same bound as DbId: an id no row can have never reaches the database or the index.
    if not all(1 <= value <= DB_INT_MAX for value in ids):
        raise field_error(field, f"Expected ids from 1 to {DB_INT_MAX}")
    return ids


def parse_countries(raw: str | None) -> tuple[str, ...]:
    if not raw:
        return ()
    values = [part.strip().upper() for part in raw.split(",") if part.strip()]
    if len(values) > MAX_FILTER_VALUES:
        raise field_error("countries", f"At most {MAX_FILTER_VALUES} values")
    for value in values:
        if len(value) != 2 or not value.isalpha():
            raise field_error("countries", "Expected two-letter country codes, e.g. FR,DE")
    return tuple(values)


def parse_bounds(
    left_x: float | None, left_y: float | None, right_x: float | None, right_y: float | None
) -> BBox | None:
    values = (left_x, left_y, right_x, right_y)
    if all(value is None for value in values):
        return None
    if any(value is None for value in values):
        raise field_error("leftX", "Map bounds need leftX, leftY, rightX and rightY together")
    west, south, east, north = (float(value) for value in values)  # type: ignore[arg-type]
    for name, value, limit in (
        ("leftX", west, 180),
        ("rightX", east, 180),
        ("leftY", south, 90),
        ("rightY", north, 90),
    ):
        if not -limit <= value <= limit:
            raise field_error(name, f"Must be between -{limit} and {limit}")
    if south > north:
        raise field_error("leftY", "leftY (south) must not be above rightY (north)")
    return BBox(west=west, south=south, east=east, north=north)


ADDED_FROM_DESCRIPTION = "only tours added on or after this day (YYYY-MM-DD, UTC)"
ADDED_TO_DESCRIPTION = "only tours added on or before this day (YYYY-MM-DD, UTC)"
ONLY_360_DESCRIPTION = "only panoramas and 360 video (the media types marked 360°)"


def added_range(added_from: date | None, added_to: date | None) -> tuple[float | None, float | None]:
    """The added-date filter as TourFilter's epoch range: from the start of `added_from` to the end of
    `added_to` (both days included, UTC). `added_to` before `added_from` is a 400 naming it."""
    if added_from is not None and added_to is not None and added_to < added_from:
        raise field_error("added_to", "added_to must not be before added_from")
    start = _midnight(added_from) if added_from is not None else None
    end = None
    if added_to is not None and added_to < date.max:  # the last day there is has no end to cut at
        end = _midnight(added_to + timedelta(days=1))
    return start, end


def _midnight(day: date) -> float:
    return datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()


@dataclass(frozen=True)
class FeedParams:
    filter: TourFilter
    feed: FeedChoice | None
    mode: Mode
    sorting: Sorting | None
    saves_follow: bool
    limit: int
    offset: int
    seed: str
    near: tuple[float, float] | None
    # The "360° only" switch: the service narrows the filter to the 360° media types (a database read).
    only_360: bool = False


class FeedQueryString(BaseModel):
    """The Filter state as query parameters. FastAPI documents and parses it for the calls that take
    `Feed`; the feed itself validates its query string against it in one call (`feed_params_from`)
    and is documented with the parameters FastAPI gives it (`FEED_OPENAPI_PARAMETERS`)."""

    categories: str | None = Field(None, description="comma-separated category ids")
    subcategories: str | None = None
    countries: str | None = Field(None, description="comma-separated ISO country codes")
    vendors: str | None = None
    media_types: str | None = None
    tags: str | None = None
    searchPattern: str | None = Field(None, max_length=MAX_SEARCH_LENGTH)  # noqa: N815 - wire name
    sorting: Sorting | None = None
    feed: FeedChoice | None = None
    mode: Mode = Mode.both
    savesFollow: bool = False  # noqa: N815
    leftX: float | None = None  # noqa: N815
    leftY: float | None = None  # noqa: N815
    rightX: float | None = None  # noqa: N815
    rightY: float | None = None  # noqa: N815
    limit: int = Field(GRID_PAGE_SIZE, ge=1, le=MAX_PAGE_SIZE)
    offset: int = Field(0, ge=0, le=MAX_RESULT_WINDOW)
    seed: str = Field("", max_length=64, description="Random sort: the same seed keeps the order across pages")
    lat: float | None = Field(None, ge=-90, le=90, description="Near Me: the visitor's latitude")
    lng: float | None = Field(None, ge=-180, le=180)
    userid: DbId | None = Field(None, description="only this creator's tours (creator-scoped grid and map)")
    added_from: date | None = Field(None, description=ADDED_FROM_DESCRIPTION)
    added_to: date | None = Field(None, description=ADDED_TO_DESCRIPTION)
    only_360: bool = Field(False, description=ONLY_360_DESCRIPTION)

    @field_validator("offset")
    @classmethod
    def _within_result_window(cls, offset: int, info: ValidationInfo) -> int:
        """No page may end past the index's result window (Elasticsearch refuses from + size beyond
        it). `limit` is validated first (declared first); when it failed, its own error says so."""
        limit = info.data.get("limit")
        if isinstance(limit, int) and offset + limit > MAX_RESULT_WINDOW:
            raise PydanticCustomError(
                "result_window", "offset + limit should be at most {window}", {"window": MAX_RESULT_WINDOW}
            )
        return offset


async def feed_params(query: Annotated[FeedQueryString, Query()]) -> FeedParams:
    # Async: parsing is pure CPU, cheaper in the event loop than a trip to a worker thread.
    return feed_params_of(query)


def feed_params_from(query_params: Mapping[str, str]) -> FeedParams:
    """The feed's query string as a feed request, in one step and with the 400s of the calls FastAPI
    parses (`feed_params`): RequestValidationError for what the types refuse (FastAPI reports those
    after the caller's token is checked: the route does the same), then BadRequest naming the field
    for what the parsing refuses. A repeated parameter counts with its last value, as in FastAPI."""
    try:
        query = FeedQueryString.model_validate(dict(query_params))
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        raise RequestValidationError([{**error, "loc": ("query", *error["loc"])} for error in errors]) from None
    return feed_params_of(query)


def feed_params_of(query: FeedQueryString) -> FeedParams:
    """The validated query as a feed request; a 400 naming the field for what the types let through."""
    text = (query.searchPattern or "").strip() or None
    created_from, created_before = added_range(query.added_from, query.added_to)
    tour_filter = TourFilter(
        categories=parse_ids("categories", query.categories),
        subcategories=parse_ids("subcategories", query.subcategories),
        countries=parse_countries(query.countries),
        vendors=parse_ids("vendors", query.vendors),
        media_types=parse_ids("media_types", query.media_types),
        tags=parse_ids("tags", query.tags),
        text=text,
        bounds=parse_bounds(query.leftX, query.leftY, query.rightX, query.rightY),
        user_ids=(query.userid,) if query.userid is not None else None,
        # A creator-scoped grid or map is its owner's page: unlisted tours are listed there too.
        with_unlisted=query.userid is not None,
        created_from=created_from,
        created_before=created_before,
    )
    lat, lng = query.lat, query.lng
    if (lat is None) != (lng is None):
        raise field_error("lat", "Near Me needs both lat and lng")
    near = (lat, lng) if lat is not None and lng is not None else None
    return FeedParams(
        filter=tour_filter,
        feed=query.feed,
        mode=query.mode,
        sorting=query.sorting,
        saves_follow=query.savesFollow,
        limit=query.limit,
        offset=query.offset,
        seed=query.seed,
        near=near,
        only_360=query.only_360,
    )


def _documented_feed_call(
    query: Annotated[FeedQueryString, Query()], accept_language: Annotated[str | None, Header()] = None
) -> None:
    """Never served: the signature FastAPI documents for the feed (`FEED_OPENAPI_PARAMETERS`)."""


def _feed_operation() -> dict[str, Any]:
    operation: dict[str, Any] = get_openapi(
        title="feed", version="1", routes=[APIRoute("/", _documented_feed_call, methods=["GET"])]
    )["paths"]["/"]["get"]
    return operation


# The feed route takes the bare Request (FastAPI's parsing of 22 declared query parameters cost a third
# of the feed's CPU); its OpenAPI parameters are those FastAPI gives the same FeedQueryString
# and Accept-Language header, generated once here, so the document and the client stay as they were.
_FEED_OPERATION = _feed_operation()
FEED_OPENAPI_PARAMETERS: list[dict[str, Any]] = _FEED_OPERATION["parameters"]
