"""Filing the users domain's approval items (spec §4 "Pending approval items": new user, user profile
edit, profile images) and telling the admins' open pages about every change to the queue.

Kept apart from the decisions (app/users/approvals.py) because the services that file items are
the ones the decisions call back into.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.db import utcnow
from app.moderation import service as moderation
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.users.models import User

USER_APPROVAL_KINDS = (ApprovalKind.new_user, ApprovalKind.user_profile_edit, ApprovalKind.profile_image)
SUPERSEDED = "Replaced by a newer submission"


def announce(session: Session, item: ApprovalItem, action: str) -> None:
    """Push the queue change to the admins once this transaction commits."""
    session.flush()
    moderation.announce_queue_change(session, kind=item.kind, subject=item.id, action=action)


def file_item(session: Session, *, kind: ApprovalKind, user: User, payload: dict[str, Any]) -> ApprovalItem:
    """Queue one item about this account. An older pending item of the same kind (a second new
    image before the first was reviewed) is superseded, so an admin never approves a stale one."""
    now = utcnow()
    for older in session.scalars(
        select(ApprovalItem).where(
            ApprovalItem.kind == kind,
            ApprovalItem.entity_type == "user",
            ApprovalItem.entity_id == user.id,
            ApprovalItem.status == ApprovalStatus.pending,
        )
    ):
        older.status, older.review_note, older.reviewed_at = ApprovalStatus.rejected, SUPERSEDED, now
    item = ApprovalItem(
        kind=kind,
        status=ApprovalStatus.pending,
        entity_type="user",
        entity_id=user.id,
        payload=payload,
        submitted_by_user_id=user.id,
        created_at=now,
    )
    session.add(item)
    announce(session, item, "added")
    return item


def file_new_user(session: Session, user: User) -> ApprovalItem:
    """Every new account is reviewed after the fact: it works at once (sign-up answers with a
    token, spec §4), and an admin who rejects it drafts it."""
    return file_item(
        session,
        kind=ApprovalKind.new_user,
        user=user,
        payload={
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "platform_username": user.platform_username,
            "auth_system": str(user.auth_system),
        },
    )
