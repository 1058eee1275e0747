"""The admin's decisions on host requests (GET and PUT /v2/vendors/approval-items; spec §4 "Pending
approval items": new custom provider, new alternative custom provider, new provider, new alternative
provider).

Approving makes the pending host usable (by its owner for a custom host, by everyone otherwise, and
then its group's subscribers are told); rejecting leaves it rejected, so its owner sees why in
own-vendors and may delete it. Either way the requester hears by mail and the admins' open pages
through the moderation-queue push.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.db import utcnow
from app.moderation import service as moderation
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.notifications.mailer import queue_mail
from app.users.models import User
from app.vendors import service
from app.vendors.models import CustomProviderRequest, RequestStatus, Vendor, VendorStatus
from app.vendors.schemas import HOST_REQUEST_KINDS


@dataclass(frozen=True, slots=True)
class ItemView:
    item: ApprovalItem
    requester: User | None
    request: service.HostRequestView | None


def list_items(
    session: Session, *, kind: str | None, status: str, limit: int, offset: int
) -> tuple[list[ItemView], int]:
    """One page of the host requests, oldest first (the queue is worked from its head)."""
    kinds = [ApprovalKind(kind)] if kind else list(HOST_REQUEST_KINDS)
    statement = select(ApprovalItem).where(ApprovalItem.kind.in_(kinds))
    if status != "all":
        statement = statement.where(ApprovalItem.status == ApprovalStatus(status))
    total = session.scalar(select(func.count()).select_from(statement.subquery())) or 0
    items = list(
        session.scalars(statement.order_by(ApprovalItem.created_at, ApprovalItem.id).limit(limit).offset(offset))
    )
    return views(session, items), total


def views(session: Session, items: list[ApprovalItem]) -> list[ItemView]:
    request_ids = [int(item.payload["request_id"]) for item in items if (item.payload or {}).get("request_id")]
    requests = (
        {
            row.id: row
            for row in session.scalars(select(CustomProviderRequest).where(CustomProviderRequest.id.in_(request_ids)))
        }
        if request_ids
        else {}
    )
    request_views = {view.request.id: view for view in service.request_views(session, list(requests.values()))}
    answer = []
    for item in items:
        request_id = (item.payload or {}).get("request_id")
        view = request_views.get(int(request_id)) if request_id else None
        answer.append(ItemView(item, item.submitted_by, view))
    return answer


def decide(session: Session, *, admin: User, item_id: int, approve: bool, note: str | None) -> ItemView:
    item = moderation.claim_pending_item(session, item_id, HOST_REQUEST_KINDS)
    vendor = session.get(Vendor, item.entity_id) if item.entity_id is not None else None
    request_id = (item.payload or {}).get("request_id")
    request = session.get(CustomProviderRequest, int(request_id)) if request_id else None
    note = note.strip() if note and note.strip() else None
    if vendor is not None:
        vendor.status = VendorStatus.approved if approve else VendorStatus.rejected
    if request is not None:
        request.status = RequestStatus.approved if approve else RequestStatus.rejected
    item.status = ApprovalStatus.approved if approve else ApprovalStatus.rejected
    item.reviewed_by_user_id = admin.id
    item.reviewed_at = utcnow()
    item.review_note = note
    session.flush()
    if vendor is not None and approve:
        service.notify_group_subscribers(session, vendor)
    requester = item.submitted_by
    if requester is not None and not requester.is_deleted:
        _mail(session, requester, item, str((item.payload or {}).get("vendor_name", "")), approve, note)
    moderation.announce_queue_change(
        session, kind=item.kind, subject=item.id, action="approved" if approve else "rejected"
    )
    return views(session, [item])[0]


def _mail(session: Session, user: User, item: ApprovalItem, name: str, approved: bool, note: str | None) -> None:
    custom = item.kind in (ApprovalKind.new_custom_provider, ApprovalKind.new_alternative_custom_provider)
    if approved:
        subject = f"Your host {name} is approved"
        body = f"An administrator has approved {name}. Choose it as the host when you add a tour: " + (
            "links on it are matched to it." if custom else "every user can now add tours from it."
        )
    else:
        subject = f"Your host {name} was not approved"
        body = f"An administrator has not approved {name}. You can delete the request under Settings and ask again."
    greeting = f"Hello {user.first_name or user.platform_username or ''},".replace(" ,", ",")
    parts = [greeting, "", body]
    if note:
        parts += ["", f"Note from the administrator: {note}"]
    queue_mail(
        session,
        to_address=user.email,
        subject=subject,
        body_text="\n".join(parts),
        template=f"approval.{item.kind.value}.{'approved' if approved else 'rejected'}",
    )
