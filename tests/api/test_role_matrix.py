"""Spec §6 on the server: every call, as every kind of caller, is allowed or denied as the matrix says,
with the platform open and with restrict_access on.

The matrix must name every call the application serves (`test_the_matrix_names_every_call`): a new
endpoint joins it with its access level and a request that reaches it.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from PIL import Image
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.core.deps import CreatorUser
from app.core.errors import install_error_handlers
from app.core.security import hash_password, issue_guest_token
from app.platform.models import PlatformConfig
from tests import factories

ROLES = ("anonymous", "guest", "user", "creator", "cm", "admin")


class Access(Enum):
    PUBLIC = frozenset(ROLES)
    TOKEN = frozenset(ROLES) - {"anonymous"}  # a guest token or a user's
    USER = frozenset({"user", "creator", "cm", "admin"})
    CREATOR = frozenset({"creator", "admin"})
    CM = frozenset({"cm", "admin"})
    ADMIN = frozenset({"admin"})
    # The account's own calls: the path names the "user" account (PATH_VALUES), so it and admins pass.
    OWNER = frozenset({"user", "admin"})
    # Following creators: signed-in users, but never admins (spec §2, §6).
    FOLLOWER = frozenset({"user", "creator", "cm"})


@dataclass
class World:
    ids: dict[str, int]
    headers: dict[str, dict[str, str]]
    user_token: str


Request = Callable[[World], dict[str, Any]]


def nothing(_world: World) -> dict[str, Any]:
    return {}


def json(body: dict[str, Any]) -> Request:
    return lambda _world: {"json": body}


def query(params: dict[str, Any]) -> Request:
    return lambda _world: {"params": params}


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(buffer, format="PNG")
    return buffer.getvalue()


SIGN_UP = {
    "email": "new@example.com",
    "password": "Secret1!",
    "first_name": "New",
    "last_name": "Person",
    "platform_username": "new.person",
}

MATRIX: dict[tuple[str, str], tuple[Access, Request]] = {
    # platform
    ("GET", "/health"): (Access.PUBLIC, nothing),
    ("GET", "/v2/config/"): (Access.PUBLIC, nothing),
    ("PUT", "/v2/config/"): (Access.ADMIN, json({"images_approval": False})),
    ("GET", "/v2/config/app-version"): (Access.PUBLIC, nothing),
    # classifications
    ("GET", "/v2/categories/"): (Access.PUBLIC, nothing),
    ("GET", "/v2/categories/media-types"): (Access.PUBLIC, nothing),
    ("GET", "/v2/categories/capture-devices"): (Access.PUBLIC, nothing),
    ("GET", "/v2/categories/tags"): (Access.PUBLIC, nothing),
    ("GET", "/v2/vendors/"): (Access.PUBLIC, nothing),
    ("GET", "/v2/sources/rank-sources"): (Access.PUBLIC, nothing),
    ("POST", "/v2/categories/document-tags"): (Access.USER, json({"documents": ["Park", "A walk in the forest"]})),
    ("POST", "/v2/categories/admin-tag-embeddings"): (Access.ADMIN, nothing),  # 400 with embeddings off
    # The link lookup refuses port 9 of loopback before any connection: a 400 for those allowed.
    ("GET", "/v2/virtualtours/discover"): (Access.USER, query({"url": "http://127.0.0.1:9/"})),
    # discovery and locations
    ("GET", "/v2/user-recomendations/filtered-grid"): (Access.PUBLIC, nothing),
    ("GET", "/v2/user-recomendations/filtered-map"): (Access.PUBLIC, nothing),
    ("GET", "/v2/user-recomendations/search"): (Access.PUBLIC, query({"searchData": "park"})),
    ("GET", "/v2/user-recomendations/user-tags"): (Access.PUBLIC, nothing),
    ("POST", "/v2/user-recomendations/media-tags"): (Access.PUBLIC, json({"documents": [["Park", "A walk"]]})),
    ("GET", "/v2/user-recomendations/similar-media/{tour_id}"): (Access.PUBLIC, nothing),
    ("GET", "/v2/user-recomendations/creator-media/{user_id}"): (Access.PUBLIC, nothing),
    ("GET", "/v2/locations/map-area"): (Access.PUBLIC, nothing),
    ("POST", "/v2/locations/map-area"): (Access.PUBLIC, json({})),
    ("GET", "/v2/locations/filtered-area"): (Access.PUBLIC, nothing),
    ("GET", "/v2/locations/countries"): (Access.PUBLIC, nothing),
    ("GET", "/v2/locations/address-countries"): (Access.PUBLIC, nothing),
    ("GET", "/v2/locations/search-locations"): (Access.PUBLIC, query({"search": "Paris"})),
    ("GET", "/v2/locations/location"): (Access.PUBLIC, nothing),
    ("GET", "/v2/locations/get-address"): (Access.PUBLIC, nothing),
    ("GET", "/v2/locations/user-location-by-coords"): (Access.PUBLIC, query({"coordinates": "2.35,48.85"})),
    # auth
    ("POST", "/v2/users/sign-in"): (Access.PUBLIC, json({"email": "nobody@example.com", "password": "Secret1!"})),
    ("POST", "/v2/users/sign-up"): (Access.PUBLIC, json(SIGN_UP)),
    ("POST", "/v2/users"): (Access.PUBLIC, json(SIGN_UP)),
    ("POST", "/v2/users/signup-oneclick"): (Access.PUBLIC, json({"auth_system": "google", "provider_token": "x"})),
    ("POST", "/v2/users/guest-token"): (Access.PUBLIC, json({"guest_id": "matrix"})),
    # The prior token in the body is the credential, whoever calls.
    ("POST", "/v2/users/update-token"): (
        Access.PUBLIC,
        lambda world: {"json": {"userid": world.ids["user"], "prior_token": world.user_token}},
    ),
    ("POST", "/v2/users/sign-out"): (Access.USER, nothing),
    ("POST", "/v2/users/request_reset_password"): (Access.PUBLIC, json({"email": "nobody@example.com"})),
    ("GET", "/v2/users/reset-pass-token"): (Access.PUBLIC, query({"token": "x"})),
    ("POST", "/v2/users/change-password"): (
        Access.PUBLIC,
        json({"token": "x", "password": "Secret1!", "repeat_password": "Secret1!"}),
    ),
    ("POST", "/v2/sessions/"): (Access.TOKEN, nothing),
    ("POST", "/v2/sessions/session-activities"): (Access.TOKEN, json({"activity_code": "Follow"})),
    # users
    ("GET", "/v2/users/"): (Access.USER, nothing),
    ("DELETE", "/v2/users/"): (Access.USER, nothing),
    ("GET", "/v2/users/user-params"): (Access.USER, nothing),
    ("PUT", "/v2/users/user-params"): (Access.USER, json({"params": {"first_name": "Renamed"}})),
    ("GET", "/v2/users/users-info-check"): (Access.PUBLIC, query({"platform_username": "someone.new"})),
    ("GET", "/v2/users/get_existed_usernames_emails"): (Access.PUBLIC, query({"username": "someone"})),
    ("GET", "/v2/users/profile-image"): (Access.PUBLIC, query({"image": "missing.png"})),
    ("POST", "/v2/users/profile-image"): (
        Access.USER,
        lambda _world: {"files": {"image": ("me.png", _png(), "image/png")}},
    ),
    ("GET", "/v2/users/user-interests"): (Access.USER, nothing),
    ("PUT", "/v2/users/user-interests"): (
        Access.USER,
        lambda world: {"json": {"interests": [{"category_id": world.ids["category"]}]}},
    ),
    ("GET", "/v2/users/user-guide-steps"): (Access.USER, nothing),
    ("POST", "/v2/users/user-guide-steps"): (Access.USER, json({"guide_steps": {"completeGuide": True}})),
    ("GET", "/v2/users/search-users"): (Access.CM, query({"searchPattern": "tester"})),
    ("GET", "/v2/users/user-groups"): (Access.ADMIN, nothing),
    ("POST", "/v2/users/admin-user-activate-deactivate"): (
        Access.CM,
        lambda world: {"json": {"userid": world.ids["drafted"], "is_active": True}},
    ),
    ("GET", "/v2/users/get-moderation-users"): (Access.ADMIN, query({"state": "drafted"})),
    ("GET", "/v2/users/approval-items"): (Access.ADMIN, nothing),
    ("PUT", "/v2/users/approval-items"): (Access.ADMIN, json({"id": 0, "action": "approve"})),
    ("GET", "/v2/pending/approval-items"): (Access.ADMIN, nothing),
    ("GET", "/v2/users/get-api-statistic"): (Access.ADMIN, nothing),
    ("GET", "/v2/users/admin-stats"): (Access.ADMIN, nothing),
    ("GET", "/v2/users/admin-user-settings"): (Access.ADMIN, lambda world: {"params": {"userid": world.ids["user"]}}),
    ("POST", "/v2/users/admin-user-settings"): (
        Access.ADMIN,
        lambda world: {"json": {"userid": world.ids["drafted"], "trusted": True}},
    ),
    ("POST", "/v2/users/beta-tester"): (
        Access.USER,
        json(
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
    ),
    ("GET", "/v2/users/get-beta-testers"): (Access.ADMIN, nothing),
    ("PUT", "/v2/users/vt-transfer"): (
        Access.ADMIN,
        lambda world: {"json": {"from_userid": world.ids["drafted"], "to_userid": world.ids["user"]}},
    ),
    ("GET", "/v2/users/send-mail"): (
        Access.ADMIN,
        lambda world: {"params": {"userid": world.ids["user"], "subject": "Hello", "text": "A word from us"}},
    ),
    ("POST", "/v2/users/bug-image"): (
        Access.USER,
        lambda _world: {"files": {"image": ("bug.png", _png(), "image/png")}},
    ),
    # tours (media)
    ("POST", "/v2/virtualtours/"): (Access.USER, json({"title": "A tour"})),
    ("POST", "/v2/virtualtours/on-behalf-of"): (Access.CM, json({"title": "A tour"})),
    ("PUT", "/v2/virtualtours/"): (Access.USER, json({"guid": "0" * 32})),
    ("POST", "/v2/virtualtours/preview-image"): (
        Access.USER,
        lambda _world: {"files": {"image": ("preview.png", _png(), "image/png")}},
    ),
    ("GET", "/v2/virtualtours/pending"): (Access.ADMIN, nothing),
    ("DELETE", "/v2/virtualtours/pending"): (Access.ADMIN, json({"tours": ["0" * 32]})),
    ("POST", "/v2/virtualtours/pending/remove"): (Access.USER, json({"tours": ["0" * 32]})),
    ("GET", "/v2/virtualtours/approval-items"): (Access.ADMIN, nothing),
    ("PUT", "/v2/virtualtours/approval-items"): (Access.ADMIN, json({"ids": [0], "action": "approve"})),
    ("GET", "/v2/virtualtours/admin-stats"): (Access.ADMIN, nothing),
    ("GET", "/v2/virtualtours/link_exists"): (Access.USER, query({"link": "https://kuula.co/share/Ab123"})),
    ("GET", "/v2/virtualtours/get-by-link"): (Access.PUBLIC, query({"link": "https://kuula.co/share/Ab123"})),
    ("GET", "/v2/virtualtours/user/media-tags/{user_id}"): (Access.PUBLIC, nothing),
    ("GET", "/v2/virtualtours/user/{userid}"): (Access.OWNER, nothing),
    ("GET", "/v2/virtualtours/counts/{user_id}"): (Access.OWNER, nothing),
    ("DELETE", "/v2/virtualtours/user-media"): (Access.OWNER, lambda world: {"json": {"userid": world.ids["user"]}}),
    ("POST", "/v2/virtualtours/featured-tours"): (Access.CREATOR, json({"tours": []})),
    ("POST", "/v2/virtualtours/send-tour-today"): (Access.CREATOR, json({"guid": "0" * 32, "consent": True})),
    ("GET", "/v2/virtualtours/creator/map/{user_id}"): (Access.PUBLIC, nothing),
    ("GET", "/v2/virtualtours/creator/{user_id}"): (Access.PUBLIC, nothing),
    ("GET", "/v2/virtualtours/saved/{userid}"): (Access.OWNER, nothing),
    # ranks and embeddings (rank source 987654, rank 987654 and tour 0…0 do not exist: 400 or 404)
    ("GET", "/v2/virtualtours/ranks"): (Access.ADMIN, nothing),
    ("POST", "/v2/virtualtours/ranks"): (Access.ADMIN, json({"guid": "0" * 32, "rank_source_id": 987654, "value": 1})),
    ("PUT", "/v2/virtualtours/ranks"): (Access.ADMIN, json({"id": 987654, "value": 1})),
    ("DELETE", "/v2/virtualtours/ranks"): (Access.ADMIN, json({"id": 987654})),
    ("POST", "/v2/virtualtours/ranks/bulk"): (
        Access.ADMIN,
        json({"ranks": [{"guid": "0" * 32, "rank_source_id": 987654, "value": 1}]}),
    ),
    ("POST", "/v2/virtualtours/ranks/calc"): (Access.ADMIN, nothing),
    ("POST", "/v2/virtualtours/embeddings"): (Access.ADMIN, nothing),  # 400 with embeddings off
    ("GET", "/v2/virtualtours/{id}"): (Access.PUBLIC, nothing),
    ("DELETE", "/v2/virtualtours/{id}"): (Access.USER, nothing),
    ("PUT", "/v2/virtualtours/{id}"): (Access.USER, json({"task": "activate"})),
    # engagement (the tour guid names no tour: a 404 for those allowed)
    ("GET", "/v2/virtualtours/player/{tour_id}"): (Access.PUBLIC, nothing),
    ("GET", "/v2/virtualtours/tour-stats/{tour_id}"): (Access.PUBLIC, nothing),
    ("POST", "/v2/virtualtours/post_view"): (Access.PUBLIC, json({"id": "0" * 32})),
    ("POST", "/v2/virtualtours/post_shares"): (Access.PUBLIC, json({"id": "0" * 32})),
    ("POST", "/v2/virtualtours/post_likes"): (Access.USER, json({"id": "0" * 32, "likes": 0, "isLike": True})),
    ("POST", "/v2/virtualtours/post_saves"): (Access.USER, json({"id": "0" * 32, "saves": 0, "isSave": True})),
    # creators: follows (creator 987654 does not exist: a 404 for those allowed)
    ("GET", "/v2/creators/followers"): (Access.USER, nothing),
    ("POST", "/v2/creators/followers"): (Access.FOLLOWER, json({"creator_id": 987654})),
    ("DELETE", "/v2/creators/followers"): (Access.USER, query({"creator_id": 987654})),
    ("GET", "/v2/creators/is-follow"): (Access.PUBLIC, query({"creator_id": 987654})),
    ("DELETE", "/v2/creators/is-follow"): (Access.USER, nothing),
    ("POST", "/v2/creators/post_shares"): (Access.PUBLIC, json({"id": 987654})),
    ("GET", "/v2/creators/ranks"): (Access.ADMIN, nothing),
    ("POST", "/v2/creators/ranks"): (Access.ADMIN, json({"creator_id": 987654, "rank_source_id": 987654, "value": 1})),
    ("PUT", "/v2/creators/ranks"): (Access.ADMIN, json({"id": 987654, "value": 1})),
    ("POST", "/v2/creators/ranks/calc"): (Access.ADMIN, nothing),
}

# Spec §2 route guard / §6: what a signed-out caller still reaches while restrict_access is on.
OPEN_WHEN_RESTRICTED = {
    ("GET", "/health"),
    ("GET", "/v2/config/"),
    ("GET", "/v2/config/app-version"),
    ("POST", "/v2/users/sign-in"),
    ("POST", "/v2/users/sign-up"),
    ("POST", "/v2/users"),
    ("POST", "/v2/users/signup-oneclick"),
    ("POST", "/v2/users/guest-token"),
    ("POST", "/v2/users/update-token"),
    ("POST", "/v2/users/request_reset_password"),
    ("GET", "/v2/users/reset-pass-token"),
    ("POST", "/v2/users/change-password"),
    ("GET", "/v2/users/users-info-check"),
    ("GET", "/v2/users/get_existed_usernames_emails"),
}

# "1" is the "user" account: `world` creates it first on emptied tables.
PATH_VALUES = {"{tour_id}": "0" * 32, "{user_id}": "1", "{userid}": "1", "{id}": "0" * 32}


@pytest.fixture(autouse=True)
def fresh_limits() -> Iterator[None]:
    reset_rate_limits()
    yield


@lru_cache
def _password_hash(password: str) -> str:
    return hash_password(password)


@pytest.fixture
def world(db: Session, monkeypatch: pytest.MonkeyPatch) -> World:
    # Argon2 is slow on purpose; the matrix builds the same accounts a hundred times.
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


def call(client: TestClient, world: World, method: str, path: str, role: str) -> int:
    _access, request = MATRIX[(method, path)]
    url = path
    for placeholder, value in PATH_VALUES.items():
        url = url.replace(placeholder, value)
    response = client.request(method, url, headers=world.headers[role], **request(world))
    assert response.status_code < 500, (method, path, role, response.text)
    return response.status_code


def test_the_matrix_names_every_call(client: TestClient) -> None:
    served = {
        (method.upper(), path)
        for path, operations in client.get("/openapi.json").json()["paths"].items()
        for method in operations
    }
    assert served - MATRIX.keys() == set(), "add these calls to MATRIX with their access level"
    assert MATRIX.keys() - served == set(), "these calls are gone: remove them from MATRIX"


@pytest.mark.parametrize(("method", "path"), sorted(MATRIX))
def test_each_role_is_allowed_or_denied(client: TestClient, world: World, method: str, path: str) -> None:
    access, _request = MATRIX[(method, path)]
    outcome = {role: call(client, world, method, path, role) for role in ROLES}
    denied = {role for role, status in outcome.items() if status in (401, 403)}
    assert denied == set(ROLES) - access.value, outcome


@pytest.mark.parametrize(("method", "path"), sorted(MATRIX))
def test_restricted_access_refuses_signed_out_callers(
    client: TestClient, db: Session, world: World, method: str, path: str
) -> None:
    db.add(PlatformConfig(id=1, restrict_access=True, images_approval=False))
    db.commit()
    access, _request = MATRIX[(method, path)]
    open_to_signed_out = (method, path) in OPEN_WHEN_RESTRICTED
    for role in ("anonymous", "guest"):
        status = call(client, world, method, path, role)
        expected_allowed = open_to_signed_out and role in access.value
        assert (status not in (401, 403)) == expected_allowed, (role, status)
    if "user" in access.value:
        assert call(client, world, method, path, "user") not in (401, 403)


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
