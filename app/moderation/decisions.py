"""Every decision on an approval item, from every domain's PUT approval-items and from the unified
PUT /v2/pending/approval-items, goes through `decide`:

1. claim the pending item (locked for the transaction: a second admin waits, then gets the 409);
   unknown → 404, decided already → 409 "This item has already been approved/rejected";
2. approving something withdrawn or deleted meanwhile → 409 "This item has already been withdrawn"
   (rejecting it closes the item: there is nothing left to keep or to tell);
3. apply (approve) or keep the published version (reject) through the owning domain's registered
   handler, in the caller's transaction (the domain's outbox entries carry it to the index);
4. record who, when and why on the item;
5. mail the owner a readable mail with the admin's reason (stored in this transaction, sent after the
   commit by the mail task);
6. push the queue change to the admins' room (after the commit).

`decide_listed` is a domain's own PUT approval-items (its kinds only; items decided already are
skipped, an unknown id is a 404). `decide_many` decides a list, each item in its own savepoint, so
one item that cannot be decided (a 409, a 404, a name taken meanwhile) leaves the others decided.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.db import utcnow
from app.core.errors import AppError, BadRequest, Conflict, NotFound
from app.moderation import registry
from app.moderation import service as moderation
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.notifications.mailer import queue_mail
from app.users.models import User

WITHDRAWN = "This item has already been withdrawn"
NOT_DECIDED_HERE = "Items of this kind cannot be decided yet"

OutcomeStatus = Literal["approved", "rejected", "conflict", "not_found"]


@dataclass(frozen=True, slots=True)
class Outcome:
    id: int
    status: OutcomeStatus
    message: str
    item: ApprovalItem | None = None


def clean_note(note: str | None) -> str | None:
    return note.strip() if note and note.strip() else None


def decide(
    session: Session,
    *,
    admin: User,
    item_id: int,
    approve: bool,
    note: str | None,
    kinds: Iterable[ApprovalKind] | None = None,
) -> ApprovalItem:
    """Decide one pending item (of one of `kinds`, default every registered kind); see the module."""
    allowed = registry.registered_kinds() if kinds is None else tuple(kinds)
    if kinds is None:
        _refuse_unregistered(session, item_id)
    item = moderation.claim_pending_item(session, item_id, allowed)
    handler = registry.handler_for(item.kind)
    if handler is None:  # a domain asked for a kind nobody registered: a programming error
        raise Conflict(NOT_DECIDED_HERE, fields={"id": NOT_DECIDED_HERE})
    owner = handler.owner(session, item)
    if handler.own_message and owner is not None and owner.id == admin.id:
        raise BadRequest(handler.own_message, fields={"id": handler.own_message})
    withdrawn = handler.withdrawn(session, item)
    if withdrawn and approve:
        raise Conflict(WITHDRAWN, fields={"id": WITHDRAWN})
    note = clean_note(note)
    if not withdrawn:
        (handler.approve if approve else handler.reject)(session, item, admin)
    item.status = ApprovalStatus.approved if approve else ApprovalStatus.rejected
    item.reviewed_by_user_id = admin.id
    item.reviewed_at = utcnow()
    item.review_note = note
    session.flush()
    if handler.after_decision is not None and not withdrawn:
        handler.after_decision(session, item)
    mail = handler.mail(item, approve) if owner is not None and not owner.is_deleted and not withdrawn else None
    if owner is not None and mail is not None:
        _mail(session, item, owner, mail, approve, note)
    moderation.announce_queue_change(
        session,
        kind=item.kind,
        subject=handler.subject(item),
        action="approved" if approve else "rejected",
        item_id=item.id,
    )
    return item


def _refuse_unregistered(session: Session, item_id: int) -> None:
    """An item of a kind no domain decides yet is a 409 naming why, not a puzzling 404."""
    kind = session.scalar(select(ApprovalItem.kind).where(ApprovalItem.id == item_id))
    if kind is not None and registry.handler_for(ApprovalKind(kind)) is None:
        raise Conflict(NOT_DECIDED_HERE, fields={"id": NOT_DECIDED_HERE})


def decide_listed(
    session: Session, *, admin: User, ids: Sequence[int], approve: bool, note: str | None, kinds: Sequence[ApprovalKind]
) -> list[int]:
    """Decide the listed items of these kinds, oldest id first; returns the ids decided now."""
    items = list(session.scalars(select(ApprovalItem).where(ApprovalItem.id.in_(ids), ApprovalItem.kind.in_(kinds))))
    if len(items) != len(set(ids)):
        raise NotFound("Approval item not found", fields={"ids": "Unknown approval item"})
    decided: list[int] = []
    for item in sorted(items, key=lambda row: row.id):
        if item.status != ApprovalStatus.pending:
            continue
        decide(session, admin=admin, item_id=item.id, approve=approve, note=note, kinds=kinds)
        decided.append(item.id)
    return decided


def decide_many(session: Session, *, admin: User, ids: Sequence[int], approve: bool, note: str | None) -> list[Outcome]:
    """Decide each id in its own savepoint; an item that fails is rolled back alone and reported."""
    outcomes: list[Outcome] = []
    for item_id in dict.fromkeys(ids):
        try:
            with session.begin_nested():
                item = decide(session, admin=admin, item_id=item_id, approve=approve, note=note)
        except NotFound as error:
            outcomes.append(Outcome(item_id, "not_found", error.message))
        except AppError as error:
            outcomes.append(Outcome(item_id, "conflict", error.message))
        else:
            status: OutcomeStatus = "approved" if approve else "rejected"
            outcomes.append(Outcome(item_id, status, "Approved" if approve else "Rejected", item))
    return outcomes


def _mail(
    session: Session, item: ApprovalItem, owner: User, mail: registry.Mail, approved: bool, note: str | None
) -> None:
    greeting = f"Hello {owner.first_name or owner.platform_username or ''},".replace(" ,", ",")
    parts = [greeting, "", mail.body]
    if note:
        parts += ["", f"Note from the administrator: {note}"]
    parts += ["", "The TourAtlas team"]
    queue_mail(
        session,
        to_address=owner.email,
        subject=mail.subject,
        body_text="\n".join(parts),
        template=f"approval.{item.kind.value}.{'approved' if approved else 'rejected'}",
    )
