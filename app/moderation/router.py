"""Spec §7 Pending: the approval queue of every domain in one list with the count per kind (the admins'
moderation badge), one call that decides items of any kind, and one item with both of its versions
(`/pending-api/v1/pending/approval-item`, for a diff view). Each decision goes through the one path
of app/moderation/decisions.py, as the domains' own approval-items calls do."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.core.deps import AdminUser, DbSession
from app.core.errors import BadRequest, Conflict, NotFound, error_responses
from app.core.types import DbId, DbInt
from app.moderation import decisions, registry
from app.moderation import service as moderation
from app.moderation.models import ApprovalItem, ApprovalKind
from app.moderation.schemas import (
    REASON_MAX,
    REASON_MIN,
    ApprovalItemDetail,
    DecisionOutcome,
    ItemSummary,
    PendingDecision,
    PendingDecisionAnswer,
    PendingItemOut,
    PendingItemsAnswer,
)
from app.users.models import User

queue_router = APIRouter(prefix="/v2/pending", tags=["moderation"])
item_router = APIRouter(prefix="/pending-api/v1/pending", tags=["moderation"])

REASON_NEEDED = f"Give the reason ({REASON_MIN} to {REASON_MAX} characters): it is mailed to the owner"


@queue_router.get("/approval-items", response_model=PendingItemsAnswer)
def list_pending_items(
    _admin: AdminUser,
    db: DbSession,
    kind: list[ApprovalKind] | None = Query(None, description="One kind, or several (repeat the parameter)"),
    search: str | None = Query(None, max_length=100, description="Title, platform username or creator name"),
    limit: int = Query(20, ge=0, le=100, description="0 answers the counts only"),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> PendingItemsAnswer:
    """Everything waiting for an administrator, oldest first, and how many items of each kind wait."""
    items, total = moderation.pending_items(db, kinds=kind, limit=limit, offset=offset, search=search)
    return PendingItemsAnswer(
        data=[pending_item_out(db, item) for item in items],
        pending=moderation.pending_counts(db),
        total_items=total,
        limit=limit,
        offset=offset,
    )


@queue_router.put("/approval-items", response_model=PendingDecisionAnswer, responses=error_responses(404, 409))
def decide_pending_items(body: PendingDecision, admin: AdminUser, db: DbSession) -> PendingDecisionAnswer:
    """Approve or reject items of any kind, each on its own: the answer says per item what became of
    it. Rejecting needs a reason, mailed to the owner. With one id, a conflict is a 409 and an unknown
    item a 404."""
    reason = decisions.clean_note(body.reason)
    if body.decision == "reject" and (reason is None or len(reason) < REASON_MIN):
        raise BadRequest(REASON_NEEDED, fields={"reason": REASON_NEEDED})
    outcomes = decisions.decide_many(db, admin=admin, ids=body.ids, approve=body.decision == "approve", note=reason)
    if len(outcomes) == 1 and outcomes[0].status == "conflict":
        raise Conflict(outcomes[0].message, fields={"id": outcomes[0].message})
    if len(outcomes) == 1 and outcomes[0].status == "not_found":
        raise NotFound(outcomes[0].message, fields={"id": outcomes[0].message})
    return PendingDecisionAnswer(
        data=[DecisionOutcome(id=outcome.id, status=outcome.status, message=outcome.message) for outcome in outcomes],
        pending=moderation.pending_counts(db),
    )


@item_router.get("/approval-item", response_model=ApprovalItemDetail, responses=error_responses(404))
def get_approval_item(_admin: AdminUser, db: DbSession, id: Annotated[DbId, Query()]) -> ApprovalItemDetail:
    """One item of any kind and status, with the published version beside the proposed one."""
    item = moderation.item_by_id(db, id)
    versions = moderation.versions_of(db, item)
    summary = moderation.summary_of(db, item)
    owner: User | None = item.submitted_by
    return ApprovalItemDetail(
        id=item.id,
        kind=item.kind,
        status=item.status,
        userid=item.submitted_by_user_id,
        username=summary.username or (owner.platform_username if owner else None),
        created_at=item.created_at,
        reviewed_by=item.reviewed_by_user_id,
        reviewed_at=item.reviewed_at,
        review_note=item.review_note,
        summary=ItemSummary(**summary_fields(summary)),
        current=versions.current,
        proposed=versions.proposed,
    )


def summary_fields(summary: registry.Summary) -> dict[str, str | None]:
    return {
        "title": summary.title,
        "username": summary.username,
        "preview_picture": summary.preview_picture,
        "link": summary.link,
    }


def pending_item_out(db: DbSession, item: ApprovalItem) -> PendingItemOut:
    return PendingItemOut(
        id=item.id,
        kind=item.kind,
        entity_type=item.entity_type,
        entity_id=item.entity_id,
        userid=item.submitted_by_user_id,
        payload=item.payload or {},
        created_at=item.created_at,
        summary=ItemSummary(**summary_fields(moderation.summary_of(db, item))),
    )


router = APIRouter()
router.include_router(queue_router)
router.include_router(item_router)
