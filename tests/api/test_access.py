"""Spec §6 on the server, generated from the routes: every operation of the API, called as every kind
of caller, is allowed or refused as its route's declared rule (app/core/access.py) says, with the
platform open and with restrict_access on.

A new route needs only its declaration: `test_every_route_declares_who_may_call_it` names a route
without one and says what to add. Each operation is called with its path ids taken from the World
(PATH_VALUES), and with nothing else unless REQUESTS holds a request for it: a refusal at the door
comes before any validation of the input (`test_refusal_comes_before_validation`), so a bare call
checks it. Add a REQUESTS entry when a bare call cannot reach the check (the account an OWNER call is
about named in the body), or to let allowed callers reach the handler rather than stop at a 400.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

import pytest
from fastapi import Depends, FastAPI
from fastapi.routing import APIRoute, iter_route_contexts
from fastapi.testclient import TestClient
from PIL import Image
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.core.access import HOW_TO_DECLARE, Access, AccessDeclarationError, public, rule_of
from app.core.deps import AdminUser, CreatorUser
from app.core.errors import install_error_handlers
from app.core.security import hash_password, issue_guest_token
from app.main import add_api_routes
from app.platform.models import PlatformConfig
from tests import factories

ROLES = ("anonymous", "guest", "user", "creator", "cm", "admin")
SIGNED_IN = frozenset({"user", "creator", "cm", "admin"})

# Who of the World passes each rule. OWNER calls are about the "user" account (PATH_VALUES, REQUESTS).
ALLOWED: dict[Access, frozenset[str]] = {
    Access.PUBLIC: frozenset(ROLES),
    Access.UNRESTRICTED: frozenset(ROLES),
    Access.TOKEN: frozenset(ROLES) - {"anonymous"},
    Access.USER: SIGNED_IN,
    Access.CREATOR: frozenset({"creator", "admin"}),
    Access.CM: frozenset({"cm", "admin"}),
    Access.ADMIN: frozenset({"admin"}),
    Access.OWNER: frozenset({"user", "admin"}),
    Access.FOLLOWER: SIGNED_IN - {"admin"},
}


class Operation(NamedTuple):
    method: str
    path: str
    rule: Access | None
    problem: str | None  # why the rule cannot be read (several rules)

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


def _operations(app: FastAPI) -> list[Operation]:
    found = []
    for context in iter_route_contexts(app.routes):
        route = context.original_route
        if not isinstance(route, APIRoute):
            continue
        try:
            rule, problem = rule_of(route), None
        except AccessDeclarationError as exc:
            rule, problem = None, str(exc)
        for method in sorted(context.methods or ()):
            found.append(Operation(method, context.path_format, rule, problem))
    return found


@lru_cache
def api_operations() -> tuple[Operation, ...]:
    """The API's operations, from a bare app with the same routes as create_app's (which needs the
    test settings, unknown while tests are collected)."""
    app = FastAPI()
    add_api_routes(app)
    return tuple(sorted(_operations(app)))


@dataclass
class World:
    ids: dict[str, int]
    headers: dict[str, dict[str, str]]
    user_token: str


Request = Callable[[World], dict[str, Any]]


def json(body: dict[str, Any]) -> Request:
    return lambda _world: {"json": body}


def query(params: dict[str, Any]) -> Request:
    return lambda _world: {"params": params}


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(buffer, format="PNG")
    return buffer.getvalue()


def image(name: str) -> Request:
    return lambda _world: {"files": {"image": (name, _png(), "image/png")}}


SIGN_UP = {
    "email": "new@example.com",
    "password": "Secret1!",
    "first_name": "New",
    "last_name": "Person",
    "platform_username": "new.person",
}
NO_TOUR = "0" * 32

# Path parameters by name: "user" is the account OWNER calls are about; tour 0…0 does not exist.
PATH_VALUES: dict[str, Callable[[World], str]] = {
    "tour_id": lambda _world: NO_TOUR,
    "id": lambda _world: NO_TOUR,
    "user_id": lambda world: str(world.ids["user"]),
    "userid": lambda world: str(world.ids["user"]),
    "creatorName": lambda _world: "nobody",
    "ad_id": lambda _world: "987654",
    # A map tile (the tours' and the basemap's): zoom 2, column 1, row 1.
    "z": lambda _world: "2",
    "x": lambda _world: "1",
    "y": lambda _world: "1",
}

# Requests that reach the handler, where a bare call would stop at a 400 (or, for OWNER calls that
# name the account in the body, before the owner check). Ids 987654 and tour 0…0 name nothing: a
# 400 or 404 for those allowed.
REQUESTS: dict[tuple[str, str], Request] = {
    ("PUT", "/v2/config/"): json({"images_approval": False}),
    ("POST", "/v2/categories/document-tags"): json({"documents": ["Park", "A walk in the forest"]}),
    # Classifications (admins): names that exist nowhere, ids 987654 (a 404 for those allowed).
    ("POST", "/v2/categories/"): json({"name": "Matrix Category"}),
    ("PUT", "/v2/categories/"): json({"id": 987654, "name": "Matrix Category"}),
    ("POST", "/v2/categories/subcategories"): lambda world: {
        "json": {"category_id": world.ids["category"], "name": "Matrix Sub"}
    },
    ("PUT", "/v2/categories/subcategories"): json({"id": 987654, "name": "Matrix Sub"}),
    ("POST", "/v2/categories/admin-subcategories"): lambda world: {
        "json": {"category_id": world.ids["category"], "name": "Matrix Sub"}
    },
    ("PUT", "/v2/categories/admin-subcategories"): json({"id": 987654, "name": "Matrix Sub"}),
    ("POST", "/v2/categories/admin-media-types"): json({"name": "Matrix Media"}),
    ("PUT", "/v2/categories/admin-media-types"): json({"id": 987654, "name": "Matrix Media"}),
    ("POST", "/v2/categories/admin-capture-devices"): json({"camera_name": "Matrix Camera"}),
    ("PUT", "/v2/categories/admin-capture-devices"): json({"camera_id": 987654, "camera_name": "Matrix Camera"}),
    ("POST", "/v2/categories/admin-tags"): lambda world: {
        "json": {"name": "Matrix Tag", "topic_id": world.ids["category"]}
    },
    ("PUT", "/v2/categories/admin-tags"): json({"id": 987654, "name": "Matrix Tag"}),
    ("PUT", "/v2/categories/approval-items"): json({"id": 987654, "action": "approve"}),
    ("GET", "/v2/categories/category-icon"): query({"type": "cloud", "image": "missing.png"}),
    ("POST", "/v2/categories/category-icon"): image("icon.png"),
    ("POST", "/v2/categories/admin-batch-upload"): lambda _world: {
        "files": {"file": ("rows.csv", b"kind,name\ncategory,Matrix Batch\n", "text/csv")},
        "data": {"dry_run": "true"},
    },
    ("POST", "/v2/languages/language-translations"): json(
        {"kind": "category", "id": 987654, "language": "ru", "name": "Матрица"}
    ),
    # The link lookup refuses port 9 of loopback before any connection: a 400 for those allowed.
    ("GET", "/v2/virtualtours/discover"): query({"url": "http://127.0.0.1:9/"}),
    ("GET", "/v2/user-recomendations/search"): query({"searchData": "park"}),
    ("POST", "/v2/user-recomendations/media-tags"): json({"documents": [["Park", "A walk"]]}),
    ("POST", "/v2/locations/map-area"): json({}),
    ("GET", "/v2/locations/search-locations"): query({"search": "Paris"}),
    ("GET", "/v2/locations/user-location-by-coords"): query({"coordinates": "2.35,48.85"}),
    ("POST", "/v2/users/sign-in"): json({"email": "nobody@example.com", "password": "Secret1!"}),
    ("POST", "/v2/users/sign-up"): json(SIGN_UP),
    ("POST", "/v2/users"): json(SIGN_UP),
    ("POST", "/v2/users/signup-oneclick"): json({"auth_system": "google", "provider_token": "x"}),
    ("POST", "/v2/users/guest-token"): json({"guest_id": "matrix"}),
    # The prior token in the body is the credential, whoever calls.
    ("POST", "/v2/users/update-token"): lambda world: {
        "json": {"userid": world.ids["user"], "prior_token": world.user_token}
    },
    ("POST", "/v2/users/request_reset_password"): json({"email": "nobody@example.com"}),
    ("GET", "/v2/users/reset-pass-token"): query({"token": "x"}),
    ("POST", "/v2/users/change-password"): json({"token": "x", "password": "Secret1!", "repeat_password": "Secret1!"}),
    ("POST", "/v2/sessions/session-activities"): json({"activity_code": "Follow"}),
    ("PUT", "/v2/users/user-params"): json({"params": {"first_name": "Renamed"}}),
    ("GET", "/v2/users/users-info-check"): query({"platform_username": "someone.new"}),
    ("GET", "/v2/users/get_existed_usernames_emails"): query({"username": "someone"}),
    ("GET", "/v2/users/profile-image"): query({"image": "missing.png"}),
    ("POST", "/v2/users/profile-image"): image("me.png"),
    ("PUT", "/v2/users/user-interests"): lambda world: {
        "json": {"interests": [{"category_id": world.ids["category"]}]}
    },
    ("POST", "/v2/users/user-guide-steps"): json({"guide_steps": {"completeGuide": True}}),
    ("GET", "/v2/users/search-users"): query({"searchPattern": "tester"}),
    ("POST", "/v2/users/admin-user-activate-deactivate"): lambda world: {
        "json": {"userid": world.ids["drafted"], "is_active": True}
    },
    ("GET", "/v2/users/get-moderation-users"): query({"state": "drafted"}),
    ("PUT", "/v2/users/approval-items"): json({"id": 0, "action": "approve"}),
    ("POST", "/v2/notifications/user-message"): lambda world: {
        "json": {"userid": world.ids["user"], "title": "Hello", "message": "A word from the team"}
    },
    ("PUT", "/v2/notifications/read"): json({"ids": None}),
    ("PUT", "/v2/pending/approval-items"): json({"ids": [987654], "decision": "approve"}),
    ("GET", "/pending-api/v1/pending/approval-item"): query({"id": 987654}),
    ("GET", "/v2/users/admin-user-settings"): lambda world: {"params": {"userid": world.ids["user"]}},
    ("POST", "/v2/users/admin-user-settings"): lambda world: {
        "json": {"userid": world.ids["drafted"], "trusted": True}
    },
    ("POST", "/v2/users/beta-tester"): json(
        {
            "creates_tours": "yes",
            "industry": "Real estate",
            "tour_count": "1-10",
            "hosting_platforms": "Own site",
            "use_case": "Showing homes",
            "country": "Portugal",
            "heard_from": "A friend",
            "feedback_frequency": "Weekly",
        }
    ),
    ("PUT", "/v2/users/vt-transfer"): lambda world: {
        "json": {"from_userid": world.ids["drafted"], "to_userid": world.ids["user"]}
    },
    ("GET", "/v2/users/send-mail"): lambda world: {
        "params": {"userid": world.ids["user"], "subject": "Hello", "text": "A word from us"}
    },
    ("POST", "/v2/users/bug-image"): image("bug.png"),
    ("GET", "/v2/creators/is-pending-creator"): lambda world: {"params": {"userid": world.ids["user"]}},
    # No logo was uploaded: a 400 for those allowed, after the door.
    ("POST", "/v2/creators/"): json({"creator_name": "Matrix Studio", "area_served": ["Oslo"]}),
    ("PUT", "/v2/creators/"): json({"creator_name": "Matrix Studio", "area_served": ["Oslo"]}),
    ("POST", "/v2/creators/creator-logo"): image("logo.png"),
    ("POST", "/v2/creators/creator-message"): json(
        {"creator_id": 987654, "name": "Ann", "email": "ann@example.com", "message": "Hello there, a long message"}
    ),
    ("POST", "/v2/creators/admin-creator-activate-deactivate"): json({"creator_id": 987654, "is_active": True}),
    ("PUT", "/v2/creators/approval-items"): json({"id": 987654, "action": "approve"}),
    ("POST", "/v2/virtualtours/"): json({"title": "A tour"}),
    ("POST", "/v2/virtualtours/on-behalf-of"): json({"title": "A tour"}),
    ("PUT", "/v2/virtualtours/"): json({"guid": NO_TOUR}),
    ("POST", "/v2/virtualtours/preview-image"): image("preview.png"),
    ("DELETE", "/v2/virtualtours/pending"): json({"tours": [NO_TOUR]}),
    ("POST", "/v2/virtualtours/pending/remove"): json({"tours": [NO_TOUR]}),
    ("PUT", "/v2/virtualtours/approval-items"): json({"ids": [0], "action": "approve"}),
    ("GET", "/v2/virtualtours/link_exists"): query({"link": "https://kuula.co/share/Ab123"}),
    ("GET", "/v2/virtualtours/get-by-link"): query({"link": "https://kuula.co/share/Ab123"}),
    # OWNER, the account in the body: needed for the owner check to refuse the creator and the CM.
    ("DELETE", "/v2/virtualtours/user-media"): lambda world: {"json": {"userid": world.ids["user"]}},
    ("POST", "/v2/virtualtours/featured-tours"): json({"tours": []}),
    ("POST", "/v2/virtualtours/send-tour-today"): json({"guid": NO_TOUR, "consent": True}),
    ("POST", "/v2/virtualtours/ranks"): json({"guid": NO_TOUR, "rank_source_id": 987654, "value": 1}),
    ("PUT", "/v2/virtualtours/ranks"): json({"id": 987654, "value": 1}),
    ("DELETE", "/v2/virtualtours/ranks"): json({"id": 987654}),
    ("POST", "/v2/virtualtours/ranks/bulk"): json({"ranks": [{"guid": NO_TOUR, "rank_source_id": 987654, "value": 1}]}),
    ("PUT", "/v2/virtualtours/{id}"): json({"task": "activate"}),
    ("POST", "/v2/virtualtours/post_view"): json({"id": NO_TOUR}),
    ("POST", "/v2/virtualtours/post_shares"): json({"id": NO_TOUR}),
    ("POST", "/v2/virtualtours/post_likes"): json({"id": NO_TOUR, "likes": 0, "isLike": True}),
    ("POST", "/v2/virtualtours/post_saves"): json({"id": NO_TOUR, "saves": 0, "isSave": True}),
    ("POST", "/v2/creators/followers"): json({"creator_id": 987654}),
    ("DELETE", "/v2/creators/followers"): query({"creator_id": 987654}),
    ("GET", "/v2/creators/is-follow"): query({"creator_id": 987654}),
    ("POST", "/v2/creators/post_shares"): json({"id": 987654}),
    ("POST", "/v2/creators/ranks"): json({"creator_id": 987654, "rank_source_id": 987654, "value": 1}),
    ("PUT", "/v2/creators/ranks"): json({"id": 987654, "value": 1}),
    ("PUT", "/v2/creators/trusted"): json({"creator_id": 987654, "trusted": True}),
    # Ads: ad 987654 does not exist (a 404 for those allowed); `{id}` 0…0 is a 400.
    ("POST", "/v2/ads/"): json({"title": "An ad"}),
    ("POST", "/v2/ads/on-behalf-of"): json({"title": "An ad"}),
    ("POST", "/v2/ads/preview-image"): image("ad.png"),
    ("GET", "/v2/ads/link_exists"): query({"link": "https://ads.example.com/a"}),
    # OWNER, the account in the body: needed for the owner check to refuse the creator and the CM.
    ("DELETE", "/v2/ads/user-media"): lambda world: {"json": {"userid": world.ids["user"]}},
    ("GET", "/v2/ads/show/{ad_id}"): query({"page_view": "matrix"}),
    ("POST", "/v2/ads/click/{ad_id}"): json({"page_view": "matrix"}),
    ("POST", "/v2/ads/post_likes"): json({"id": 987654, "likes": 0, "isLike": True}),
    ("POST", "/v2/ads/post_saves"): json({"id": 987654, "saves": 0, "isSave": True}),
    ("POST", "/v2/ads/post_shares"): json({"id": 987654}),
    ("PUT", "/v2/ads/approval-items"): json({"ids": [987654], "action": "approve"}),
    ("POST", "/v2/ads/ranks"): json({"ad_id": 987654, "rank_source_id": 987654, "value": 1}),
    ("PUT", "/v2/ads/ranks"): json({"id": 987654, "value": 1}),
    ("DELETE", "/v2/ads/ranks"): json({"id": 987654}),
    ("POST", "/v2/ads/ranks/bulk"): json({"ranks": [{"ad_id": 987654, "rank_source_id": 987654, "value": 1}]}),
    ("POST", "/v2/ads/embeddings"): json({"ads": [987654]}),
    # OWNER, the account in the query: the owner check refuses the creator and the CM.
    ("GET", "/v2/billing/subscriptions"): lambda world: {"params": {"userid": world.ids["user"]}},
    ("GET", "/v2/billing/trial-subscriptions"): lambda world: {"params": {"user_id": world.ids["user"]}},
    # Plan "Gold" does not exist: a 400 for those allowed, after the door.
    ("POST", "/v2/billing/subscriptions"): json({"plan_name": "Gold"}),
    ("DELETE", "/v2/billing/subscriptions"): json({"plan_name": "Gold"}),
}


@pytest.fixture(autouse=True)
def fresh_limits() -> Iterator[None]:
    reset_rate_limits()
    yield


@lru_cache
def _password_hash(password: str) -> str:
    return hash_password(password)


@pytest.fixture
def world(db: Session, monkeypatch: pytest.MonkeyPatch) -> World:
    # Argon2 is slow on purpose; the tests build the same accounts hundreds of times.
    monkeypatch.setattr(factories, "hash_password", _password_hash)
    people = {
        "user": factories.user(db),
        "creator": factories.user(db),
        "cm": factories.user(db, roles=["CM"]),
        "admin": factories.user(db, admin=True),
    }
    profile = factories.creator(db, people["creator"])
    drafted = factories.user(db, is_active=False)
    category = factories.category(db, "Parks")
    db.commit()
    headers = {role: factories.bearer(person) for role, person in people.items()}
    headers["creator"] = factories.bearer(people["creator"], profile.id)
    headers["guest"] = {"Authorization": f"Bearer {issue_guest_token('matrix-guest')}"}
    headers["anonymous"] = {}
    ids = {"category": category.id, "drafted": drafted.id, "user": people["user"].id}
    return World(ids=ids, headers=headers, user_token=factories.token_for(people["user"]))


def _url(world: World, path: str) -> str:
    url = path
    for name, value in PATH_VALUES.items():
        url = url.replace("{" + name + "}", value(world))
    assert "{" not in url, f"{path}: add its path parameter to PATH_VALUES"
    return url


def call(client: TestClient, world: World, operation: Operation, role: str) -> int:
    request = REQUESTS.get((operation.method, operation.path), lambda _world: {})
    url = _url(world, operation.path)
    response = client.request(operation.method, url, headers=world.headers[role], **request(world))
    assert response.status_code < 500, (str(operation), role, response.text)
    return response.status_code


def declared(operation: Operation) -> Access:
    assert operation.rule is not None, f"{operation}: {operation.problem or 'no access rule'}; {HOW_TO_DECLARE}"
    return operation.rule


def undeclared(app: FastAPI) -> list[str]:
    return [f"{op}: {op.problem or 'no access rule'}" for op in _operations(app) if op.rule is None]


def test_every_route_declares_who_may_call_it(client: TestClient) -> None:
    """Every route of the served app, the API's and the front end's, states one rule."""
    assert isinstance(client.app, FastAPI)
    missing = undeclared(client.app)
    assert not missing, "\n".join([*missing, f"Each of these must {HOW_TO_DECLARE}."])


def test_a_route_without_one_rule_is_named() -> None:
    app = FastAPI()

    @app.get("/forgotten")
    def forgotten() -> None: ...

    @app.get("/twice", dependencies=[Depends(public)])
    def twice(_admin: AdminUser) -> None: ...

    @app.get("/fine", dependencies=[Depends(public)])
    def fine() -> None: ...

    assert undeclared(app) == [
        "GET /forgotten: no access rule",
        "GET /twice: /twice declares several access rules (admin, public): keep one",
    ]


def test_the_generated_operations_are_the_documented_ones(client: TestClient) -> None:
    documented = {
        (method.upper(), path)
        for path, operations in client.get("/openapi.json").json()["paths"].items()
        for method in operations
    }
    assert {(operation.method, operation.path) for operation in api_operations()} == documented


def test_requests_name_served_operations() -> None:
    served = {(operation.method, operation.path) for operation in api_operations()}
    assert REQUESTS.keys() - served == set(), "these operations are gone: remove them from REQUESTS"


# Spec §6: a content manager adds tours on behalf of third-party creators (picking the account, with
# Creator Name and Creator Website on the form) and reactivates accounts (§4 "reactivation via content
# management"); nothing else beyond what every user may do. Drafting through the shared call stays
# an admin's (tests/api/test_users.py checks the 403).
CM_OPERATIONS = {
    ("POST", "/v2/virtualtours/on-behalf-of"),
    ("GET", "/v2/users/search-users"),
    ("POST", "/v2/users/admin-user-activate-deactivate"),
}


def test_content_managers_reach_only_their_calls() -> None:
    """Every operation a CM passes and a plain user does not is one of CM_OPERATIONS: an admin call
    declared for CMs by mistake fails here."""
    beyond_users = {
        (operation.method, operation.path)
        for operation in api_operations()
        if operation.rule is not None and "cm" in ALLOWED[operation.rule] and "user" not in ALLOWED[operation.rule]
    }
    assert beyond_users == CM_OPERATIONS


def test_every_rule_says_who_passes() -> None:
    assert ALLOWED.keys() == set(Access)


@pytest.mark.parametrize("operation", api_operations(), ids=str)
def test_each_role_is_allowed_or_refused(client: TestClient, world: World, operation: Operation) -> None:
    rule = declared(operation)
    outcome = {role: call(client, world, operation, role) for role in ROLES}
    refused = {role for role, status in outcome.items() if status in (401, 403)}
    assert refused == set(ROLES) - ALLOWED[rule], outcome


@pytest.mark.parametrize("operation", api_operations(), ids=str)
def test_restricted_access_refuses_signed_out_callers(
    client: TestClient, db: Session, world: World, operation: Operation
) -> None:
    db.add(PlatformConfig(id=1, restrict_access=True, images_approval=False))
    db.commit()
    rule = declared(operation)
    for role in ("anonymous", "guest"):
        status = call(client, world, operation, role)
        expected_allowed = rule is Access.UNRESTRICTED and role in ALLOWED[rule]
        assert (status not in (401, 403)) == expected_allowed, (role, status)
    if "user" in ALLOWED[rule]:
        assert call(client, world, operation, "user") not in (401, 403)


@pytest.mark.parametrize("operation", [op for op in api_operations() if op.rule and op.rule.needs_token], ids=str)
def test_refusal_comes_before_validation(client: TestClient, operation: Operation) -> None:
    """FastAPI runs a route's dependencies before it validates the parameters and the body, so a
    caller without a token learns 401 and nothing about the input: here no body, no query and path
    values of the wrong type. (A body that is not JSON at all is refused with 400 before that.)"""
    url = operation.path
    for name in PATH_VALUES:
        url = url.replace("{" + name + "}", "not-a-number")
    assert client.request(operation.method, url).status_code == 401


def test_restricted_access_message(client: TestClient, db: Session) -> None:
    db.add(PlatformConfig(id=1, restrict_access=True, images_approval=False))
    db.commit()
    response = client.get("/v2/categories/")
    assert response.status_code == 403 and response.json()["message"] == "Access is restricted: please sign in"
    stale = client.get("/v2/categories/", headers={"Authorization": "Bearer stale"})
    assert stale.status_code == 401  # a user with a stale token renews it and retries (spec §7)


def test_creator_dependency_needs_an_active_creator_profile(db: Session) -> None:
    """CreatorUser guards the creator calls of later issues (profile, ads, featured tours, billing)."""
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/creator-only")
    def creator_only(user: CreatorUser) -> dict[str, int]:
        return {"userid": user.id}

    plain, owner, admin, paused = (
        factories.user(db),
        factories.user(db),
        factories.user(db, admin=True),
        factories.user(db),
    )
    factories.creator(db, owner)
    factories.creator(db, paused, is_active=False)
    db.commit()
    with TestClient(app) as client:
        statuses = {
            name: client.get("/creator-only", headers=factories.bearer(person)).status_code
            for name, person in {"plain": plain, "owner": owner, "admin": admin, "paused": paused}.items()
        }
        anonymous = client.get("/creator-only").status_code
    assert statuses == {"plain": 403, "owner": 200, "admin": 200, "paused": 403} and anonymous == 401
