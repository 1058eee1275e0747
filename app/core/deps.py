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
from app.platform.service import restrict_access_cache
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


def require_creator(user: CurrentUser) -> User:
    """A creator is a user with an active creator profile (spec §6); admins act for creators too."""
    if user.is_admin:
        return user
    if user.creator is None or not user.creator.is_active:
        raise Forbidden("Creators only")
    return user


CreatorUser = Annotated[User, Depends(require_creator)]


def require_token(caller: Caller, db: DbSession) -> TokenClaims:
    """Any valid token: a guest's or an active user's (spec §7: guests are allowed on some calls)."""
    if caller is None:
        raise Unauthorized("A guest or user token is required")
    if caller.user_id is not None:
        get_current_user(caller, db)
    return caller


GuestOrUser = Annotated[TokenClaims, Depends(require_token)]


# Spec §2 route guard / §6 "Restricted access": with restrict_access on, signed-out callers reach
# only sign-in and sign-up, token renewal, password reset, billing and what the guard itself reads.
OPEN_WHEN_RESTRICTED: frozenset[tuple[str, str]] = frozenset(
    {
        ("POST", "/v2/users"),
        ("POST", "/v2/users/sign-in"),
        ("POST", "/v2/users/sign-up"),
        ("POST", "/v2/users/signup-oneclick"),
        ("POST", "/v2/users/guest-token"),
        ("POST", "/v2/users/update-token"),
        ("POST", "/v2/users/request_reset_password"),
        ("GET", "/v2/users/reset-pass-token"),
        ("POST", "/v2/users/change-password"),
        ("GET", "/v2/users/users-info-check"),
        ("GET", "/v2/users/get_existed_usernames_emails"),
        ("GET", "/v2/config/"),
        ("GET", "/v2/config/app-version"),
    }
)
OPEN_PREFIXES_WHEN_RESTRICTED = ("/v2/billing/",)


def _open_when_restricted(method: str, path: str) -> bool:
    if path.startswith(OPEN_PREFIXES_WHEN_RESTRICTED) or method == "OPTIONS":
        return True
    return (method, path) in OPEN_WHEN_RESTRICTED or (method, path.rstrip("/")) in OPEN_WHEN_RESTRICTED


def enforce_restricted_access(request: Request, db: DbSession) -> None:
    """Router-wide dependency: while the platform config says restrict_access, refuses signed-out
    callers (no token, or a guest token) with 403, since renewing a guest token cannot help. It reads
    the token only then, so an open platform's public calls never fail on a stale token. The setting
    is read through a short per-process cache (app/platform/service.py), not once per request."""
    if _open_when_restricted(request.method, request.url.path):
        return
    if not restrict_access_cache(request.app.state).restrict_access(db):
        return
    caller = get_caller(request)
    if caller is None or caller.user_id is None:
        raise Forbidden("Access is restricted: please sign in")
    get_current_user(caller, db)
