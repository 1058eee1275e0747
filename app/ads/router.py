"""Spec §7 Ads (`/v2/ads/`): every call, with the spec's names. The calls with a fixed path come
first and `/{id}` last, since `GET /{id}` would otherwise take `link_exists` or `featured-ads` for an
ad id. Who may call each is declared on the route (spec §6: creators add ads, admins on a user's
behalf; owners and admins manage them; admins moderate, rank and see the statistics)."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Depends, File, Path, Query, Request, Response, UploadFile

from app.ads import admin, embeddings, ranks
from app.ads import service as ads
from app.ads.schemas import (
    PAGE_VIEW_PATTERN,
    AdAnswer,
    AdApprovalItemsPage,
    AdCountersOut,
    AdCounts,
    AdLikeAnswer,
    AdLikeBody,
    AdminStats,
    AdOnBehalfWrite,
    AdOut,
    AdRankOut,
    AdRanksBulk,
    AdRanksPage,
    AdRankWrite,
    AdSaveAnswer,
    AdSaveBody,
    AdShareBody,
    AdsPage,
    AdStats,
    AdTagsAnswer,
    AdUpdate,
    AdUserStatus,
    AdWrite,
    ClickAnswer,
    ClickBody,
    EmbeddingsBody,
    FeaturedAdsAnswer,
    LinkExistsAnswer,
    MessageAnswer,
    PreviewImageAnswer,
    ShowAnswer,
    UserMediaBody,
)
from app.auth.rate_limit import client_ip
from app.core import daily_series
from app.core.access import public
from app.core.deps import AccountOwner, AdminUser, Caller, CreatorUser, CurrentUser, DbSession, OptionalUser
from app.core.errors import ErrorBody, error_responses
from app.core.types import DbId, DbInt
from app.engagement.service import Viewer
from app.tours import images
from app.tours.ranks import CALC_QUEUED, delete_rank
from app.tours.schemas import (
    ApprovalDecision,
    ApprovalDecisionAnswer,
    RankEdit,
    RankIdBody,
    RanksBulkAnswer,
    TaskQueuedAnswer,
)
from app.users import owners

router = APIRouter(prefix="/v2/ads", tags=["ads"])

NOT_FOUND: dict[int | str, dict[str, object]] = {404: {"model": ErrorBody, "description": "No such ad"}}
SAVE_RESPONSES: dict[int | str, dict[str, object]] = {
    200: {"model": AdAnswer, "description": "Saved, but the change waits for an administrator's approval"},
    409: {"model": ErrorBody, "description": "'Error: Link already exists'"},
}
USER_NOT_FOUND: dict[int | str, dict[str, object]] = {
    404: {"model": ErrorBody, "description": "The account named by `userid` does not exist"}
}
# `/{id}` takes any segment, as the tours' does: a word there (`PUT /v2/ads/on-behalf-of`) is an ad
# that does not exist (404), and the paths of the other calls stay declared for every method.
AdIdPath = Path(min_length=1, max_length=20, description="The ad id (a number)")
PageView = Query(
    None, pattern=PAGE_VIEW_PATTERN, description="The page view's id, made by the client once per page view"
)


def _viewer(request: Request, user: OptionalUser, caller: Caller) -> Viewer:
    return Viewer(user=user, guest_id=caller.guest_id if caller else None, ip=client_ip(request))


ViewerDep = Annotated[Viewer, Depends(_viewer)]


def _saved(response: Response, result: ads.SaveResult) -> AdAnswer:
    response.status_code = result.status
    data = ads.ad_out(result.ad, result.viewer) if result.ad is not None else None
    return AdAnswer(message=result.message, data=data, pending=result.pending, fields=result.fields)


# ------------------------------------------------------------------------------ add


@router.post("/", response_model=AdAnswer, status_code=201, responses={**SAVE_RESPONSES, **USER_NOT_FOUND})
def add_ad(body: AdWrite, user: CreatorUser, db: DbSession, response: Response) -> AdAnswer:
    """Add an ad (creators; admins may name the owner with `userid`). It waits for an administrator's
    approval (`pending`) unless an admin adds it."""
    return _saved(response, ads.add_ad(db, editor=user, body=body))


@router.post("/on-behalf-of", response_model=AdAnswer, status_code=201, responses={**SAVE_RESPONSES, **USER_NOT_FOUND})
def add_ad_on_behalf(body: AdOnBehalfWrite, admin_user: AdminUser, db: DbSession, response: Response) -> AdAnswer:
    """An admin adds an ad for the account named by `userid` or `platform_username` ('select user')."""
    owner = owners.named_owner(db, userid=body.userid, platform_username=body.platform_username)
    return _saved(response, ads.add_ad(db, editor=admin_user, body=body, owner=owner))


@router.post("/preview-image", response_model=PreviewImageAnswer, status_code=201)
def upload_preview_image(
    user: CreatorUser, db: DbSession, image: UploadFile = File(..., description="JPG, PNG or PDF, at most 2 MB")
) -> PreviewImageAnswer:
    """The ad's preview picture through the tours' image pipeline (sniffed, resized to 600x400 and
    1200x800, re-encoded). Put `path` into the form's preview_picture."""
    stored = images.store_preview(images.read_upload(image.file))
    pending = images.needs_approval(db, user)
    message = images.PENDING_MESSAGE if pending else images.SAVED_MESSAGE
    return PreviewImageAnswer(
        path=stored.card, large=stored.large, message=message, pending=pending, source_type=stored.source_type
    )


# ------------------------------------------------------------------------------ an owner's ads


@router.get("/user/ad-tags/{user_id}", response_model=AdTagsAnswer, dependencies=[Depends(public)])
def user_ad_tags(user_id: DbId, db: DbSession) -> AdTagsAnswer:
    """The tags of a user's served ads, most used first."""
    return ads.user_ad_tags(db, user_id)


@router.get("/user/{user_id}", response_model=AdsPage)
def user_ads(
    user_id: DbId,
    user: AccountOwner,
    db: DbSession,
    status: AdUserStatus = Query(AdUserStatus.all),
    searchPattern: str | None = Query(None, max_length=200),  # noqa: N803 - wire name
    limit: int = Query(50, ge=1, le=200),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> AdsPage:
    """Manage Ads: the owner's ads in every state, newest first (owner or admin)."""
    owner = ads.owner_visible_to(db, viewer=user, userid=user_id)
    return ads.user_ads_page(
        db, owner=owner, viewer=user, status=status, search=searchPattern, limit=limit, offset=offset
    )


@router.get("/counts/{user_id}", response_model=AdCounts)
def ad_counts(user_id: DbId, user: AccountOwner, db: DbSession) -> AdCounts:
    """How many ads the owner has, by state (owner or admin)."""
    return ads.ad_counts(db, ads.owner_visible_to(db, viewer=user, userid=user_id))


@router.delete("/user-media", response_model=MessageAnswer, responses=error_responses(404))
def delete_user_media(body: UserMediaBody, user: AccountOwner, db: DbSession) -> MessageAnswer:
    """Delete every ad of an account (one's own, or any for an admin)."""
    count = ads.delete_user_ads(db, ads.owner_visible_to(db, viewer=user, userid=body.userid))
    return MessageAnswer(message=f"{count} ad(s) deleted")


@router.get("/link_exists", response_model=LinkExistsAnswer)
def link_exists(user: CurrentUser, db: DbSession, link: str = Query(min_length=1, max_length=2048)) -> LinkExistsAnswer:
    """Whether an ad with this link exists already (the form's uniqueness check)."""
    return ads.link_exists(db, viewer=user, link=link)


# ------------------------------------------------------------------------------ the Sponsored card


@router.get("/featured-ads", response_model=FeaturedAdsAnswer, dependencies=[Depends(public)])
def featured_ads(db: DbSession, limit: int = Query(10, ge=1, le=50)) -> FeaturedAdsAnswer:
    """The served ads the admins featured, in their order."""
    return FeaturedAdsAnswer(data=ads.featured_ads(db, limit))


@router.get("/show/{ad_id}", response_model=ShowAnswer, responses=NOT_FOUND, dependencies=[Depends(public)])
def show(ad_id: DbId, db: DbSession, viewer: ViewerDep, page_view: str | None = PageView) -> ShowAnswer:
    """The Ad card, shown: counts one impression per viewer per page view (`page_view`; without one,
    per UTC day), so a re-render never counts again."""
    ad, counted = ads.show(db, ad_id, viewer, page_view)
    return ShowAnswer(**ads.card_of(ad).model_dump(), counted=counted)


@router.post("/click/{ad_id}", response_model=ClickAnswer, responses=NOT_FOUND, dependencies=[Depends(public)])
def click(ad_id: DbId, db: DbSession, viewer: ViewerDep, body: ClickBody | None = None) -> ClickAnswer:
    """A click on the Sponsored card: counted once per viewer per page view; answers the link."""
    ad, clicks, counted = ads.click(db, ad_id, viewer, body.page_view if body else None)
    return ClickAnswer(id=ad.id, link=ad.link, clicks=clicks, counted=counted)


@router.get("/ad-stats/{ad_id}", response_model=AdStats, responses=NOT_FOUND, dependencies=[Depends(public)])
def ad_stats(ad_id: DbId, db: DbSession, user: OptionalUser) -> AdStats:
    """An ad's counters (impressions as views, clicks, likes, saves, shares), its click rate and the
    caller's like/save flags (0 for guests)."""
    ad = ads.visible_ad(db, viewer=user, ad_id=ad_id)
    counters = ads.counters(db, ad.id)
    liked, saved = ads.user_flags(db, ad.id, user)
    ctr = round(counters.clicks / counters.views, 4) if counters.views else 0.0
    return AdStats(**counters.model_dump(), ctr=ctr, user_like=1 if liked else 0, user_save=1 if saved else 0)


@router.post("/post_likes", response_model=AdLikeAnswer, responses=error_responses(404))
def post_likes(body: AdLikeBody, db: DbSession, user: CurrentUser) -> AdLikeAnswer:
    """Like or unlike an ad (signed-in users); exact under concurrency."""
    counters, liked = ads.set_like(db, user, body.id, body.isLike)
    return AdLikeAnswer(**counters.model_dump(), isLike=liked, user_like=1 if liked else 0)


@router.post("/post_saves", response_model=AdSaveAnswer, responses=error_responses(404))
def post_saves(body: AdSaveBody, db: DbSession, user: CurrentUser) -> AdSaveAnswer:
    """Save or unsave an ad (signed-in users; not one's own)."""
    counters, saved = ads.set_save(db, user, body.id, body.isSave)
    return AdSaveAnswer(**counters.model_dump(), isSave=saved, user_save=1 if saved else 0)


@router.post(
    "/post_shares", response_model=AdCountersOut, dependencies=[Depends(public)], responses=error_responses(404)
)
def post_shares(body: AdShareBody, db: DbSession, viewer: ViewerDep) -> AdCountersOut:
    """A share of an ad (anyone); every share counts."""
    return ads.record_share(db, body.id, viewer=viewer)


# ------------------------------------------------------------------------------ moderation (admins)


@router.get("/approval-items", response_model=AdApprovalItemsPage)
def list_approval_items(
    _admin: AdminUser,
    db: DbSession,
    limit: int = Query(50, ge=1, le=200),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> AdApprovalItemsPage:
    """Pending 'new ad' and 'ad edit' items, oldest first."""
    return admin.approval_items_page(db, limit=limit, offset=offset)


@router.put("/approval-items", response_model=ApprovalDecisionAnswer, responses=error_responses(404, 409))
def decide_approval_items(body: ApprovalDecision, admin_user: AdminUser, db: DbSession) -> ApprovalDecisionAnswer:
    """Approve or reject new ads and ad edits (the owner is mailed)."""
    decided = admin.decide_approval_items(db, admin=admin_user, decision=body)
    return ApprovalDecisionAnswer.of(decided, body.action)


@router.get("/admin-stats", response_model=AdminStats)
def admin_stats(
    _admin: AdminUser,
    db: DbSession,
    date_from: date | None = Query(None, description=daily_series.DATE_FROM_DESCRIPTION),
    date_to: date | None = Query(None, description=daily_series.DATE_TO_DESCRIPTION),
) -> AdminStats:
    """The ads by state, their engagement, and how many were added on each day of the range."""
    first, last = daily_series.day_range(date_from, date_to)
    return admin.admin_stats(db, first, last)


# ------------------------------------------------------------------------------ ranks and embeddings (admins)


@router.get("/ranks", response_model=AdRanksPage)
def list_ranks(
    _admin: AdminUser,
    db: DbSession,
    rank_source_id: DbId | None = Query(None),
    ad_id: DbId | None = Query(None, description="One ad's ranks"),
    limit: int = Query(50, ge=1, le=200),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> AdRanksPage:
    """Ads' rank values by source, highest first."""
    return ranks.ad_ranks_page(db, rank_source_id=rank_source_id, ad_id=ad_id, limit=limit, offset=offset)


@router.post("/ranks", response_model=AdRankOut, status_code=201, responses={409: {"model": ErrorBody}, **NOT_FOUND})
def add_rank(body: AdRankWrite, _admin: AdminUser, db: DbSession) -> AdRankOut:
    """Give an ad a rank source's value (409 when that source has one for the ad already)."""
    return ranks.add_ad_rank(db, body)


@router.put("/ranks", response_model=AdRankOut, responses={404: {"model": ErrorBody}})
def edit_rank(body: RankEdit, _admin: AdminUser, db: DbSession) -> AdRankOut:
    return ranks.edit_ad_rank(db, body)


@router.delete("/ranks", response_model=MessageAnswer, responses={404: {"model": ErrorBody}})
def remove_rank(body: RankIdBody, _admin: AdminUser, db: DbSession) -> MessageAnswer:
    delete_rank(db, ranks.AD_RANKS, body.id)
    return MessageAnswer(message="The rank has been deleted")


@router.post("/ranks/bulk", response_model=RanksBulkAnswer, responses=error_responses(404))
def put_ranks(body: AdRanksBulk, _admin: AdminUser, db: DbSession) -> RanksBulkAnswer:
    """Set many ads' values at once: added where an ad has none from that source, else changed."""
    result = ranks.put_ad_ranks(db, body.ranks)
    return RanksBulkAnswer(
        message=f"{result.created} rank(s) added, {result.updated} changed",
        created=result.created,
        updated=result.updated,
    )


@router.post("/ranks/calc", response_model=TaskQueuedAnswer, status_code=202)
def calculate_ranks(_admin: AdminUser, db: DbSession) -> TaskQueuedAnswer:
    """Run the rank calculation now and bring every served ad's rank into the index."""
    ranks.calculate(db)
    return TaskQueuedAnswer(message=CALC_QUEUED)


@router.post("/embeddings", response_model=TaskQueuedAnswer, status_code=202)
def compute_embeddings(_admin: AdminUser, db: DbSession, body: EmbeddingsBody | None = None) -> TaskQueuedAnswer:
    """Compute ads' embeddings from their title, tags and description in the background: the named
    ads', or every served ad's whose stored one is missing or out of date."""
    embeddings.request_embeddings(db, body.ads if body is not None else None)
    return TaskQueuedAnswer(message=embeddings.EMBEDDINGS_QUEUED)


# ------------------------------------------------------------------------------ one ad


@router.get("/{id}", response_model=AdOut, responses=NOT_FOUND, dependencies=[Depends(public)])
def get_ad(user: OptionalUser, db: DbSession, id: str = AdIdPath) -> AdOut:
    """An ad. Drafts, pending and rejected ads are shown only to the owner and admins."""
    return ads.ad_out(ads.visible_ad(db, viewer=user, ad_id=ads.ad_id_of(id)), user)


@router.put("/{id}", response_model=AdAnswer, status_code=201, responses={**SAVE_RESPONSES, **NOT_FOUND})
def update_ad(body: AdUpdate, user: CurrentUser, db: DbSession, response: Response, id: str = AdIdPath) -> AdAnswer:
    """With a `task`: activate (publish), deactivate (move to drafts) or approve (admins). Without
    one: the edited form (owner or admin); an approved ad keeps its published version until an admin
    approves the edit (answer 200)."""
    if body.task is not None:
        ad, message = ads.run_task(db, editor=user, ad_id=ads.ad_id_of(id), task=body.task)
        response.status_code = 200
        return AdAnswer(message=message, data=ads.ad_out(ad, user), pending=ad.approval_state == "pending")
    return _saved(response, ads.edit_ad(db, editor=user, ad_id=ads.ad_id_of(id), body=body))


@router.delete("/{id}", response_model=MessageAnswer, responses=NOT_FOUND)
def delete_ad(user: CurrentUser, db: DbSession, id: str = AdIdPath) -> MessageAnswer:
    """Delete an ad (owner or admin)."""
    ads.delete_ad(db, editor=user, ad_id=ads.ad_id_of(id))
    return MessageAnswer(message="The ad has been deleted")
