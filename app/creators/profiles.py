"""Creator profiles (spec §3 "Creator profile", §7 Creators): reading a profile by id, by owner and by
name, its link-preview meta and logo path, and whether one waits for approval.

A profile is public while it is active and its owner's account is in good standing; its owner and
admins see it whatever its state (with `edit_pending`, whether an edit waits for approval). Tours
named as featured show to the public only while they are listed themselves.
"""

from __future__ import annotations

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from app.core.errors import NotFound
from app.creators.models import Creator, CreatorFeaturedTour, Follow
from app.creators.schemas import (
    CreatorMetaOut,
    CreatorProfileOut,
    FeaturedTourOut,
    ImgSettings,
    PendingCreatorAnswer,
)
from app.creators.service import CREATOR_NOT_FOUND
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.tours.models import Tour
from app.tours.queries import in_good_standing, is_listed, listed_clause
from app.users import service as users
from app.users.models import User

LOGO_NOT_FOUND = "Image not found"
META_DESCRIPTION_LENGTH = 200
# Where a pending creator item points: a new profile names its future owner, an edit its profile.
NEW_PROFILE_ENTITY, EDIT_ENTITY = "user", "creator"


def is_public(creator: Creator) -> bool:
    return creator.is_active and in_good_standing(creator.user)


def may_manage(viewer: User | None, creator: Creator) -> bool:
    return viewer is not None and (viewer.is_admin or viewer.id == creator.user_id)


def visible_creator(db: Session, creator: Creator | None, viewer: User | None) -> Creator:
    """The profile when the viewer may see it; 404 otherwise (a hidden profile is not announced)."""
    if creator is None or (not is_public(creator) and not may_manage(viewer, creator)):
        raise NotFound(CREATOR_NOT_FOUND)
    return creator


def by_id(db: Session, creator_id: int, viewer: User | None) -> CreatorProfileOut:
    return profile_out(db, visible_creator(db, db.get(Creator, creator_id), viewer), viewer)


def by_userid(db: Session, user_id: int, viewer: User | None) -> CreatorProfileOut:
    creator = db.scalar(select(Creator).where(Creator.user_id == user_id))
    return profile_out(db, visible_creator(db, creator, viewer), viewer)


def by_name(db: Session, name: str, viewer: User | None) -> CreatorProfileOut:
    """By the `/{creatorName}` of the creator-scoped pages: the owner's platform username, else the
    creator name; both compared without case."""
    wanted = name.strip().lower()
    if not wanted:
        raise NotFound(CREATOR_NOT_FOUND)
    found = list(
        db.scalars(
            select(Creator)
            .join(User, User.id == Creator.user_id)
            .where(or_(func.lower(User.platform_username) == wanted, func.lower(Creator.creator_name) == wanted))
            .order_by(Creator.id)
        )
    )
    # A platform username names one account; prefer it over another profile's display name.
    found.sort(key=lambda creator: (creator.user.platform_username or "").lower() != wanted)
    for creator in found:
        if is_public(creator) or may_manage(viewer, creator):
            return profile_out(db, creator, viewer)
    raise NotFound(CREATOR_NOT_FOUND)


def meta(db: Session, creator_id: int) -> CreatorMetaOut:
    """GET get-meta-creator: what a shared link's preview shows; public profiles only."""
    creator = visible_creator(db, db.get(Creator, creator_id), None)
    description = (creator.description or "").strip() or f"{creator.creator_name} on TourAtlas"
    if len(description) > META_DESCRIPTION_LENGTH:
        description = description[: META_DESCRIPTION_LENGTH - 1].rstrip() + "…"
    return CreatorMetaOut(
        id=creator.id,
        title=creator.creator_name,
        description=description,
        image=creator.logo,
        url=f"/creator/{creator.id}",
    )


def logo_of_user(db: Session, user_id: int, viewer: User | None) -> str:
    """GET creator-logo-path/{user_id}: the logo of the user's (visible) profile."""
    creator = db.scalar(select(Creator).where(Creator.user_id == user_id))
    if creator is None or creator.logo is None:
        raise NotFound(LOGO_NOT_FOUND)
    visible_creator(db, creator, viewer)
    return creator.logo


def pending_item(db: Session, user: User) -> ApprovalItem | None:
    """The user's creator item waiting for approval: a new profile, or an edit of theirs."""
    creator_id = user.creator.id if user.creator is not None else None
    conditions = [
        (ApprovalItem.kind == ApprovalKind.new_creator_profile)
        & (ApprovalItem.entity_type == NEW_PROFILE_ENTITY)
        & (ApprovalItem.entity_id == user.id)
    ]
    if creator_id is not None:
        conditions.append(
            (ApprovalItem.kind == ApprovalKind.creator_profile_edit)
            & (ApprovalItem.entity_type == EDIT_ENTITY)
            & (ApprovalItem.entity_id == creator_id)
        )
    return db.scalar(
        select(ApprovalItem)
        .where(ApprovalItem.status == ApprovalStatus.pending, or_(*conditions))
        .order_by(ApprovalItem.created_at.desc(), ApprovalItem.id.desc())
        .limit(1)
    )


def pending_state(db: Session, caller: User, userid: int | None) -> PendingCreatorAnswer:
    """GET is-pending-creator: oneself, or anyone for an admin."""
    target = users.resolve_target(db, caller, userid)
    item = pending_item(db, target)
    kind = item.kind.value if item is not None else None
    return PendingCreatorAnswer(
        userid=target.id,
        is_pending=item is not None,
        pending_kind=kind,  # type: ignore[arg-type]  # one of the two creator kinds pending_item reads
        creator_id=target.creator.id if target.creator is not None else None,
        approval_item_id=item.id if item is not None else None,
    )


def _edit_pending(db: Session, creator: Creator) -> bool:
    found = db.scalar(
        select(ApprovalItem.id).where(
            ApprovalItem.kind == ApprovalKind.creator_profile_edit,
            ApprovalItem.entity_type == EDIT_ENTITY,
            ApprovalItem.entity_id == creator.id,
            ApprovalItem.status == ApprovalStatus.pending,
        )
    )
    return found is not None


def _featured(db: Session, creator: Creator, manager: bool) -> list[FeaturedTourOut]:
    rows = db.execute(
        select(CreatorFeaturedTour.position, Tour)
        .join(Tour, Tour.id == CreatorFeaturedTour.tour_id)
        .where(CreatorFeaturedTour.creator_id == creator.id)
        .order_by(CreatorFeaturedTour.position, CreatorFeaturedTour.id)
    ).all()
    return [
        FeaturedTourOut(id=tour.guid, title=tour.title, preview_picture=tour.preview_picture, position=position)
        for position, tour in rows
        if manager or is_listed(tour)
    ]


def active_tours(db: Session, user_id: int) -> int:
    return int(db.scalar(select(func.count()).select_from(Tour).where(Tour.user_id == user_id, listed_clause())) or 0)


def img_settings_of(creator: Creator) -> ImgSettings:
    stored = dict(creator.img_settings or {})
    try:
        return ImgSettings.model_validate(stored)
    except ValueError:
        # An older row with a value the rules now refuse: show the defaults rather than fail the page.
        return ImgSettings()


def profile_out(db: Session, creator: Creator, viewer: User | None) -> CreatorProfileOut:
    owner = creator.user
    manager = may_manage(viewer, creator)
    is_follow = (
        viewer is not None
        and db.scalar(select(Follow.id).where(Follow.user_id == viewer.id, Follow.creator_id == creator.id)) is not None
    )
    return CreatorProfileOut(
        id=creator.id,
        userid=owner.id,
        user_name=owner.platform_username,
        platform_username=owner.platform_username,
        creator_name=creator.creator_name,
        description=creator.description,
        logo=creator.logo,
        trusted=creator.trusted,
        services=list(creator.services or []),
        website=creator.website,
        instagram=creator.social_instagram,
        twitter=creator.social_twitter,
        youtube=creator.social_youtube,
        facebook=creator.social_facebook,
        linkedin=creator.social_linkedin,
        phone=creator.phone,
        contact_email=creator.contact_email,
        creator_email=creator.contact_email,
        views=creator.views,
        likes=creator.likes,
        followers=creator.followers,
        vt_count=creator.vt_count,
        activeTours=active_tours(db, owner.id),
        created_date=creator.created_at,
        area_served=list(creator.area_served or []),
        default_view=creator.default_view.value,
        img_settings=img_settings_of(creator),
        is_active=creator.is_active,
        joined_fb_group=creator.joined_fb_group,
        featured_tours=_featured(db, creator, manager),
        is_follow=is_follow,
        is_owner=viewer is not None and viewer.id == creator.user_id,
        edit_pending=manager and _edit_pending(db, creator),
    )
