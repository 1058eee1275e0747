"""The hosts (spec §7 Vendors): who may choose which, asking for a new one, deleting and withdrawing
them, their media types, the admins' list and figures, and group subscriptions.

A host request files the host at once as a pending row (its owner may already add tours on it,
app/tours/rules.py), plus the request as asked and one approval item; the admins are mailed. The
decision is app/vendors/approvals.py. An admin's own request is the decision: the host is approved
at once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.orm import Session

from app.classifications import dictionaries
from app.classifications.models import MediaType
from app.core import daily_series
from app.core.errors import Conflict, Forbidden, NotFound, field_error
from app.moderation import service as moderation
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.notifications.mailer import queue_mail
from app.tours.link_lookup import AddressPolicy
from app.tours.models import Tour
from app.users.models import User
from app.users.validation import has_profanity, raise_for_fields
from app.vendors import hosts
from app.vendors.models import (
    CustomProviderRequest,
    RequestStatus,
    Vendor,
    VendorCredential,
    VendorGroupSubscriber,
    VendorStatus,
)
from app.vendors.schemas import HOST_REQUEST_KINDS, HostRequestIn

VENDOR_NOT_FOUND = "Host not found"
NAME_REQUIRED = "Enter the host's name"
INVALID_NAME = "Invalid Provider Name"
NAME_TAKEN = "A host with this name already exists"
UNKNOWN_PARENT = "Unknown host"
PARENT_NEEDED = "Choose the host this is a version of"
NOT_YOURS = "Only the host's owner or an administrator may do this"
HAS_TOURS = "{count} tours are on this host: move them to another host or delete them first"
DECIDE_FIRST = "This host waits for a decision: approve or reject it through the approval items"
UNKNOWN_GROUP = "Unknown group"
WITHDRAWN = "Withdrawn: the host was deleted"


# ------------------------------------------------------------------------------------------ reading


def public_hosts(session: Session) -> Sequence[Vendor]:
    """GET /v2/vendors/: the approved hosts everyone may choose (custom hosts are their owners')."""
    return session.scalars(
        select(Vendor)
        .where(Vendor.status == VendorStatus.approved, Vendor.is_custom.is_(False))
        .order_by(Vendor.position, Vendor.name)
    ).all()


def allowed_hosts(session: Session, user: User) -> Sequence[Vendor]:
    """The hosts this user may choose in the media form: the public ones, then the user's own custom
    hosts that are approved or still waiting (usable by their owner while they wait)."""
    own = (
        Vendor.is_custom.is_(True)
        & (Vendor.owner_user_id == user.id)
        & Vendor.status.in_((VendorStatus.approved, VendorStatus.pending))
    )
    public = Vendor.is_custom.is_(False) & (Vendor.status == VendorStatus.approved)
    return session.scalars(
        select(Vendor).where(or_(public, own)).order_by(Vendor.is_custom, Vendor.position, Vendor.name)
    ).all()


def tour_counts(session: Session, vendor_ids: Sequence[int]) -> dict[int, int]:
    if not vendor_ids:
        return {}
    rows = session.execute(
        select(Tour.vendor_id, func.count()).where(Tour.vendor_id.in_(vendor_ids)).group_by(Tour.vendor_id)
    ).all()
    return {int(vendor_id): int(count) for vendor_id, count in rows}


@dataclass(frozen=True, slots=True)
class HostRequestView:
    request: CustomProviderRequest
    vendor: Vendor | None
    tours: int

    @property
    def kind(self) -> ApprovalKind:
        return request_kind(is_custom=self.is_custom, has_parent=self.request.parent_vendor_id is not None)

    @property
    def is_custom(self) -> bool:
        return self.vendor.is_custom if self.vendor is not None else True

    @property
    def status(self) -> str:
        if self.vendor is not None:
            return self.vendor.status.value
        # The host was deleted: what was decided on the request is all that is left.
        return "rejected" if self.request.status == RequestStatus.rejected else "inactive"


def request_views(session: Session, requests: Sequence[CustomProviderRequest]) -> list[HostRequestView]:
    vendor_ids = [request.vendor_id for request in requests if request.vendor_id is not None]
    counts = tour_counts(session, vendor_ids)
    return [HostRequestView(request, request.vendor, counts.get(request.vendor_id or 0, 0)) for request in requests]


def own_requests(session: Session, user: User) -> list[HostRequestView]:
    """GET own-vendors: every host this user asked for, newest first, whatever became of it."""
    requests = session.scalars(
        select(CustomProviderRequest)
        .where(CustomProviderRequest.user_id == user.id)
        .order_by(CustomProviderRequest.created_at.desc(), CustomProviderRequest.id.desc())
    ).all()
    return request_views(session, requests)


@dataclass(frozen=True, slots=True)
class AdminVendorRow:
    vendor: Vendor
    owner_username: str | None
    tours: int


def moderation_hosts(
    session: Session, *, status: str, is_custom: bool | None, search: str | None, limit: int, offset: int
) -> tuple[list[AdminVendorRow], int]:
    """GET moderation-vendors: every host, pending ones first (they wait for someone), then by name."""
    conditions: list[ColumnElement[bool]] = []
    if status != "all":
        conditions.append(Vendor.status == VendorStatus(status))
    if is_custom is not None:
        conditions.append(Vendor.is_custom.is_(is_custom))
    if search and search.strip():
        conditions.append(func.lower(Vendor.name).contains(search.strip().lower(), autoescape=True))
    statement = select(Vendor).where(*conditions)
    total = session.scalar(select(func.count()).select_from(statement.subquery())) or 0
    pending_first = (Vendor.status != VendorStatus.pending).label("not_pending")
    vendors = session.scalars(
        statement.order_by(pending_first, Vendor.name, Vendor.id).limit(limit).offset(offset)
    ).all()
    return admin_rows(session, vendors), total


def admin_rows(session: Session, vendors: Sequence[Vendor]) -> list[AdminVendorRow]:
    counts = tour_counts(session, [vendor.id for vendor in vendors])
    owner_ids = {vendor.owner_user_id for vendor in vendors if vendor.owner_user_id is not None}
    names: dict[int, str | None] = {}
    if owner_ids:
        for user_id, username in session.execute(select(User.id, User.platform_username).where(User.id.in_(owner_ids))):
            names[int(user_id)] = username
    return [
        AdminVendorRow(
            vendor, names.get(vendor.owner_user_id) if vendor.owner_user_id else None, counts.get(vendor.id, 0)
        )
        for vendor in vendors
    ]


def get_host(session: Session, vendor_id: int) -> Vendor:
    vendor = session.get(Vendor, vendor_id)
    if vendor is None:
        raise NotFound(VENDOR_NOT_FOUND, fields={"vendor_id": VENDOR_NOT_FOUND})
    return vendor


@dataclass(frozen=True, slots=True)
class VendorStatistics:
    total: int
    by_status: dict[str, int]
    public: int
    custom: int
    pending_requests: dict[str, int]
    connected_accounts: int
    group_subscribers: dict[str, int]
    tours_by_vendor: list[tuple[int, str, int]]


def hosts_per_day(session: Session, first: date, last: date) -> daily_series.DailySeries:
    """GET admin-stats `daily`: hosts (public and custom, requested ones included) created per UTC day."""
    return daily_series.daily_counts(session, Vendor.created_at, first, last)


def statistics(session: Session, *, top: int = 20) -> VendorStatistics:
    """GET admin-stats: the hosts by status and kind, the requests waiting, connected vendor accounts,
    group subscriptions and the hosts with the most tours."""
    by_status = dict.fromkeys((status.value for status in VendorStatus), 0)
    for status, count in session.execute(select(Vendor.status, func.count()).group_by(Vendor.status)).all():
        by_status[VendorStatus(status).value] = int(count)
    custom = session.scalar(select(func.count()).where(Vendor.is_custom.is_(True))) or 0
    pending = dict.fromkeys((kind.value for kind in HOST_REQUEST_KINDS), 0)
    for kind, count in session.execute(
        select(ApprovalItem.kind, func.count())
        .where(ApprovalItem.kind.in_(HOST_REQUEST_KINDS), ApprovalItem.status == ApprovalStatus.pending)
        .group_by(ApprovalItem.kind)
    ).all():
        pending[ApprovalKind(kind).value] = int(count)
    subscribers = {
        str(group): int(count)
        for group, count in session.execute(
            select(VendorGroupSubscriber.group_name, func.count()).group_by(VendorGroupSubscriber.group_name)
        ).all()
    }
    tours = session.execute(
        select(Vendor.id, Vendor.name, func.count(Tour.id))
        .join(Tour, Tour.vendor_id == Vendor.id)
        .group_by(Vendor.id, Vendor.name)
        .order_by(func.count(Tour.id).desc(), Vendor.name)
        .limit(top)
    ).all()
    total = sum(by_status.values())
    return VendorStatistics(
        total=total,
        by_status=by_status,
        public=total - custom,
        custom=custom,
        pending_requests=pending,
        connected_accounts=session.scalar(select(func.count()).select_from(VendorCredential)) or 0,
        group_subscribers=subscribers,
        tours_by_vendor=[(int(vendor_id), str(name), int(count)) for vendor_id, name, count in tours],
    )


def media_types_of(session: Session, vendor_id: int | None) -> list[tuple[Vendor, list[MediaType]]]:
    """GET media-types: what tours on each public host (or the one asked for) can be, most common
    first, from the built-in hosts' dictionary; a host of its own follows its parent host, and a host
    the dictionary does not know may carry any media type."""
    active = session.scalars(select(MediaType).where(MediaType.is_active.is_(True)).order_by(MediaType.name)).all()
    by_name = {media_type.name: media_type for media_type in active}
    if vendor_id is not None:
        vendor = session.get(Vendor, vendor_id)
        if vendor is None or vendor.status != VendorStatus.approved:
            raise NotFound(VENDOR_NOT_FOUND, fields={"vendor_id": VENDOR_NOT_FOUND})
        vendors: Sequence[Vendor] = [vendor]
    else:
        vendors = public_hosts(session)
    answer = []
    for vendor in vendors:
        spec = _builtin_spec(vendor) or (_builtin_spec(vendor.parent) if vendor.parent is not None else None)
        if spec is None:
            answer.append((vendor, list(active)))
        else:
            answer.append((vendor, [by_name[name] for name in spec.media_types if name in by_name]))
    return answer


def _builtin_spec(vendor: Vendor) -> dictionaries.VendorSpec | None:
    return next((spec for spec in dictionaries.VENDORS if spec.slug == vendor.slug), None)


# ----------------------------------------------------------------------------------- host requests


def request_kind(*, is_custom: bool, has_parent: bool) -> ApprovalKind:
    """Spec §4's four host kinds: the caller's own host or one for everyone, new or a version of another."""
    if is_custom:
        return ApprovalKind.new_alternative_custom_provider if has_parent else ApprovalKind.new_custom_provider
    return ApprovalKind.new_alternative_provider if has_parent else ApprovalKind.new_provider


@dataclass(frozen=True, slots=True)
class FiledRequest:
    view: HostRequestView
    applied: bool  # True when an admin asked: the host is approved already


def request_host(
    session: Session, user: User, body: HostRequestIn, *, resolver: hosts.Resolver, policy: AddressPolicy
) -> FiledRequest:
    """POST /v2/vendors/: file a host request (a creator) or create the host (an admin). 400 naming
    every failing field; 409 when the name is taken."""
    name = " ".join(body.vendor_name.split())
    host = hosts.normalise_host(body.host)
    failures: dict[str, str | None] = {}
    failures["vendor_name"] = NAME_REQUIRED if not name else (INVALID_NAME if has_profanity(name) else None)
    failures["host"] = hosts.host_problem(host)
    # The links are checked with a stand-in when the host name itself is wrong: one mistake, one message.
    link_host = host if failures["host"] is None else "example.com"
    if failures["host"] is None:
        failures["host"] = hosts.address_problem(host, resolver, policy)
    failures["link_header"] = hosts.link_problem(body.link_header, link_host)
    failures["sample_tour"] = hosts.link_problem(body.sample_tour, link_host)
    if failures["link_header"] is None and failures["sample_tour"] is None:
        heading, sample = hosts.fill(body.link_header, link_host), hosts.fill(body.sample_tour, link_host)
        if not _under(sample, heading):
            failures["sample_tour"] = hosts.SAMPLE_NOT_UNDER_HEADING
    parent = _parent(session, body.parent_vendor_id)
    if body.parent_vendor_id is not None and parent is None:
        failures["parent_vendor_id"] = UNKNOWN_PARENT
    alternate = " ".join((body.alternate_version_name or "").split()) or None
    if alternate and body.parent_vendor_id is None:
        failures["parent_vendor_id"] = PARENT_NEEDED
    if alternate and has_profanity(alternate):
        failures["alternate_version_name"] = INVALID_NAME
    raise_for_fields(failures)
    if session.scalar(select(Vendor.id).where(func.lower(Vendor.name) == name.lower())) is not None:
        raise Conflict(NAME_TAKEN, fields={"vendor_name": NAME_TAKEN})

    record = hosts.host_record(host, body.link_header)
    applied = user.is_admin
    vendor = Vendor(
        name=name,
        slug=_free_slug(session, name),
        link_header=record.link_header,
        link_pattern=record.link_pattern,
        # The tour is the host's own page: the player shows the link itself.
        embed_template="{link}",
        group_name=(body.group_name or "").strip() or (parent.group_name if parent is not None else None),
        preview_picture_required=parent.preview_picture_required if parent is not None else False,
        # A host of one's own serves tours under the owner's domain: the media form's white-label hint.
        is_white_label=body.is_custom,
        is_custom=body.is_custom,
        status=VendorStatus.approved if applied else VendorStatus.pending,
        owner_user_id=user.id if body.is_custom else None,
        parent_vendor_id=parent.id if parent is not None else None,
        website=record.website,
        position=1000,  # after the built-in hosts
    )
    session.add(vendor)
    session.flush()
    request = CustomProviderRequest(
        user_id=user.id,
        name=name,
        host=host,
        link_heading=body.link_header.strip(),
        sample_tour=body.sample_tour.strip(),
        alternate_version_name=alternate,
        parent_vendor_id=vendor.parent_vendor_id,
        status=RequestStatus.approved if applied else RequestStatus.pending,
        vendor_id=vendor.id,
    )
    session.add(request)
    session.flush()
    kind = request_kind(is_custom=vendor.is_custom, has_parent=parent is not None)
    if applied:
        notify_group_subscribers(session, vendor)
    else:
        _file_item(session, kind=kind, user=user, vendor=vendor, request=request)
        _mail_admins(session, kind=kind, user=user, vendor=vendor, request=request)
    return FiledRequest(HostRequestView(request, vendor, 0), applied)


def _under(sample: str, heading: str) -> bool:
    """The sample is the heading followed by more, compared without scheme and www. (http and https,
    with or without www., are the same host to a visitor)."""

    def bare(link: str) -> str:
        return re.sub(r"^https?://(?:www\.)?", "", link.strip(), flags=re.IGNORECASE)

    return bare(sample).startswith(bare(heading))


def _parent(session: Session, parent_id: int | None) -> Vendor | None:
    if parent_id is None:
        return None
    parent = session.get(Vendor, parent_id)
    if parent is None or parent.is_custom or parent.status != VendorStatus.approved:
        return None
    return parent


def _free_slug(session: Session, name: str) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:80] or "host"
    taken = set(session.scalars(select(Vendor.slug).where(Vendor.slug.startswith(base, autoescape=True))))
    slug, number = base, 2
    while slug in taken:
        slug, number = f"{base}-{number}", number + 1
    return slug


def _file_item(
    session: Session, *, kind: ApprovalKind, user: User, vendor: Vendor, request: CustomProviderRequest
) -> ApprovalItem:
    item = ApprovalItem(
        kind=kind,
        status=ApprovalStatus.pending,
        entity_type="vendor",
        entity_id=vendor.id,
        payload={
            "request_id": request.id,
            "vendor_name": vendor.name,
            "host": request.host,
            "link_header": request.link_heading,
            "sample_tour": request.sample_tour,
            "alternate_version_name": request.alternate_version_name,
            "parent_vendor_id": request.parent_vendor_id,
            "is_custom": vendor.is_custom,
        },
        submitted_by_user_id=user.id,
    )
    session.add(item)
    session.flush()
    moderation.announce_queue_change(session, kind=kind, subject=item.id, action="added")
    return item


KIND_TITLES: dict[ApprovalKind, str] = {
    ApprovalKind.new_custom_provider: "New custom host request",
    ApprovalKind.new_alternative_custom_provider: "New alternative custom host request",
    ApprovalKind.new_provider: "New host suggestion",
    ApprovalKind.new_alternative_provider: "New alternative host suggestion",
}


def _mail_admins(
    session: Session, *, kind: ApprovalKind, user: User, vendor: Vendor, request: CustomProviderRequest
) -> None:
    """Spec §4: a new custom provider sends an email notice to administrators (every host request does)."""
    admins = session.scalars(
        select(User).where(User.is_admin.is_(True), User.is_active.is_(True), User.is_deleted.is_(False))
    ).all()
    parent = vendor.parent.name if vendor.parent is not None else "none"
    lines = [
        f"{user.platform_username or user.email} asks for a host:",
        "",
        f"Name: {vendor.name}",
        f"Host: {request.host}",
        f"Link heading: {request.link_heading}",
        f"Sample tour: {request.sample_tour}",
        f"Alternate version name: {request.alternate_version_name or 'none'}",
        f"Parent host: {parent}",
        "",
        "Approve or reject it under Moderation → Providers (PUT /v2/vendors/approval-items).",
    ]
    for admin in admins:
        queue_mail(
            session,
            to_address=admin.email,
            subject=f"{KIND_TITLES[kind]}: {vendor.name}",
            body_text="\n".join(lines),
            template=f"vendors.{kind.value}",
        )


# ------------------------------------------------------------------------- deleting and withdrawing


def delete_host(session: Session, user: User, vendor_id: int) -> None:
    """DELETE /v2/vendors/: an owner deletes a custom host, an admin any host. A host that tours are
    on is kept (409): deleting it would take the tours with it. A request still waiting is withdrawn."""
    vendor = get_host(session, vendor_id)
    if not user.is_admin and not (vendor.is_custom and vendor.owner_user_id == user.id):
        raise Forbidden(NOT_YOURS, fields={"vendor_id": NOT_YOURS})
    count = tour_counts(session, [vendor.id]).get(vendor.id, 0)
    if count:
        message = HAS_TOURS.format(count=count)
        raise Conflict(message, fields={"vendor_id": message})
    _delete(session, vendor)


def custom_host_ids(session: Session, user: User) -> list[int]:
    return list(
        session.scalars(
            select(Vendor.id).where(Vendor.owner_user_id == user.id, Vendor.is_custom.is_(True)).order_by(Vendor.id)
        )
    )


def delete_custom_hosts(session: Session, user: User) -> int:
    """Every custom host of the user goes, requests still waiting withdrawn (billing's cancellation
    cascade; the tours on them must be gone first: app/tours/service.delete_tours_on_hosts)."""
    ids = custom_host_ids(session, user)
    for vendor_id in ids:
        _delete(session, get_host(session, vendor_id))
    return len(ids)


def _delete(session: Session, vendor: Vendor) -> None:
    for item in session.scalars(
        select(ApprovalItem).where(
            ApprovalItem.entity_type == "vendor",
            ApprovalItem.entity_id == vendor.id,
            ApprovalItem.status == ApprovalStatus.pending,
        )
    ):
        item.status, item.review_note = ApprovalStatus.rejected, WITHDRAWN
        moderation.announce_queue_change(session, kind=item.kind, subject=item.id, action="deleted")
    for request in session.scalars(
        select(CustomProviderRequest).where(
            CustomProviderRequest.vendor_id == vendor.id, CustomProviderRequest.status == RequestStatus.pending
        )
    ):
        request.status = RequestStatus.rejected
    # Versions of this host lose their parent (the foreign key sets it to NULL on the database too).
    for child in session.scalars(select(Vendor).where(Vendor.parent_vendor_id == vendor.id)):
        child.parent_vendor_id = None
    session.delete(vendor)
    session.flush()


def change_status(session: Session, vendor_id: int, status: str) -> Vendor:
    """PUT change-status: an admin withdraws a host (inactive: no longer offered for new tours; its
    tours stay) or offers it again. Pending and rejected hosts are decided through approval-items."""
    vendor = get_host(session, vendor_id)
    if vendor.status not in (VendorStatus.approved, VendorStatus.inactive):
        raise Conflict(DECIDE_FIRST, fields={"vendor_id": DECIDE_FIRST})
    vendor.status = VendorStatus(status)
    session.flush()
    return vendor


# ----------------------------------------------------------------------------------- group subscribers


def known_groups(session: Session) -> set[str]:
    return {
        str(name)
        for name in session.scalars(
            select(Vendor.group_name).where(Vendor.group_name.is_not(None), Vendor.status == VendorStatus.approved)
        )
    }


def subscriptions(
    session: Session, *, user_id: int | None, group_name: str | None, limit: int, offset: int
) -> tuple[list[tuple[VendorGroupSubscriber, str | None]], int]:
    statement = select(VendorGroupSubscriber, User.platform_username).join(
        User, User.id == VendorGroupSubscriber.user_id
    )
    if user_id is not None:
        statement = statement.where(VendorGroupSubscriber.user_id == user_id)
    if group_name:
        statement = statement.where(VendorGroupSubscriber.group_name == group_name)
    total = session.scalar(select(func.count()).select_from(statement.subquery())) or 0
    rows = session.execute(
        statement.order_by(VendorGroupSubscriber.group_name, VendorGroupSubscriber.id).limit(limit).offset(offset)
    ).all()
    return [(row[0], row[1]) for row in rows], total


def subscribe(session: Session, user: User, group_name: str) -> tuple[VendorGroupSubscriber, bool]:
    """Be told by mail when a new host of this group is offered. Returns the row and whether it is new."""
    group = group_name.strip()
    if group not in known_groups(session):
        raise field_error("group_name", UNKNOWN_GROUP)
    row = session.scalar(
        select(VendorGroupSubscriber).where(
            VendorGroupSubscriber.user_id == user.id, VendorGroupSubscriber.group_name == group
        )
    )
    if row is not None:
        return row, False
    row = VendorGroupSubscriber(user_id=user.id, group_name=group)
    session.add(row)
    session.flush()
    return row, True


def unsubscribe(session: Session, user: User, group_name: str) -> bool:
    """Idempotent: True when a subscription was removed."""
    row = session.scalar(
        select(VendorGroupSubscriber).where(
            VendorGroupSubscriber.user_id == user.id, VendorGroupSubscriber.group_name == group_name.strip()
        )
    )
    if row is None:
        return False
    session.delete(row)
    session.flush()
    return True


def notify_group_subscribers(session: Session, vendor: Vendor) -> int:
    """A host everyone may now choose: its group's subscribers hear of it. Custom hosts are their
    owners' alone, so nobody else is told."""
    if vendor.is_custom or not vendor.group_name or vendor.status != VendorStatus.approved:
        return 0
    people = session.scalars(
        select(User)
        .join(VendorGroupSubscriber, VendorGroupSubscriber.user_id == User.id)
        .where(
            VendorGroupSubscriber.group_name == vendor.group_name,
            User.is_active.is_(True),
            User.is_deleted.is_(False),
        )
    ).all()
    for person in people:
        queue_mail(
            session,
            to_address=person.email,
            subject=f"New on TourAtlas: {vendor.name} ({vendor.group_name})",
            body_text=(
                f"Hello {person.first_name or person.platform_username or ''},\n\n"
                f"{vendor.name} is now a host you can add tours from ({vendor.website or ''}).\n\n"
                f"You get this mail because you follow the group {vendor.group_name}; unsubscribe in Settings."
            ),
            template="vendors.group.new_host",
        )
    return len(people)
