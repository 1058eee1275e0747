"""Becoming a creator and editing the profile (POST and PUT /v2/creators/, spec §4 "Creator update",
§5 "Creator"), deleting it, the admins' activation and statistics.

Every payload is checked in full when it is sent (spec §5: location, username and logo required;
names and description free of profanity; links well formed and live; featured tours at most 10,
the owner's own). Then it either applies at once (200 `CreatorProfile.Updated`: an admin's change,
or a trusted creator's) or waits as an approval item beside the published profile (201
`CreatorProfile.AddEditPending`): a new profile as `new_creator_profile`, an edit as
`creator_profile_edit`. The published profile stays as it is until an admin approves
(app/creators/approvals.py), which applies the stored payload through `apply_changes`. A newer
submission supersedes an older pending one, so an admin never approves a stale payload.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from app.core import daily_series, outbox_topics
from app.core.db import utcnow
from app.core.errors import AppError, BadRequest, Conflict, NotFound
from app.creators import links, logos, profiles
from app.creators.models import Creator, CreatorDefaultView, CreatorFeaturedTour, Follow
from app.creators.schemas import CreatorStats, CreatorWrite
from app.creators.service import CREATOR_NOT_FOUND
from app.moderation import service as moderation
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.tours import link_lookup
from app.tours.dashboard import TOO_MANY_FEATURED
from app.tours.models import Tour
from app.tours.queries import published_clause
from app.users import service as users
from app.users import validation as rules
from app.users.models import User

UPDATED, PENDING = "CreatorProfile.Updated", "CreatorProfile.AddEditPending"
INVALID_CREATOR_NAME = "Invalid Creator Name"
INVALID_DESCRIPTION = "Invalid Description"
INVALID_WEBSITE = "Invalid Website"
INVALID_SERVICE = "Invalid service"
NAME_TAKEN = "This creator name is already taken"
LOCATION_REQUIRED = "Location is required"
USERNAME_REQUIRED = "Username is required"
LOGO_REQUIRED = "Logo is required"
LOGO_UNKNOWN = "Upload the logo again: this image is not one of ours"
ALREADY_CREATOR = "You already have a creator profile: edit it instead"
NO_PROFILE = "You have no creator profile yet"
WRONG_PROFILE = "This creator profile belongs to another account"
NOT_YOUR_TOUR = "Only your own tours can be featured"
UNKNOWN_TOUR = "Tour not found"
SUPERSEDED = "Replaced by a newer submission"
DELETED = "The creator profile has been deleted"
ITEM_TEXT_MAX = 200  # one service or area served
LINK_FIELDS = ("website", "instagram", "twitter", "youtube", "facebook", "linkedin")
# Fields of the payload whose change the tours' index documents carry (their creator's card part).
TOUR_CARD_FIELDS = ("creator_name", "logo", "img_settings")
NEW_PROFILE_DAYS = 30


@dataclass(frozen=True)
class Saved:
    """What a POST or PUT did: applied (creator set) or filed for approval (item set)."""

    pending: bool
    creator: Creator | None
    item: ApprovalItem | None

    @property
    def message(self) -> str:
        return PENDING if self.pending else UPDATED


# ----------------------------------------------------------------------------------------- checks


def _clean_text(value: str | None) -> str | None:
    text = (value or "").strip()
    return text or None


def _clean_list(values: list[str]) -> list[str]:
    return list(dict.fromkeys(text for value in values if (text := value.strip())))


def checked_payload(db: Session, body: CreatorWrite, owner: User, creator: Creator | None) -> dict[str, Any]:
    """The payload as it will be stored and applied (creator payload wire names), or a 400 naming
    every failing field; 409 when the creator name or username is someone else's."""
    failures: dict[str, str | None] = {}
    name = body.creator_name.strip()
    failures["creator_name"] = (
        rules.REQUIRED if not name else INVALID_CREATOR_NAME if rules.has_profanity(name) else None
    )
    description = _clean_text(body.description)
    failures["description"] = INVALID_DESCRIPTION if description and rules.has_profanity(description) else None
    user_name = _clean_text(body.user_name) or _clean_text(owner.platform_username)
    failures["user_name"] = USERNAME_REQUIRED if user_name is None else None
    if user_name is not None and user_name != owner.platform_username:
        failures["user_name"] = rules.check_platform_username_format(user_name)
    logo = _clean_text(body.logo)
    current_logo = creator.logo if creator is not None else None
    failures["logo"] = (
        LOGO_REQUIRED if logo is None else None if logo == current_logo or logos.is_stored_logo(logo) else LOGO_UNKNOWN
    )
    areas = _clean_list(body.area_served)
    services = _clean_list(body.services)
    failures["area_served"] = LOCATION_REQUIRED if not areas else _item_failure(areas)
    failures["services"] = _item_failure(services)
    failures["phone"] = rules.check_phone(_clean_text(body.phone))
    email = _clean_text(body.contact_email) or _clean_text(body.creator_email)
    failures["contact_email"] = rules.check_email_format(email) if email else None
    featured, failures["featured_tours"] = _featured(db, body.featured_tours, owner)
    link_values = {field: _clean_text(getattr(body, field)) for field in LINK_FIELDS}
    for field, url in link_values.items():
        failures[field] = _link_format(field, url)
    rules.raise_for_fields(failures)
    # Only well-formed payloads cost a fetch per link (cached for a day).
    rules.raise_for_fields(dict(links.dead_links({f: u for f, u in link_values.items() if u})))
    _raise_if_taken(db, name=name, user_name=user_name, owner=owner, creator=creator)
    return {
        "creator_name": name,
        "user_name": user_name,
        "description": description,
        "logo": logo,
        "img_settings": body.img_settings.model_dump(),
        "services": services,
        **link_values,
        "phone": _clean_text(body.phone),
        "contact_email": email,
        "area_served": areas,
        "default_view": body.default_view,
        "featured_tours": featured,
        "joined_fb_group": body.joined_fb_group,
    }


def _item_failure(items: list[str]) -> str | None:
    if any(len(item) > ITEM_TEXT_MAX for item in items):
        return f"Each entry is at most {ITEM_TEXT_MAX} characters"
    if any(rules.has_profanity(item) for item in items):
        return INVALID_SERVICE
    return None


def _link_format(field: str, url: str | None) -> str | None:
    if url is None:
        return None
    try:
        link_lookup.parse_link(url)
    except AppError as exc:
        return exc.message
    if field == "website" and rules.has_profanity(url.replace("/", " ").replace(".", " ")):
        return INVALID_WEBSITE
    return None


def _featured(db: Session, guids: list[str], owner: User) -> tuple[list[str], str | None]:
    wanted = list(dict.fromkeys(guid.strip() for guid in guids if guid.strip()))
    if len(wanted) > 10:
        return wanted, TOO_MANY_FEATURED
    found = {tour.guid: tour for tour in db.scalars(select(Tour).where(Tour.guid.in_(wanted)))}
    if any(guid not in found for guid in wanted):
        return wanted, UNKNOWN_TOUR
    if any(found[guid].user_id != owner.id for guid in wanted):
        return wanted, NOT_YOUR_TOUR
    return wanted, None


def _raise_if_taken(db: Session, *, name: str, user_name: str | None, owner: User, creator: Creator | None) -> None:
    other = db.scalar(
        select(Creator.id).where(func.lower(Creator.creator_name) == name.lower(), Creator.user_id != owner.id).limit(1)
    )
    if other is not None:
        raise Conflict(NAME_TAKEN, fields={"creator_name": NAME_TAKEN})
    if user_name is not None and rules.platform_username_taken(db, user_name, current=owner.platform_username):
        raise Conflict(rules.USERNAME_TAKEN, fields={"user_name": rules.USERNAME_TAKEN})


# ------------------------------------------------------------------------------------- submitting


def _owner_of(db: Session, caller: User, body: CreatorWrite) -> User:
    owner = users.resolve_target(db, caller, body.userid)
    if body.id is not None and (owner.creator is None or owner.creator.id != body.id):
        # A PUT names the profile too: it must be the named account's.
        creator = db.get(Creator, body.id)
        if creator is None:
            raise NotFound(CREATOR_NOT_FOUND)
        if body.userid is None and caller.is_admin:
            return creator.user
        raise BadRequest(WRONG_PROFILE, fields={"id": WRONG_PROFILE})
    return owner


def _applies_at_once(caller: User, owner: User, creator: Creator | None) -> bool:
    """Admins' changes apply; so do trusted creators' (spec §4: trusted users skip approval)."""
    return caller.is_admin or owner.trusted or (creator is not None and creator.trusted)


def create(db: Session, caller: User, body: CreatorWrite) -> Saved:
    """POST /: become a creator. 409 when the account has a profile already."""
    owner = _owner_of(db, caller, body)
    if owner.creator is not None:
        raise Conflict(ALREADY_CREATOR)
    return _submit(db, caller, owner, None, body)


def edit(db: Session, caller: User, body: CreatorWrite) -> Saved:
    """PUT /: change the profile; before a first approval, replace the pending new profile."""
    owner = _owner_of(db, caller, body)
    if owner.creator is None and profiles.pending_item(db, owner) is None:
        raise NotFound(NO_PROFILE)
    return _submit(db, caller, owner, owner.creator, body)


def _submit(db: Session, caller: User, owner: User, creator: Creator | None, body: CreatorWrite) -> Saved:
    changes = checked_payload(db, body, owner, creator)
    owner.potential_creator = True
    if _applies_at_once(caller, owner, creator):
        _supersede(db, owner, creator)
        return Saved(pending=False, creator=apply_changes(db, owner, creator, changes), item=None)
    kind = ApprovalKind.new_creator_profile if creator is None else ApprovalKind.creator_profile_edit
    _supersede(db, owner, creator)
    item = ApprovalItem(
        kind=kind,
        status=ApprovalStatus.pending,
        entity_type=profiles.NEW_PROFILE_ENTITY if creator is None else profiles.EDIT_ENTITY,
        entity_id=owner.id if creator is None else creator.id,
        payload=changes,
        submitted_by_user_id=caller.id,
        created_at=utcnow(),
    )
    db.add(item)
    if creator is not None:
        owner.editing_creator_pending = True
    db.flush()
    moderation.announce_queue_change(db, kind=kind, subject=item.id, action="added")
    return Saved(pending=True, creator=creator, item=item)


def _supersede(db: Session, owner: User, creator: Creator | None) -> None:
    now = utcnow()
    while (older := profiles.pending_item(db, owner)) is not None:
        older.status, older.review_note, older.reviewed_at = ApprovalStatus.rejected, SUPERSEDED, now
        db.flush()
        moderation.announce_queue_change(db, kind=older.kind, subject=older.id, action="removed")


# ---------------------------------------------------------------------------------------- applying


def apply_changes(db: Session, owner: User, creator: Creator | None, changes: dict[str, Any]) -> Creator:
    """Publish a checked payload: create the profile or change it, in this transaction, and send it
    (and, when the card part changed, the owner's tours) to the index through the outbox. Names are
    checked again: someone may have taken one since the payload was sent (409)."""
    user_name = changes.get("user_name")
    _raise_if_taken(db, name=changes["creator_name"], user_name=user_name, owner=owner, creator=creator)
    new = creator is None
    if creator is None:
        creator = Creator(user_id=owner.id, creator_name=changes["creator_name"])
        db.add(creator)
    card_before = (creator.creator_name, creator.logo, dict(creator.img_settings or {}))
    creator.creator_name = changes["creator_name"]
    creator.description = changes.get("description")
    creator.logo = changes.get("logo")
    creator.img_settings = dict(changes.get("img_settings") or {})
    creator.services = list(changes.get("services") or [])
    creator.website = changes.get("website")
    creator.social_instagram = changes.get("instagram")
    creator.social_twitter = changes.get("twitter")
    creator.social_youtube = changes.get("youtube")
    creator.social_facebook = changes.get("facebook")
    creator.social_linkedin = changes.get("linkedin")
    creator.phone = changes.get("phone")
    creator.contact_email = changes.get("contact_email")
    creator.area_served = list(changes.get("area_served") or [])
    creator.default_view = CreatorDefaultView(changes.get("default_view") or "grid")
    creator.joined_fb_group = bool(changes.get("joined_fb_group"))
    if user_name and user_name != owner.platform_username:
        owner.platform_username = user_name
    owner.editing_creator_pending = False
    db.flush()
    _set_featured(db, creator, owner, list(changes.get("featured_tours") or []))
    if new:
        # The owner's tours are this creator's from now on (cards, counts, the creator grid).
        db.execute(update(Tour).where(Tour.user_id == owner.id).values(creator_id=creator.id))
        listed = select(func.count()).select_from(Tour).where(Tour.creator_id == creator.id, published_clause())
        creator.vt_count = int(db.scalar(listed) or 0)
    outbox_topics.creator_changed(db, creator.id)
    if new or card_before != (creator.creator_name, creator.logo, creator.img_settings):
        for tour_id in db.scalars(select(Tour.id).where(Tour.user_id == owner.id)):
            outbox_topics.tour_changed(db, tour_id)
    return creator


def _set_featured(db: Session, creator: Creator, owner: User, guids: list[str]) -> None:
    """Replace the featured tours with the payload's, keeping those still the owner's."""
    tours = {tour.guid: tour for tour in db.scalars(select(Tour).where(Tour.guid.in_(guids), Tour.user_id == owner.id))}
    db.execute(delete(CreatorFeaturedTour).where(CreatorFeaturedTour.creator_id == creator.id))
    db.add_all(
        CreatorFeaturedTour(creator_id=creator.id, tour_id=tours[guid].id, position=position)
        for position, guid in enumerate(guid for guid in guids if guid in tours)
    )
    db.flush()
    db.expire(creator, ["featured_tours"])


# ------------------------------------------------------------------------- delete, activate, stats


def delete_profile(db: Session, caller: User, *, creator_id: int | None, user_id: int | None) -> tuple[int, int]:
    """DELETE /: the profile goes (its owner's or, for an admin, anyone's); the account and its tours
    stay, without a creator. Pending items of the profile are withdrawn. Returns (creator, user)."""
    owner = users.resolve_target(db, caller, user_id)
    creator = db.get(Creator, creator_id) if creator_id is not None else owner.creator
    if creator is None:
        raise NotFound(CREATOR_NOT_FOUND)
    if creator.user_id != owner.id and not caller.is_admin:
        raise BadRequest(WRONG_PROFILE, fields={"creator_id": WRONG_PROFILE})
    owner = creator.user
    _supersede(db, owner, creator)
    tour_ids = list(db.scalars(select(Tour.id).where(Tour.creator_id == creator.id)))
    deleted_id = creator.id
    db.execute(delete(Follow).where(Follow.creator_id == deleted_id))
    db.execute(update(Tour).where(Tour.creator_id == deleted_id).values(creator_id=None))
    db.delete(creator)
    owner.editing_creator_pending = False
    db.flush()
    outbox_topics.creator_changed(db, deleted_id)
    for tour_id in tour_ids:
        outbox_topics.tour_changed(db, tour_id)
    return deleted_id, owner.id


def set_active(db: Session, creator_id: int, *, active: bool) -> Creator:
    """POST admin-creator-activate-deactivate: a deactivated profile leaves every public page and the
    index; its owner and admins still see it."""
    creator = db.get(Creator, creator_id)
    if creator is None:
        raise NotFound(CREATOR_NOT_FOUND)
    if creator.is_active != active:
        creator.is_active = active
        db.flush()
        outbox_topics.creator_changed(db, creator.id)
        for tour_id in db.scalars(select(Tour.id).where(Tour.creator_id == creator.id)):
            outbox_topics.tour_changed(db, tour_id)
    return creator


def set_trusted(db: Session, creator_id: int, *, trusted: bool) -> Creator:
    """PUT trusted (admins): a trusted creator's new tours and profile edits skip the queue; the new
    tours are listed for an audit after the fact (kind trusted_audit, app/tours/approvals.py)."""
    creator = db.get(Creator, creator_id)
    if creator is None:
        raise NotFound(CREATOR_NOT_FOUND)
    if creator.trusted != trusted:
        creator.trusted = trusted
        db.flush()
        outbox_topics.creator_changed(db, creator.id)
    return creator


def stats(db: Session, first: date, last: date) -> CreatorStats:
    """GET admin-stats: how many profiles, in which state, what waits, and how many were created on
    each UTC day from `first` to `last`."""
    counts = db.execute(
        select(
            func.count(),
            func.count().filter(Creator.is_active.is_(True)),
            func.count().filter(Creator.trusted.is_(True)),
            func.count().filter(Creator.created_at >= utcnow() - timedelta(days=NEW_PROFILE_DAYS)),
            func.coalesce(func.sum(Creator.followers), 0),
        ).select_from(Creator)
    ).one()
    pending = dict(
        db.execute(
            select(ApprovalItem.kind, func.count())
            .where(
                ApprovalItem.status == ApprovalStatus.pending,
                ApprovalItem.kind.in_([ApprovalKind.new_creator_profile, ApprovalKind.creator_profile_edit]),
            )
            .group_by(ApprovalItem.kind)
        ).all()
    )
    total, active, trusted, recent, followers = (int(value) for value in counts)
    return CreatorStats(
        total=total,
        active=active,
        inactive=total - active,
        trusted=trusted,
        pending_new=int(pending.get(ApprovalKind.new_creator_profile, 0)),
        pending_edits=int(pending.get(ApprovalKind.creator_profile_edit, 0)),
        new_last_30_days=recent,
        followers=followers,
        daily=daily_series.daily_counts(db, Creator.created_at, first, last),
    )
