"""The admins' decisions on creator approval items (GET and PUT /v2/creators/approval-items): new
creator profiles and creator profile edits (spec §4 "Pending approval items").

Approving applies the stored payload in one transaction (a new profile becomes public, an edit
replaces the published values; the outbox carries it to the index); rejecting leaves the published
profile as it is. Either way the owner hears by mail and the admins' open pages through the
moderation-queue push. A name taken since the payload was sent is a 409 and the item stays pending.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.db import utcnow
from app.core.errors import BadRequest, Conflict
from app.creators import editing, profiles
from app.creators.models import Creator
from app.creators.schemas import CreatorApprovalItemOut
from app.moderation import service as moderation
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.notifications.mailer import queue_mail
from app.users.models import User

CREATOR_KINDS = (ApprovalKind.new_creator_profile, ApprovalKind.creator_profile_edit)
OWN_PROFILE = "You cannot decide on your own creator profile"
GONE = "The account or profile this item is about no longer exists"

MAILS: dict[tuple[ApprovalKind, bool], tuple[str, str]] = {
    (ApprovalKind.new_creator_profile, True): (
        "Your creator profile is approved",
        "An administrator has approved your creator profile: it is public now.",
    ),
    (ApprovalKind.new_creator_profile, False): (
        "Your creator profile was not approved",
        "An administrator has not approved your creator profile. You can change it and send it again.",
    ),
    (ApprovalKind.creator_profile_edit, True): (
        "Your creator profile changes are approved",
        "An administrator has approved your creator profile changes; they are live now.",
    ),
    (ApprovalKind.creator_profile_edit, False): (
        "Your creator profile changes were not approved",
        "An administrator has not approved your creator profile changes; your profile stays as it was.",
    ),
}


def owner_of(db: Session, item: ApprovalItem) -> User | None:
    if item.entity_id is None:
        return None
    if item.entity_type == profiles.NEW_PROFILE_ENTITY:
        return db.get(User, item.entity_id)
    creator = db.get(Creator, item.entity_id)
    return creator.user if creator is not None else None


def list_items(
    db: Session, *, kind: str | None, status: str, limit: int, offset: int
) -> tuple[list[ApprovalItem], int]:
    """One page of the creator items, oldest first (the queue is worked from its head)."""
    kinds = [ApprovalKind(kind)] if kind else list(CREATOR_KINDS)
    statement = select(ApprovalItem).where(ApprovalItem.kind.in_(kinds))
    if status != "all":
        statement = statement.where(ApprovalItem.status == ApprovalStatus(status))
    total = db.scalar(select(func.count()).select_from(statement.subquery())) or 0
    page = db.scalars(statement.order_by(ApprovalItem.created_at, ApprovalItem.id).limit(limit).offset(offset))
    return list(page), total


def item_out(db: Session, item: ApprovalItem, viewer: User) -> CreatorApprovalItemOut:
    owner = owner_of(db, item)
    creator = owner.creator if owner is not None else None
    return CreatorApprovalItemOut(
        id=item.id,
        kind=item.kind.value,  # type: ignore[arg-type]  # list_items keeps to the creator kinds
        status=item.status.value,
        userid=owner.id if owner is not None else None,
        creator_id=creator.id if creator is not None else None,
        pending=dict(item.payload or {}),
        current=profiles.profile_out(db, creator, viewer) if creator is not None else None,
        created_at=item.created_at,
        reviewed_at=item.reviewed_at,
        reviewed_by=item.reviewed_by_user_id,
        review_note=item.review_note,
    )


def decide(db: Session, *, admin: User, item_id: int, approve: bool, note: str | None) -> ApprovalItem:
    item = moderation.claim_pending_item(db, item_id, CREATOR_KINDS)
    owner = owner_of(db, item)
    if owner is not None and owner.id == admin.id:
        raise BadRequest(OWN_PROFILE, fields={"id": OWN_PROFILE})
    if approve:
        if owner is None or owner.is_deleted:
            raise Conflict(GONE, fields={"id": GONE})
        editing.apply_changes(db, owner, owner.creator, dict(item.payload or {}))
    elif owner is not None:
        owner.editing_creator_pending = False
    note = note.strip() if note and note.strip() else None
    item.status = ApprovalStatus.approved if approve else ApprovalStatus.rejected
    item.reviewed_by_user_id, item.reviewed_at, item.review_note = admin.id, utcnow(), note
    db.flush()
    if owner is not None and not owner.is_deleted:
        _mail(db, item, owner, approve, note)
    moderation.announce_queue_change(db, kind=item.kind, subject=item.id, action="approved" if approve else "rejected")
    return item


def _mail(db: Session, item: ApprovalItem, owner: User, approved: bool, note: str | None) -> None:
    subject, body = MAILS[(item.kind, approved)]
    greeting = f"Hello {owner.first_name or owner.platform_username or ''},".replace(" ,", ",")
    parts = [greeting, "", body]
    if note:
        parts += ["", f"Note from the administrator: {note}"]
    queue_mail(
        db,
        to_address=owner.email,
        subject=subject,
        body_text="\n".join(parts),
        template=f"approval.{item.kind}.{'approved' if approved else 'rejected'}",
    )
