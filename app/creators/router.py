"""Spec §7 Creators (/v2/creators/): followers (GET, POST, DELETE), is-follow (GET, DELETE),
post_shares, and the admins' ranks (GET, POST, PUT) and ranks/calc. The profile calls join this
router later."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from app.core.access import public
from app.core.deps import AdminUser, CurrentUser, DbSession, Follower, OptionalUser
from app.core.errors import ErrorBody, error_responses
from app.core.types import DbId, DbInt
from app.creators import ranks as creator_ranks
from app.creators import service
from app.creators.schemas import (
    MAX_PAGE,
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
    UnfollowAllAnswer,
)
from app.tours import ranks
from app.tours.schemas import RankEdit, TaskQueuedAnswer

router = APIRouter(prefix="/v2/creators", tags=["creators"])


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
