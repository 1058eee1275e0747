"""Spec §7 Creators (/v2/creators/): profiles (read by id, owner and name; create, edit, delete),
logos, link-preview meta, pending state, the contact message, the admins' approval items,
activation and statistics; followers (GET, POST, DELETE), is-follow (GET, DELETE), post_shares, and
the admins' ranks (GET, POST, PUT) and ranks/calc. The analytics calls live with analytics."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query

from app.core.access import public
from app.core.deps import AccountOwner, AdminUser, CurrentUser, DbSession, Follower, OptionalUser
from app.core.errors import ErrorBody, NotFound, error_responses
from app.core.types import DbId, DbInt
from app.creators import logos, profiles, service
from app.creators import ranks as creator_ranks
from app.creators.schemas import (
    MAX_PAGE,
    CreatorAnswer,
    CreatorMetaOut,
    CreatorRankOut,
    CreatorRanksPage,
    CreatorRankWrite,
    CreatorShareAnswer,
    CreatorShareBody,
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
