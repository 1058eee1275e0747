"""Spec §7 Creators (/v2/creators/): profiles (read by id, owner and name; create, edit, delete),
logos, link-preview meta, pending state, the contact message, the admins' approval items,
activation and statistics; followers (GET, POST, DELETE), is-follow (GET, DELETE), post_shares, and
the admins' ranks (GET, POST, PUT) and ranks/calc. The analytics calls live with analytics."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, File, Path, Query, Request, Response, UploadFile

from app.auth.rate_limit import client_ip
from app.core import daily_series
from app.core.access import public
from app.core.deps import AccountOwner, AdminUser, CurrentUser, DbSession, Follower, GuestOrUser, OptionalUser
from app.core.errors import ErrorBody, NotFound, error_responses
from app.core.types import DbId, DbInt
from app.creators import approvals, contact, editing, logos, profiles, service
from app.creators import ranks as creator_ranks
from app.creators.schemas import (
    MAX_PAGE,
    CreatorActivateBody,
    CreatorAnswer,
    CreatorApprovalDecision,
    CreatorApprovalDecisionAnswer,
    CreatorApprovalItemsAnswer,
    CreatorApprovalKind,
    CreatorDeletedAnswer,
    CreatorMessageAnswer,
    CreatorMessageBody,
    CreatorMetaOut,
    CreatorRankOut,
    CreatorRanksPage,
    CreatorRankWrite,
    CreatorSaveAnswer,
    CreatorShareAnswer,
    CreatorShareBody,
    CreatorStatsAnswer,
    CreatorTrustedBody,
    CreatorWrite,
    FollowAnswer,
    FollowBody,
    FollowOut,
    FollowsPage,
    IsFollowAnswer,
    LogoPathAnswer,
    PendingCreatorAnswer,
    UnfollowAllAnswer,
)
from app.tours import ranks
from app.tours.schemas import RankEdit, TaskQueuedAnswer

router = APIRouter(prefix="/v2/creators", tags=["creators"])


# ------------------------------------------------------------------------------ reading profiles


@router.get("/by-id/{id}", response_model=CreatorAnswer, dependencies=[Depends(public)], responses=error_responses(404))
def creator_by_id(id: DbId, db: DbSession, user: OptionalUser) -> CreatorAnswer:
    """A creator profile; 404 unless it is public or the caller owns it or is an admin."""
    return CreatorAnswer(data=profiles.by_id(db, id, user))


@router.get(
    "/by-userid/{userid}", response_model=CreatorAnswer, dependencies=[Depends(public)], responses=error_responses(404)
)
def creator_by_userid(userid: DbId, db: DbSession, user: OptionalUser) -> CreatorAnswer:
    """The creator profile of a user account."""
    return CreatorAnswer(data=profiles.by_userid(db, userid, user))


@router.get(
    "/creator-by-creator-name/{creatorName}",
    response_model=CreatorAnswer,
    dependencies=[Depends(public)],
    responses=error_responses(404),
)
def creator_by_name(
    creatorName: Annotated[str, Path(min_length=1, max_length=100)],  # noqa: N803 - spec path name
    db: DbSession,
    user: OptionalUser,
) -> CreatorAnswer:
    """By the name of the `/{creatorName}/grid` and `/map` pages: the owner's platform username, or
    else the creator name, without case."""
    return CreatorAnswer(data=profiles.by_name(db, creatorName, user))


@router.get(
    "/get-meta-creator/{id}/",
    response_model=CreatorMetaOut,
    dependencies=[Depends(public)],
    responses=error_responses(404),
)
def get_meta_creator(id: DbId, db: DbSession) -> CreatorMetaOut:
    """Title, description, image and page path of a public profile, for link previews."""
    return profiles.meta(db, id)


@router.get(
    "/creator-logo-path/{user_id}",
    response_model=LogoPathAnswer,
    dependencies=[Depends(public)],
    responses=error_responses(404),
)
def creator_logo_path(user_id: DbId, db: DbSession, user: OptionalUser) -> LogoPathAnswer:
    """The served path of a user's creator logo; 404 'Image not found'."""
    return LogoPathAnswer(path=profiles.logo_of_user(db, user_id, user))


@router.get(
    "/creator-logo", response_model=LogoPathAnswer, dependencies=[Depends(public)], responses=error_responses(404)
)
def get_creator_logo(
    db: DbSession, user: OptionalUser, image: str | None = Query(None, max_length=512)
) -> LogoPathAnswer:
    """The served path of a stored logo (by name or path), or of the caller's own profile's logo."""
    if image:
        return LogoPathAnswer(path=logos.public_path(image))
    if user is None:
        raise NotFound(logos.LOGO_NOT_FOUND)
    return LogoPathAnswer(path=profiles.logo_of_user(db, user.id, user))


@router.get("/is-pending-creator", response_model=PendingCreatorAnswer, responses=error_responses(404))
def is_pending_creator(
    db: DbSession, user: AccountOwner, userid: DbId | None = Query(None, description="Oneself unless an admin")
) -> PendingCreatorAnswer:
    """Whether a new creator profile or a profile edit of the user waits for an admin."""
    return profiles.pending_state(db, user, userid)


@router.get("/followers", response_model=FollowsPage, responses=error_responses(404))
def list_followers(
    db: DbSession,
    user: CurrentUser,
    userid: DbId | None = Query(None, description="Whose follows (oneself unless an admin)"),
    creator_id: DbId | None = Query(None, description="Alone: this creator's followers (its owner and admins)"),
    limit: int = Query(50, ge=1, le=MAX_PAGE),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> FollowsPage:
    page = service.list_follows(db, user, userid=userid, creator_id=creator_id, limit=limit, offset=offset)
    return FollowsPage(
        data=[FollowOut.of(row) for row in page.rows], total_items=page.total, limit=limit, offset=offset
    )


@router.post("/followers", response_model=FollowAnswer, responses=error_responses(404))
def follow(body: FollowBody, db: DbSession, user: Follower) -> FollowAnswer:
    """Follow a creator (not as an admin, nor one's own profile); following twice changes nothing."""
    return FollowAnswer.of(service.follow(db, user, body.creator_id, body.userid))


@router.delete("/followers", response_model=FollowAnswer, responses=error_responses(404))
def unfollow(
    db: DbSession,
    user: CurrentUser,
    creator_id: Annotated[DbId, Query()],
    userid: DbId | None = Query(None, description="Whose follow (oneself unless an admin)"),
) -> FollowAnswer:
    return FollowAnswer.of(service.unfollow(db, user, creator_id, userid))


@router.get("/is-follow", response_model=IsFollowAnswer, dependencies=[Depends(public)], responses=error_responses(404))
def is_follow(
    db: DbSession,
    user: OptionalUser,
    creator_id: Annotated[DbId, Query()],
    userid: DbId | None = Query(None, description="Whose follow (oneself unless an admin)"),
) -> IsFollowAnswer:
    """Whether the caller follows the creator; false for guests."""
    return IsFollowAnswer(creator_id=creator_id, isFollow=service.is_follow(db, user, creator_id, userid))


@router.delete("/is-follow", response_model=UnfollowAllAnswer, responses=error_responses(404))
def unfollow_all(
    db: DbSession, user: CurrentUser, user_id: DbId | None = Query(None, description="Oneself unless an admin")
) -> UnfollowAllAnswer:
    """Remove every follow of a user."""
    userid, removed = service.unfollow_all(db, user, user_id)
    return UnfollowAllAnswer(userid=userid, removed=removed)


@router.post(
    "/post_shares", response_model=CreatorShareAnswer, dependencies=[Depends(public)], responses=error_responses(404)
)
def post_shares(body: CreatorShareBody, db: DbSession, user: OptionalUser) -> CreatorShareAnswer:
    """Anyone may share a creator profile."""
    return CreatorShareAnswer(id=body.id, shared=service.record_share(db, body.id, user=user, channel=body.channel))


# ------------------------------------------------------------------------------ writing profiles


def _saved(db: DbSession, user: CurrentUser, saved: editing.Saved, response: Response) -> CreatorSaveAnswer:
    response.status_code = 201 if saved.pending else 200
    return CreatorSaveAnswer(
        message=saved.message,  # type: ignore[arg-type]  # one of the two success keys
        pending=saved.pending,
        approval_item_id=saved.item.id if saved.item is not None else None,
        data=profiles.profile_out(db, saved.creator, user) if saved.creator is not None else None,
    )


SAVE_RESPONSES: dict[int | str, dict[str, Any]] = {
    201: {"model": CreatorSaveAnswer, "description": "Waits for an administrator's approval (AddEditPending)"},
    **error_responses(404, 409),
}


@router.post("/", response_model=CreatorSaveAnswer, responses=SAVE_RESPONSES)
def create_creator(body: CreatorWrite, db: DbSession, user: CurrentUser, response: Response) -> CreatorSaveAnswer:
    """Become a creator: 201 `CreatorProfile.AddEditPending` until an admin approves it; 200
    `CreatorProfile.Updated` when it applies at once (an admin's, a trusted user's). 409 when the
    account has a profile, or the creator name or username is taken."""
    return _saved(db, user, editing.create(db, user, body), response)


@router.put("/", response_model=CreatorSaveAnswer, responses=SAVE_RESPONSES)
def edit_creator(body: CreatorWrite, db: DbSession, user: CurrentUser, response: Response) -> CreatorSaveAnswer:
    """Edit the profile: 201 `CreatorProfile.AddEditPending` (the published profile stays until an
    admin approves), or 200 `CreatorProfile.Updated` for admins and trusted creators."""
    return _saved(db, user, editing.edit(db, user, body), response)


@router.delete("/", response_model=CreatorDeletedAnswer, responses=error_responses(404))
def delete_creator(
    db: DbSession,
    user: CurrentUser,
    creator_id: DbId | None = Query(None, description="The profile (the user's own when left out)"),
    user_id: DbId | None = Query(None, description="Whose profile (oneself unless an admin)"),
) -> CreatorDeletedAnswer:
    """Delete a creator profile; the account and its tours stay."""
    deleted, owner = editing.delete_profile(db, user, creator_id=creator_id, user_id=user_id)
    return CreatorDeletedAnswer(message=editing.DELETED, creator_id=deleted, userid=owner)


@router.post("/creator-logo", response_model=LogoPathAnswer)
def upload_creator_logo(user: CurrentUser, image: UploadFile = File(...)) -> LogoPathAnswer:
    """JPG, PNG or WEBP up to 2 MB, recognised by its content, shrunk and stored without metadata;
    put the answer's path in the creator payload's `logo`."""
    return LogoPathAnswer(path=logos.store_logo(image.file), message="The logo has been uploaded")


@router.post("/creator-message", response_model=CreatorMessageAnswer, responses=error_responses(404, 429))
def creator_message(
    body: CreatorMessageBody, request: Request, db: DbSession, caller: GuestOrUser
) -> CreatorMessageAnswer:
    """Write to a creator through the profile's contact form: mailed to the creator."""
    creator = contact.send_message(db, caller, body, ip=client_ip(request))
    return CreatorMessageAnswer(message=contact.SENT, creator_id=creator.id)


# ------------------------------------------------------------------------------ admins


@router.get("/admin-stats", response_model=CreatorStatsAnswer)
def admin_stats(
    _admin: AdminUser,
    db: DbSession,
    date_from: date | None = Query(None, description=daily_series.DATE_FROM_DESCRIPTION),
    date_to: date | None = Query(None, description=daily_series.DATE_TO_DESCRIPTION),
) -> CreatorStatsAnswer:
    first, last = daily_series.day_range(date_from, date_to)
    return CreatorStatsAnswer(data=editing.stats(db, first, last))


@router.put("/trusted", response_model=CreatorAnswer, responses=error_responses(404))
def set_trusted(body: CreatorTrustedBody, admin: AdminUser, db: DbSession) -> CreatorAnswer:
    """Mark a creator trusted (its new tours are published at once and audited after the fact) or not."""
    creator = editing.set_trusted(db, body.creator_id, trusted=body.trusted)
    return CreatorAnswer(data=profiles.profile_out(db, creator, admin))


@router.post("/admin-creator-activate-deactivate", response_model=CreatorAnswer, responses=error_responses(404))
def activate_deactivate(body: CreatorActivateBody, admin: AdminUser, db: DbSession) -> CreatorAnswer:
    """Show (activate) or hide (deactivate) a creator profile on every public page and in the index."""
    creator = editing.set_active(db, body.creator_id, active=body.is_active)
    return CreatorAnswer(data=profiles.profile_out(db, creator, admin))


@router.get("/approval-items", response_model=CreatorApprovalItemsAnswer)
def list_approval_items(
    admin: AdminUser,
    db: DbSession,
    kind: CreatorApprovalKind | None = Query(None),
    status: Literal["pending", "approved", "rejected", "all"] = Query("pending"),
    limit: int = Query(20, ge=1, le=100),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> CreatorApprovalItemsAnswer:
    """New creator profiles and profile edits waiting for (or given) a decision, with the published
    profile beside each proposed one."""
    items, total = approvals.list_items(db, kind=kind, status=status, limit=limit, offset=offset)
    return CreatorApprovalItemsAnswer(
        data=[approvals.item_out(db, item, admin) for item in items], total_items=total, limit=limit, offset=offset
    )


@router.put("/approval-items", response_model=CreatorApprovalDecisionAnswer, responses=error_responses(404, 409))
def decide_approval_item(
    body: CreatorApprovalDecision, admin: AdminUser, db: DbSession
) -> CreatorApprovalDecisionAnswer:
    """Approve (publish the profile, or apply the edit) or reject (the published profile stays);
    the creator is told by mail. 409 when decided already or a name was taken meanwhile."""
    approve = body.action == "approve"
    item = approvals.decide(db, admin=admin, item_id=body.id, approve=approve, note=body.review_note)
    return CreatorApprovalDecisionAnswer(
        message="Approved" if approve else "Rejected", data=approvals.item_out(db, item, admin)
    )


# ------------------------------------------------------------------------------ ranks (admins)


@router.get("/ranks", response_model=CreatorRanksPage)
def list_ranks(
    _admin: AdminUser,
    db: DbSession,
    rank_source_id: DbId | None = Query(None),
    creator_id: DbId | None = Query(None, description="One creator's ranks"),
    limit: int = Query(50, ge=1, le=MAX_PAGE),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> CreatorRanksPage:
    """Creators' rank values by source (GET /v2/sources/rank-sources names them), highest first."""
    return creator_ranks.creator_ranks_page(
        db, rank_source_id=rank_source_id, creator_id=creator_id, limit=limit, offset=offset
    )


@router.post(
    "/ranks",
    response_model=CreatorRankOut,
    status_code=201,
    responses={404: {"model": ErrorBody}, 409: {"model": ErrorBody}},
)
def add_rank(body: CreatorRankWrite, _admin: AdminUser, db: DbSession) -> CreatorRankOut:
    """Give a creator a rank source's value (409 when that source has one for the creator already)."""
    return creator_ranks.add_creator_rank(db, body)


@router.put("/ranks", response_model=CreatorRankOut, responses={404: {"model": ErrorBody}})
def edit_rank(body: RankEdit, _admin: AdminUser, db: DbSession) -> CreatorRankOut:
    return creator_ranks.edit_creator_rank(db, body)


@router.post("/ranks/calc", response_model=TaskQueuedAnswer, status_code=202)
def calculate_ranks(_admin: AdminUser, db: DbSession) -> TaskQueuedAnswer:
    """Run the rank calculation now instead of at the next hour (one calculation ranks everything)."""
    ranks.request_calculation(db)
    return TaskQueuedAnswer(message=ranks.CALC_QUEUED)
