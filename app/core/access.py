"""Who may call a route (spec §6), declared once on the route, readable from it at run time.

Every route states one rule through the dependency it declares:

- a route that needs the caller declares the typed caller it needs (app/core/deps.py):
  `user: CurrentUser` (Access.USER), `AdminUser`, `CMUser`, `CreatorUser`, `AccountOwner`,
  `Follower`, `GuestOrUser` (Access.TOKEN); each of those dependencies carries its rule;
- a route anyone may call says so: `dependencies=[Depends(public)]`, or, for the few calls a
  signed-out visitor must reach while restrict_access is on (sign-in, sign-up, tokens, password
  reset, the config the route guard reads), `dependencies=[Depends(unrestricted)]`. Readers of an
  optional caller (`OptionalUser`, `Caller`) refuse nobody, so they declare nothing.

`rule_of(route)` reads the rule back: the restrict_access guard (deps.enforce_restricted_access)
exempts UNRESTRICTED routes, app/core/openapi.py documents each operation's security and error
answers from it, and tests/api/test_access.py calls every operation as every kind of caller and
compares the outcome with it. A route without a rule fails that test.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TypeVar

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

ACCESS_ATTRIBUTE = "__touratlas_access__"
# Access.FOLLOWER's refusal (deps.Follower), and the creators service's own.
ADMINS_CANNOT_FOLLOW = "Administrators cannot follow creators"


class Access(StrEnum):
    """The rules of spec §6, by who passes. The value is the operation's `x-access` in the OpenAPI
    document."""

    # Anyone, with or without a token; while restrict_access is on, signed-in users only.
    PUBLIC = "public"
    # Anyone, even while restrict_access is on: the calls that let a visitor in.
    UNRESTRICTED = "unrestricted"
    # A guest token or a user's.
    TOKEN = "token"
    # A signed-in, active user.
    USER = "user"
    # A user with an active creator profile, or an admin acting for creators.
    CREATOR = "creator"
    # A content manager or an admin.
    CM = "cm"
    ADMIN = "admin"
    # A signed-in user, about an account the call names (path or body): its owner, or an admin. The
    # dependency lets any user in; the service refuses the others with 403 (it knows the account).
    OWNER = "owner"
    # Signed-in users but never admins (spec §2, §6: admins see no follow buttons).
    FOLLOWER = "follower"

    @property
    def needs_token(self) -> bool:
        return self not in (Access.PUBLIC, Access.UNRESTRICTED)

    @property
    def narrower_than_user(self) -> bool:
        """Signed-in callers can be refused too (403), not only signed-out ones."""
        return self in (Access.CREATOR, Access.CM, Access.ADMIN, Access.OWNER, Access.FOLLOWER)


_Call = TypeVar("_Call", bound=Callable[..., object])


def declares(rule: Access) -> Callable[[_Call], _Call]:
    """Marks a dependency as the declaration of its route's rule (it must enforce that rule)."""

    def mark(call: _Call) -> _Call:
        setattr(call, ACCESS_ATTRIBUTE, rule)
        return call

    return mark


@declares(Access.PUBLIC)
async def public() -> None:
    """`dependencies=[Depends(public)]`: anyone may call the route (restrict_access still applies).
    Async and empty: a declaration that costs the request next to nothing."""


@declares(Access.UNRESTRICTED)
async def unrestricted() -> None:
    """`dependencies=[Depends(unrestricted)]`: anyone may call the route, even while
    restrict_access is on."""


class AccessDeclarationError(LookupError):
    pass


def declared_rules(dependant: Dependant) -> list[Access]:
    """The rules the route's own dependencies declare (its parameters and `dependencies=`); what
    those depend on in turn is theirs, not the route's (AdminUser depends on CurrentUser)."""
    rules = (getattr(sub.call, ACCESS_ATTRIBUTE, None) for sub in dependant.dependencies)
    return [rule for rule in rules if isinstance(rule, Access)]


def rule_of(route: APIRoute) -> Access | None:
    """The route's declared rule, None when it declares none. Raises when it declares several:
    one route, one rule. Not cached (routes are unhashable): a glance at a handful of dependencies,
    and the request path asks only while restrict_access is on."""
    rules = declared_rules(route.dependant)
    if len(set(rules)) > 1:
        names = ", ".join(sorted(rule.value for rule in set(rules)))
        raise AccessDeclarationError(f"{route.path} declares several access rules ({names}): keep one")
    return rules[0] if rules else None


HOW_TO_DECLARE = (
    "declare who may call it: a typed caller from app/core/deps.py (CurrentUser, CreatorUser, CMUser, "
    "AdminUser, AccountOwner, Follower, GuestOrUser), or `dependencies=[Depends(public)]` / "
    "`dependencies=[Depends(unrestricted)]` from app/core/access.py for a call anyone may make"
)
