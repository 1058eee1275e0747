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

from app.creators import editing, profiles
from app.creators.models import Creator
from app.creators.schemas import CreatorApprovalItemOut
from app.moderation import decisions, registry
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.users.models import User

CREATOR_KINDS = (ApprovalKind.new_creator_profile, ApprovalKind.creator_profile_edit)
OWN_PROFILE = "You cannot decide on your own creator profile"

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
    """PUT /v2/creators/approval-items: the one decision path (app/moderation/decisions.py)."""
    return decisions.decide(db, admin=admin, item_id=item_id, approve=approve, note=note, kinds=CREATOR_KINDS)


def _withdrawn(db: Session, item: ApprovalItem) -> bool:
    owner = owner_of(db, item)
    return owner is None or owner.is_deleted


def _apply(db: Session, item: ApprovalItem, _admin: User) -> None:
    owner = owner_of(db, item)
    assert owner is not None  # decisions.decide never applies a withdrawn item
    # Names are checked again: one taken since the payload was sent is a 409 and the item stays pending.
    editing.apply_changes(db, owner, owner.creator, dict(item.payload or {}))


def _drop(db: Session, item: ApprovalItem, _admin: User) -> None:
    owner = owner_of(db, item)
    if owner is not None:
        owner.editing_creator_pending = False


def _mail(item: ApprovalItem, approved: bool) -> registry.Mail:
    subject, body = MAILS[(item.kind, approved)]
    return registry.Mail(subject, body)


def _summary(db: Session, item: ApprovalItem) -> registry.Summary:
    owner = owner_of(db, item)
    creator = owner.creator if owner is not None else None
    payload = item.payload or {}
    name = payload.get("creator_name") or (creator.creator_name if creator else None)
    return registry.Summary(
        title=name,
        username=payload.get("user_name") or (owner.platform_username if owner else None),
        preview_picture=payload.get("logo") or (creator.logo if creator else None),
        link=payload.get("website") or (creator.website if creator else None),
    )


def _versions(db: Session, item: ApprovalItem) -> registry.Versions:
    owner = owner_of(db, item)
    creator = owner.creator if owner is not None else None
    current = profiles.profile_out(db, creator, owner).model_dump(mode="json") if creator is not None else None
    return registry.Versions(current=current, proposed=dict(item.payload or {}))


for _kind in CREATOR_KINDS:
    registry.register(
        _kind,
        registry.KindHandler(
            approve=_apply,
            reject=_drop,
            mail=_mail,
            summary=_summary,
            versions=_versions,
            owner=owner_of,
            withdrawn=_withdrawn,
            own_message=OWN_PROFILE,
        ),
    )
