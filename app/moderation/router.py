"""Spec §7 Pending: the approval queue of every domain in one list, with the count per kind (the
admins' moderation badge). Decisions stay with each domain's own approval-items call."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.core.deps import AdminUser, DbSession
from app.core.types import DbInt
from app.moderation import service as moderation
from app.moderation.models import ApprovalItem, ApprovalKind
from app.moderation.schemas import PendingItemOut, PendingItemsAnswer

router = APIRouter(prefix="/v2/pending", tags=["moderation"])


@router.get("/approval-items", response_model=PendingItemsAnswer)
def list_pending_items(
    _admin: AdminUser,
    db: DbSession,
    kind: ApprovalKind | None = Query(None),
    limit: int = Query(20, ge=0, le=100, description="0 answers the counts only"),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> PendingItemsAnswer:
    """Everything waiting for an administrator, oldest first, and how many items of each kind wait."""
    items, total = moderation.pending_items(db, kind=kind, limit=limit, offset=offset)
    return PendingItemsAnswer(
        data=[pending_item_out(item) for item in items],
        pending=moderation.pending_counts(db),
        total_items=total,
        limit=limit,
        offset=offset,
    )


def pending_item_out(item: ApprovalItem) -> PendingItemOut:
    return PendingItemOut(
        id=item.id,
        kind=item.kind,
        entity_type=item.entity_type,
        entity_id=item.entity_id,
        userid=item.submitted_by_user_id,
        payload=item.payload or {},
        created_at=item.created_at,
    )
