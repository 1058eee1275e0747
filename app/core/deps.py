"""Request dependencies shared by the routers, as `Annotated` aliases a route simply declares:
the database session, who is calling, the caller's language, the search index and the geocoder.

Who may call a route is declared on it (app/core/access.py): the caller types below that refuse
someone carry their rule (`CurrentUser` is a signed-in, active user: Access.USER; `AdminUser`,
`CreatorUser`, `CMUser`, `AccountOwner` and `Follower` narrow it; `GuestOrUser` takes a guest token
too), and a route anyone may call declares `dependencies=[Depends(public)]`. `Caller` (the decoded
token or None) and `OptionalUser` refuse nobody and declare nothing. A dependency only one router
uses stays in that router.
"""

from __future__ import annotations

from typing import Annotated, Any, NamedTuple

from fastapi import Depends, Header, Request
from fastapi.routing import APIRoute
from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app.core.access import ADMINS_CANNOT_FOLLOW, Access, declares, rule_of
from app.core.db import DirectRead, get_db, get_sessionmaker
from app.core.errors import Forbidden, Unauthorized
from app.core.locale import locale_of
from app.core.security import InvalidToken, TokenClaims, decode_token
from app.core.text_input import reject_nul_characters
from app.locations.ports import Geocoder
from app.locations.service import get_geocoder
from app.platform.service import RestrictAccessCache, restrict_access_cache
from app.search.registry import get_index
from app.users.models import SignedInUser, User
from indexer.port import SearchIndex

# scope="function": the request's transaction commits before the answer leaves, so a client that is
# told "done" can read it back at once (FastAPI's default scope ends a yield dependency only after the
# response is sent: a new account's next call could arrive before its row was committed).
DbSession = Annotated[Session, Depends(get_db, scope="function")]
# The configured search index (embedded or Elasticsearch) and geocoder (offline or hosted); tests
# swap them through dependency_overrides on get_index / get_geocoder.
Index = Annotated[SearchIndex, Depends(get_index)]
GeocoderDep = Annotated[Geocoder, Depends(get_geocoder)]


async def caller_locale(accept_language: str | None = Header(None)) -> str:
    """The language of texts built for the caller (created_ago). Async: a string split is cheaper
    in the event loop than a worker-thread trip."""
    return locale_of(accept_language)


Locale = Annotated[str, Depends(caller_locale)]


def _bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def caller_of(request: Request) -> TokenClaims | None:
    """The verified token of the caller, or None when there is none. A bad token is a 401 so the
    client renews it (spec §7) instead of silently browsing as nobody."""
    token = _bearer_token(request)
    if token is None:
        return None
    try:
        return decode_token(token)
    except InvalidToken as exc:
        raise Unauthorized("Invalid or expired token") from exc


async def get_caller(request: Request) -> TokenClaims | None:
    """`caller_of` as a dependency. Async on purpose: checking a signature is a few microseconds of
    CPU, cheaper in the event loop than a trip to a worker thread (what a sync dependency costs)."""
    return caller_of(request)


Caller = Annotated[TokenClaims | None, Depends(get_caller)]


@declares(Access.USER)
def get_current_user(caller: Caller, db: DbSession) -> User:
    if caller is None or caller.user_id is None:
        raise Unauthorized("Sign in required")
    user = db.get(User, caller.user_id)
    _refuse_stale_account(caller, user)
    assert user is not None
    return user


def _refuse_stale_account(caller: TokenClaims, account: User | _AccountSwitches | None) -> None:
    """401 for a token whose account is gone, deleted, drafted, blocked or signed out everywhere
    (a newer token_version): the one rule of get_current_user and signed_in_user."""
    if account is None or account.is_deleted:
        raise Unauthorized("User Deleted")
    if account.token_version != caller.ver or not account.is_active or not account.user_active:
        raise Unauthorized("This account is not active. Please write to support.")


_users = User.__table__.c
# Built once, of the table's columns: the account switches and what the feed reads, one row.
_SIGNED_IN = DirectRead(
    select(
        _users.id, _users.is_deleted, _users.token_version, _users.is_active, _users.user_active, _users.last_location
    ).where(_users.id == bindparam("user_id"))
)


class _AccountSwitches(NamedTuple):
    """The columns of _SIGNED_IN, read as `_refuse_stale_account` reads a User."""

    id: int
    is_deleted: bool
    token_version: int
    is_active: bool
    user_active: bool
    last_location: dict[str, Any] | None


def signed_in_user(caller: TokenClaims | None, db: Session) -> SignedInUser | None:
    """`optional_user` for the feed, the hottest call: the same checks and 401s, on one row of the
    columns they need, not a whole `User` (an ORM load of every column: 250 against 90 µs of CPU)."""
    if caller is None or caller.user_id is None:
        return None
    found = _SIGNED_IN.rows(db, {"user_id": caller.user_id})
    account = _AccountSwitches(*found[0]) if found else None
    _refuse_stale_account(caller, account)
    assert account is not None
    return SignedInUser(id=account.id, last_location=account.last_location)


CurrentUser = Annotated[User, Depends(get_current_user)]


def get_optional_user(caller: Caller, db: DbSession) -> User | None:
    return optional_user(caller, db)


def optional_user(caller: TokenClaims | None, db: Session) -> User | None:
    """The signed-in user behind a token, None for nobody or a guest; 401 for a stale account."""
    if caller is None or caller.user_id is None:
        return None
    return get_current_user(caller, db)


OptionalUser = Annotated[User | None, Depends(get_optional_user)]


@declares(Access.ADMIN)
def require_admin(user: CurrentUser) -> User:
    if not user.is_admin:
        raise Forbidden("Administrators only")
    return user


AdminUser = Annotated[User, Depends(require_admin)]


@declares(Access.CM)
def require_cm(user: CurrentUser) -> User:
    if not (user.is_admin or "CM" in (user.roles or [])):
        raise Forbidden("Content managers only")
    return user


CMUser = Annotated[User, Depends(require_cm)]


@declares(Access.CREATOR)
def require_creator(user: CurrentUser) -> User:
    """A creator is a user with an active creator profile (spec §6); admins act for creators too."""
    if user.is_admin:
        return user
    if user.creator is None or not user.creator.is_active:
        raise Forbidden("Creators only")
    return user


CreatorUser = Annotated[User, Depends(require_creator)]


@declares(Access.OWNER)
def require_account_owner(user: CurrentUser) -> User:
    """Any signed-in user at the door: the account the call names is known to the route's service,
    which refuses (403) everyone but its owner and admins (tours.owner_visible_to)."""
    return user


AccountOwner = Annotated[User, Depends(require_account_owner)]


@declares(Access.FOLLOWER)
def require_follower(user: CurrentUser) -> User:
    """Following creators is for users, never admins (spec §2, §6: admins see no follow buttons)."""
    if user.is_admin:
        raise Forbidden(ADMINS_CANNOT_FOLLOW)
    return user


Follower = Annotated[User, Depends(require_follower)]


@declares(Access.TOKEN)
def require_token(caller: Caller, db: DbSession) -> TokenClaims:
    """Any valid token: a guest's or an active user's (spec §7: guests are allowed on some calls)."""
    if caller is None:
        raise Unauthorized("A guest or user token is required")
    if caller.user_id is not None:
        get_current_user(caller, db)
    return caller


GuestOrUser = Annotated[TokenClaims, Depends(require_token)]


# Spec §2 route guard / §6 "Restricted access": with restrict_access on, signed-out callers reach only
# the routes declared Access.UNRESTRICTED (sign-in and sign-up, token renewal, password reset, what
# the guard itself reads; billing's calls when they come).
def _open_when_restricted(request: Request) -> bool:
    route = request.scope.get("route")
    return isinstance(route, APIRoute) and rule_of(route) is Access.UNRESTRICTED


async def guard_request(request: Request) -> None:
    """The router-wide dependency of every call (app/main.py): the restrict_access guard below, then no
    NUL in any text input (app/core/text_input.py), in that order. One dependency for the two: FastAPI
    solves each dependency of a request with its own bookkeeping, some 10 µs of the event loop each."""
    await enforce_restricted_access(request)
    await reject_nul_characters(request)


async def enforce_restricted_access(request: Request) -> None:
    """Router-wide dependency: while the platform config says restrict_access, refuses signed-out
    callers (no token, or a guest token) with 403 on every route not declared Access.UNRESTRICTED,
    since renewing a guest token cannot help. It reads the token only then, so an open platform's
    public calls never fail on a stale token. The setting is read through a short per-process cache
    (app/platform/service.py), not once per request.

    Async, and without a DbSession of its own: on an open platform with a fresh reading (nearly every
    request) it answers in the event loop, costing a request no session and no worker-thread trip;
    only a stale reading or a restricted platform takes one trip, with a short session of its own."""
    cache = restrict_access_cache(request.app.state)
    if cache.fresh_reading() is False or _open_when_restricted(request):
        return
    await run_in_threadpool(_enforce_with_database, request, cache)


def _enforce_with_database(request: Request, cache: RestrictAccessCache) -> None:
    with get_sessionmaker()() as db:
        if not cache.restrict_access(db):
            return
        caller = caller_of(request)
        if caller is None or caller.user_id is None:
            raise Forbidden("Access is restricted: please sign in")
        get_current_user(caller, db)
