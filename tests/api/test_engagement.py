"""Spec §3 "Player parameters", §4 "Like and save", §7 Media engagement calls (player, tour-stats,
post_view, post_likes, post_saves, post_shares) and §8 like/save failure."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.outbox import OutboxEntry, OutboxStatus
from app.core.security import hash_password, issue_guest_token
from app.creators.models import Creator
from app.engagement import service as engagement
from app.engagement.models import TourLike, TourShare, TourView
from app.realtime import events
from app.tours.models import Tour, TourStatus
from app.users.models import SessionActivity, User
from tests import factories

PLAYER = "/v2/virtualtours/player/{}"
STATS = "/v2/virtualtours/tour-stats/{}"
VIEW = "/v2/virtualtours/post_view"
LIKES = "/v2/virtualtours/post_likes"
SAVES = "/v2/virtualtours/post_saves"
SHARES = "/v2/virtualtours/post_shares"


# ------------------------------------------------------------------------------ shared test helpers


@lru_cache
def _password_hash(password: str) -> str:
    return hash_password(password)


def cheap_passwords(monkeypatch: pytest.MonkeyPatch) -> None:
    """Argon2 is slow on purpose; these tests build many accounts and never sign in with them."""
    monkeypatch.setattr(factories, "hash_password", _password_hash)


@dataclass
class RecordedEmits:
    sent: list[tuple[str, dict[str, Any], str]] = field(default_factory=list)

    def emit(self, event: str, data: dict[str, Any], *, room: str) -> None:
        self.sent.append((event, data, room))

    def of(self, event: str, room: str) -> list[dict[str, Any]]:
        return [data for name, data, to in self.sent if name == event and to == room]


def record_emits(monkeypatch: pytest.MonkeyPatch) -> RecordedEmits:
    """Stands in for the realtime emitter: what would have reached open pages, after each commit."""
    recorder = RecordedEmits()
    monkeypatch.setattr(events, "get_emitter", lambda: recorder)
    return recorder


@pytest.fixture
def emits(monkeypatch: pytest.MonkeyPatch) -> RecordedEmits:
    return record_emits(monkeypatch)


def guest_headers(guest_id: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_guest_token(guest_id)}"}


@dataclass
class Scene:
    owner: User
    fan: User
    profile: Creator
    tour: Tour
    catalog: factories.Catalog


@pytest.fixture
def scene(db: Session, monkeypatch: pytest.MonkeyPatch) -> Scene:
    cheap_passwords(monkeypatch)
    owner, fan = factories.user(db), factories.user(db)
    profile = factories.creator(db, owner)
    catalog = factories.catalog(db)
    tour = catalog.tour(db, owner, creator_id=profile.id)
    db.commit()
    return Scene(owner=owner, fan=fan, profile=profile, tour=tour, catalog=catalog)


def counters(db: Session, tour: Tour) -> dict[str, int]:
    db.expire_all()
    row = db.get(Tour, tour.id)
    assert row is not None
    return {"views": row.views, "likes": row.likes, "saves": row.saves, "shared": row.shared}


def like(client: TestClient, user: User, tour: Tour, is_like: bool = True) -> Any:
    return client.post(LIKES, json={"id": tour.guid, "likes": 0, "isLike": is_like}, headers=factories.bearer(user))


def save(client: TestClient, user: User, tour: Tour, is_save: bool = True) -> Any:
    return client.post(SAVES, json={"id": tour.guid, "saves": 0, "isSave": is_save}, headers=factories.bearer(user))


# --------------------------------------------------------------------------------------- player


def test_player_parameters_for_guests_have_user_flags_zero(client: TestClient, scene: Scene) -> None:
    for headers in ({}, guest_headers("g-1")):
        body = client.get(PLAYER.format(scene.tour.guid), headers=headers).json()
        assert body == {
            "id": scene.tour.guid,
            "views": 0,
            "likes": 0,
            "shared": 0,
            "saves": 0,
            "user_like": 0,
            "user_save": 0,
        }


def test_player_parameters_carry_the_users_like_and_save(client: TestClient, scene: Scene) -> None:
    assert like(client, scene.fan, scene.tour).status_code == 200
    assert save(client, scene.fan, scene.tour).status_code == 200
    mine = client.get(PLAYER.format(scene.tour.guid), headers=factories.bearer(scene.fan)).json()
    assert (mine["user_like"], mine["user_save"], mine["likes"], mine["saves"]) == (1, 1, 1, 1)
    someone_else = client.get(PLAYER.format(scene.tour.guid), headers=factories.bearer(scene.owner)).json()
    assert (someone_else["user_like"], someone_else["user_save"], someone_else["likes"]) == (0, 0, 1)


def test_tour_stats_answer_the_counters(client: TestClient, db: Session, scene: Scene) -> None:
    scene.tour.views, scene.tour.likes, scene.tour.saves, scene.tour.shared = 40, 3, 2, 1
    db.commit()
    body = client.get(STATS.format(scene.tour.guid)).json()
    assert body == {"id": scene.tour.guid, "views": 40, "likes": 3, "shared": 1, "saves": 2}


def test_unknown_and_unlisted_tours_are_not_found(client: TestClient, db: Session, scene: Scene) -> None:
    assert client.get(PLAYER.format("f" * 32)).status_code == 404
    scene.tour.status = TourStatus.draft
    db.commit()
    refused = client.get(PLAYER.format(scene.tour.guid), headers=factories.bearer(scene.fan))
    assert (
        refused.status_code == 404
        and refused.json()["message"] == "Unfortunately this Virtual Tour could not be found..."
    )
    assert like(client, scene.fan, scene.tour).status_code == 404
    # The owner still sees the counters of their draft.
    assert client.get(PLAYER.format(scene.tour.guid), headers=factories.bearer(scene.owner)).status_code == 200


# ---------------------------------------------------------------------------------------- likes


def test_guests_must_sign_in_to_like_or_save(client: TestClient, db: Session, scene: Scene) -> None:
    """A 401 makes the client renew the token and then open the login dialog (spec §4, §7)."""
    for headers in ({}, guest_headers("g-2")):
        liked = client.post(LIKES, json={"id": scene.tour.guid, "likes": 0, "isLike": True}, headers=headers)
        saved = client.post(SAVES, json={"id": scene.tour.guid, "saves": 0, "isSave": True}, headers=headers)
        assert liked.status_code == 401 and saved.status_code == 401
    assert counters(db, scene.tour) == {"views": 0, "likes": 0, "saves": 0, "shared": 0}


def test_a_like_counts_once_per_user_and_unlike_never_goes_below_zero(
    client: TestClient, db: Session, scene: Scene
) -> None:
    first = like(client, scene.fan, scene.tour).json()
    assert (first["likes"], first["isLike"], first["user_like"]) == (1, True, 1)
    assert like(client, scene.fan, scene.tour).json()["likes"] == 1
    assert like(client, scene.owner, scene.tour).json()["likes"] == 2
    assert like(client, scene.fan, scene.tour, is_like=False).json() | {"views": None} == {
        "id": scene.tour.guid,
        "views": None,
        "likes": 1,
        "saves": 0,
        "shared": 0,
        "isLike": False,
        "user_like": 0,
    }
    assert like(client, scene.fan, scene.tour, is_like=False).json()["likes"] == 1
    assert like(client, scene.owner, scene.tour, is_like=False).json()["likes"] == 0
    assert like(client, scene.owner, scene.tour, is_like=False).json()["likes"] == 0
    assert counters(db, scene.tour)["likes"] == 0
    assert db.scalar(select(func.count()).select_from(TourLike)) == 0


def test_a_drifted_counter_is_floored_at_zero(client: TestClient, db: Session, scene: Scene) -> None:
    db.add(TourLike(user_id=scene.fan.id, tour_id=scene.tour.id))
    db.commit()  # a like row whose count never made it into the counter
    assert like(client, scene.fan, scene.tour, is_like=False).json()["likes"] == 0


def test_likes_move_the_creators_total(client: TestClient, db: Session, scene: Scene) -> None:
    like(client, scene.fan, scene.tour)
    db.expire_all()
    assert db.get(Creator, scene.profile.id).likes == 1  # type: ignore[union-attr]
    like(client, scene.fan, scene.tour, is_like=False)
    db.expire_all()
    assert db.get(Creator, scene.profile.id).likes == 0  # type: ignore[union-attr]


def test_a_body_without_is_like_is_a_400_naming_the_field(client: TestClient, scene: Scene) -> None:
    response = client.post(LIKES, json={"id": scene.tour.guid}, headers=factories.bearer(scene.fan))
    assert response.status_code == 400 and "isLike" in response.json()["fields"]


# ---------------------------------------------------------------------------------------- saves


def activities(db: Session, user: User) -> list[tuple[str, str | None, str | None]]:
    rows = db.execute(
        select(SessionActivity.activity_code, SessionActivity.activity_text, SessionActivity.owner_id)
        .where(SessionActivity.userid == user.id)
        .order_by(SessionActivity.id)
    )
    return [tuple(row) for row in rows]  # type: ignore[misc]


def test_save_and_unsave_record_activities_once(client: TestClient, db: Session, scene: Scene) -> None:
    saved = save(client, scene.fan, scene.tour).json()
    assert (saved["saves"], saved["isSave"], saved["user_save"]) == (1, True, 1)
    assert save(client, scene.fan, scene.tour).json()["saves"] == 1
    unsaved = save(client, scene.fan, scene.tour, is_save=False).json()
    assert (unsaved["saves"], unsaved["isSave"], unsaved["user_save"]) == (0, False, 0)
    assert save(client, scene.fan, scene.tour, is_save=False).json()["saves"] == 0
    owner = str(scene.owner.id)
    assert activities(db, scene.fan) == [("Save", scene.tour.guid, owner), ("Undo save", scene.tour.guid, owner)]


def test_saving_ones_own_media_is_refused_with_a_message(client: TestClient, db: Session, scene: Scene) -> None:
    """The card hides the button (spec §2); the server refuses too, and the dialog shows why (§8)."""
    response = save(client, scene.owner, scene.tour)
    assert response.status_code == 400
    assert response.json()["message"] == "You cannot save your own media"
    assert counters(db, scene.tour)["saves"] == 0 and activities(db, scene.owner) == []


def test_saves_reach_the_grid_and_its_sort_order(client: TestClient, db: Session, scene: Scene) -> None:
    other = scene.catalog.tour(db, scene.owner, title="Another tour")
    db.commit()
    save(client, scene.fan, other)
    grid = client.get(
        "/v2/user-recomendations/filtered-grid",
        params={"sorting": "saves", "mode": "media"},
        headers=factories.bearer(scene.fan),
    ).json()
    first = grid["data"][0]
    assert (first["guid"], first["saves"], first["is_save"]) == (other.guid, 1, True)
    topics = db.execute(select(OutboxEntry.topic, OutboxEntry.status).where(OutboxEntry.aggregate_id == str(other.id)))
    assert ("index.tour_counters", OutboxStatus.done) in {tuple(row) for row in topics}


# ---------------------------------------------------------------------------------------- views


def test_a_view_counts_once_per_viewer_per_window(
    client: TestClient, db: Session, scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    def view(headers: dict[str, str]) -> dict[str, Any]:
        response = client.post(VIEW, json={"id": scene.tour.guid}, headers=headers)
        assert response.status_code == 200, response.text
        return dict(response.json())

    def seen(headers: dict[str, str]) -> tuple[bool, int]:
        body = view(headers)
        return body["counted"], body["views"]

    fan, owner = factories.bearer(scene.fan), factories.bearer(scene.owner)
    assert [seen(fan), seen(fan)] == [(True, 1), (False, 1)]
    assert [seen(guest_headers("g-a")), seen(guest_headers("g-a")), seen(guest_headers("g-b"))] == [
        (True, 2),
        (False, 2),
        (True, 3),
    ]
    # Anonymous callers are keyed by a hash of their address.
    assert [seen({}), seen({})] == [(True, 4), (False, 4)]
    tomorrow = datetime.now(UTC) + timedelta(days=1)
    monkeypatch.setattr(engagement, "utcnow", lambda: tomorrow)
    assert [seen(fan), seen(owner), seen(fan)] == [(True, 5), (True, 6), (False, 6)]
    assert counters(db, scene.tour)["views"] == 6
    keys = set(db.scalars(select(TourView.viewer_key)))
    assert {f"u:{scene.fan.id}", f"u:{scene.owner.id}", "g:g-a", "g:g-b"} < keys
    (address_key,) = [key for key in keys if key.startswith("ip:")]
    assert "testclient" not in address_key  # the address itself is never stored
    db.expire_all()
    assert db.get(Creator, scene.profile.id).views == 6  # type: ignore[union-attr]


def test_the_window_starts_at_utc_midnight() -> None:
    moment = datetime(2026, 3, 4, 17, 45, tzinfo=UTC)
    assert engagement.window_start(moment) == datetime(2026, 3, 4, tzinfo=UTC)


# --------------------------------------------------------------------------------------- shares


def test_anyone_may_share_and_every_share_counts(client: TestClient, db: Session, scene: Scene) -> None:
    assert client.post(SHARES, json={"id": scene.tour.guid}).json()["shared"] == 1
    by_guest = client.post(SHARES, json={"id": scene.tour.guid, "channel": "link"}, headers=guest_headers("g-s"))
    by_user = client.post(
        SHARES, json={"id": scene.tour.guid, "channel": "facebook"}, headers=factories.bearer(scene.fan)
    )
    assert by_guest.json()["shared"] == 2 and by_user.json()["shared"] == 3
    rows = db.execute(select(TourShare.user_id, TourShare.guest_id, TourShare.channel).order_by(TourShare.id))
    assert [tuple(row) for row in rows] == [(None, None, None), (None, "g-s", "link"), (scene.fan.id, None, "facebook")]
    assert client.post(SHARES, json={"id": "f" * 32}).status_code == 404


# ------------------------------------------------------------------------------------- realtime


def test_every_counter_change_is_pushed_to_the_tours_room_after_commit(
    client: TestClient, scene: Scene, emits: RecordedEmits
) -> None:
    room = events.tour_room(scene.tour.guid)
    like(client, scene.fan, scene.tour)
    like(client, scene.fan, scene.tour)  # no change: nothing to push
    save(client, scene.fan, scene.tour)
    client.post(SHARES, json={"id": scene.tour.guid})
    client.post(VIEW, json={"id": scene.tour.guid}, headers=factories.bearer(scene.fan))
    save(client, scene.owner, scene.tour)  # refused: rolled back, nothing pushed
    pushed = emits.of(events.TOUR_COUNTERS, room)
    base = {"id": scene.tour.guid, "views": 0, "likes": 1, "saves": 0, "shared": 0}
    assert pushed == [
        base,
        base | {"saves": 1},
        base | {"saves": 1, "shared": 1},
        base | {"saves": 1, "shared": 1, "views": 1},
    ]
    creator_pushes = emits.of(events.CREATOR_COUNTERS, events.creator_room(scene.profile.id))
    assert creator_pushes == [
        {"id": scene.profile.id, "followers": 0, "views": 0, "likes": 1},
        {"id": scene.profile.id, "followers": 0, "views": 1, "likes": 1},
    ]
