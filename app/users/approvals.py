"""The admin's decisions on the users domain's approval items (GET and PUT /v2/users/approval-items):
new users, user profile edits and profile images (spec §4 "Pending approval items").

Approving applies the pending change, rejecting drops it; either way the user hears by mail and the
admins' open pages hear through the moderation-queue push.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.db import utcnow
from app.core.errors import BadRequest
from app.moderation import service as moderation
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.notifications.mailer import queue_mail
from app.users import approval_queue, images
from app.users import service as users
from app.users.models import User

OWN_ACCOUNT = "You cannot decide on your own account"


@dataclass(frozen=True)
class Decision:
    subject: str
    body: str


# What the user reads, per kind and outcome; the admin's note follows the body when there is one.
MAILS: dict[tuple[ApprovalKind, bool], Decision] = {
    (ApprovalKind.new_user, True): Decision(
        "Your TourAtlas account is approved", "Welcome to TourAtlas: an administrator has approved your account."
    ),
    (ApprovalKind.new_user, False): Decision(
        "Your TourAtlas account was not approved",
        "An administrator has not approved your account, so it is now inactive. Please write to support.",
    ),
    (ApprovalKind.user_profile_edit, True): Decision(
        "Your profile changes are approved", "An administrator has approved your profile changes; they are live now."
    ),
    (ApprovalKind.user_profile_edit, False): Decision(
        "Your profile changes were not approved",
        "An administrator has not approved your profile changes; your profile stays as it was.",
    ),
    (ApprovalKind.profile_image, True): Decision(
        "Your profile image is approved", "An administrator has approved your new profile image."
    ),
    (ApprovalKind.profile_image, False): Decision(
        "Your profile image was not approved",
        "An administrator has not approved your new profile image; your profile keeps the previous one.",
    ),
}


# ----------------------------------------------------------------------------------------- reading


def list_items(
    session: Session, *, kind: str | None, status: str, limit: int, offset: int
) -> tuple[list[ApprovalItem], dict[int, User], int]:
    """One page of the users' items, oldest first (the queue is worked from its head), with the
    accounts they concern and the total."""
    kinds = [ApprovalKind(kind)] if kind else list(approval_queue.USER_APPROVAL_KINDS)
    statement = select(ApprovalItem).where(ApprovalItem.kind.in_(kinds))
    if status != "all":
        statement = statement.where(ApprovalItem.status == ApprovalStatus(status))
    total = session.scalar(select(func.count()).select_from(statement.subquery())) or 0
    page = list(
        session.scalars(statement.order_by(ApprovalItem.created_at, ApprovalItem.id).limit(limit).offset(offset))
    )
    user_ids = {item.entity_id for item in page if item.entity_id is not None}
    accounts = {user.id: user for user in session.scalars(select(User).where(User.id.in_(user_ids)))}
    return page, accounts, total


def describe(item: ApprovalItem, user: User | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """(pending, current): the proposed values and the account's values of the same fields."""
    payload = item.payload or {}
    pending: dict[str, Any] = dict(payload.get("changes", payload))
    current = {name: _current_value(user, name) for name in pending} if user is not None else {}
    return pending, current


def _current_value(user: User, name: str) -> Any:
    value = getattr(user, name, None)
    return str(value) if name == "auth_system" and value is not None else value


# ---------------------------------------------------------------------------------------- deciding


def decide(session: Session, *, admin: User, item_id: int, approve: bool, note: str | None) -> ApprovalItem:
    item = moderation.claim_pending_item(session, item_id, approval_queue.USER_APPROVAL_KINDS)
    user = session.get(User, item.entity_id) if item.entity_id is not None else None
    if user is not None and user.id == admin.id:
        raise BadRequest(OWN_ACCOUNT, fields={"id": OWN_ACCOUNT})
    usable = user is not None and not user.is_deleted
    if usable and user is not None:
        (_apply if approve else _drop)(session, item, user)
        _mail(session, item, user, approve, note)
    item.status = ApprovalStatus.approved if approve else ApprovalStatus.rejected
    item.reviewed_by_user_id = admin.id
    item.reviewed_at = utcnow()
    item.review_note = note.strip() if note and note.strip() else None
    approval_queue.announce(session, item, "approved" if approve else "rejected")
    return item


def _apply(session: Session, item: ApprovalItem, user: User) -> None:
    payload = item.payload or {}
    if item.kind == ApprovalKind.user_profile_edit:
        # Re-checks availability: someone may have taken the name meanwhile (409, item stays pending).
        users.apply_profile_edit(session, user, dict(payload.get("changes", {})))
    elif item.kind == ApprovalKind.profile_image:
        user.profile_img = payload.get("profile_img")
    # A new user is already using the account: approving only confirms it.


def _drop(session: Session, item: ApprovalItem, user: User) -> None:
    payload = item.payload or {}
    if item.kind == ApprovalKind.user_profile_edit:
        user.profile_edit_pending = False
    elif item.kind == ApprovalKind.profile_image:
        images.discard_after_commit(session, str(payload.get("profile_img", "")))
    elif item.kind == ApprovalKind.new_user and user.is_active:
        users.draft_account(session, user)


def _mail(session: Session, item: ApprovalItem, user: User, approved: bool, note: str | None) -> None:
    decision = MAILS[(item.kind, approved)]
    greeting = f"Hello {user.first_name or user.platform_username or ''},".replace(" ,", ",")
    parts = [greeting, "", decision.body]
    if note and note.strip():
        parts += ["", f"Note from the administrator: {note.strip()}"]
    queue_mail(
        session,
        to_address=user.email,
        subject=decision.subject,
        body_text="\n".join(parts),
        template=f"approval.{item.kind}.{'approved' if approved else 'rejected'}",
    )
