"""The admins' side of ads (spec §7 Ads `approval-items`, `admin-stats`): the 'new ad' and 'ad edit'
approval items and their decisions through the one decision path (app/moderation/decisions.py, which
the unified PUT /v2/pending/approval-items takes too), and the ads' statistics with the zero-filled
daily series of the other admin-stats (app/core/daily_series.py)."""

from __future__ import annotations

from datetime import date

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.ads.approvals import ADS
from app.ads.models import Ad, AdApprovalState, AdStatus
from app.ads.queries import served_clause
from app.ads.schemas import AdApprovalItemOut, AdApprovalItemsPage, AdApprovalKindName, AdminStats
from app.ads.service import AD_KINDS
from app.core import daily_series
from app.moderation import decisions, pending_edits
from app.moderation import service as moderation
from app.moderation.models import ApprovalItem, ApprovalKind
from app.tours.schemas import ApprovalAction, ApprovalDecision
from app.tours.service import count_rows
from app.users.models import User


def approval_items_page(session: Session, *, limit: int, offset: int) -> AdApprovalItemsPage:
    """Pending 'new ad' (of ads sent for review, not drafts) and 'ad edit' items, oldest first: the
    moderation queue's own rule (moderation.pending_items)."""
    items, total = moderation.pending_items(session, kinds=list(AD_KINDS), limit=limit, offset=offset)
    ads = ADS.items_of(session, items)
    return AdApprovalItemsPage(
        data=[_item_out(item, ads.get(item.entity_id or 0)) for item in items],
        total_items=total,
        limit=limit,
        offset=offset,
    )


def _item_out(item: ApprovalItem, ad: Ad | None) -> AdApprovalItemOut:
    changes, current = ADS.queue_row(item, ad)
    return AdApprovalItemOut(
        id=item.id,
        kind=AdApprovalKindName(item.kind.value),
        status=item.status.value,
        ad_id=item.entity_id,
        title=ad.title if ad else (item.payload or {}).get("title"),
        userid=ad.user_id if ad else item.submitted_by_user_id,
        platform_username=ad.owner.platform_username if ad else None,
        changes=changes,
        current=current,
        created_at=item.created_at,
    )


def decide_approval_items(session: Session, *, admin: User, decision: ApprovalDecision) -> list[int]:
    """Approve or reject ad items through the one decision path; items decided already are skipped,
    an unknown one is a 404."""
    approve = decision.action == ApprovalAction.approve
    return decisions.decide_listed(
        session, admin=admin, ids=decision.ids, approve=approve, note=decision.review_note, kinds=AD_KINDS
    )


def admin_stats(session: Session, first: date, last: date) -> AdminStats:
    total = pending_edits.state_counts(session, Ad.status, Ad.approval_state).total

    sums = session.execute(
        select(
            func.coalesce(func.sum(Ad.views), 0),
            func.coalesce(func.sum(Ad.clicks), 0),
            func.coalesce(func.sum(Ad.likes), 0),
            func.coalesce(func.sum(Ad.saves), 0),
            func.coalesce(func.sum(Ad.shared), 0),
        )
    ).one()
    return AdminStats(
        total=total(),
        served=count_rows(session, select(Ad.id).where(served_clause())),
        active=total(AdStatus.active),
        draft=total(AdStatus.draft),
        pending=total(AdStatus.active, AdApprovalState.pending),
        rejected=total(None, AdApprovalState.rejected),
        edits_pending=pending_edits.pending_count(session, ApprovalKind.ad_edit),
        featured=int(session.scalar(select(func.count()).select_from(Ad).where(Ad.is_featured.is_(True))) or 0),
        views=int(sums[0]),
        clicks=int(sums[1]),
        likes=int(sums[2]),
        saves=int(sums[3]),
        shared=int(sums[4]),
        daily=daily_series.daily_counts(session, Ad.created_at, first, last),
    )
