"""Spec §7 Media, the engagement calls under /v2/virtualtours/: player, tour-stats, post_view,
post_likes, post_saves, post_shares. None of these paths can be caught by the tours router's
`/{id}` calls (two segments, or POST), so the two domains may be included in either order."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Path, Request

from app.auth.rate_limit import client_ip
from app.core.access import public
from app.core.deps import Caller, CurrentUser, DbSession, OptionalUser
from app.core.errors import error_responses
from app.engagement import service
from app.engagement.schemas import (
    LikeAnswer,
    LikeBody,
    PlayerParams,
    SaveAnswer,
    SaveBody,
    ShareBody,
    TourCountersOut,
    TourIdBody,
    ViewAnswer,
)

router = APIRouter(prefix="/v2/virtualtours", tags=["engagement"])

TourGuidPath = Path(min_length=1, max_length=64, description="The tour guid")


@router.get("/player/{tour_id}", response_model=PlayerParams, dependencies=[Depends(public)])
def player(db: DbSession, user: OptionalUser, tour_id: str = TourGuidPath) -> PlayerParams:
    """The player's counters and the caller's like/save flags (0 for guests)."""
    return PlayerParams.from_state(service.player_state(db, tour_id, user))


@router.get("/tour-stats/{tour_id}", response_model=TourCountersOut, dependencies=[Depends(public)])
def tour_stats(db: DbSession, user: OptionalUser, tour_id: str = TourGuidPath) -> TourCountersOut:
    return TourCountersOut.of(service.tour_stats(db, tour_id, user))


@router.post("/post_view", response_model=ViewAnswer, dependencies=[Depends(public)], responses=error_responses(404))
def post_view(body: TourIdBody, request: Request, db: DbSession, user: OptionalUser, caller: Caller) -> ViewAnswer:
    """Counts a view once per viewer (user, guest id or address) per window."""
    viewer = service.Viewer(user=user, guest_id=caller.guest_id if caller else None, ip=client_ip(request))
    counters, counted = service.record_view(db, body.id, viewer)
    return ViewAnswer(**TourCountersOut.of(counters).model_dump(), counted=counted)


@router.post("/post_likes", response_model=LikeAnswer, responses=error_responses(404))
def post_likes(body: LikeBody, db: DbSession, user: CurrentUser) -> LikeAnswer:
    """Signed-in users only (a guest gets 401 and the client opens the login dialog)."""
    counters, liked = service.set_like(db, user, body.id, body.isLike)
    return LikeAnswer(**TourCountersOut.of(counters).model_dump(), isLike=liked, user_like=1 if liked else 0)


@router.post("/post_saves", response_model=SaveAnswer, responses=error_responses(404))
def post_saves(body: SaveBody, db: DbSession, user: CurrentUser) -> SaveAnswer:
    """Signed-in users only; saving one's own media is refused with a message."""
    counters, saved = service.set_save(db, user, body.id, body.isSave)
    return SaveAnswer(**TourCountersOut.of(counters).model_dump(), isSave=saved, user_save=1 if saved else 0)


@router.post(
    "/post_shares", response_model=TourCountersOut, dependencies=[Depends(public)], responses=error_responses(404)
)
def post_shares(body: ShareBody, db: DbSession, user: OptionalUser, caller: Caller) -> TourCountersOut:
    counters = service.record_share(
        db, body.id, user=user, guest_id=caller.guest_id if caller else None, channel=body.channel
    )
    return TourCountersOut.of(counters)
