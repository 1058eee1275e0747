"""The whole approval queue across domains (spec §4 "Pending approval items"; §7 Pending): what waits
for an admin, and how many of each kind, and the one way a queue change is pushed to the admins.

Each domain files and decides its own kinds (users: new user, profile edit, profile image; tours: new
virtual tour, VT edit; …); this module only reads the queue, so every count the admins see, from this
call or from a push, is counted the same way.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import ColumnElement, and_, exists, func, or_, select
from sqlalchemy.orm import Session

from app.core.errors import Conflict, NotFound
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.realtime.events import ADMINS_ROOM, MODERATION_QUEUE, emit_after_commit
from app.tours.models import ApprovalState, Tour, TourStatus

ITEM_NOT_FOUND = "Approval item not found"


def claim_pending_item(session: Session, item_id: int, kinds: Iterable[ApprovalKind]) -> ApprovalItem:
    """The pending item of one of `kinds` an admin is deciding, locked for the transaction: two admins
    deciding at once, the second waits, then sees the decision (409). Every domain's approval-items
    PUT starts here."""
    item = session.scalar(
        select(ApprovalItem).where(ApprovalItem.id == item_id, ApprovalItem.kind.in_(list(kinds))).with_for_update()
    )
    if item is None:
        raise NotFound(ITEM_NOT_FOUND, fields={"id": ITEM_NOT_FOUND})
    if item.status != ApprovalStatus.pending:
        message = f"This item has already been {item.status}"
        raise Conflict(message, fields={"id": message})
    return item


def _awaiting_review() -> ColumnElement[bool]:
    """Pending items. A new tour's item waits only while its tour asks for review: an owner's pending
    draft has not been sent yet (the tours queue, GET /v2/virtualtours/pending, counts the same way)."""
    tour_in_queue = exists().where(
        Tour.id == ApprovalItem.entity_id,
        Tour.status == TourStatus.active,
        Tour.approval_state == ApprovalState.pending,
    )
    return and_(
        ApprovalItem.status == ApprovalStatus.pending,
        or_(ApprovalItem.kind != ApprovalKind.new_virtual_tour, tour_in_queue),
    )


def pending_counts(session: Session) -> dict[str, int]:
    """Items waiting per kind, every kind named (0 when none): the admins' badges."""
    session.flush()
    statement = select(ApprovalItem.kind, func.count()).where(_awaiting_review()).group_by(ApprovalItem.kind)
    counted = {ApprovalKind(kind): int(count) for kind, count in session.execute(statement).all()}
    return {kind.value: counted.get(kind, 0) for kind in ApprovalKind}


def pending_items(
    session: Session, *, kind: ApprovalKind | None, limit: int, offset: int
) -> tuple[list[ApprovalItem], int]:
    """One page of the waiting items of every kind (or one), oldest first: the queue is worked from
    its head. Returns the page and the number of items waiting."""
    condition = _awaiting_review() if kind is None else and_(_awaiting_review(), ApprovalItem.kind == kind)
    total = session.scalar(select(func.count()).select_from(ApprovalItem).where(condition)) or 0
    if limit == 0:
        return [], total
    page = session.scalars(
        select(ApprovalItem)
        .where(condition)
        .order_by(ApprovalItem.created_at, ApprovalItem.id)
        .limit(limit)
        .offset(offset)
    )
    return list(page), total


def announce_queue_change(session: Session, *, kind: ApprovalKind, subject: int | str, action: str) -> None:
    """Tell the admins' open pages, once this transaction commits, that the queue changed: `subject`
    is what the item is about as its domain names it (an approval item's id, a tour's guid), `action`
    one of added, removed, approved, rejected, deleted; `pending` the counts of pending_counts."""
    data = {"kind": kind.value, "id": subject, "action": action, "pending": pending_counts(session)}
    emit_after_commit(session, MODERATION_QUEUE, data, room=ADMINS_ROOM)
