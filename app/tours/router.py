"""Spec §7 Media (`/v2/virtualtours/`): adding, editing, reading and managing tours, the moderation
queue, featured tours, the daily featured submission, creator pages, preview images, a user's saved
tours, ranks and embeddings.

`router` is the domain's one router (app/main.py includes it): `discover` first, then the calls
here, which end with the `/{id}` ones, since `GET /{id}` would take `/discover` or `/pending` for a
tour guid if it came before them. The engagement calls under the same prefix (player/{tour_id},
tour-stats/{tour_id}, POST post_*) have two segments or another method, so no `/{id}` route here
catches them, whatever order the domains are included in (tests/api/test_router_order.py).
"""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Depends, File, Query, Response, UploadFile

from app.classifications.service import media_type_ids_360
from app.core import daily_series
from app.core.access import public
from app.core.deps import (
    AccountOwner,
    AdminUser,
    CMUser,
    CreatorUser,
    CurrentUser,
    DbSession,
    GeocoderDep,
    Index,
    Locale,
    OptionalUser,
)
from app.core.errors import ErrorBody, error_responses
from app.core.types import DbId, DbInt
from app.discovery.params import (
    ADDED_FROM_DESCRIPTION,
    ADDED_TO_DESCRIPTION,
    MAX_SEARCH_LENGTH,
    ONLY_360_DESCRIPTION,
    added_range,
    parse_countries,
    parse_ids,
)
from app.discovery.schemas import MapAreaAnswer, Sorting
from app.tours import dashboard, images, link_lookup_router, moderation_queue, pages, queries, ranks
from app.tours import service as tours
from app.tours.schemas import (
    AdminStats,
    ApprovalDecision,
    ApprovalDecisionAnswer,
    ApprovalItemsPage,
    CreatorToursAnswer,
    EmbeddingsBody,
    FeaturedToursAnswer,
    FeaturedToursBody,
    LinkExistsAnswer,
    MediaTagsAnswer,
    MessageAnswer,
    OnBehalfWrite,
    PendingPage,
    PreviewImageAnswer,
    RankEdit,
    RankIdBody,
    RanksBulkAnswer,
    SavedToursPage,
    TaskBody,
    TaskQueuedAnswer,
    TourAnswer,
    TourCounts,
    TourEdit,
    TourOut,
    TourRankOut,
    TourRanksBulk,
    TourRanksPage,
    TourRankWrite,
    ToursActionAnswer,
    ToursBody,
    TourTodayAnswer,
    TourTodayBody,
    TourWrite,
    UserMediaBody,
    UserTourSort,
    UserToursPage,
    UserTourStatus,
)
from app.users import owners
from indexer.queries import TourFilter

tour_router = APIRouter(prefix="/v2/virtualtours", tags=["tours"])

# Spec §8 "Media save": 201 saved, 200 an edit waiting for approval, 208 'Error: {message}',
# 404 the address could not be located (the client opens the pin picker), 409 a conflict.
SAVE_RESPONSES: dict[int | str, dict[str, object]] = {
    200: {"model": TourAnswer, "description": "Saved, but the change waits for an administrator's approval"},
    208: {"model": TourAnswer, "description": "'Link already exists': the client shows 'Error: {message}'"},
    404: {"model": ErrorBody, "description": "'Address not found': pick the place on the map (coordinate)"},
    409: {"model": ErrorBody, "description": "The link was taken meanwhile, or the tour changed meanwhile"},
}
NOT_FOUND: dict[int | str, dict[str, object]] = {404: {"model": ErrorBody, "description": "No such tour"}}


def creator_filter(
    db: DbSession,
    categories: str | None = Query(None, description="comma-separated category ids"),
    subcategories: str | None = Query(None),
    countries: str | None = Query(None, description="comma-separated ISO country codes"),
    vendors: str | None = Query(None),
    media_types: str | None = Query(None),
    tags: str | None = Query(None),
    searchPattern: str | None = Query(None, max_length=MAX_SEARCH_LENGTH),  # noqa: N803 - wire name
    added_from: date | None = Query(None, description=ADDED_FROM_DESCRIPTION),
    added_to: date | None = Query(None, description=ADDED_TO_DESCRIPTION),
    only_360: bool = Query(False, description=ONLY_360_DESCRIPTION),
) -> TourFilter:
    """The creator-profile filters of spec §2 (they live in the page's query string), with the
    added-date range and the "360° only" switch of the feed's filters."""
    created_from, created_before = added_range(added_from, added_to)
    return TourFilter(
        categories=parse_ids("categories", categories),
        subcategories=parse_ids("subcategories", subcategories),
        countries=parse_countries(countries),
        vendors=parse_ids("vendors", vendors),
        media_types=parse_ids("media_types", media_types),
        tags=parse_ids("tags", tags),
        text=(searchPattern or "").strip() or None,
        created_from=created_from,
        created_before=created_before,
        only_media_types=media_type_ids_360(db) if only_360 else None,
    )


CreatorFilter = Annotated[TourFilter, Depends(creator_filter)]


def _saved(response: Response, result: tours.SaveResult) -> TourAnswer:
    response.status_code = result.status
    return TourAnswer(
        message=result.message,
        data=tours.tour_out(result.tour, result.viewer) if result.tour is not None else None,
        pending=result.pending,
        fields=result.fields,
        hashtags_left_out=result.hashtags_left_out,
    )


# ------------------------------------------------------------------------------ add and edit


@tour_router.post("/", response_model=TourAnswer, status_code=201, responses=SAVE_RESPONSES)
def add_tour(
    body: TourWrite, user: CurrentUser, db: DbSession, geocoder: GeocoderDep, response: Response
) -> TourAnswer:
    """Add a tour (spec §5 Media form rules). Trusted users' tours are listed at once; others wait
    in the moderation queue (`pending`). Admins and CMs may name another owner with `userid`."""
    return _saved(response, tours.add_tour(db, editor=user, body=body, geocoder=geocoder))


@tour_router.post("/on-behalf-of", response_model=TourAnswer, status_code=201, responses=SAVE_RESPONSES)
def add_tour_on_behalf(
    body: OnBehalfWrite, staff: CMUser, db: DbSession, geocoder: GeocoderDep, response: Response
) -> TourAnswer:
    """An admin or CM adds a tour for the account named by `userid` or `platform_username`
    ('select user' when neither names one)."""
    owner = owners.named_owner(db, userid=body.userid, platform_username=body.platform_username)
    return _saved(response, tours.add_tour(db, editor=staff, body=body, geocoder=geocoder, owner=owner))


@tour_router.put("/", response_model=TourAnswer, status_code=201, responses={**SAVE_RESPONSES, **NOT_FOUND})
def edit_tour(body: TourEdit, user: CurrentUser, db: DbSession, response: Response) -> TourAnswer:
    """Edit a tour (owner or admin). The host and the location stay as added. An approved tour of an
    untrusted owner keeps its published version until an admin approves the edit (answer 200)."""
    return _saved(response, tours.edit_tour(db, editor=user, body=body))


@tour_router.post("/preview-image", response_model=PreviewImageAnswer, status_code=201)
def upload_preview_image(
    user: CurrentUser, db: DbSession, image: UploadFile = File(..., description="JPG, PNG or PDF, at most 2 MB")
) -> PreviewImageAnswer:
    """Upload a preview image: sniffed from its bytes (a PDF becomes its first page), resized to the
    card (600x400) and tour-page (1200x800) sizes. Put `path` into the form's preview_picture."""
    stored = images.store_preview(images.read_upload(image.file))
    pending = images.needs_approval(db, user)
    message = images.PENDING_MESSAGE if pending else images.SAVED_MESSAGE
    return PreviewImageAnswer(
        path=stored.card, large=stored.large, message=message, pending=pending, source_type=stored.source_type
    )


# ------------------------------------------------------------------------------ moderation queue


@tour_router.get("/pending", response_model=PendingPage)
def list_pending(
    _admin: AdminUser,
    db: DbSession,
    limit: int = Query(50, ge=1, le=200),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
    searchPattern: str | None = Query(None, max_length=MAX_SEARCH_LENGTH),  # noqa: N803 - wire name
) -> PendingPage:
    """Tours waiting for approval (active and pending), oldest first."""
    return moderation_queue.pending_page(db, limit=limit, offset=offset, search=searchPattern)


@tour_router.delete("/pending", response_model=ToursActionAnswer, responses=error_responses(404))
def delete_pending(body: ToursBody, _admin: AdminUser, db: DbSession) -> ToursActionAnswer:
    """Delete pending tours (the approval panel's reject-and-remove)."""
    removed = tours.delete_pending(db, body.tours)
    return ToursActionAnswer(message=f"{len(removed)} pending tour(s) deleted", tours=removed)


@tour_router.post("/pending/remove", response_model=ToursActionAnswer, responses=error_responses(404))
def remove_from_pending(body: ToursBody, user: CurrentUser, db: DbSession) -> ToursActionAnswer:
    """Take pending tours out of the queue, back to drafts (owners their own, admins any)."""
    moved = tours.pending_to_drafts(db, editor=user, guids=body.tours)
    return ToursActionAnswer(message=f"{len(moved)} tour(s) moved to drafts", tours=moved)


@tour_router.get("/approval-items", response_model=ApprovalItemsPage)
def list_approval_items(
    _admin: AdminUser,
    db: DbSession,
    limit: int = Query(50, ge=1, le=200),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> ApprovalItemsPage:
    """Pending 'new virtual tour' and 'VT edit' items, oldest first."""
    return moderation_queue.approval_items_page(db, limit=limit, offset=offset)


@tour_router.put("/approval-items", response_model=ApprovalDecisionAnswer, responses=error_responses(404, 409))
def decide_approval_items(body: ApprovalDecision, admin: AdminUser, db: DbSession) -> ApprovalDecisionAnswer:
    """Approve or reject new tours and tour edits."""
    decided = moderation_queue.decide_approval_items(db, admin=admin, decision=body)
    return ApprovalDecisionAnswer.of(decided, body.action)


@tour_router.get("/admin-stats", response_model=AdminStats)
def admin_stats(
    _admin: AdminUser,
    db: DbSession,
    date_from: date | None = Query(None, description=daily_series.DATE_FROM_DESCRIPTION),
    date_to: date | None = Query(None, description=daily_series.DATE_TO_DESCRIPTION),
) -> AdminStats:
    """The tours by state, host and category, and how many were added on each day of the range."""
    first, last = daily_series.day_range(date_from, date_to)
    return moderation_queue.admin_stats(db, first, last)


# ------------------------------------------------------------------------------ lookups by link


@tour_router.get("/link_exists", response_model=LinkExistsAnswer)
def link_exists(user: CurrentUser, db: DbSession, link: str = Query(min_length=1, max_length=2048)) -> LinkExistsAnswer:
    """Whether a tour with this link (compared normalised) exists already."""
    return tours.link_exists(db, viewer=user, link=link)


@tour_router.get("/get-by-link", response_model=TourOut, responses=NOT_FOUND, dependencies=[Depends(public)])
def get_by_link(user: OptionalUser, db: DbSession, link: str = Query(min_length=1, max_length=2048)) -> TourOut:
    return tours.tour_out(tours.visible_tour_by_link(db, viewer=user, link=link), user)


# ------------------------------------------------------------------------------ an owner's tours


@tour_router.get("/user/media-tags/{user_id}", response_model=MediaTagsAnswer, dependencies=[Depends(public)])
def user_media_tags(user_id: DbId, db: DbSession) -> MediaTagsAnswer:
    """The tags of a user's listed tours, most used first (the creator page's tag filter)."""
    return pages.user_media_tags(db, user_id)


@tour_router.get("/user/{userid}", response_model=UserToursPage)
def user_tours(
    userid: DbId,
    user: AccountOwner,
    db: DbSession,
    status: UserTourStatus = Query(UserTourStatus.all),
    sort: UserTourSort = Query(UserTourSort.by_date),
    order: str = Query("desc", pattern="^(asc|desc)$"),
    provider: DbId | None = Query(None, description="vendor id"),
    category: DbId | None = Query(None),
    subcategory: DbId | None = Query(None),
    searchPattern: str | None = Query(None, max_length=MAX_SEARCH_LENGTH),  # noqa: N803 - wire name
    limit: int = Query(50, ge=1, le=200),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> UserToursPage:
    """The manage-media dashboard: the owner's tours including drafts and pending ones (owner or admin)."""
    owner = tours.owner_visible_to(db, viewer=user, userid=userid)
    query = dashboard.UserToursQuery(
        status=status,
        sort=sort,
        descending=order == "desc",
        vendor_id=provider,
        category_id=category,
        subcategory_id=subcategory,
        search=searchPattern,
        limit=limit,
        offset=offset,
    )
    return dashboard.user_tours_page(db, owner=owner, viewer=user, query=query)


@tour_router.get("/counts/{user_id}", response_model=TourCounts)
def tour_counts(user_id: DbId, user: AccountOwner, db: DbSession) -> TourCounts:
    """How many tours the owner has, by state (owner or admin)."""
    return dashboard.tour_counts(db, tours.owner_visible_to(db, viewer=user, userid=user_id))


@tour_router.delete("/user-media", response_model=MessageAnswer, responses=error_responses(404))
def delete_user_media(body: UserMediaBody, user: AccountOwner, db: DbSession) -> MessageAnswer:
    """Delete every tour of an account (one's own, or any for an admin)."""
    owner = tours.owner_visible_to(db, viewer=user, userid=body.userid)
    count = tours.delete_user_media(db, owner)
    return MessageAnswer(message=f"{count} tour(s) deleted")


@tour_router.post("/featured-tours", response_model=FeaturedToursAnswer, responses=error_responses(404))
def set_featured_tours(body: FeaturedToursBody, user: CreatorUser, db: DbSession) -> FeaturedToursAnswer:
    """Set the featured tours in their order: a creator's (up to 10), or the Featured feed's (admins)."""
    guids = dashboard.set_featured_tours(db, editor=user, body=body)
    return FeaturedToursAnswer(message="Featured tours saved", tours=guids)


@tour_router.post(
    "/send-tour-today", response_model=TourTodayAnswer, status_code=201, responses=error_responses(404, 409)
)
def send_tour_today(body: TourTodayBody, user: CreatorUser, db: DbSession) -> TourTodayAnswer:
    """Submit one of one's own listed tours to the daily featured-tour programme: description, social
    links, consent to be mentioned (spec §3). The administrators are mailed. 403 for another's tour,
    409 when the caller has already submitted one today (UTC)."""
    submission = dashboard.submit_tour_today(db, user=user, body=body)
    return TourTodayAnswer(message="Thank you! Your tour was submitted", id=submission.id, guid=body.guid)


# ------------------------------------------------------------------------------ creator pages


@tour_router.get("/creator/map/{user_id}", response_model=MapAreaAnswer, dependencies=[Depends(public)])
def creator_map(
    user_id: DbId,
    filters: CreatorFilter,
    db: DbSession,
    user: OptionalUser,
    index: Index,
    locale: Locale,
    zoom: float = Query(2, ge=0, le=24),
) -> MapAreaAnswer:
    """A creator's listed tours on the map: features with the map feature properties (and clusters
    where points crowd at this zoom)."""
    return pages.creator_map(db, index, viewer=user, user_id=user_id, tour_filter=filters, zoom=zoom, locale=locale)


@tour_router.get("/creator/{user_id}", response_model=CreatorToursAnswer, dependencies=[Depends(public)])
def creator_tours(
    user_id: DbId,
    filters: CreatorFilter,
    db: DbSession,
    user: OptionalUser,
    index: Index,
    locale: Locale,
    sorting: Sorting = Query(Sorting.newest),
    limit: int = Query(pages.CREATOR_PAGE_SIZE, ge=1, le=100),
    offset: int = Query(0, ge=0, le=100_000),
    includeFavorites: bool = Query(False),  # noqa: N803 - wire name
) -> CreatorToursAnswer:
    """A creator's listed tours as media cards (page size 50); favorite_tours are the creator's
    featured tours when includeFavorites is set."""
    page = pages.CreatorPageQuery(
        tour_filter=filters, sorting=sorting, limit=limit, offset=offset, include_favorites=includeFavorites
    )
    return pages.creator_tours(db, index, viewer=user, user_id=user_id, query=page, locale=locale)


# ------------------------------------------------------------------------------ saved tours


@tour_router.get("/saved/{userid}", response_model=SavedToursPage)
def saved_tours(
    userid: DbId,
    user: AccountOwner,
    db: DbSession,
    locale: Locale,
    limit: int = Query(48, ge=1, le=100),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> SavedToursPage:
    """A user's saved tours, newest save first, as media cards (oneself, or anyone for an admin).
    Tours no longer listed are left out; is_save and is_owned are the caller's."""
    owner = tours.owner_visible_to(db, viewer=user, userid=userid)
    return pages.saved_tours_page(db, owner=owner, viewer=user, limit=limit, offset=offset, locale=locale)


# ------------------------------------------------------------------------------ ranks (admins)
# Before GET, PUT and DELETE /{id}, which would otherwise take "ranks" for a tour guid.


@tour_router.get("/ranks", response_model=TourRanksPage)
def list_ranks(
    _admin: AdminUser,
    db: DbSession,
    rank_source_id: DbId | None = Query(None),
    guid: str | None = Query(None, max_length=64, description="One tour's ranks"),
    limit: int = Query(50, ge=1, le=200),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> TourRanksPage:
    """Tours' rank values by source (GET /v2/sources/rank-sources names them), highest first."""
    return ranks.tour_ranks_page(db, rank_source_id=rank_source_id, guid=guid, limit=limit, offset=offset)


@tour_router.post(
    "/ranks", response_model=TourRankOut, status_code=201, responses={409: {"model": ErrorBody}, **NOT_FOUND}
)
def add_rank(body: TourRankWrite, _admin: AdminUser, db: DbSession) -> TourRankOut:
    """Give a tour a rank source's value (409 when that source has one for the tour already)."""
    return ranks.add_tour_rank(db, body)


@tour_router.put("/ranks", response_model=TourRankOut, responses={404: {"model": ErrorBody}})
def edit_rank(body: RankEdit, _admin: AdminUser, db: DbSession) -> TourRankOut:
    return ranks.edit_tour_rank(db, body)


@tour_router.delete("/ranks", response_model=MessageAnswer, responses={404: {"model": ErrorBody}})
def delete_rank(body: RankIdBody, _admin: AdminUser, db: DbSession) -> MessageAnswer:
    ranks.delete_rank(db, ranks.TOUR_RANKS, body.id)
    return MessageAnswer(message="The rank has been deleted")


@tour_router.post("/ranks/bulk", response_model=RanksBulkAnswer, responses=error_responses(404))
def put_ranks(body: TourRanksBulk, _admin: AdminUser, db: DbSession) -> RanksBulkAnswer:
    """Set many tours' values at once: added where a tour has none from that source, else changed."""
    result = ranks.put_tour_ranks(db, body.ranks)
    return RanksBulkAnswer(
        message=f"{result.created} rank(s) added, {result.updated} changed",
        created=result.created,
        updated=result.updated,
    )


@tour_router.post("/ranks/calc", response_model=TaskQueuedAnswer, status_code=202)
def calculate_ranks(_admin: AdminUser, db: DbSession) -> TaskQueuedAnswer:
    """Run the rank calculation (trending scores, featured order) now instead of at the next hour."""
    ranks.request_calculation(db)
    return TaskQueuedAnswer(message=ranks.CALC_QUEUED)


@tour_router.post("/embeddings", response_model=TaskQueuedAnswer, status_code=202)
def compute_embeddings(_admin: AdminUser, db: DbSession, body: EmbeddingsBody | None = None) -> TaskQueuedAnswer:
    """Compute tour embeddings (similar tours, For You) in the background: the named tours', or
    every listed tour's whose stored one is missing or out of date."""
    ranks.request_tour_embeddings(db, body.tours if body is not None else None)
    return TaskQueuedAnswer(message=ranks.EMBEDDINGS_QUEUED)


# ------------------------------------------------------------------------------ one tour


@tour_router.get("/{id}", response_model=TourOut, responses=NOT_FOUND, dependencies=[Depends(public)])
def get_tour(id: str, user: OptionalUser, db: DbSession) -> TourOut:
    """A tour by guid. Drafts and tours waiting for approval are shown only to the owner and admins."""
    return tours.tour_out(queries.visible_tour(db, viewer=user, guid=id), user)


@tour_router.delete("/{id}", response_model=MessageAnswer, responses=NOT_FOUND)
def delete_tour(id: str, user: CurrentUser, db: DbSession) -> MessageAnswer:
    tours.delete_tour(db, editor=user, guid=id)
    return MessageAnswer(message="The virtual tour has been deleted")


@tour_router.put("/{id}", response_model=TourAnswer, responses=NOT_FOUND)
def run_task(id: str, body: TaskBody, user: CurrentUser, db: DbSession) -> TourAnswer:
    """activate (publish), deactivate (move to drafts) or approve (admins) one tour."""
    tour, message = tours.run_task(db, editor=user, guid=id, body=body)
    return TourAnswer(message=message, data=tours.tour_out(tour, user), pending=tours.is_pending(tour))


router = APIRouter()
router.include_router(link_lookup_router.router)
router.include_router(tour_router)
