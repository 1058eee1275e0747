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

from app.moderation import decisions, registry
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
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
    """PUT /v2/vendors/approval-items: the one decision path (app/moderation/decisions.py)."""
    item = decisions.decide(session, admin=admin, item_id=item_id, approve=approve, note=note, kinds=HOST_REQUEST_KINDS)
    return views(session, [item])[0]


def _records(session: Session, item: ApprovalItem) -> tuple[Vendor | None, CustomProviderRequest | None]:
    vendor = session.get(Vendor, item.entity_id) if item.entity_id is not None else None
    request_id = (item.payload or {}).get("request_id")
    request = session.get(CustomProviderRequest, int(request_id)) if request_id else None
    return vendor, request


def _withdrawn(session: Session, item: ApprovalItem) -> bool:
    """The requester deleted the host (delete_host closes its item too; this covers a race)."""
    vendor, _request = _records(session, item)
    return vendor is None


def _set_status(session: Session, item: ApprovalItem, approve: bool) -> None:
    vendor, request = _records(session, item)
    if vendor is not None:
        vendor.status = VendorStatus.approved if approve else VendorStatus.rejected
    if request is not None:
        request.status = RequestStatus.approved if approve else RequestStatus.rejected
    session.flush()
    if vendor is not None and approve:
        service.notify_group_subscribers(session, vendor)


def _approve(session: Session, item: ApprovalItem, _admin: User) -> None:
    _set_status(session, item, True)


def _reject(session: Session, item: ApprovalItem, _admin: User) -> None:
    _set_status(session, item, False)


def _mail(item: ApprovalItem, approved: bool) -> registry.Mail:
    name = str((item.payload or {}).get("vendor_name", ""))
    custom = item.kind in (ApprovalKind.new_custom_provider, ApprovalKind.new_alternative_custom_provider)
    if approved:
        return registry.Mail(
            f"Your host {name} is approved",
            f"An administrator has approved {name}. Choose it as the host when you add a tour: "
            + ("links on it are matched to it." if custom else "every user can now add tours from it."),
        )
    return registry.Mail(
        f"Your host {name} was not approved",
        f"An administrator has not approved {name}. You can delete the request under Settings and ask again.",
    )


def _summary(session: Session, item: ApprovalItem) -> registry.Summary:
    payload = item.payload or {}
    requester = item.submitted_by
    host = payload.get("host")
    return registry.Summary(
        title=payload.get("vendor_name"),
        username=requester.platform_username if requester is not None else None,
        link=payload.get("sample_tour") or (f"https://{host}" if host else None),
    )


def _versions(session: Session, item: ApprovalItem) -> registry.Versions:
    """A host request proposes a new host; an alternative version shows the host it belongs to."""
    payload = dict(item.payload or {})
    parent_id = payload.get("parent_vendor_id")
    parent = session.get(Vendor, int(parent_id)) if parent_id else None
    current = {"id": parent.id, "name": parent.name, "status": parent.status.value} if parent is not None else None
    return registry.Versions(current=current, proposed=payload)


for _kind in HOST_REQUEST_KINDS:
    registry.register(
        _kind,
        registry.KindHandler(
            approve=_approve,
            reject=_reject,
            mail=_mail,
            summary=_summary,
            versions=_versions,
            withdrawn=_withdrawn,
        ),
    )
