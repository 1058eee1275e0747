"""The whole approval queue across domains (spec §4 "Pending approval items"; §7 Pending): what waits
for an admin, and how many of each kind, and the one way a queue change is pushed to the admins.

Each domain files and decides its own kinds (users: new user, profile edit, profile image; tours: new
virtual tour, VT edit; …); this module only reads the queue, so every count the admins see, from this
call or from a push, is counted the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import ColumnElement, Select, and_, exists, func, or_, select
from sqlalchemy.orm import Session, aliased

from app.ads.models import Ad, AdApprovalState, AdStatus
from app.core.errors import Conflict, NotFound
from app.creators.models import Creator
from app.moderation import registry
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.realtime.events import ADMINS_ROOM, MODERATION_QUEUE, emit_after_commit
from app.tours.models import ApprovalState, Tour, TourStatus
from app.users.models import User

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
    # The same for a new ad: an owner's pending draft has not been sent yet.
    ad_in_queue = exists().where(
        Ad.id == ApprovalItem.entity_id,
        Ad.status == AdStatus.active,
        Ad.approval_state == AdApprovalState.pending,
    )
    return and_(
        ApprovalItem.status == ApprovalStatus.pending,
        or_(ApprovalItem.kind != ApprovalKind.new_virtual_tour, tour_in_queue),
        or_(ApprovalItem.kind != ApprovalKind.new_ad, ad_in_queue),
    )


def pending_counts(session: Session) -> dict[str, int]:
    """Items waiting per kind, every kind named (0 when none): the admins' badges."""
    session.flush()
    statement = select(ApprovalItem.kind, func.count()).where(_awaiting_review()).group_by(ApprovalItem.kind)
    counted = {ApprovalKind(kind): int(count) for kind, count in session.execute(statement).all()}
    return {kind.value: counted.get(kind, 0) for kind in ApprovalKind}


def pending_items(
    session: Session,
    *,
    kinds: Sequence[ApprovalKind] | None,
    limit: int,
    offset: int,
    search: str | None = None,
) -> tuple[list[ApprovalItem], int]:
    """One page of the waiting items of every kind (or of the given kinds), oldest first: the queue
    is worked from its head. `search` matches the submitter's platform username, the creator name and
    the title the item is about (the tour's, or the one proposed in the item). Returns the page and
    the number of items matching."""
    statement = select(ApprovalItem).where(_awaiting_review())
    if kinds:
        statement = statement.where(ApprovalItem.kind.in_(list(kinds)))
    if search and search.strip():
        statement = _matching(statement, search.strip())
    total = session.scalar(select(func.count()).select_from(statement.subquery())) or 0
    if limit == 0:
        return [], total
    page = session.scalars(statement.order_by(ApprovalItem.created_at, ApprovalItem.id).limit(limit).offset(offset))
    return list(page), total


def _matching(statement: Select[ApprovalItem], text: str) -> Select[ApprovalItem]:
    pattern = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    submitter, tour = aliased(User), aliased(Tour)
    payload = ApprovalItem.payload
    texts = [
        submitter.platform_username,
        Creator.creator_name,
        tour.title,
        payload["title"].as_string(),
        payload[("changes", "title")].as_string(),
        payload["creator_name"].as_string(),
        payload["vendor_name"].as_string(),
        payload["platform_username"].as_string(),
        payload["category"].as_string(),
    ]
    return (
        statement.outerjoin(submitter, submitter.id == ApprovalItem.submitted_by_user_id)
        .outerjoin(Creator, Creator.user_id == ApprovalItem.submitted_by_user_id)
        .outerjoin(tour, and_(ApprovalItem.entity_type == "tour", tour.id == ApprovalItem.entity_id))
        .where(or_(*(column.ilike(pattern, escape="\\") for column in texts)))
    )


def announce_queue_change(
    session: Session, *, kind: ApprovalKind, subject: int | str, action: str, item_id: int | None = None
) -> None:
    """Tell the admins' open pages, once this transaction commits, that the queue changed: `subject`
    is what the item is about as its domain names it (an approval item's id, a tour's guid), `item_id`
    the approval item's id when there is one, `action` one of added, removed, approved, rejected,
    deleted; `pending` the counts of pending_counts."""
    if item_id is None and isinstance(subject, int) and not isinstance(subject, bool):
        item_id = subject
    data = {
        "kind": kind.value,
        "id": subject,
        "item_id": item_id,
        "action": action,
        "pending": pending_counts(session),
    }
    emit_after_commit(session, MODERATION_QUEUE, data, room=ADMINS_ROOM)


def summary_of(session: Session, item: ApprovalItem) -> registry.Summary:
    """The row's summary as the owning domain shows it (the payload's names for a kind no domain
    has registered yet, e.g. a category request)."""
    handler = registry.handler_for(item.kind)
    if handler is not None:
        return handler.summary(session, item)
    payload = item.payload or {}
    title = payload.get("title") or payload.get("category")
    submitter = item.submitted_by
    return registry.Summary(
        title=str(title) if title else None, username=submitter.platform_username if submitter else None
    )


def versions_of(session: Session, item: ApprovalItem) -> registry.Versions:
    handler = registry.handler_for(item.kind)
    if handler is not None:
        return handler.versions(session, item)
    return registry.Versions(current=None, proposed=dict(item.payload or {}))


def item_by_id(session: Session, item_id: int) -> ApprovalItem:
    item = session.get(ApprovalItem, item_id)
    if item is None:
        raise NotFound(ITEM_NOT_FOUND, fields={"id": ITEM_NOT_FOUND})
    return item
