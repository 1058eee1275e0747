"""The tours' moderation queue for the admins (spec §4 "Media", §7 `/v2/virtualtours/pending`,
`approval-items`, `admin-stats`): tours waiting for approval, the 'new virtual tour' and 'VT edit'
approval items and their decisions, and the tour statistics of the admin panel.

Approving a new tour lists it; approving an edit applies the proposed changes to the published tour
(a link taken meanwhile is a 409); rejecting leaves the published version. Each decision goes
through the same after-change steps as an owner's change (`service.record_change`: outbox, vt_count)
and tells the admins that the queue moved. Services never commit.
"""

from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.classifications.models import Category
from app.core import daily_series
from app.core.db import utcnow
from app.moderation import decisions, pending_edits
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.tours.approvals import TOURS
from app.tours.models import ApprovalState, Tour, TourStatus
from app.tours.queries import listed_clause
from app.tours.schemas import (
    AdminStats,
    ApprovalAction,
    ApprovalDecision,
    ApprovalItemOut,
    ApprovalItemsPage,
    ApprovalKindName,
    PendingPage,
    PendingTourOut,
)
from app.tours.service import (
    TOUR_KINDS,
    count_rows,
    edit_pending_ids,
    escape_like,
    tour_out,
)
from app.users.models import User
from app.vendors.models import Vendor

# ------------------------------------------------------------------------------ the queue and its decisions


def pending_page(session: Session, *, limit: int, offset: int, search: str | None) -> PendingPage:
    statement = select(Tour).where(Tour.status == TourStatus.active, Tour.approval_state == ApprovalState.pending)
    if search and search.strip():
        statement = statement.where(Tour.title.ilike(f"%{escape_like(search.strip())}%", escape="\\"))
    total = count_rows(session, statement)
    tours = list(session.scalars(statement.order_by(Tour.created_at, Tour.id).limit(limit).offset(offset)))
    edits = edit_pending_ids(session, [tour.id for tour in tours])
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
    total = count_rows(session, statement)
    items = list(
        session.scalars(statement.order_by(ApprovalItem.created_at, ApprovalItem.id).limit(limit).offset(offset))
    )
    tours = TOURS.items_of(session, items)
    return ApprovalItemsPage(
        data=[_approval_item_out(item, tours.get(item.entity_id or 0)) for item in items],
        total_items=total,
        limit=limit,
        offset=offset,
    )


def _approval_item_out(item: ApprovalItem, tour: Tour | None) -> ApprovalItemOut:
    changes, current = TOURS.queue_row(item, tour)
    return ApprovalItemOut(
        id=item.id,
        kind=ApprovalKindName(item.kind.value),
        status=item.status.value,
        guid=tour.guid if tour else item.payload.get("guid"),
        title=tour.title if tour else item.payload.get("title"),
        userid=tour.user_id if tour else item.submitted_by_user_id,
        platform_username=tour.owner.platform_username if tour else None,
        changes=changes,
        current=current,
        created_at=item.created_at,
    )


def decide_approval_items(session: Session, *, admin: User, decision: ApprovalDecision) -> list[int]:
    """Approve or reject 'new virtual tour' and 'VT edit' items through the one decision path
    (app/moderation/decisions.py); items decided already are skipped, an unknown one is a 404."""
    approve = decision.action == ApprovalAction.approve
    return decisions.decide_listed(
        session, admin=admin, ids=decision.ids, approve=approve, note=decision.review_note, kinds=TOUR_KINDS
    )


# ------------------------------------------------------------------------------ statistics


def admin_stats(session: Session, first: date, last: date) -> AdminStats:
    total = pending_edits.state_counts(session, Tour.status, Tour.approval_state).total

    now = utcnow()

    def added_since(days: int) -> int:
        return int(
            session.scalar(select(func.count()).select_from(Tour).where(Tour.created_at >= now - timedelta(days=days)))
            or 0
        )

    vendors = session.execute(
        select(Vendor.name, func.count()).join(Tour, Tour.vendor_id == Vendor.id).group_by(Vendor.name)
    )
    categories = session.execute(
        select(Category.name, func.count()).join(Tour, Tour.category_id == Category.id).group_by(Category.name)
    )
    return AdminStats(
        total=total(),
        listed=int(session.scalar(select(func.count()).select_from(Tour).where(listed_clause())) or 0),
        active=total(TourStatus.active),
        draft=total(TourStatus.draft),
        pending=total(TourStatus.active, ApprovalState.pending),
        rejected=total(None, ApprovalState.rejected),
        edits_pending=pending_edits.pending_count(session, ApprovalKind.vt_edit),
        added_today=added_since(1),
        added_last_7_days=added_since(7),
        added_last_30_days=added_since(30),
        by_vendor={name: count for name, count in vendors},
        by_category={name: count for name, count in categories},
        daily=daily_series.daily_counts(session, Tour.created_at, first, last),
    )
