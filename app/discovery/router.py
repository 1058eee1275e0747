"""Spec §7 "Tour grid" and Recommendations (`/v2/user-recomendations/`, the spec's spelling), and the
map-area calls of Location."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated

from fastapi import APIRouter, Depends, Header, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import BaseModel

from app.auth.rate_limit import client_ip
from app.core import vector_tiles
from app.core.access import public
from app.core.concurrency import run_compute
from app.core.db import request_session
from app.core.deps import DbSession, Index, Locale, OptionalUser, caller_of, signed_in_user
from app.core.errors import field_error
from app.core.security import TokenClaims
from app.core.types import DbId
from app.discovery import service, tiles
from app.discovery.params import (
    FEED_OPENAPI_PARAMETERS,
    MAX_SEARCH_LENGTH,
    FeedParams,
    feed_params,
    feed_params_from,
    parse_bounds,
)
from app.discovery.schemas import (
    AdCard,
    CreatorCard,
    GridPage,
    MapAreaAnswer,
    MapAreaRequest,
    MediaCard,
    MediaTagsRequest,
    Mode,
    PopularTagsPage,
    SearchAnswer,
    Sorting,
    TagList,
)
from app.discovery.signals import AdTasteCache, ad_taste_cache
from app.search.registry import get_index
from indexer.port import SearchIndex
from indexer.queries import MAX_RESULT_WINDOW, BBox, TourFilter

recommendations_router = APIRouter(prefix="/v2/user-recomendations", tags=["discovery"])
location_router = APIRouter(prefix="/v2/locations", tags=["discovery"])

Feed = Annotated[FeedParams, Depends(feed_params)]


JSON = "application/json"


def as_json(model: BaseModel) -> Response:
    """The hot calls serialise once, in pydantic-core; the declared response_model still documents
    them, but FastAPI skips its second validation pass when handed a ready Response."""
    return Response(model.model_dump_json(), media_type=JSON)


WORLD = BBox(west=-180, south=-85, east=180, north=85)


# The hottest call, declared without parameters: FastAPI spends some 15 µs of the event loop per
# declared query parameter and request, and the feed has 22 (a third of its CPU). The route validates
# its query string against FeedQueryString in one pydantic call instead, and is documented with the
# parameters FastAPI would give FeedQueryString (generated once in params.py): the same document, the same
# 400s, in the same order of checks as the calls FastAPI parses.
@recommendations_router.get(
    "/filtered-grid",
    response_model=GridPage,
    openapi_extra={"parameters": FEED_OPENAPI_PARAMETERS},
    dependencies=[Depends(public)],
)
async def filtered_grid(request: Request) -> Response:
    """The tour grid: filters + limit/offset → total_items and data (media, creator and ad cards)."""
    try:
        params = feed_params_from(request.query_params)
    except RequestValidationError:
        # FastAPI's order: values the types refuse are reported after the caller is checked (a bad
        # token, a stale account: 401); what the parsing refuses (feed_params_of) before.
        await _check_caller(request)
        raise
    caller = caller_of(request)
    locale = service.locale_of(request.headers.get("accept-language"))
    # Async, so that all of the above runs in the event loop; all the blocking work (the user, the
    # index read, the saved flags, the commit) in one worker-thread trip, few such trips at once.
    ip = client_ip(request)
    tastes = ad_taste_cache(request.app.state)
    return Response(await run_compute(_grid_page, params, caller, locale, ip, tastes), media_type=JSON)


def _grid_page(
    params: FeedParams, caller: TokenClaims | None, locale: str, ip: str | None, tastes: AdTasteCache
) -> bytes:
    with request_session() as db:
        user = signed_in_user(caller, db)
        # Whom the ads' frequency cap counts: the same key GET /v2/ads/show counts impressions under.
        viewer_key = service.ad_viewer_key(user, caller.guest_id if caller else None, ip)
        return service.grid_page(db, get_index(), user, params, locale, viewer_key, tastes)


async def _check_caller(request: Request) -> None:
    caller = caller_of(request)
    if caller is not None and caller.user_id is not None:
        await run_compute(_check_account, caller)


def _check_account(caller: TokenClaims) -> None:
    with request_session() as db:
        signed_in_user(caller, db)


@recommendations_router.get("/filtered-map", response_model=MapAreaAnswer, dependencies=[Depends(public)])
def filtered_map(
    params: Feed,
    db: DbSession,
    user: OptionalUser,
    index: Index,
    locale: Locale,
    zoom: float = Query(2, ge=0, le=24),
) -> Response:
    return as_json(_area(params, db, user, index, zoom, locale, default_bbox=WORLD))


@recommendations_router.get("/search", response_model=SearchAnswer, dependencies=[Depends(public)])
def search(
    index: Index,
    searchData: str = Query(..., min_length=1, max_length=MAX_SEARCH_LENGTH),  # noqa: N803 - wire name
    sorting: Sorting | None = Query(None),
    limit: int = Query(10, ge=1, le=50),
    category_id: DbId | None = Query(None),
    media_type_id: DbId | None = Query(None),
) -> SearchAnswer:
    """Search as you type: tours, @creators, #tags and places; a leading quote is an exact phrase."""
    return service.search(index, searchData, limit=limit, category_id=category_id, media_type_id=media_type_id)


@recommendations_router.get("/user-tags", response_model=TagList, dependencies=[Depends(public)])
def user_tags(db: DbSession, user: OptionalUser, sorting: Sorting | None = Query(None)) -> TagList:
    return service.user_tags(db, user)


@recommendations_router.get("/popular-tags", response_model=PopularTagsPage, dependencies=[Depends(public)])
def popular_tags(
    db: DbSession,
    index: Index,
    locale: Locale,
    limit: int = Query(48, ge=1, le=100),
    offset: int = Query(0, ge=0, le=MAX_RESULT_WINDOW),
    category_id: DbId | None = Query(None, description="only tags of this category's topic"),
    media_type_id: DbId | None = Query(None, description="only tags of this media type's topic"),
) -> PopularTagsPage:
    """The most used tags with how many listed tours carry each (hashtags of descriptions count: they
    are the tours' tags), most first: the Popular tags page."""
    return service.popular_tags(
        db, index, limit=limit, offset=offset, category_id=category_id, media_type_id=media_type_id, locale=locale
    )


@recommendations_router.post("/media-tags", response_model=TagList, dependencies=[Depends(public)])
def media_tags(body: MediaTagsRequest, db: DbSession) -> TagList:
    return service.media_tags(db, body.ids)


@recommendations_router.get(
    "/similar-media/{tour_id}", response_model=list[MediaCard | CreatorCard | AdCard], dependencies=[Depends(public)]
)
def similar_media(
    tour_id: str, db: DbSession, user: OptionalUser, index: Index, locale: Locale, limit: int = Query(12, ge=1, le=48)
) -> Response:
    return Response(service.similar_media(db, index, user, tour_id, limit, locale), media_type=JSON)


@recommendations_router.get("/creator-media/{user_id}", response_model=GridPage, dependencies=[Depends(public)])
def creator_media(
    user_id: DbId, params: Feed, db: DbSession, user: OptionalUser, index: Index, locale: Locale
) -> Response:
    """One creator's tours with the same filters as the feed (the creator-scoped grid)."""
    service.creator_user(db, user_id)
    # The owner's page: their unlisted tours are listed too.
    scoped_filter = replace(params.filter, user_ids=(user_id,), with_unlisted=True)
    scoped = replace(params, filter=scoped_filter, mode=Mode.media, feed=None)
    return Response(service.grid_page(db, index, user, scoped, locale), media_type=JSON)


def _area(
    params: FeedParams,
    db: DbSession,
    user: OptionalUser,
    index: SearchIndex,
    zoom: float,
    locale: str,
    default_bbox: BBox | None = None,
) -> MapAreaAnswer:
    """The feed's filters over a map area; without a default, the area is required."""
    bbox = params.filter.bounds or default_bbox
    if bbox is None:
        raise field_error("leftX", "Map bounds are required: leftX, leftY, rightX, rightY")
    tour_filter, _sort, _vector = service.resolve_feed(db, index, user, params)
    return service.map_area(db, index, user, replace(tour_filter, bounds=None), bbox, zoom, locale)


@location_router.get("/map-area", response_model=MapAreaAnswer, dependencies=[Depends(public)])
def map_area(
    params: Feed,
    db: DbSession,
    user: OptionalUser,
    index: Index,
    locale: Locale,
    zoom: float = Query(2, ge=0, le=24),
) -> Response:
    """Every listed tour in a bounding box at a zoom: points, or clusters when there are many."""
    return as_json(
        _area(replace(params, filter=TourFilter(bounds=params.filter.bounds)), db, user, index, zoom, locale)
    )


@location_router.post("/map-area", response_model=MapAreaAnswer, dependencies=[Depends(public)])
def map_area_post(body: MapAreaRequest, db: DbSession, user: OptionalUser, index: Index, locale: Locale) -> Response:
    bbox = parse_bounds(body.leftX, body.leftY, body.rightX, body.rightY)
    assert bbox is not None
    return as_json(service.map_area(db, index, user, TourFilter(), bbox, body.zoom, locale))


@location_router.get("/filtered-area", response_model=MapAreaAnswer, dependencies=[Depends(public)])
def filtered_area(
    params: Feed,
    db: DbSession,
    user: OptionalUser,
    index: Index,
    locale: Locale,
    zoom: float = Query(2, ge=0, le=24),
) -> Response:
    """The map area narrowed by the feed's filters."""
    return as_json(_area(params, db, user, index, zoom, locale))


@location_router.get(
    "/tiles/{z}/{x}/{y}.mvt",
    response_class=Response,
    responses=vector_tiles.TILE_RESPONSES,
    dependencies=[Depends(public)],
)
def map_tile(
    params: Feed,
    db: DbSession,
    user: OptionalUser,
    index: Index,
    z: int = Path(ge=0, le=tiles.MAX_TILE_ZOOM, description=f"zoom, 0 to {tiles.MAX_TILE_ZOOM}"),
    x: int = Path(ge=0, le=(1 << tiles.MAX_TILE_ZOOM) - 1, description="column, 0 to 2^z - 1"),
    y: int = Path(ge=0, le=(1 << tiles.MAX_TILE_ZOOM) - 1, description="row from the north, 0 to 2^z - 1"),
    if_none_match: str | None = Header(None),
) -> Response:
    """The map as vector tiles: every listed tour in one Web-Mercator tile under the feed's filters
    (the same query string as filtered-map; bounds and zoom come from the tile), as clusters or
    points. Shared by every visitor with the same filters: `Cache-Control`, `ETag`, 304."""
    tile = vector_tiles.tile_address(z, x, y, max_zoom=tiles.MAX_TILE_ZOOM)
    content = service.map_tile(db, index, user, params, tile)
    personal = service.feed_is_personal(params, user)
    return vector_tiles.tile_response(
        content,
        if_none_match=if_none_match,
        cache_control=f"{'private' if personal else 'public'}, max-age={tiles.TILE_MAX_AGE_SECONDS}",
        vary="Authorization" if personal else None,
    )


# The domain's one router: the recommendations calls and the map-area calls of Location.
router = APIRouter()
router.include_router(recommendations_router)
router.include_router(location_router)
