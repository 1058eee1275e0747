"""Request dependencies: the database session and who is calling.

A route that declares none of the caller types is visibly public. `Caller` is the decoded token or
None; `CurrentUser` is a signed-in, active user; `AdminUser`, `CreatorUser` and `CMUser` narrow it.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session

from app.core.db import get_db
from app.core.errors import Forbidden, Unauthorized
from app.core.security import InvalidToken, TokenClaims, decode_token
from app.users.models import User

DbSession = Annotated[Session, Depends(get_db)]


def _bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def get_caller(request: Request) -> TokenClaims | None:
    """The verified token of the caller, or None when there is none. A bad token is a 401 so the
    client renews it (spec §7) instead of silently browsing as nobody."""
    token = _bearer_token(request)
    if token is None:
        return None
    try:
        return decode_token(token)
    except InvalidToken as exc:
        raise Unauthorized("Invalid or expired token") from exc


Caller = Annotated[TokenClaims | None, Depends(get_caller)]


def get_current_user(caller: Caller, db: DbSession) -> User:
    if caller is None or caller.user_id is None:
        raise Unauthorized("Sign in required")
    user = db.get(User, caller.user_id)
    if user is None or user.is_deleted:
        raise Unauthorized("User Deleted")
    if user.token_version != caller.ver or not user.is_active or not user.user_active:
        raise Unauthorized("This account is not active. Please write to support.")
    return user


CurrentUser = Annotated[User, Depends(get_current_user)]


def get_optional_user(caller: Caller, db: DbSession) -> User | None:
    if caller is None or caller.user_id is None:
        return None
    return get_current_user(caller, db)


OptionalUser = Annotated[User | None, Depends(get_optional_user)]


def require_admin(user: CurrentUser) -> User:
    if not user.is_admin:
        raise Forbidden("Administrators only")
    return user


AdminUser = Annotated[User, Depends(require_admin)]


def require_cm(user: CurrentUser) -> User:
    if not (user.is_admin or "CM" in (user.roles or [])):
        raise Forbidden("Content managers only")
    return user


CMUser = Annotated[User, Depends(require_cm)]
