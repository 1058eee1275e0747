"""Tours (spec §4 "Media"): looking tours up and who may see or manage them, adding and editing under
the §5 rules, the owner's actions (activate, move to drafts, approve, delete) and a tour's JSON shape.

Who sees and who manages a tour is app/tours/queries.py's rule (listed: `active`, the owner's
choice, and `approved`, moderation's, of an owner in good standing). Trusted
owners (a trusted account or creator profile) and staff skip approval; everybody else's new tour
waits as `pending`, and an edit of an approved tour waits as a 'VT edit' approval item while the
published version stays. Every change records an `index.tour` outbox entry (the feed, map and
search follow after the commit), keeps the creator's vt_count in step and, when the moderation
queue changes, pushes `moderation:queue` to the admins. Services never commit.

The helpers after every change, the approval bookkeeping and the listing queries here are public
because the sibling modules build on them: `moderation_queue` (the admins' queue, approval items and
stats), `dashboard` (the owner's manage-media list, counts, featured tours, the daily submission)
and `pages` (creator pages and saved tours). None of those is imported here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Select, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, object_session

from app.classifications.dictionaries import normalise_link
from app.classifications.models import Rank, RankEntityType
from app.core import outbox_topics
from app.core.db import utcnow
from app.core.errors import Conflict, Forbidden, NotFound, field_error
from app.creators.models import Creator
from app.locations import service as locations
from app.locations.ports import Geocoder
from app.moderation import pending_edits
from app.moderation import service as moderation
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.tours import images, rules
from app.tours.models import ApprovalState, Tour, TourStatus, TourTag, TourVisibility
from app.tours.queries import NOT_FOUND_MESSAGE, can_manage, can_manage_tours_of, is_visible, published_clause
from app.tours.schemas import (
    AddressOut,
    LinkExistsAnswer,
    NewCategory,
    TagOut,
    TaskBody,
    TaskName,
    TourEdit,
    TourOut,
    TourWrite,
    VendorRef,
)
from app.users import owners
from app.users.models import User

ADDRESS_NOT_FOUND = "Address not found"
NOT_YOURS = "You can only manage your own tours"
ADMINS_ONLY = "Administrators only"
ADDED = "Your virtual tour has been added"
ADDED_PENDING = "Your virtual tour has been added and waits for an administrator's approval"
UPDATED = "Your virtual tour has been updated"
EDIT_PENDING = "Your changes are saved and wait for an administrator's approval"
TOUR_KINDS = (ApprovalKind.new_virtual_tour, ApprovalKind.vt_edit)
# The form content key of the tags the description's hashtags gave: [[tag id, hashtag], …].
HASHTAGS = "hashtags"
# Every kind of item about one tour (deleted with it).
ITEM_KINDS_OF_A_TOUR = (*TOUR_KINDS, ApprovalKind.trusted_audit)
# The approval items' entity_type of a tour.
TOUR = "tour"


# ------------------------------------------------------------------------------ lookups and access


def tour_by_guid(session: Session, guid: str) -> Tour:
    tour = session.scalar(select(Tour).where(Tour.guid == guid))
    if tour is None:
        raise NotFound(NOT_FOUND_MESSAGE)
    return tour


def is_pending(tour: Tour) -> bool:
    return tour.approval_state == ApprovalState.pending


def in_queue(tour: Tour) -> bool:
    """The moderation queue holds active tours waiting for approval (a pending draft is not asked for yet)."""
    return tour.status == TourStatus.active and tour.approval_state == ApprovalState.pending


def managed_tour(session: Session, *, editor: User, guid: str) -> Tour:
    tour = tour_by_guid(session, guid)
    if not can_manage(editor, tour):
        raise Forbidden(NOT_YOURS)
    return tour


def tour_by_link(session: Session, link: str) -> Tour | None:
    return session.scalar(select(Tour).where(Tour.link_normalised == normalise_link(link)))


def link_exists(session: Session, *, viewer: User, link: str) -> LinkExistsAnswer:
    tour = tour_by_link(session, link)
    if tour is None:
        return LinkExistsAnswer(exists=False)
    return LinkExistsAnswer(exists=True, guid=tour.guid if is_visible(tour, viewer) else None)


def visible_tour_by_link(session: Session, *, viewer: User | None, link: str) -> Tour:
    tour = tour_by_link(session, link)
    if tour is None or not is_visible(tour, viewer):
        raise NotFound(NOT_FOUND_MESSAGE)
    return tour


def owner_visible_to(session: Session, *, viewer: User, userid: int) -> User:
    """The account whose tours a call manages: one's own, or any for an admin."""
    allowed = can_manage_tours_of(viewer, userid)
    return owners.managed_owner(session, viewer=viewer, userid=userid, allowed=allowed, not_yours=NOT_YOURS)


def _owner_for_add(session: Session, editor: User, userid: int | None) -> User:
    return owners.owner_for_add(
        session,
        editor=editor,
        userid=userid,
        may_add_for_others=editor.is_admin or editor.is_content_manager,
        refusal="Only administrators and content managers add tours for other accounts",
    )


def _trusted(editor: User, owner: User) -> bool:
    """Spec §4: trusted users skip approval. Staff adding or editing are trusted too."""
    creator = owner.creator
    return (
        editor.is_admin
        or editor.is_content_manager
        or owner.trusted
        or (creator is not None and creator.is_active and creator.trusted)
    )


def _audited_after(editor: User, owner: User) -> bool:
    """A tour that skips the queue because its owner is trusted (not because staff added it) is
    listed for an admin's audit after the fact (issue 14 part 7)."""
    creator = owner.creator
    trusted_owner = owner.trusted or (creator is not None and creator.is_active and creator.trusted)
    return trusted_owner and not (editor.is_admin or editor.is_content_manager)


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


def clean_text(text: str | None) -> str | None:
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
    typed = clean_text(body.address_str)
    coordinate = clean_text(body.coordinate)
    if coordinate:
        lat, lng = parse_coordinate(coordinate)
        try:
            address = locations.find_address(geocoder, address_id=None, coordinates=(lng, lat))
        except NotFound:
            return Location(lat=lat, lng=lng, address_str=typed, address_id=clean_text(body.address_id))
        return replace(_location_of(address, typed), lat=lat, lng=lng)
    address_id = clean_text(body.address_id)
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
    hashtags_left_out: list[str] = field(default_factory=list)


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
        # After tag_ids: which of those tags the description's hashtags gave, and as what.
        HASHTAGS: [[found.tag.id, found.hashtag] for found in form.hashtags],
    }


def current_content(tour: Tour, keys: Sequence[str]) -> dict[str, Any]:
    return pending_edits.current_content(tour, keys)


def apply_changes(tour: Tour, changes: dict[str, Any]) -> None:
    """Write form content onto the tour: the tags (with the hashtags they came from, if any) and the
    columns. A tag the tour loses counts one tour less in the index (`tag_changed`)."""
    before = {link.tag_id for link in tour.tag_links}
    columns = {key: value for key, value in changes.items() if key != HASHTAGS}
    pending_edits.apply_changes(tour, columns, _tag_link)
    if HASHTAGS in changes or pending_edits.TAG_IDS in changes:
        _mark_hashtags(tour, changes.get(HASHTAGS, tour.hashtags))
    session = object_session(tour)
    if session is not None:
        for tag_id in sorted(before - {link.tag_id for link in tour.tag_links}):
            outbox_topics.tag_changed(session, tag_id)


def _mark_hashtags(tour: Tour, pairs: Sequence[Sequence[Any]]) -> None:
    by_tag = {int(tag_id): str(hashtag) for tag_id, hashtag in pairs}
    for link in tour.tag_links:
        link.hashtag = by_tag.get(link.tag_id)


def _tag_link(tag_id: int, position: int) -> TourTag:
    return TourTag(tag_id=tag_id, position=position)


def flush_unique_link(session: Session) -> None:
    """The link is unique in the table too: a tour added meanwhile under the same link is a 409."""
    try:
        session.flush()
    except IntegrityError as exc:
        raise Conflict(rules.LINK_NOT_UNIQUE, fields={"link": rules.LINK_NOT_UNIQUE}) from exc


def add_tour(
    session: Session, *, editor: User, body: TourWrite, geocoder: Geocoder, owner: User | None = None
) -> SaveResult:
    owner = owner or _owner_for_add(session, editor, body.userid)
    owners.check_active(owner)
    form = rules.check_form(session, body, owner=owner, editor=editor, current=None)
    if tour_by_link(session, form.link) is not None:
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
        visibility=body.visibility,
        approval_state=ApprovalState.approved if approved else ApprovalState.pending,
        published_at=utcnow() if approved and active else None,
        views=0,
        likes=0,
        saves=0,
        shared=0,
        is_featured=False,
    )
    content = _content_of(form, body)
    apply_changes(tour, content)
    _set_location(tour, location)
    session.add(tour)
    flush_unique_link(session)
    if not approved:
        _file_new_tour(session, tour, editor)
    elif _audited_after(editor, owner):
        _file_trusted_audit(session, tour, editor)
    if body.newCategory is not None:
        _file_category_request(session, tour, owner, body.newCategory)
    record_change(session, tour)
    if in_queue(tour):
        push_queue(session, ApprovalKind.new_virtual_tour, tour, "added")
    elif approved and _audited_after(editor, owner):
        push_queue(session, ApprovalKind.trusted_audit, tour, "added")
    message = ADDED if approved else ADDED_PENDING
    return SaveResult(201, message, tour, editor, pending=not approved, hashtags_left_out=form.hashtags_left_out)


def edit_tour(session: Session, *, editor: User, body: TourEdit) -> SaveResult:
    """The host and the location stay as added (spec §4); the address fields of an edit are ignored."""
    tour = managed_tour(session, editor=editor, guid=body.guid)
    owner = tour.owner
    form = rules.check_form(session, body, owner=owner, editor=editor, current=tour)
    if form.link_normalised != tour.link_normalised and tour_by_link(session, form.link) is not None:
        raise Conflict(rules.LINK_NOT_UNIQUE, fields={"link": rules.LINK_NOT_UNIQUE})
    was_queued = in_queue(tour)
    changes = pending_edits.changes_of(tour, _content_of(form, body))
    image_waits = _image_waits(session, editor, form.preview_picture, tour.preview_picture)
    trusted = _trusted(editor, owner) and not image_waits
    tour.status = TourStatus.active if body.is_active else TourStatus.draft
    tour.visibility = body.visibility  # the owner's choice, like a draft: never waits for approval
    edit_waits = bool(changes) and tour.approval_state == ApprovalState.approved and not trusted
    if edit_waits:
        _file_edit(session, tour, editor, changes)
    else:
        apply_changes(tour, changes)
        if tour.approval_state == ApprovalState.rejected and changes:
            _resubmit(session, tour, editor, approved=trusted)
    if body.newCategory is not None:
        _file_category_request(session, tour, owner, body.newCategory)
    if tour.status == TourStatus.active and tour.approval_state == ApprovalState.approved and not tour.published_at:
        tour.published_at = utcnow()
    flush_unique_link(session)
    record_change(session, tour)
    push_queue_moves(session, tour, was_queued, "removed")
    if edit_waits:
        push_queue(session, ApprovalKind.vt_edit, tour, "added")
        return SaveResult(200, EDIT_PENDING, tour, editor, pending=True, hashtags_left_out=form.hashtags_left_out)
    left_out = form.hashtags_left_out
    return SaveResult(201, UPDATED, tour, editor, pending=is_pending(tour), hashtags_left_out=left_out)


def _resubmit(session: Session, tour: Tour, editor: User, *, approved: bool) -> None:
    """A rejected tour that is edited goes back to moderation (or straight back for the trusted)."""
    tour.approval_state = ApprovalState.approved if approved else ApprovalState.pending
    if not approved:
        _file_new_tour(session, tour, editor)


def _file_new_tour(session: Session, tour: Tour, submitter: User) -> None:
    payload = {"guid": tour.guid, "title": tour.title}
    pending_edits.file_once(session, ApprovalKind.new_virtual_tour, TOUR, tour.id, payload, submitter)


def _file_trusted_audit(session: Session, tour: Tour, submitter: User) -> None:
    payload = {"guid": tour.guid, "title": tour.title}
    pending_edits.file_item(session, ApprovalKind.trusted_audit, TOUR, tour.id, payload, submitter)


def _file_edit(session: Session, tour: Tour, submitter: User, changes: dict[str, Any]) -> None:
    payload = {"guid": tour.guid, "changes": changes}
    pending_edits.file_edit(session, ApprovalKind.vt_edit, TOUR, tour.id, payload, submitter)
    tour.owner.tour_edit_pending = True


def _file_category_request(session: Session, tour: Tour, owner: User, request: NewCategory) -> None:
    """New category mode: the names wait for the admins as a category request (spec §4)."""
    payload = {
        "category": request.category.strip(),
        "subcategory": (request.subcategory or "").strip() or None,
        "tour_guid": tour.guid,
    }
    pending_edits.file_item(session, ApprovalKind.category_request, TOUR, tour.id, payload, owner)


def _pending_item(session: Session, kind: ApprovalKind, tour_id: int) -> ApprovalItem | None:
    return pending_edits.pending_item(session, kind, TOUR, tour_id)


# ------------------------------------------------------------------------------ after every change


def record_change(session: Session, tour: Tour) -> None:
    """After any change to a tour: the index follows (outbox) and the creator's vt_count is recounted."""
    session.flush()
    session.expire(tour, ["tags"])
    outbox_topics.tour_changed(session, tour.id)
    _recount_creator(session, tour.user_id)


def _recount_creator(session: Session, user_id: int) -> None:
    """The creator's vt_count is the number of its listed tours (cards and sorting read the column);
    the owner's standing is the same for all of them, so their being published is what counts."""
    creator = session.scalar(select(Creator).where(Creator.user_id == user_id))
    if creator is None:
        return
    session.flush()
    creator.vt_count = int(
        session.scalar(select(func.count()).select_from(Tour).where(Tour.user_id == user_id, published_clause())) or 0
    )
    outbox_topics.creator_changed(session, creator.id)


def push_queue(session: Session, kind: ApprovalKind, tour: Tour, action: str) -> None:
    """Push `moderation:queue` to the admins (after the commit), naming the tour and its latest item
    of this kind (none once a deleted tour took its items along)."""
    item_id = pending_edits.latest_item_id(session, kind, TOUR, tour.id)
    moderation.announce_queue_change(session, kind=kind, subject=tour.guid, action=action, item_id=item_id)


def push_queue_moves(session: Session, tour: Tour, was_queued: bool, action_when_left: str) -> None:
    """Tell the admins when a tour entered or left the moderation queue."""
    action = pending_edits.queue_move(was_queued, in_queue(tour), action_when_left)
    if action is not None:
        push_queue(session, ApprovalKind.new_virtual_tour, tour, action)


def sync_edit_flag(session: Session, user_id: int) -> None:
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
            ApprovalItem.entity_type == TOUR,
            Tour.user_id == user_id,
        )
    )
    user.tour_edit_pending = bool(waiting)


# ------------------------------------------------------------------------------ owner actions


def approve_tour(session: Session, tour: Tour, admin: User) -> None:
    """List a pending tour (an owner's PUT approve or a decided approval item) and close its item."""
    tour.approval_state = ApprovalState.approved
    if tour.status == TourStatus.active and tour.published_at is None:
        tour.published_at = utcnow()
    item = _pending_item(session, ApprovalKind.new_virtual_tour, tour.id)
    if item is not None:
        pending_edits.record_decision(item, admin, ApprovalStatus.approved, None)


def run_task(session: Session, *, editor: User, guid: str, body: TaskBody) -> tuple[Tour, str]:
    """PUT {id}: activate, deactivate (move to drafts), approve (admins), make unlisted or public."""
    if body.guid is not None and body.guid != guid:
        raise field_error("guid", "The guid in the body does not match the path")
    if body.task == TaskName.approve and not editor.is_admin:
        raise Forbidden(ADMINS_ONLY)
    tour = managed_tour(session, editor=editor, guid=guid)
    was_queued = in_queue(tour)
    if body.task == TaskName.approve:
        approve_tour(session, tour, editor)
        message = "The virtual tour has been approved"
    elif body.task == TaskName.activate:
        tour.status = TourStatus.active
        if tour.approval_state == ApprovalState.approved and tour.published_at is None:
            tour.published_at = utcnow()
        message = _activation_message(tour)
    elif body.task == TaskName.make_unlisted:
        tour.visibility = TourVisibility.unlisted
        message = "The virtual tour is unlisted: only its link and your pages show it"
    elif body.task == TaskName.make_public:
        tour.visibility = TourVisibility.public
        message = "The virtual tour is public"
    else:
        tour.status = TourStatus.draft
        message = "The virtual tour has been moved to drafts"
    record_change(session, tour)
    push_queue_moves(session, tour, was_queued, "approved" if body.task == TaskName.approve else "removed")
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
    lost_tags = set(session.scalars(select(TourTag.tag_id).where(TourTag.tour_id.in_(ids))))
    pending_edits.delete_items(session, TOUR, ids, ITEM_KINDS_OF_A_TOUR)
    # Ranks point at tours without a foreign key (one table for tours, creators and ads).
    session.execute(delete(Rank).where(Rank.entity_type == RankEntityType.tour, Rank.entity_id.in_(ids)))
    for tour in tours:
        session.delete(tour)
    session.flush()
    for tour_id in ids:
        outbox_topics.tour_changed(session, tour_id)
    for tag_id in sorted(lost_tags):
        outbox_topics.tag_changed(session, tag_id)
    for owner_id in owners:
        _recount_creator(session, owner_id)
        sync_edit_flag(session, owner_id)
    for tour in queued:
        push_queue(session, ApprovalKind.new_virtual_tour, tour, "deleted")


def delete_tour(session: Session, *, editor: User, guid: str) -> None:
    _delete_tours(session, [managed_tour(session, editor=editor, guid=guid)])


def delete_user_media(session: Session, owner: User) -> int:
    tours = list(session.scalars(select(Tour).where(Tour.user_id == owner.id)))
    _delete_tours(session, tours)
    return len(tours)


def delete_tours_on_hosts(session: Session, vendor_ids: Sequence[int]) -> int:
    """Every tour on these hosts goes (billing's cancellation cascade: media on custom hosts)."""
    if not vendor_ids:
        return 0
    tours = list(session.scalars(select(Tour).where(Tour.vendor_id.in_(list(vendor_ids))).order_by(Tour.id)))
    _delete_tours(session, tours)
    return len(tours)


def tours_by_guids(session: Session, guids: Sequence[str]) -> list[Tour]:
    wanted = list(dict.fromkeys(guids))
    found = {tour.guid: tour for tour in session.scalars(select(Tour).where(Tour.guid.in_(wanted)))}
    missing = [guid for guid in wanted if guid not in found]
    if missing:
        raise NotFound(NOT_FOUND_MESSAGE, fields={"tours": ", ".join(missing[:10])})
    return [found[guid] for guid in wanted]


def pending_to_drafts(session: Session, *, editor: User, guids: Sequence[str]) -> list[str]:
    """POST pending/remove: pending tours go back to their owners' drafts (out of the queue)."""
    tours = tours_by_guids(session, guids)
    if any(not can_manage(editor, tour) for tour in tours):
        raise Forbidden(NOT_YOURS)
    moved = [tour for tour in tours if in_queue(tour)]
    for tour in moved:
        tour.status = TourStatus.draft
        record_change(session, tour)
        push_queue(session, ApprovalKind.new_virtual_tour, tour, "removed")
    return [tour.guid for tour in moved]


def delete_pending(session: Session, guids: Sequence[str]) -> list[str]:
    """DELETE pending (admins): tours still waiting for approval are deleted; others are left alone."""
    tours = [tour for tour in tours_by_guids(session, guids) if is_pending(tour)]
    _delete_tours(session, tours)
    return [tour.guid for tour in tours]


# ------------------------------------------------------------------------------ listing queries


def escape_like(text: str) -> str:
    """A search text taken literally in `ilike(..., escape="\\")`."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def count_rows(session: Session, statement: Select[Any]) -> int:
    """The number of rows a listing statement yields (the pages' total_items)."""
    return int(session.scalar(select(func.count()).select_from(statement.order_by(None).subquery())) or 0)


def edit_pending_ids(session: Session, tour_ids: Sequence[int]) -> set[int]:
    """Which of these tours have a 'VT edit' still waiting (TourOut.edit_pending)."""
    return pending_edits.pending_entity_ids(session, ApprovalKind.vt_edit, TOUR, tour_ids)


# ------------------------------------------------------------------------------ shaping


def as_utc(moment: datetime) -> datetime:
    """A stored datetime as aware UTC (SQLite hands back naive ones, which are UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def tour_out(tour: Tour, viewer: User | None, *, edit_pending: bool | None = None) -> TourOut:
    if edit_pending is None:
        session = object_session(tour)
        edit_pending = session is not None and bool(edit_pending_ids(session, [tour.id]))
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
        tags=[TagOut(id=link.tag.id, name=link.tag.name, hashtag=link.hashtag) for link in tour.tag_links],
        camera_id=tour.camera_id,
        vendor=VendorRef(id=tour.vendor.id, name=tour.vendor.name),
        is_ai_generated=tour.is_ai_generated,
        views=tour.views,
        likes=tour.likes,
        shared=tour.shared,
        saves=tour.saves,
        status=tour.status,
        visibility=tour.visibility,
        approval_state=tour.approval_state,
        edit_pending=edit_pending,
        is_featured=tour.is_featured,
        featured_order=tour.featured_order,
        provider_version=tour.provider_version,
        created_date=as_utc(tour.created_at),
        updated_date=as_utc(tour.updated_at),
        is_owned=viewer is not None and viewer.id == tour.user_id,
    )


def move_to_category(session: Session, *, guid: str, category_id: int, subcategory_id: int | None) -> bool:
    """An approved category request (spec §4) moves the tour it came with into the new category (and
    subcategory); the index follows. False when the tour is gone."""
    tour = session.scalar(select(Tour).where(Tour.guid == guid))
    if tour is None:
        return False
    tour.category_id = category_id
    tour.subcategory_id = subcategory_id
    record_change(session, tour)
    return True
