"""The account that owns what a call adds or manages (tours, ads): one's own, or, for staff, the
account a form names by id or platform username (spec §5 "select user"). Only reads: the domains
refuse or use the account they get."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.errors import BadRequest, Forbidden, field_error
from app.users.models import User
from app.users.service import USER_NOT_FOUND, get_user

SELECT_USER = "select user"
ACCOUNT_INACTIVE = "This account is not active"


def managed_owner(session: Session, *, viewer: User, userid: int, allowed: bool, not_yours: str) -> User:
    """The account whose items a call manages, when the domain's rule `allowed` it (else 403 `not_yours`)."""
    if not allowed:
        raise Forbidden(not_yours)
    return viewer if userid == viewer.id else get_user(session, userid)


def named_owner(session: Session, *, userid: int | None, platform_username: str | None) -> User:
    """POST on-behalf-of: the account named by id or platform username."""
    if userid is not None:
        return get_user(session, userid)
    name = (platform_username or "").strip().lower()
    if not name:
        raise field_error("platform_username", SELECT_USER)
    user = session.scalar(select(User).where(func.lower(User.platform_username) == name))
    if user is None or user.is_deleted:
        raise BadRequest(USER_NOT_FOUND, fields={"platform_username": SELECT_USER})
    return user


def owner_for_add(
    session: Session, *, editor: User, userid: int | None, may_add_for_others: bool, refusal: str
) -> User:
    """The owner of a new item: the editor, or the account named when the editor may add for others."""
    if userid is None or userid == editor.id:
        return editor
    if not may_add_for_others:
        raise Forbidden(refusal)
    return get_user(session, userid)


def check_active(owner: User) -> None:
    """Nothing is added for a deleted or inactive account."""
    if owner.is_deleted or not owner.is_active or not owner.user_active:
        raise BadRequest(ACCOUNT_INACTIVE, fields={"userid": ACCOUNT_INACTIVE})
