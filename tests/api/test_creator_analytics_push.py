"""Issue 6: a creator's analytics tick live. Every view, like, save or share of a creator's tour, and
every follow, pushes the creator's totals (CREATOR_ANALYTICS) to the owner's own room, after commit
(issue 15: once its analytics event is written, at most once a second per creator, with the increments
since the previous push in `recent`; the interval is 0 here, app/analytics/live.py, and
tests/api/test_analytics_live.py tests the throttle)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.analytics.live import get_pusher
from app.realtime import events
from tests import factories
from tests.api.test_engagement import (
    SHARES,
    VIEW,
    RecordedEmits,
    Scene,
    cheap_passwords,
    like,
    record_emits,
    save,
)
from tests.api.test_engagement import scene as scene  # the fixture, shared

FOLLOWERS = "/v2/creators/followers"


@pytest.fixture
def emits(monkeypatch: pytest.MonkeyPatch) -> RecordedEmits:
    monkeypatch.setattr(get_pusher(), "interval", 0.0)
    return record_emits(monkeypatch)


def analytics(emits: RecordedEmits, scene: Scene) -> list[dict[str, Any]]:
    """The pushed totals (without the increments, `recent`)."""
    pushed = emits.of(events.CREATOR_ANALYTICS, events.user_room(scene.owner.id))
    return [{name: value for name, value in payload.items() if name != "recent"} for payload in pushed]


def recent(emits: RecordedEmits, scene: Scene) -> list[dict[str, Any]]:
    return [payload["recent"] for payload in emits.of(events.CREATOR_ANALYTICS, events.user_room(scene.owner.id))]


def totals(scene: Scene, **values: int) -> dict[str, Any]:
    return {"creator_id": scene.profile.id, "views": 0, "likes": 0, "saves": 0, "shared": 0, "followers": 0, **values}


def test_each_kind_of_engagement_moves_the_owners_totals(
    client: TestClient, db: Session, scene: Scene, emits: RecordedEmits
) -> None:
    second = scene.catalog.tour(db, scene.owner, creator_id=scene.profile.id)
    db.commit()
    fan = factories.bearer(scene.fan)
    assert like(client, scene.fan, scene.tour).status_code == 200
    assert save(client, scene.fan, second).status_code == 200
    assert client.post(SHARES, json={"id": scene.tour.guid, "channel": "copy"}, headers=fan).status_code == 200
    assert client.post(VIEW, json={"id": second.guid}, headers=fan).status_code == 200
    follow = client.post(FOLLOWERS, json={"userid": scene.fan.id, "creator_id": scene.profile.id}, headers=fan)
    assert follow.status_code == 200, follow.text
    # Saves and shares add up over the creator's tours, views and likes are the creator's own totals.
    assert analytics(emits, scene) == [
        totals(scene, likes=1),
        totals(scene, likes=1, saves=1),
        totals(scene, likes=1, saves=1, shared=1),
        totals(scene, likes=1, saves=1, shared=1, views=1),
        totals(scene, likes=1, saves=1, shared=1, views=1, followers=1),
    ]
    # Only the owner hears: nobody else's room, and not the tour's or the creator's public rooms.
    rooms = {room for name, _data, room in emits.sent if name == events.CREATOR_ANALYTICS}
    assert rooms == {events.user_room(scene.owner.id)}
    # Each push carries what happened since the previous one, per kind and per tour.
    moved = [
        {name: value for name, value in part.items() if value and name not in ("since", "until", "tours")}
        for part in recent(emits, scene)
    ]
    assert moved == [{"likes": 1}, {"saves": 1}, {"shares": 1}, {"views": 1}, {"follows": 1}]
    assert recent(emits, scene)[0]["tours"] == [
        {"tour_id": scene.tour.id, "id": scene.tour.guid, "views": 0, "likes": 1, "saves": 0, "shares": 0}
    ]


def test_nothing_moves_nothing_ticks(client: TestClient, scene: Scene, emits: RecordedEmits) -> None:
    like(client, scene.fan, scene.tour)
    like(client, scene.fan, scene.tour)  # the same like again: no change, no push
    assert analytics(emits, scene) == [totals(scene, likes=1)]


def test_a_tour_without_a_creator_profile_has_no_analytics(
    client: TestClient, db: Session, scene: Scene, emits: RecordedEmits, monkeypatch: pytest.MonkeyPatch
) -> None:
    cheap_passwords(monkeypatch)
    plain_owner = factories.user(db)
    plain_tour = scene.catalog.tour(db, plain_owner)
    db.commit()
    assert like(client, scene.fan, plain_tour).status_code == 200
    assert [name for name, _data, _room in emits.sent if name == events.CREATOR_ANALYTICS] == []
    assert emits.of(events.TOUR_COUNTERS, events.tour_room(plain_tour.guid))  # the tour's own push still goes
