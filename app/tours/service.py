"""Tours (spec §4 "Media"): adding and editing under the §5 rules, the owner's actions, moderation,
featured tours, the daily featured submission, transfers and the creator pages.

A tour is listed when it is `active` (the owner's choice) and `approved` (moderation's). Trusted
owners (a trusted account or creator profile) and staff skip approval; everybody else's new tour
waits as `pending`, and an edit of an approved tour waits as a 'VT edit' approval item while the
published version stays. Every change records an `index.tour` outbox entry (the feed, map and
search follow after the commit), keeps the creator's vt_count in step and, when the moderation
queue changes, pushes `moderation:queue` to the admins. Services never commit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Select, case, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, object_session

from app.classifications.dictionaries import normalise_link
from app.classifications.models import Category, Rank, RankEntityType, Tag, Vendor
from app.core.db import utcnow
from app.core.errors import BadRequest, Conflict, Forbidden, NotFound, field_error
from app.core.outbox import add_outbox
from app.creators.models import MAX_FEATURED_TOURS, Creator, CreatorFeaturedTour
from app.discovery import service as discovery
from app.discovery.schemas import MapAreaAnswer, MediaCard, Sorting
from app.engagement.models import TourSave
from app.locations import service as locations
from app.locations.ports import Geocoder
from app.moderation import service as moderation
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.tours import images, rules
from app.tours.models import ApprovalState, DailyFeaturedSubmission, Tour, TourStatus, TourTag
from app.tours.schemas import (
    AddressOut,
    AdminStats,
    ApprovalAction,
    ApprovalDecision,
    ApprovalItemOut,
    ApprovalItemsPage,
    ApprovalKindName,
    CreatorToursAnswer,
    FeaturedScope,
    FeaturedToursBody,
    LinkExistsAnswer,
    MediaTagOut,
    MediaTagsAnswer,
    NewCategory,
    PendingPage,
    PendingTourOut,
    SavedToursPage,
    TagOut,
    TaskBody,
    TaskName,
    TourCounts,
    TourEdit,
    TourOut,
    TourTodayBody,
    TourWrite,
    UserTourSort,
    UserToursPage,
    UserTourStatus,
    VendorRef,
)
from app.users.models import User
from app.users.validation import has_profanity
from indexer.port import SearchIndex
from indexer.queries import BBox, FeedQuery, Sort, TourFilter

NOT_FOUND_MESSAGE = "Unfortunately this Virtual Tour could not be found..."
USER_NOT_FOUND = "User not found"
ADDRESS_NOT_FOUND = "Address not found"
NOT_YOURS = "You can only manage your own tours"
ADMINS_ONLY = "Administrators only"
ACCOUNT_INACTIVE = "This account is not active"
ADDED = "Your virtual tour has been added"
ADDED_PENDING = "Your virtual tour has been added and waits for an administrator's approval"
UPDATED = "Your virtual tour has been updated"
EDIT_PENDING = "Your changes are saved and wait for an administrator's approval"
TOO_MANY_FEATURED = "You can't add more than 10 featured locations"
ALREADY_SUBMITTED_TODAY = "You have already submitted a tour today: come back tomorrow"
ONLY_LISTED = "Only published tours can be featured"
CREATOR_PAGE_SIZE = 50  # spec §9 "Creator media page size"
WORLD = BBox(west=-180, south=-85, east=180, north=85)
TOUR_KINDS = (ApprovalKind.new_virtual_tour, ApprovalKind.vt_edit)

SORTING_TO_SORT: dict[Sorting, Sort] = {**discovery.SORTING_TO_SORT, Sorting.near_me: Sort.VIEWS}


# ------------------------------------------------------------------------------ lookups and access


def tour_by_guid(session: Session, guid: str) -> Tour:
    tour = session.scalar(select(Tour).where(Tour.guid == guid))
    if tour is None:
        raise NotFound(NOT_FOUND_MESSAGE)
    return tour


def can_manage(user: User | None, tour: Tour) -> bool:
    """Owners manage their tours, admins every tour, content managers the tours they added for others."""
    if user is None:
        return False
    added_by_them = user.is_content_manager and tour.created_by_user_id == user.id
    return user.is_admin or tour.user_id == user.id or added_by_them


def is_pending(tour: Tour) -> bool:
    return tour.approval_state == ApprovalState.pending


def is_listed(tour: Tour) -> bool:
    owner = tour.owner
    return (
        tour.status == TourStatus.active
        and tour.approval_state == ApprovalState.approved
        and owner.is_active
        and owner.user_active
        and not owner.is_deleted
    )


def in_queue(tour: Tour) -> bool:
    """The moderation queue holds active tours waiting for approval (a pending draft is not asked for yet)."""
    return tour.status == TourStatus.active and tour.approval_state == ApprovalState.pending


def visible_tour(session: Session, *, viewer: User | None, guid: str) -> Tour:
    """A listed tour, or any tour for its owner and admins; others read the §8 not-found text."""
    tour = tour_by_guid(session, guid)
    if not is_listed(tour) and not can_manage(viewer, tour):
        raise NotFound(NOT_FOUND_MESSAGE)
    return tour


def managed_tour(session: Session, *, editor: User, guid: str) -> Tour:
    tour = tour_by_guid(session, guid)
    if not can_manage(editor, tour):
        raise Forbidden(NOT_YOURS)
    return tour


def _tour_by_link(session: Session, link: str) -> Tour | None:
    return session.scalar(select(Tour).where(Tour.link_normalised == normalise_link(link)))


def link_exists(session: Session, *, viewer: User, link: str) -> LinkExistsAnswer:
    tour = _tour_by_link(session, link)
    if tour is None:
        return LinkExistsAnswer(exists=False)
    return LinkExistsAnswer(exists=True, guid=tour.guid if is_listed(tour) or can_manage(viewer, tour) else None)


def visible_tour_by_link(session: Session, *, viewer: User | None, link: str) -> Tour:
    tour = _tour_by_link(session, link)
    if tour is None or not (is_listed(tour) or can_manage(viewer, tour)):
        raise NotFound(NOT_FOUND_MESSAGE)
    return tour


def _user(session: Session, user_id: int) -> User:
    user = session.get(User, user_id)
    if user is None or user.is_deleted:
        raise NotFound(USER_NOT_FOUND)
    return user


def owner_visible_to(session: Session, *, viewer: User, userid: int) -> User:
    """The account whose tours a call manages: one's own, or any for an admin."""
    if userid == viewer.id:
        return viewer
    if not viewer.is_admin:
        raise Forbidden(NOT_YOURS)
    return _user(session, userid)


def owner_for_staff(session: Session, *, userid: int | None, platform_username: str | None) -> User:
    """POST on-behalf-of: the account named by id or platform username (spec §5 'select user')."""
    if userid is not None:
        return _user(session, userid)
    name = (platform_username or "").strip().lower()
    if not name:
        raise field_error("platform_username", rules.SELECT_USER)
    user = session.scalar(select(User).where(func.lower(User.platform_username) == name))
    if user is None or user.is_deleted:
        raise BadRequest(USER_NOT_FOUND, fields={"platform_username": rules.SELECT_USER})
    return user


def _owner_for_add(session: Session, editor: User, userid: int | None) -> User:
    if userid is None or userid == editor.id:
        return editor
    if not (editor.is_admin or editor.is_content_manager):
        raise Forbidden("Only administrators and content managers add tours for other accounts")
    return _user(session, userid)


def _trusted(editor: User, owner: User) -> bool:
    """Spec §4: trusted users skip approval. Staff adding or editing are trusted too."""
    creator = owner.creator
    return (
        editor.is_admin
        or editor.is_content_manager
        or owner.trusted
        or (creator is not None and creator.is_active and creator.trusted)
    )


def _image_waits(session: Session, editor: User, new_picture: str | None, old_picture: str | None) -> bool:
    """A newly uploaded preview of a non-admin waits for approval while images_approval is on."""
    return images.is_upload(new_picture) and new_picture != old_picture and images.needs_approval(session, editor)


# ------------------------------------------------------------------------------ location


@dataclass(frozen=True, slots=True)
class Location:
    lat: float
    lng: float
    address_str: str | None
    address_id: str | None
    street: str | None = None
    city: str | None = None
    province: str | None = None
    zip: str | None = None
    country_code: str | None = None


def _clean(text: str | None) -> str | None:
    stripped = (text or "").strip()
    return stripped or None


def parse_coordinate(text: str) -> tuple[float, float]:
    """The pin picker's 'lat,lng'."""
    message = "coordinate must be 'latitude,longitude', e.g. 48.8584,2.2945"
    parts = text.split(",")
    try:
        lat, lng = (float(part) for part in parts) if len(parts) == 2 else (math.nan, math.nan)
    except ValueError:
        raise field_error("coordinate", message) from None
    if not (math.isfinite(lat) and math.isfinite(lng) and -90 <= lat <= 90 and -180 <= lng <= 180):
        raise field_error("coordinate", message)
    return lat, lng


def _location_of(address: locations.Address, typed: str | None) -> Location:
    lng, lat = address.center
    return Location(
        lat=lat,
        lng=lng,
        address_str=typed or address.address_str,
        address_id=address.address_id,
        street=address.street,
        city=address.city,
        province=address.province,
        zip=address.zip,
        country_code=address.country_code,
    )


def _address_not_found() -> NotFound:
    # 404 makes the client open the pin picker (spec §8 Media save).
    return NotFound(ADDRESS_NOT_FOUND, fields={"address_str": ADDRESS_NOT_FOUND})


def resolve_location(geocoder: Geocoder, body: TourWrite) -> Location | None:
    """Coordinates and address parts of the form's address. A pin ('lat,lng') wins: its point is kept
    even where no address is known; an address id or text that the geocoder cannot find is a 404."""
    typed = _clean(body.address_str)
    coordinate = _clean(body.coordinate)
    if coordinate:
        lat, lng = parse_coordinate(coordinate)
        try:
            address = locations.find_address(geocoder, address_id=None, coordinates=(lng, lat))
        except NotFound:
            return Location(lat=lat, lng=lng, address_str=typed, address_id=_clean(body.address_id))
        return replace(_location_of(address, typed), lat=lat, lng=lng)
    address_id = _clean(body.address_id)
    if address_id:
        try:
            return _location_of(locations.find_address(geocoder, address_id=address_id, coordinates=None), typed)
        except NotFound:
            raise _address_not_found() from None
    if typed:
        places = locations.search_locations(geocoder, typed, limit=1)
        if not places:
            raise _address_not_found()
        return _location_of(locations.address_of(places[0]), typed)
    return None


def _set_location(tour: Tour, location: Location | None) -> None:
    if location is None:
        return
    tour.lat, tour.lng = location.lat, location.lng
    tour.address_str = location.address_str
    tour.address_id = location.address_id
    tour.address_street = location.street
    tour.address_city = location.city
    tour.address_province = location.province
    tour.address_zip = location.zip
    tour.address_country = location.country_code


# ------------------------------------------------------------------------------ saving


@dataclass
class SaveResult:
    status: int
    message: str
    tour: Tour | None
    viewer: User
    pending: bool = False
    fields: dict[str, str] = field(default_factory=dict)


def _content_of(form: rules.CheckedForm, body: TourWrite) -> dict[str, Any]:
    """The form's content as column values (JSON-ready: a VT edit keeps it in its approval item)."""
    return {
        "title": form.title,
        "description": form.description,
        "link": form.link,
        "link_normalised": form.link_normalised,
        "media_type_id": form.media_type.id,
        "category_id": form.category.id,
        "subcategory_id": form.subcategory.id if form.subcategory else None,
        "camera_id": form.camera.id if form.camera else None,
        "preview_picture": form.preview_picture,
        "vt_website": form.vt_website,
        "creator_website": form.creator_website,
        "third_party_creator": form.third_party_creator,
        "is_ai_generated": body.is_ai_generated,
        "tag_ids": [tag.id for tag in form.tags],
    }


def _current_content(tour: Tour, keys: Sequence[str]) -> dict[str, Any]:
    return {key: [link.tag_id for link in tour.tag_links] if key == "tag_ids" else getattr(tour, key) for key in keys}


def _changes(tour: Tour, content: dict[str, Any]) -> dict[str, Any]:
    current = _current_content(tour, list(content))
    return {key: value for key, value in content.items() if current[key] != value}


def _set_tags(tour: Tour, tag_ids: Sequence[int]) -> None:
    """Keep the links still wanted (a delete and re-insert of one key would collide in one flush)."""
    wanted = {tag_id: position for position, tag_id in enumerate(tag_ids)}
    for link in list(tour.tag_links):
        if link.tag_id in wanted:
            link.position = wanted.pop(link.tag_id)
        else:
            tour.tag_links.remove(link)
    for tag_id, position in wanted.items():
        tour.tag_links.append(TourTag(tag_id=tag_id, position=position))


def _apply(tour: Tour, changes: dict[str, Any]) -> None:
    for key, value in changes.items():
        if key == "tag_ids":
            _set_tags(tour, value)
        else:
            setattr(tour, key, value)


def _flush_unique_link(session: Session) -> None:
    """The link is unique in the table too: a tour added meanwhile under the same link is a 409."""
    try:
        session.flush()
    except IntegrityError as exc:
        raise Conflict(rules.LINK_NOT_UNIQUE, fields={"link": rules.LINK_NOT_UNIQUE}) from exc


def _check_owner_active(owner: User) -> None:
    if owner.is_deleted or not owner.is_active or not owner.user_active:
        raise BadRequest(ACCOUNT_INACTIVE, fields={"userid": ACCOUNT_INACTIVE})


def add_tour(
    session: Session, *, editor: User, body: TourWrite, geocoder: Geocoder, owner: User | None = None
) -> SaveResult:
    owner = owner or _owner_for_add(session, editor, body.userid)
    _check_owner_active(owner)
    form = rules.check_form(session, body, owner=owner, editor=editor, current=None)
    if _tour_by_link(session, form.link) is not None:
        return SaveResult(208, rules.LINK_EXISTS, None, editor, fields={"link": rules.LINK_NOT_UNIQUE})
    location = resolve_location(geocoder, body)
    approved = _trusted(editor, owner) and not _image_waits(session, editor, form.preview_picture, None)
    active = body.is_active
    tour = Tour(
        user_id=owner.id,
        creator_id=owner.creator.id if owner.creator is not None else None,
        vendor_id=form.vendor.id,
        created_by_user_id=editor.id,
        status=TourStatus.active if active else TourStatus.draft,
        approval_state=ApprovalState.approved if approved else ApprovalState.pending,
        published_at=utcnow() if approved and active else None,
        views=0,
        likes=0,
        saves=0,
        shared=0,
        is_featured=False,
    )
    content = _content_of(form, body)
    _apply(tour, content)
    _set_location(tour, location)
    session.add(tour)
    _flush_unique_link(session)
    if not approved:
        _file_new_tour(session, tour, editor)
    if body.newCategory is not None:
        _file_category_request(session, tour, owner, body.newCategory)
    _changed(session, tour)
    if in_queue(tour):
        _push_queue(session, ApprovalKind.new_virtual_tour, tour.guid, "added")
    return SaveResult(201, ADDED if approved else ADDED_PENDING, tour, editor, pending=not approved)


def edit_tour(session: Session, *, editor: User, body: TourEdit) -> SaveResult:
    """The host and the location stay as added (spec §4); the address fields of an edit are ignored."""
    tour = managed_tour(session, editor=editor, guid=body.guid)
    owner = tour.owner
    form = rules.check_form(session, body, owner=owner, editor=editor, current=tour)
    if form.link_normalised != tour.link_normalised and _tour_by_link(session, form.link) is not None:
        raise Conflict(rules.LINK_NOT_UNIQUE, fields={"link": rules.LINK_NOT_UNIQUE})
    was_queued = in_queue(tour)
    changes = _changes(tour, _content_of(form, body))
    image_waits = _image_waits(session, editor, form.preview_picture, tour.preview_picture)
    trusted = _trusted(editor, owner) and not image_waits
    tour.status = TourStatus.active if body.is_active else TourStatus.draft
    edit_waits = bool(changes) and tour.approval_state == ApprovalState.approved and not trusted
    if edit_waits:
        _file_edit(session, tour, editor, changes)
    else:
        _apply(tour, changes)
        if tour.approval_state == ApprovalState.rejected and changes:
            _resubmit(session, tour, editor, approved=trusted)
    if body.newCategory is not None:
        _file_category_request(session, tour, owner, body.newCategory)
    if tour.status == TourStatus.active and tour.approval_state == ApprovalState.approved and not tour.published_at:
        tour.published_at = utcnow()
    _flush_unique_link(session)
    _changed(session, tour)
    _push_queue_moves(session, tour, was_queued, "removed")
    if edit_waits:
        _push_queue(session, ApprovalKind.vt_edit, tour.guid, "added")
        return SaveResult(200, EDIT_PENDING, tour, editor, pending=True)
    return SaveResult(201, UPDATED, tour, editor, pending=is_pending(tour))


def _resubmit(session: Session, tour: Tour, editor: User, *, approved: bool) -> None:
    """A rejected tour that is edited goes back to moderation (or straight back for the trusted)."""
    tour.approval_state = ApprovalState.approved if approved else ApprovalState.pending
    if not approved:
        _file_new_tour(session, tour, editor)


def _file_new_tour(session: Session, tour: Tour, submitter: User) -> None:
    if _pending_item(session, ApprovalKind.new_virtual_tour, tour.id) is not None:
        return
    session.add(
        ApprovalItem(
            kind=ApprovalKind.new_virtual_tour,
            status=ApprovalStatus.pending,
            entity_type="tour",
            entity_id=tour.id,
            payload={"guid": tour.guid, "title": tour.title},
            submitted_by_user_id=submitter.id,
            created_at=utcnow(),
        )
    )


def _file_edit(session: Session, tour: Tour, submitter: User, changes: dict[str, Any]) -> None:
    """One pending edit per tour: a newer edit replaces the proposal (on top of what is published)."""
    item = _pending_item(session, ApprovalKind.vt_edit, tour.id)
    if item is None:
        session.add(
            ApprovalItem(
                kind=ApprovalKind.vt_edit,
                status=ApprovalStatus.pending,
                entity_type="tour",
                entity_id=tour.id,
                payload={"guid": tour.guid, "changes": changes},
                submitted_by_user_id=submitter.id,
                created_at=utcnow(),
            )
        )
    else:
        item.payload = {"guid": tour.guid, "changes": changes}
        item.submitted_by_user_id = submitter.id
    tour.owner.tour_edit_pending = True


def _file_category_request(session: Session, tour: Tour, owner: User, request: NewCategory) -> None:
    """New category mode: the names wait for the admins as a category request (spec §4)."""
    session.add(
        ApprovalItem(
            kind=ApprovalKind.category_request,
            status=ApprovalStatus.pending,
            entity_type="tour",
            entity_id=tour.id,
            payload={
                "category": request.category.strip(),
                "subcategory": (request.subcategory or "").strip() or None,
                "tour_guid": tour.guid,
            },
            submitted_by_user_id=owner.id,
            created_at=utcnow(),
        )
    )


def _pending_item(session: Session, kind: ApprovalKind, tour_id: int) -> ApprovalItem | None:
    return session.scalar(
        select(ApprovalItem).where(
            ApprovalItem.kind == kind,
            ApprovalItem.entity_type == "tour",
            ApprovalItem.entity_id == tour_id,
            ApprovalItem.status == ApprovalStatus.pending,
        )
    )


# ------------------------------------------------------------------------------ after every change


def _changed(session: Session, tour: Tour) -> None:
    session.flush()
    session.expire(tour, ["tags"])
    add_outbox(session, "index.tour", tour.id, {})
    _recount_creator(session, tour.user_id)


def _recount_creator(session: Session, user_id: int) -> None:
    """The creator's vt_count is the number of its listed tours (cards and sorting read the column)."""
    creator = session.scalar(select(Creator).where(Creator.user_id == user_id))
    if creator is None:
        return
    session.flush()
    creator.vt_count = int(
        session.scalar(
            select(func.count())
            .select_from(Tour)
            .where(
                Tour.user_id == user_id,
                Tour.status == TourStatus.active,
                Tour.approval_state == ApprovalState.approved,
            )
        )
        or 0
    )
    add_outbox(session, "index.creator", creator.id, {})


def _push_queue(session: Session, kind: ApprovalKind, guid: str, action: str) -> None:
    moderation.announce_queue_change(session, kind=kind, subject=guid, action=action)


def _push_queue_moves(session: Session, tour: Tour, was_queued: bool, action_when_left: str) -> None:
    """Tell the admins when a tour entered or left the moderation queue."""
    now_queued = in_queue(tour)
    if now_queued and not was_queued:
        _push_queue(session, ApprovalKind.new_virtual_tour, tour.guid, "added")
    elif was_queued and not now_queued:
        _push_queue(session, ApprovalKind.new_virtual_tour, tour.guid, action_when_left)


# ------------------------------------------------------------------------------ owner actions


def _approve(session: Session, tour: Tour, admin: User) -> None:
    tour.approval_state = ApprovalState.approved
    if tour.status == TourStatus.active and tour.published_at is None:
        tour.published_at = utcnow()
    item = _pending_item(session, ApprovalKind.new_virtual_tour, tour.id)
    if item is not None:
        _decide(item, admin, ApprovalStatus.approved, None)


def _decide(item: ApprovalItem, admin: User, status: ApprovalStatus, note: str | None) -> None:
    item.status = status
    item.reviewed_by_user_id = admin.id
    item.reviewed_at = utcnow()
    item.review_note = note


def run_task(session: Session, *, editor: User, guid: str, body: TaskBody) -> tuple[Tour, str]:
    """PUT {id}: activate, deactivate (move to drafts) or approve (admins)."""
    if body.guid is not None and body.guid != guid:
        raise field_error("guid", "The guid in the body does not match the path")
    if body.task == TaskName.approve and not editor.is_admin:
        raise Forbidden(ADMINS_ONLY)
    tour = managed_tour(session, editor=editor, guid=guid)
    was_queued = in_queue(tour)
    if body.task == TaskName.approve:
        _approve(session, tour, editor)
        message = "The virtual tour has been approved"
    elif body.task == TaskName.activate:
        tour.status = TourStatus.active
        if tour.approval_state == ApprovalState.approved and tour.published_at is None:
            tour.published_at = utcnow()
        message = _activation_message(tour)
    else:
        tour.status = TourStatus.draft
        message = "The virtual tour has been moved to drafts"
    _changed(session, tour)
    _push_queue_moves(session, tour, was_queued, "approved" if body.task == TaskName.approve else "removed")
    return tour, message


def _activation_message(tour: Tour) -> str:
    if tour.approval_state == ApprovalState.pending:
        return "The virtual tour is active and waits for an administrator's approval"
    if tour.approval_state == ApprovalState.rejected:
        return "The virtual tour was not approved: edit it to send it for approval again"
    return "The virtual tour is active"


def _delete_tours(session: Session, tours: Sequence[Tour]) -> None:
    """Delete tours, their approval items and ranks; engagement rows and featured slots go by cascade."""
    if not tours:
        return
    ids = [tour.id for tour in tours]
    owners = {tour.user_id for tour in tours}
    queued = [tour for tour in tours if in_queue(tour)]
    session.execute(
        delete(ApprovalItem)
        .where(ApprovalItem.entity_type == "tour", ApprovalItem.entity_id.in_(ids))
        .where(ApprovalItem.kind.in_(TOUR_KINDS))
    )
    # Ranks point at tours without a foreign key (one table for tours, creators and ads).
    session.execute(delete(Rank).where(Rank.entity_type == RankEntityType.tour, Rank.entity_id.in_(ids)))
    for tour in tours:
        session.delete(tour)
    session.flush()
    for tour_id in ids:
        add_outbox(session, "index.tour", tour_id, {})
    for owner_id in owners:
        _recount_creator(session, owner_id)
        _sync_edit_flag(session, owner_id)
    for tour in queued:
        _push_queue(session, ApprovalKind.new_virtual_tour, tour.guid, "deleted")


def delete_tour(session: Session, *, editor: User, guid: str) -> None:
    _delete_tours(session, [managed_tour(session, editor=editor, guid=guid)])


def delete_user_media(session: Session, owner: User) -> int:
    tours = list(session.scalars(select(Tour).where(Tour.user_id == owner.id)))
    _delete_tours(session, tours)
    return len(tours)


def _tours_by_guids(session: Session, guids: Sequence[str]) -> list[Tour]:
    wanted = list(dict.fromkeys(guids))
    found = {tour.guid: tour for tour in session.scalars(select(Tour).where(Tour.guid.in_(wanted)))}
    missing = [guid for guid in wanted if guid not in found]
    if missing:
        raise NotFound(NOT_FOUND_MESSAGE, fields={"tours": ", ".join(missing[:10])})
    return [found[guid] for guid in wanted]


def pending_to_drafts(session: Session, *, editor: User, guids: Sequence[str]) -> list[str]:
    """POST pending/remove: pending tours go back to their owners' drafts (out of the queue)."""
    tours = _tours_by_guids(session, guids)
    if any(not can_manage(editor, tour) for tour in tours):
        raise Forbidden(NOT_YOURS)
    moved = [tour for tour in tours if in_queue(tour)]
    for tour in moved:
        tour.status = TourStatus.draft
        _changed(session, tour)
        _push_queue(session, ApprovalKind.new_virtual_tour, tour.guid, "removed")
    return [tour.guid for tour in moved]


def delete_pending(session: Session, guids: Sequence[str]) -> list[str]:
    """DELETE pending (admins): tours still waiting for approval are deleted; others are left alone."""
    tours = [tour for tour in _tours_by_guids(session, guids) if is_pending(tour)]
    _delete_tours(session, tours)
    return [tour.guid for tour in tours]


# ------------------------------------------------------------------------------ moderation


def pending_page(session: Session, *, limit: int, offset: int, search: str | None) -> PendingPage:
    statement = select(Tour).where(Tour.status == TourStatus.active, Tour.approval_state == ApprovalState.pending)
    if search and search.strip():
        statement = statement.where(Tour.title.ilike(f"%{_escape_like(search.strip())}%", escape="\\"))
    total = _count(session, statement)
    tours = list(session.scalars(statement.order_by(Tour.created_at, Tour.id).limit(limit).offset(offset)))
    edits = _edit_pending_ids(session, [tour.id for tour in tours])
    data = [
        PendingTourOut(
            **tour_out(tour, None, edit_pending=tour.id in edits).model_dump(),
            owner_email=tour.owner.email,
            submitted_at=tour.created_at,
        )
        for tour in tours
    ]
    return PendingPage(data=data, total_items=total, limit=limit, offset=offset)


def approval_items_page(session: Session, *, limit: int, offset: int) -> ApprovalItemsPage:
    statement = select(ApprovalItem).where(
        ApprovalItem.kind.in_(TOUR_KINDS), ApprovalItem.status == ApprovalStatus.pending
    )
    total = _count(session, statement)
    items = list(
        session.scalars(statement.order_by(ApprovalItem.created_at, ApprovalItem.id).limit(limit).offset(offset))
    )
    tours = {
        tour.id: tour
        for tour in session.scalars(
            select(Tour).where(Tour.id.in_([item.entity_id for item in items if item.entity_id]))
        )
    }
    return ApprovalItemsPage(
        data=[_approval_item_out(item, tours.get(item.entity_id or 0)) for item in items],
        total_items=total,
        limit=limit,
        offset=offset,
    )


def _approval_item_out(item: ApprovalItem, tour: Tour | None) -> ApprovalItemOut:
    proposed = dict(item.payload.get("changes") or {}) if item.kind == ApprovalKind.vt_edit else {}
    proposed.pop("link_normalised", None)
    current = _current_content(tour, list(proposed)) if tour is not None else {}
    return ApprovalItemOut(
        id=item.id,
        kind=ApprovalKindName(item.kind.value),
        status=item.status.value,
        guid=tour.guid if tour else item.payload.get("guid"),
        title=tour.title if tour else item.payload.get("title"),
        userid=tour.user_id if tour else item.submitted_by_user_id,
        platform_username=tour.owner.platform_username if tour else None,
        changes=proposed,
        current=current,
        created_at=item.created_at,
    )


def decide_approval_items(session: Session, *, admin: User, decision: ApprovalDecision) -> list[int]:
    """Approve or reject 'new virtual tour' and 'VT edit' items; items decided already are skipped."""
    items = list(
        session.scalars(
            select(ApprovalItem).where(ApprovalItem.id.in_(decision.ids), ApprovalItem.kind.in_(TOUR_KINDS))
        )
    )
    if len(items) != len(set(decision.ids)):
        raise NotFound("Approval item not found", fields={"ids": "Unknown approval item"})
    decided: list[int] = []
    for item in sorted(items, key=lambda row: row.id):
        if item.status != ApprovalStatus.pending:
            continue
        tour = session.get(Tour, item.entity_id) if item.entity_id is not None else None
        _decide_item(session, item, tour, admin, decision)
        decided.append(item.id)
    return decided


def _decide_item(
    session: Session, item: ApprovalItem, tour: Tour | None, admin: User, decision: ApprovalDecision
) -> None:
    approve = decision.action == ApprovalAction.approve
    if tour is None:
        _decide(item, admin, ApprovalStatus.rejected, "The tour no longer exists")
        return
    was_queued = in_queue(tour)
    if item.kind == ApprovalKind.new_virtual_tour:
        if approve:
            _approve(session, tour, admin)
        else:
            tour.approval_state = ApprovalState.rejected
        _decide(item, admin, ApprovalStatus.approved if approve else ApprovalStatus.rejected, decision.review_note)
        _changed(session, tour)
        _push_queue_moves(session, tour, was_queued, "approved" if approve else "rejected")
        return
    changes = dict(item.payload.get("changes") or {})
    if approve:
        link = changes.get("link")
        if isinstance(link, str) and link != tour.link:
            other = _tour_by_link(session, link)
            if other is not None and other.id != tour.id:
                raise Conflict(rules.LINK_NOT_UNIQUE, fields={"link": rules.LINK_NOT_UNIQUE})
        _apply(tour, changes)
    _decide(item, admin, ApprovalStatus.approved if approve else ApprovalStatus.rejected, decision.review_note)
    _flush_unique_link(session)
    _sync_edit_flag(session, tour.user_id)
    _changed(session, tour)
    _push_queue(session, ApprovalKind.vt_edit, tour.guid, "approved" if approve else "rejected")


def _sync_edit_flag(session: Session, user_id: int) -> None:
    """users.tour_edit_pending says whether any edit of the user's tours still waits."""
    user = session.get(User, user_id)
    if user is None:
        return
    session.flush()
    waiting = session.scalar(
        select(func.count())
        .select_from(ApprovalItem)
        .join(Tour, Tour.id == ApprovalItem.entity_id)
        .where(
            ApprovalItem.kind == ApprovalKind.vt_edit,
            ApprovalItem.status == ApprovalStatus.pending,
            ApprovalItem.entity_type == "tour",
            Tour.user_id == user_id,
        )
    )
    user.tour_edit_pending = bool(waiting)


def admin_stats(session: Session) -> AdminStats:
    by_state = session.execute(
        select(Tour.status, Tour.approval_state, func.count()).group_by(Tour.status, Tour.approval_state)
    ).all()

    def total(status: TourStatus | None = None, state: ApprovalState | None = None) -> int:
        return sum(
            count
            for row_status, row_state, count in by_state
            if (status is None or row_status == status) and (state is None or row_state == state)
        )

    now = utcnow()

    def added_since(days: int) -> int:
        return int(
            session.scalar(select(func.count()).select_from(Tour).where(Tour.created_at >= now - timedelta(days=days)))
            or 0
        )

    edits = session.scalar(
        select(func.count())
        .select_from(ApprovalItem)
        .where(ApprovalItem.kind == ApprovalKind.vt_edit, ApprovalItem.status == ApprovalStatus.pending)
    )
    vendors = session.execute(
        select(Vendor.name, func.count()).join(Tour, Tour.vendor_id == Vendor.id).group_by(Vendor.name)
    )
    categories = session.execute(
        select(Category.name, func.count()).join(Tour, Tour.category_id == Category.id).group_by(Category.name)
    )
    return AdminStats(
        total=total(),
        listed=total(TourStatus.active, ApprovalState.approved),
        active=total(TourStatus.active),
        draft=total(TourStatus.draft),
        pending=total(TourStatus.active, ApprovalState.pending),
        rejected=total(None, ApprovalState.rejected),
        edits_pending=int(edits or 0),
        added_today=added_since(1),
        added_last_7_days=added_since(7),
        added_last_30_days=added_since(30),
        by_vendor={name: count for name, count in vendors},
        by_category={name: count for name, count in categories},
    )


# ------------------------------------------------------------------------------ the owner's dashboard


@dataclass(frozen=True, slots=True)
class UserToursQuery:
    status: UserTourStatus
    sort: UserTourSort
    descending: bool
    vendor_id: int | None
    category_id: int | None
    subcategory_id: int | None
    search: str | None
    limit: int
    offset: int


STATUS_CLAUSES = {
    UserTourStatus.active: (Tour.status == TourStatus.active, Tour.approval_state == ApprovalState.approved),
    UserTourStatus.pending: (Tour.status == TourStatus.active, Tour.approval_state == ApprovalState.pending),
    UserTourStatus.rejected: (Tour.status == TourStatus.active, Tour.approval_state == ApprovalState.rejected),
    UserTourStatus.draft: (Tour.status == TourStatus.draft,),
}


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _count(session: Session, statement: Select[Any]) -> int:
    return int(session.scalar(select(func.count()).select_from(statement.order_by(None).subquery())) or 0)


def user_tours_page(session: Session, *, owner: User, viewer: User, query: UserToursQuery) -> UserToursPage:
    statement = select(Tour).where(Tour.user_id == owner.id, *STATUS_CLAUSES.get(query.status, ()))
    if query.vendor_id is not None:
        statement = statement.where(Tour.vendor_id == query.vendor_id)
    if query.category_id is not None:
        statement = statement.where(Tour.category_id == query.category_id)
    if query.subcategory_id is not None:
        statement = statement.where(Tour.subcategory_id == query.subcategory_id)
    if query.search and query.search.strip():
        statement = statement.where(Tour.title.ilike(f"%{_escape_like(query.search.strip())}%", escape="\\"))
    total = _count(session, statement)
    tours = list(session.scalars(_ordered(statement, owner, query).limit(query.limit).offset(query.offset)))
    edits = _edit_pending_ids(session, [tour.id for tour in tours])
    return UserToursPage(
        data=[tour_out(tour, viewer, edit_pending=tour.id in edits) for tour in tours],
        total_items=total,
        limit=query.limit,
        offset=query.offset,
    )


def _ordered(statement: Select[Any], owner: User, query: UserToursQuery) -> Select[Any]:
    if query.sort == UserTourSort.by_title:
        title = func.lower(Tour.title)
        return statement.order_by(title.desc() if query.descending else title.asc(), Tour.id)
    created = Tour.created_at.desc() if query.descending else Tour.created_at.asc()
    if query.sort == UserTourSort.by_date:
        return statement.order_by(created, Tour.id.desc())
    # Featured first, in the creator's order (drag ordering), then the rest by date.
    creator_id = owner.creator.id if owner.creator is not None else -1
    slot = (
        select(CreatorFeaturedTour.position)
        .where(CreatorFeaturedTour.creator_id == creator_id, CreatorFeaturedTour.tour_id == Tour.id)
        .scalar_subquery()
    )
    return statement.order_by(case((slot.is_(None), 1), else_=0), slot, created, Tour.id.desc())


def _edit_pending_ids(session: Session, tour_ids: Sequence[int]) -> set[int]:
    if not tour_ids:
        return set()
    rows = session.scalars(
        select(ApprovalItem.entity_id).where(
            ApprovalItem.kind == ApprovalKind.vt_edit,
            ApprovalItem.status == ApprovalStatus.pending,
            ApprovalItem.entity_type == "tour",
            ApprovalItem.entity_id.in_(tour_ids),
        )
    )
    return {tour_id for tour_id in rows if tour_id is not None}


def tour_counts(session: Session, owner: User) -> TourCounts:
    rows = session.execute(
        select(Tour.status, Tour.approval_state, func.count())
        .where(Tour.user_id == owner.id)
        .group_by(Tour.status, Tour.approval_state)
    ).all()
    counts = {state: 0 for state in UserTourStatus}
    for status, approval, count in rows:
        if status == TourStatus.draft:
            counts[UserTourStatus.draft] += count
        else:
            counts[UserTourStatus(approval.value if approval != ApprovalState.approved else "active")] += count
    featured = 0
    if owner.creator is not None:
        featured = int(
            session.scalar(
                select(func.count())
                .select_from(CreatorFeaturedTour)
                .where(CreatorFeaturedTour.creator_id == owner.creator.id)
            )
            or 0
        )
    return TourCounts(
        total=sum(count for _status, _approval, count in rows),
        active=counts[UserTourStatus.active],
        draft=counts[UserTourStatus.draft],
        pending=counts[UserTourStatus.pending],
        rejected=counts[UserTourStatus.rejected],
        featured=featured,
    )


# ------------------------------------------------------------------------------ featured tours


def set_featured_tours(session: Session, *, editor: User, body: FeaturedToursBody) -> list[str]:
    if body.scope == FeaturedScope.platform:
        if not editor.is_admin:
            raise Forbidden(ADMINS_ONLY)
        return _set_platform_featured(session, body.tours)
    owner = owner_visible_to(session, viewer=editor, userid=body.userid if body.userid is not None else editor.id)
    creator = owner.creator
    if creator is None:
        raise NotFound("Creator profile not found")
    guids = list(dict.fromkeys(body.tours))
    if len(guids) > MAX_FEATURED_TOURS:
        raise field_error("tours", TOO_MANY_FEATURED)
    tours = _tours_by_guids(session, guids)
    if any(tour.user_id != owner.id for tour in tours):
        raise Forbidden(NOT_YOURS)
    if any(tour.status != TourStatus.active for tour in tours):
        raise field_error("tours", "Drafts cannot be featured")
    session.execute(delete(CreatorFeaturedTour).where(CreatorFeaturedTour.creator_id == creator.id))
    session.add_all(
        CreatorFeaturedTour(creator_id=creator.id, tour_id=tour.id, position=position)
        for position, tour in enumerate(tours)
    )
    session.flush()
    session.expire(creator, ["featured_tours"])
    add_outbox(session, "index.creator", creator.id, {})
    return guids


def _set_platform_featured(session: Session, guids: Sequence[str]) -> list[str]:
    """The Featured feed: exactly these listed tours, in this order."""
    wanted = list(dict.fromkeys(guids))
    tours = _tours_by_guids(session, wanted)
    if any(not is_listed(tour) for tour in tours):
        raise field_error("tours", ONLY_LISTED)
    keep = {tour.id for tour in tours}
    for tour in session.scalars(select(Tour).where(Tour.is_featured.is_(True))):
        if tour.id not in keep:
            tour.is_featured, tour.featured_order = False, None
            add_outbox(session, "index.tour", tour.id, {})
    for position, tour in enumerate(tours, start=1):
        tour.is_featured, tour.featured_order = True, position
        add_outbox(session, "index.tour", tour.id, {})
    session.flush()
    return wanted


def submit_tour_today(session: Session, *, user: User, body: TourTodayBody) -> DailyFeaturedSubmission:
    """Spec §3 Daily featured submission: one a day per user, of a listed tour of one's own."""
    tour = managed_tour(session, editor=user, guid=body.guid)
    if not is_listed(tour):
        raise field_error("guid", "Only published tours can be submitted")
    description = _clean(body.description)
    if description and has_profanity(description):
        raise field_error("description", "Invalid Description")
    links = {name: value.strip() for name, value in body.social_links.model_dump().items() if value and value.strip()}
    for name, value in links.items():
        if not value.lower().startswith("https://"):
            raise field_error(name, rules.WEBSITE_HTTPS)
    midnight = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    already = session.scalar(
        select(func.count())
        .select_from(DailyFeaturedSubmission)
        .where(DailyFeaturedSubmission.user_id == user.id, DailyFeaturedSubmission.created_at >= midnight)
    )
    if already:
        raise Conflict(ALREADY_SUBMITTED_TODAY)
    submission = DailyFeaturedSubmission(
        user_id=user.id,
        tour_id=tour.id,
        description=description,
        social_links=links,
        consent_creator_mention=body.consent,
        created_at=utcnow(),
        status=ApprovalState.pending,
    )
    session.add(submission)
    session.flush()
    return submission


# ------------------------------------------------------------------------------ creator pages


def _listed_tours_of(user_id: int) -> Select[Any]:
    return select(Tour.id).where(
        Tour.user_id == user_id, Tour.status == TourStatus.active, Tour.approval_state == ApprovalState.approved
    )


def user_media_tags(session: Session, user_id: int) -> MediaTagsAnswer:
    discovery.creator_user(session, user_id)
    rows = session.execute(
        select(Tag.id, Tag.name, func.count(TourTag.tour_id))
        .join(TourTag, TourTag.tag_id == Tag.id)
        .where(Tag.is_active.is_(True), TourTag.tour_id.in_(_listed_tours_of(user_id)))
        .group_by(Tag.id, Tag.name)
        .order_by(func.count(TourTag.tour_id).desc(), Tag.name)
    )
    return MediaTagsAnswer(data=[MediaTagOut(id=tag_id, name=name, vt_count=count) for tag_id, name, count in rows])


@dataclass(frozen=True, slots=True)
class CreatorPageQuery:
    tour_filter: TourFilter
    sorting: Sorting
    limit: int
    offset: int
    include_favorites: bool


def creator_tours(
    session: Session, index: SearchIndex, *, viewer: User | None, user_id: int, query: CreatorPageQuery, locale: str
) -> CreatorToursAnswer:
    """The creator page's grid: the index lists (as the feed does), the database adds the viewer's flags."""
    discovery.creator_user(session, user_id)
    scoped = replace(query.tour_filter, user_ids=(user_id,))
    page = index.feed(
        FeedQuery(
            filter=scoped,
            sort=SORTING_TO_SORT[query.sorting],
            limit=query.limit,
            offset=query.offset,
            seed=str(user_id),
        )
    )
    every = (
        page.total
        if scoped == TourFilter(user_ids=(user_id,))
        else index.feed(FeedQuery(filter=TourFilter(user_ids=(user_id,)), limit=1)).total
    )
    cards = [card for card in discovery.shape_cards(session, viewer, page.docs, locale) if isinstance(card, MediaCard)]
    favorites = _favorite_cards(session, viewer, user_id, locale) if query.include_favorites else []
    return CreatorToursAnswer(
        data=cards,
        favorite_tours=favorites,
        total_items=page.total,
        total_tours=every,
        status=200,
        limit=query.limit,
        offset=query.offset,
    )


def _favorite_cards(session: Session, viewer: User | None, user_id: int, locale: str) -> list[MediaCard]:
    """The creator's featured tours ('favorite_tours'), in the creator's order, listed ones only."""
    tours = list(
        session.scalars(
            select(Tour)
            .join(CreatorFeaturedTour, CreatorFeaturedTour.tour_id == Tour.id)
            .join(Creator, Creator.id == CreatorFeaturedTour.creator_id)
            .where(Creator.user_id == user_id, Tour.id.in_(_listed_tours_of(user_id)))
            .order_by(CreatorFeaturedTour.position)
        )
    )
    return _media_cards(session, viewer, tours, locale)


def _media_cards(session: Session, viewer: User | None, tours: Sequence[Tour], locale: str) -> list[MediaCard]:
    """Spec §3 Media cards of tours read from the database, with the viewer's is_save and is_owned."""
    saved = discovery.saved_among(session, viewer, [tour.id for tour in tours])
    now = datetime.now(UTC)
    return [
        discovery.media_card(
            {
                "guid": tour.guid,
                "title": tour.title,
                "preview_picture": tour.preview_picture,
                "views": tour.views,
                "saves": tour.saves,
                "created_at": _as_utc(tour.created_at).timestamp(),
                "media_type_id": tour.media_type_id,
                "userid": tour.user_id,
            },
            saved=tour.id in saved,
            user=viewer,
            now=now,
            locale=locale,
        )
        for tour in tours
    ]


def creator_map(
    session: Session,
    index: SearchIndex,
    *,
    viewer: User | None,
    user_id: int,
    tour_filter: TourFilter,
    zoom: float,
    locale: str,
) -> MapAreaAnswer:
    discovery.creator_user(session, user_id)
    scoped = replace(tour_filter, user_ids=(user_id,))
    return discovery.map_area(session, index, viewer, scoped, WORLD, zoom, locale)


# ------------------------------------------------------------------------------ saved tours


def saved_tours_page(
    session: Session, *, owner: User, viewer: User, limit: int, offset: int, locale: str
) -> SavedToursPage:
    """GET saved/{userid}: the owner's saved tours that are still listed, newest save first. A saved
    tour that went back to drafts, or whose owner left, is left out until it is listed again."""
    statement = (
        select(Tour)
        .join(TourSave, TourSave.tour_id == Tour.id)
        .join(User, User.id == Tour.user_id)
        .where(
            TourSave.user_id == owner.id,
            Tour.status == TourStatus.active,
            Tour.approval_state == ApprovalState.approved,
            User.is_active.is_(True),
            User.user_active.is_(True),
            User.is_deleted.is_(False),
        )
    )
    newest_first = statement.order_by(TourSave.created_at.desc(), Tour.id.desc())
    tours = list(session.scalars(newest_first.limit(limit).offset(offset)))
    return SavedToursPage(
        data=_media_cards(session, viewer, tours, locale),
        total_items=_count(session, statement),
        limit=limit,
        offset=offset,
    )


# ------------------------------------------------------------------------------ shaping


def _as_utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def tour_out(tour: Tour, viewer: User | None, *, edit_pending: bool | None = None) -> TourOut:
    if edit_pending is None:
        session = object_session(tour)
        edit_pending = session is not None and bool(_edit_pending_ids(session, [tour.id]))
    return TourOut(
        guid=tour.guid,
        userid=tour.user_id,
        platform_username=tour.owner.platform_username,
        creator_id=tour.creator_id,
        address=AddressOut(
            street=tour.address_street,
            city=tour.address_city,
            province=tour.address_province,
            zip=tour.address_zip,
            country=tour.address_country,
        ),
        address_id=tour.address_id,
        address_str=tour.address_str,
        coordinates=tour.coordinates,
        preview_picture=tour.preview_picture,
        preview_picture_large=images.large_path_of(tour.preview_picture),
        description=tour.description,
        link=tour.link,
        title=tour.title,
        vt_website=tour.vt_website,
        creator_website=tour.creator_website,
        third_party_creator=tour.third_party_creator,
        subcategory_id=tour.subcategory_id,
        media_type_id=tour.media_type_id,
        category_id=tour.category_id,
        tags=[TagOut(id=tag.id, name=tag.name) for tag in tour.tags],
        camera_id=tour.camera_id,
        vendor=VendorRef(id=tour.vendor.id, name=tour.vendor.name),
        is_ai_generated=tour.is_ai_generated,
        views=tour.views,
        likes=tour.likes,
        shared=tour.shared,
        saves=tour.saves,
        status=tour.status,
        approval_state=tour.approval_state,
        edit_pending=edit_pending,
        is_featured=tour.is_featured,
        featured_order=tour.featured_order,
        provider_version=tour.provider_version,
        created_date=_as_utc(tour.created_at),
        updated_date=_as_utc(tour.updated_at),
        is_owned=viewer is not None and viewer.id == tour.user_id,
    )
