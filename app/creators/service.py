"""Creators: following (spec §4 "Follow", §6) and shares of a creator profile. The profile calls
(create, edit, logo, pages, analytics) join this module later.

A follow is one row per (user, creator); the creator's `followers` counter moves in one SQL UPDATE
only when that row was really inserted or deleted (see app/engagement/service.py), so parallel
follows count exactly and an unfollow never takes it below 0. Admins, guests and a creator's own
account cannot follow it (spec §2, §6).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from app.analytics.service import record_follow
from app.auth.service import record_activity
from app.core import outbox_topics
from app.core.access import ADMINS_CANNOT_FOLLOW
from app.core.db import utcnow
from app.core.errors import BadRequest, Forbidden, NotFound
from app.creators.models import Creator, Follow
from app.engagement.service import (
    delete_rows,
    emit_creator_counters,
    insert_if_absent,
    step,
)
from app.users import service as users
from app.users.models import SessionActivity, User

CREATOR_NOT_FOUND = "Creator not found"
CANNOT_FOLLOW_OWN = "You cannot follow your own creator profile"
NOT_YOURS = "You can only follow or unfollow for yourself"
FOLLOWERS_ARE_PRIVATE = "Only the creator and administrators can see who follows a creator"
# Activities recorded by the server (spec §4, §7 session-activities codes).
FOLLOW_ACTIVITY, UNFOLLOW_ACTIVITY = "Follow", "Unfollow"
# Creators have no share counter column: each share is a session activity with this code, whose
# owner_id is the creator's user id (as for every activity about someone's content), counted from there.
SHARE_ACTIVITY = "Share creator"


@dataclass(frozen=True)
class FollowState:
    creator_id: int
    userid: int
    followers: int
    is_follow: bool


@dataclass(frozen=True)
class FollowRow:
    userid: int
    creator_id: int
    created_at: datetime
    platform_username: str | None
    username: str
    profile_img: str | None
    creator_name: str
    logo: str | None


@dataclass(frozen=True)
class FollowPage:
    rows: list[FollowRow]
    total: int


def _listed_creator(db: Session, creator_id: int) -> Creator:
    """An active creator of an active account: the only kind anyone can follow or share."""
    creator = db.get(Creator, creator_id)
    if creator is None or not creator.is_active:
        raise NotFound(CREATOR_NOT_FOUND)
    owner = creator.user
    if not owner.is_active or not owner.user_active or owner.is_deleted:
        raise NotFound(CREATOR_NOT_FOUND)
    return creator


def _acting_user(caller: User, userid: int | None) -> None:
    if userid is not None and userid != caller.id:
        raise BadRequest(NOT_YOURS, fields={"userid": NOT_YOURS})


def _move_followers(db: Session, creator_id: int, delta: int, *, user_id: int) -> int:
    """The follower counter, its push, and the follow (or unfollow: -1) analytics event."""
    row = db.execute(
        update(Creator)
        .where(Creator.id == creator_id)
        .values(followers=step(Creator.followers, delta))
        .returning(Creator.id, Creator.followers, Creator.views, Creator.likes)
        .execution_options(synchronize_session=False)
    ).one()
    outbox_topics.creator_changed(db, creator_id)
    emit_creator_counters(db, *row)
    record_follow(db, creator_id, user_id=user_id, value=delta)
    return int(row.followers)


def _followers(db: Session, creator_id: int) -> int:
    return int(db.scalar(select(Creator.followers).where(Creator.id == creator_id)) or 0)


def follow(db: Session, caller: User, creator_id: int, userid: int | None = None) -> FollowState:
    """POST followers: idempotent; records 'Follow' when the follow is new."""
    if caller.is_admin:
        raise Forbidden(ADMINS_CANNOT_FOLLOW)
    _acting_user(caller, userid)
    creator = _listed_creator(db, creator_id)
    if creator.user_id == caller.id:
        raise BadRequest(CANNOT_FOLLOW_OWN, fields={"creator_id": CANNOT_FOLLOW_OWN})
    added = insert_if_absent(db, Follow, {"user_id": caller.id, "creator_id": creator.id, "created_at": utcnow()})
    if not added:
        return FollowState(creator.id, caller.id, _followers(db, creator.id), is_follow=True)
    record_activity(db, user_id=caller.id, code=FOLLOW_ACTIVITY, text=str(creator.id), owner_id=str(creator.user_id))
    return FollowState(creator.id, caller.id, _move_followers(db, creator.id, +1, user_id=caller.id), is_follow=True)


def unfollow(db: Session, caller: User, creator_id: int, userid: int | None = None) -> FollowState:
    """DELETE followers: idempotent; one's own follow, or (admins) anyone's; records 'Unfollow'."""
    target = users.resolve_target(db, caller, userid)
    creator = db.get(Creator, creator_id)
    if creator is None:
        raise NotFound(CREATOR_NOT_FOUND)
    removed = delete_rows(db, delete(Follow).where(Follow.user_id == target.id, Follow.creator_id == creator.id))
    if not removed:
        return FollowState(creator.id, target.id, _followers(db, creator.id), is_follow=False)
    record_activity(db, user_id=target.id, code=UNFOLLOW_ACTIVITY, text=str(creator.id), owner_id=str(creator.user_id))
    return FollowState(creator.id, target.id, _move_followers(db, creator.id, -1, user_id=target.id), is_follow=False)


def unfollow_all(db: Session, caller: User, user_id: int | None) -> tuple[int, int]:
    """DELETE is-follow: every follow of a user goes (oneself, or anyone for an admin); returns the
    user's id and how many follows went. Creators are updated in id order, so two such calls cannot
    deadlock each other."""
    target = users.resolve_target(db, caller, user_id)
    removed = db.execute(delete(Follow).where(Follow.user_id == target.id).returning(Follow.creator_id))
    creator_ids = sorted(removed.scalars())
    owners = dict(db.execute(select(Creator.id, Creator.user_id).where(Creator.id.in_(creator_ids))).all())
    for creator_id in creator_ids:
        record_activity(
            db, user_id=target.id, code=UNFOLLOW_ACTIVITY, text=str(creator_id), owner_id=str(owners[creator_id])
        )
        _move_followers(db, creator_id, -1, user_id=target.id)
    return target.id, len(creator_ids)


def is_follow(db: Session, caller: User | None, creator_id: int, userid: int | None = None) -> bool:
    """GET is-follow: whether the caller (or, for an admin, the given user) follows the creator;
    always false for guests."""
    if caller is None:
        return False
    target = users.resolve_target(db, caller, userid)
    found = db.scalar(select(Follow.id).where(Follow.user_id == target.id, Follow.creator_id == creator_id))
    return found is not None


def list_follows(
    db: Session, caller: User, *, userid: int | None, creator_id: int | None, limit: int, offset: int
) -> FollowPage:
    """GET followers: a user's follows (oneself, or anyone for an admin), optionally of one creator;
    or, with creator_id alone, the creator's followers (its owner and admins only)."""
    statement = (
        select(Follow, User, Creator)
        .join(User, User.id == Follow.user_id)
        .join(Creator, Creator.id == Follow.creator_id)
    )
    if userid is not None or creator_id is None:
        target = users.resolve_target(db, caller, userid)
        statement = statement.where(Follow.user_id == target.id)
    if creator_id is not None:
        if userid is None:
            _may_see_followers(db, caller, creator_id)
        statement = statement.where(Follow.creator_id == creator_id)
    total = db.scalar(select(func.count()).select_from(statement.subquery())) or 0
    rows = db.execute(statement.order_by(Follow.created_at.desc(), Follow.id.desc()).limit(limit).offset(offset))
    return FollowPage(rows=[_follow_row(follow_, user, creator) for follow_, user, creator in rows], total=total)


def _may_see_followers(db: Session, caller: User, creator_id: int) -> None:
    creator = db.get(Creator, creator_id)
    if creator is None:
        raise NotFound(CREATOR_NOT_FOUND)
    if not caller.is_admin and creator.user_id != caller.id:
        raise Forbidden(FOLLOWERS_ARE_PRIVATE)


def _follow_row(follow_: Follow, user: User, creator: Creator) -> FollowRow:
    return FollowRow(
        userid=user.id,
        creator_id=creator.id,
        created_at=follow_.created_at,
        platform_username=user.platform_username,
        username=user.username,
        profile_img=user.profile_img,
        creator_name=creator.creator_name,
        logo=creator.logo,
    )


def record_share(db: Session, creator_id: int, *, user: User | None, channel: str | None) -> int:
    """POST post_shares (creators): anyone may share a creator profile; returns how often it was shared."""
    creator = _listed_creator(db, creator_id)
    owner_id = str(creator.user_id)
    record_activity(db, user_id=user.id if user else None, code=SHARE_ACTIVITY, text=channel, owner_id=owner_id)
    shared = db.scalar(
        select(func.count())
        .select_from(SessionActivity)
        .where(SessionActivity.activity_code == SHARE_ACTIVITY, SessionActivity.owner_id == owner_id)
    )
    return int(shared or 0)
