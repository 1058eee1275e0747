"""The one visibility rule (app/tours/queries.py), pinned for every kind of viewer, every state a
tour can be out of the listing in, and every call that applies it.

Spec §4 "Media" and "User account", §6: a tour is listed while it is active and approved and its
owner's account is active (not drafted, blocked or deleted); an unlisted tour is seen by its owner
and admins only. A content manager is not an admin (§6 gives the role two more fields on the media
form), so a CM sees others' unlisted tours no more than any user does — except one the CM added on
the owner's behalf, which the CM manages.

Each state builds one scene and asks every call as every viewer; a test fails listing every call
that answered otherwise, so a copy of the rule that drifts anywhere shows where.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pytest
from fastapi.testclient import TestClient
from httpx import Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.security import hash_password, issue_guest_token
from app.engagement.models import TourSave
from app.tours import queries
from app.tours.models import ApprovalState, Tour, TourStatus
from app.users.models import CONTENT_MANAGER_ROLE, User
from tests import factories

VIEWERS = ("guest", "owner", "other user", "content manager", "admin")
SEEN, HIDDEN, REFUSED, FORBIDDEN = "seen", "hidden", "refused (401)", "forbidden (403)"


@dataclass(frozen=True)
class State:
    name: str
    tour: dict[str, Any]
    owner: dict[str, Any]

    @property
    def listed(self) -> bool:
        return self.name == "listed"

    @property
    def owner_signs_in(self) -> bool:
        """A drafted, blocked or deleted account's token is refused on every call (401)."""
        return not self.owner


ACTIVE_APPROVED = {"status": TourStatus.active, "approval_state": ApprovalState.approved}
STATES = [
    State("listed", ACTIVE_APPROVED, {}),
    State("pending", {"status": TourStatus.active, "approval_state": ApprovalState.pending}, {}),
    State("rejected", {"status": TourStatus.active, "approval_state": ApprovalState.rejected}, {}),
    State("draft", {"status": TourStatus.draft, "approval_state": ApprovalState.approved}, {}),
    State("pending draft", {"status": TourStatus.draft, "approval_state": ApprovalState.pending}, {}),
    State("owner drafted", ACTIVE_APPROVED, {"is_active": False}),
    State("owner blocked", ACTIVE_APPROVED, {"user_active": False}),
    State("owner deleted", ACTIVE_APPROVED, {"is_deleted": True}),
]


@lru_cache
def _password_hash(password: str) -> str:
    return hash_password(password)


@dataclass
class Scene:
    tour: Tour
    owner: User
    fan: User  # "other user"; saved the tour while it was listed
    headers: dict[str, dict[str, str]]


def build_scene(db: Session, state: State, monkeypatch: pytest.MonkeyPatch) -> Scene:
    monkeypatch.setattr(factories, "hash_password", _password_hash)
    catalog = factories.catalog(db)
    owner = factories.user(db)
    fan = factories.user(db)
    cm = factories.user(db, roles=[CONTENT_MANAGER_ROLE])
    admin = factories.user(db, admin=True)
    factories.creator(db, owner)
    tag = factories.tag(db, "Castles", catalog.category)
    tour = catalog.tour(db, owner, tags=(tag,), address_country="FR", **state.tour)
    db.add(TourSave(user_id=fan.id, tour_id=tour.id))
    for field, value in state.owner.items():
        setattr(owner, field, value)
    headers = {
        "guest": {"Authorization": f"Bearer {issue_guest_token('visibility-guest')}"},
        "owner": factories.bearer(owner),
        "other user": factories.bearer(fan),
        "content manager": factories.bearer(cm),
        "admin": factories.bearer(admin),
    }
    db.commit()
    return Scene(tour=tour, owner=owner, fan=fan, headers=headers)


# ------------------------------------------------------------------------------ calls about one tour


def _one_tour(response: Response) -> str:
    if response.status_code == 401:
        return REFUSED
    if response.status_code == 404:
        assert response.json()["message"] == queries.NOT_FOUND_MESSAGE, response.text
        return HIDDEN
    assert response.status_code == 200, response.text
    return SEEN


def _saved_own(response: Response) -> str:
    """Saving one's own tour is refused with 400 after the tour was found: it was seen."""
    return SEEN if response.status_code == 400 else _one_tour(response)


def _link_exists(response: Response) -> str:
    if response.status_code == 401:
        return REFUSED
    body = response.json()
    assert body["exists"] is True, body
    return SEEN if body["guid"] is not None else HIDDEN


Probe = Callable[[TestClient, Scene, dict[str, str]], str]
TOUR_CALLS: dict[str, Probe] = {
    "GET {id}": lambda c, s, h: _one_tour(c.get(f"/v2/virtualtours/{s.tour.guid}", headers=h)),
    "GET get-by-link": lambda c, s, h: _one_tour(
        c.get("/v2/virtualtours/get-by-link", params={"link": s.tour.link}, headers=h)
    ),
    "GET link_exists": lambda c, s, h: _link_exists(
        c.get("/v2/virtualtours/link_exists", params={"link": s.tour.link}, headers=h)
    ),
    "GET player": lambda c, s, h: _one_tour(c.get(f"/v2/virtualtours/player/{s.tour.guid}", headers=h)),
    "GET tour-stats": lambda c, s, h: _one_tour(c.get(f"/v2/virtualtours/tour-stats/{s.tour.guid}", headers=h)),
    "POST post_view": lambda c, s, h: _one_tour(
        c.post("/v2/virtualtours/post_view", json={"id": s.tour.guid}, headers=h)
    ),
    "POST post_likes": lambda c, s, h: _one_tour(
        c.post("/v2/virtualtours/post_likes", json={"id": s.tour.guid, "likes": 0, "isLike": True}, headers=h)
    ),
    "POST post_saves": lambda c, s, h: _saved_own(
        c.post("/v2/virtualtours/post_saves", json={"id": s.tour.guid, "saves": 0, "isSave": True}, headers=h)
    ),
    "POST post_shares": lambda c, s, h: _one_tour(
        c.post("/v2/virtualtours/post_shares", json={"id": s.tour.guid}, headers=h)
    ),
    "GET similar-media": lambda c, s, h: _one_tour(
        c.get(f"/v2/user-recomendations/similar-media/{s.tour.guid}", headers=h)
    ),
}
# Calls that need an account: a guest token is refused with 401 before the tour is looked at.
SIGNED_IN_ONLY = {"GET link_exists", "POST post_likes", "POST post_saves"}


def expected_for_tour_call(state: State, viewer: str, call: str) -> str:
    if (viewer == "guest" and call in SIGNED_IN_ONLY) or (viewer == "owner" and not state.owner_signs_in):
        return REFUSED
    return SEEN if state.listed or viewer in ("owner", "admin") else HIDDEN


# ------------------------------------------------------------------------------ calls that list tours


def _user_tours(client: TestClient, scene: Scene, headers: dict[str, str]) -> str:
    """The manage-media dashboard: the owner's every tour, for the owner and admins only."""
    response = client.get(f"/v2/virtualtours/user/{scene.owner.id}", headers=headers)
    if response.status_code in (401, 403):
        return REFUSED if response.status_code == 401 else FORBIDDEN
    if response.status_code == 404:  # the owner's account was deleted
        return HIDDEN
    assert response.status_code == 200, response.text
    return SEEN if scene.tour.guid in {tour["guid"] for tour in response.json()["data"]} else HIDDEN


def expected_for_user_tours(state: State, viewer: str) -> str:
    if viewer == "guest" or (viewer == "owner" and not state.owner_signs_in):
        return REFUSED
    if viewer in ("other user", "content manager"):
        return FORBIDDEN
    return HIDDEN if state.name == "owner deleted" else SEEN


def _listed_in(response: Response, found: Callable[[Any], bool]) -> str:
    assert response.status_code in (200, 404), response.text
    return SEEN if response.status_code == 200 and found(response.json()) else HIDDEN


def _cards(guid: str) -> Callable[[Any], bool]:
    return lambda body: guid in {card.get("guid") for card in body["data"]}


LISTING_CALLS: dict[str, Probe] = {
    "GET filtered-grid": lambda c, s, h: _listed_in(
        c.get("/v2/user-recomendations/filtered-grid", params={"mode": "media"}, headers=h), _cards(s.tour.guid)
    ),
    "GET creator/{user_id}": lambda c, s, h: _listed_in(
        c.get(f"/v2/virtualtours/creator/{s.owner.id}", headers=h), _cards(s.tour.guid)
    ),
    "GET user/media-tags": lambda c, s, h: _listed_in(
        c.get(f"/v2/virtualtours/user/media-tags/{s.owner.id}", headers=h),
        lambda body: any(tag["name"] == "Castles" for tag in body["data"]),
    ),
    "GET address-countries": lambda c, s, h: _listed_in(
        c.get("/v2/locations/address-countries", headers=h),
        lambda body: any(country["code"] == "FR" for country in body["data"]),
    ),
}


# ------------------------------------------------------------------------------ the tests


@pytest.mark.parametrize("state", STATES, ids=[state.name for state in STATES])
def test_every_call_applies_the_one_rule(
    client: TestClient, db: Session, monkeypatch: pytest.MonkeyPatch, state: State
) -> None:
    scene = build_scene(db, state, monkeypatch)
    divergences: list[str] = []

    def check(call: str, viewer: str, observed: str, expected: str) -> None:
        if observed != expected:
            divergences.append(f"{call} as {viewer}: {observed}, expected {expected}")

    for viewer in VIEWERS:
        headers = scene.headers[viewer]
        for call, probe in TOUR_CALLS.items():
            check(call, viewer, probe(client, scene, headers), expected_for_tour_call(state, viewer, call))
        check("GET user/{userid}", viewer, _user_tours(client, scene, headers), expected_for_user_tours(state, viewer))
    # What lists tours shows listed ones only, to everyone (the owner included: their own pages
    # show drafts through the dashboard above).
    listed = SEEN if state.listed else HIDDEN
    for call, probe in LISTING_CALLS.items():
        check(call, "guest", probe(client, scene, {}), listed)
    saved = client.get(f"/v2/virtualtours/saved/{scene.fan.id}", headers=scene.headers["other user"])
    check("GET saved/{userid}", "other user", _listed_in(saved, _cards(scene.tour.guid)), listed)
    assert not divergences, "\n".join(divergences)


def test_a_content_manager_sees_the_unlisted_tour_they_added_for_someone(
    client: TestClient, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Adding on the owner's behalf makes the CM one who manages that tour; other unlisted tours stay hidden."""
    monkeypatch.setattr(factories, "hash_password", _password_hash)
    catalog = factories.catalog(db)
    owner = factories.user(db)
    cm = factories.user(db, roles=[CONTENT_MANAGER_ROLE])
    theirs = catalog.tour(db, owner, status=TourStatus.draft, created_by_user_id=cm.id)
    others = catalog.tour(db, owner, status=TourStatus.draft)
    db.commit()
    headers = factories.bearer(cm)
    assert client.get(f"/v2/virtualtours/{theirs.guid}", headers=headers).status_code == 200
    assert client.get(f"/v2/virtualtours/player/{theirs.guid}", headers=headers).status_code == 200
    assert client.get(f"/v2/virtualtours/{others.guid}", headers=headers).status_code == 404
    assert client.get(f"/v2/virtualtours/player/{others.guid}", headers=headers).status_code == 404


# ------------------------------------------------------------------------------ predicate = clause


@pytest.mark.parametrize("viewer_kind", VIEWERS)
def test_the_clause_selects_exactly_what_the_predicate_accepts(
    db: Session, monkeypatch: pytest.MonkeyPatch, viewer_kind: str
) -> None:
    """Every combination of tour and owner switches, with one tour the CM added for its owner: the
    SQL forms (listed_clause, visible_clause) pick the same tours as the Python ones."""
    monkeypatch.setattr(factories, "hash_password", _password_hash)
    catalog = factories.catalog(db)
    cm = factories.user(db, roles=[CONTENT_MANAGER_ROLE])
    viewers: dict[str, User | None] = {
        "guest": None,
        "other user": factories.user(db),
        "content manager": cm,
        "admin": factories.user(db, admin=True),
    }
    owners = []
    for owner_state in ({}, {"is_active": False}, {"user_active": False}, {"is_deleted": True}):
        owner = factories.user(db, **owner_state)
        owners.append(owner)
        for status in TourStatus:
            for approval in ApprovalState:
                catalog.tour(db, owner, status=status, approval_state=approval)
    catalog.tour(db, owners[0], status=TourStatus.draft, created_by_user_id=cm.id)
    viewers["owner"] = owners[0]
    db.commit()
    viewer = viewers[viewer_kind]

    tours = list(db.scalars(select(Tour)))
    listed_by_sql = set(db.scalars(select(Tour.id).where(queries.listed_clause())))
    visible_by_sql = set(db.scalars(select(Tour.id).where(queries.visible_clause(viewer))))
    assert listed_by_sql == {tour.id for tour in tours if queries.is_listed(tour)}
    assert visible_by_sql == {tour.id for tour in tours if queries.is_visible(tour, viewer)}
    # And the rule itself: listed is one of the 3 x 2 x 4 combinations (active, approved, good owner).
    assert len(listed_by_sql) == 1
