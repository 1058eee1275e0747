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

from app.moderation import decisions, registry
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
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
    """PUT /v2/users/approval-items: the one decision path (app/moderation/decisions.py)."""
    return decisions.decide(
        session, admin=admin, item_id=item_id, approve=approve, note=note, kinds=approval_queue.USER_APPROVAL_KINDS
    )


def _account(session: Session, item: ApprovalItem) -> User | None:
    return session.get(User, item.entity_id) if item.entity_id is not None else None


def _withdrawn(session: Session, item: ApprovalItem) -> bool:
    user = _account(session, item)
    return user is None or user.is_deleted


def _apply(session: Session, item: ApprovalItem, _admin: User) -> None:
    user = _account(session, item)
    assert user is not None  # decisions.decide never applies a withdrawn item
    payload = item.payload or {}
    if item.kind == ApprovalKind.user_profile_edit:
        # Re-checks availability: someone may have taken the name meanwhile (409, item stays pending).
        users.apply_profile_edit(session, user, dict(payload.get("changes", {})))
    elif item.kind == ApprovalKind.profile_image:
        user.profile_img = payload.get("profile_img")
    # A new user is already using the account: approving only confirms it.


def _drop(session: Session, item: ApprovalItem, _admin: User) -> None:
    user = _account(session, item)
    assert user is not None
    payload = item.payload or {}
    if item.kind == ApprovalKind.user_profile_edit:
        user.profile_edit_pending = False
    elif item.kind == ApprovalKind.profile_image:
        images.discard_after_commit(session, str(payload.get("profile_img", "")))
    elif item.kind == ApprovalKind.new_user and user.is_active:
        users.draft_account(session, user)


def _mail(item: ApprovalItem, approved: bool) -> registry.Mail:
    decision = MAILS[(item.kind, approved)]
    return registry.Mail(decision.subject, decision.body)


def _summary(session: Session, item: ApprovalItem) -> registry.Summary:
    user = _account(session, item)
    payload = item.payload or {}
    proposed = dict(payload.get("changes", payload))
    name = " ".join(
        part
        for part in (
            proposed.get("first_name") or (user.first_name if user else None),
            proposed.get("last_name") or (user.last_name if user else None),
        )
        if part
    )
    picture = payload.get("profile_img") if item.kind == ApprovalKind.profile_image else None
    return registry.Summary(
        title=name or (user.email if user else None),
        username=proposed.get("platform_username") or (user.platform_username if user else None),
        preview_picture=picture or (user.profile_img if user else None),
    )


def _versions(session: Session, item: ApprovalItem) -> registry.Versions:
    user = _account(session, item)
    proposed, current = describe(item, user)
    if item.kind == ApprovalKind.new_user or user is None:
        return registry.Versions(current=None, proposed=proposed)
    return registry.Versions(current=current, proposed=proposed)


for _kind in approval_queue.USER_APPROVAL_KINDS:
    registry.register(
        _kind,
        registry.KindHandler(
            approve=_apply,
            reject=_drop,
            mail=_mail,
            summary=_summary,
            versions=_versions,
            owner=_account,
            withdrawn=_withdrawn,
            own_message=OWN_ACCOUNT,
        ),
    )
