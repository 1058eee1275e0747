"""Spec §4 "Follow", §6 (admins and guests cannot follow, nor one's own creator card) and §7 Creators:
followers (GET, POST, DELETE), is-follow (GET, DELETE), post_shares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.creators.models import Creator, Follow
from app.realtime import events
from app.users.models import SessionActivity, User
from tests import factories
from tests.api.test_engagement import RecordedEmits, cheap_passwords, guest_headers, record_emits

FOLLOWERS = "/v2/creators/followers"
IS_FOLLOW = "/v2/creators/is-follow"
SHARES = "/v2/creators/post_shares"


@dataclass
class People:
    fan: User
    other_fan: User
    owner: User
    profile: Creator
    second_owner: User
    second_profile: Creator
    admin: User


@pytest.fixture
def emits(monkeypatch: pytest.MonkeyPatch) -> RecordedEmits:
    return record_emits(monkeypatch)


@pytest.fixture
def people(db: Session, monkeypatch: pytest.MonkeyPatch) -> People:
    cheap_passwords(monkeypatch)
    owner, second_owner = factories.user(db), factories.user(db)
    found = People(
        fan=factories.user(db),
        other_fan=factories.user(db),
        owner=owner,
        profile=factories.creator(db, owner),
        second_owner=second_owner,
        second_profile=factories.creator(db, second_owner),
        admin=factories.user(db, admin=True),
    )
    db.commit()
    return found


def follow(client: TestClient, user: User, creator: Creator) -> Any:
    return client.post(
        FOLLOWERS, json={"userid": str(user.id), "creator_id": creator.id}, headers=factories.bearer(user)
    )


def unfollow(client: TestClient, user: User, creator: Creator, userid: int | None = None) -> Any:
    params = {"creator_id": creator.id} | ({"userid": userid} if userid is not None else {})
    return client.delete(FOLLOWERS, params=params, headers=factories.bearer(user))


def followers_of(db: Session, creator: Creator) -> int:
    db.expire_all()
    row = db.get(Creator, creator.id)
    assert row is not None
    return row.followers


def activity_codes(db: Session, user: User) -> list[tuple[str, str | None, str | None]]:
    rows = db.execute(
        select(SessionActivity.activity_code, SessionActivity.activity_text, SessionActivity.owner_id)
        .where(SessionActivity.userid == user.id)
        .order_by(SessionActivity.id)
    )
    return [(code, text, owner) for code, text, owner in rows]


# ------------------------------------------------------------------------------ follow and unfollow


def test_follow_is_idempotent_and_unfollow_never_goes_below_zero(
    client: TestClient, db: Session, people: People
) -> None:
    first = follow(client, people.fan, people.profile)
    assert first.status_code == 200, first.text
    assert first.json() == {
        "creator_id": people.profile.id,
        "userid": people.fan.id,
        "followers": 1,
        "isFollow": True,
    }
    assert follow(client, people.fan, people.profile).json()["followers"] == 1
    assert follow(client, people.other_fan, people.profile).json()["followers"] == 2
    assert unfollow(client, people.fan, people.profile).json() == {
        "creator_id": people.profile.id,
        "userid": people.fan.id,
        "followers": 1,
        "isFollow": False,
    }
    assert unfollow(client, people.fan, people.profile).json()["followers"] == 1
    assert unfollow(client, people.other_fan, people.profile).json()["followers"] == 0
    assert unfollow(client, people.other_fan, people.profile).json()["followers"] == 0
    assert followers_of(db, people.profile) == 0
    creator_ref = (str(people.profile.id), str(people.owner.id))
    assert activity_codes(db, people.fan) == [("Follow", *creator_ref), ("Unfollow", *creator_ref)]


def test_is_follow_answers_for_the_caller(client: TestClient, people: People) -> None:
    params = {"creator_id": people.profile.id}
    follow(client, people.fan, people.profile)
    assert client.get(IS_FOLLOW, params=params, headers=factories.bearer(people.fan)).json() == {
        "creator_id": people.profile.id,
        "isFollow": True,
    }
    assert client.get(IS_FOLLOW, params=params, headers=factories.bearer(people.other_fan)).json()["isFollow"] is False
    assert client.get(IS_FOLLOW, params=params, headers=guest_headers("g-1")).json()["isFollow"] is False
    assert client.get(IS_FOLLOW, params=params).json()["isFollow"] is False
    asked_for_another = client.get(
        IS_FOLLOW, params=params | {"userid": people.fan.id}, headers=factories.bearer(people.other_fan)
    )
    assert asked_for_another.status_code == 403
    by_admin = client.get(IS_FOLLOW, params=params | {"userid": people.fan.id}, headers=factories.bearer(people.admin))
    assert by_admin.json()["isFollow"] is True


def test_guests_must_sign_in_to_follow(client: TestClient, db: Session, people: People) -> None:
    for headers in ({}, guest_headers("g-2")):
        posted = client.post(FOLLOWERS, json={"creator_id": people.profile.id}, headers=headers)
        deleted = client.delete(FOLLOWERS, params={"creator_id": people.profile.id}, headers=headers)
        assert (posted.status_code, deleted.status_code) == (401, 401)
    assert followers_of(db, people.profile) == 0


def test_admins_cannot_follow(client: TestClient, db: Session, people: People) -> None:
    response = follow(client, people.admin, people.profile)
    assert response.status_code == 403 and response.json()["message"] == "Administrators cannot follow creators"
    assert followers_of(db, people.profile) == 0


def test_nobody_follows_their_own_creator_profile(client: TestClient, db: Session, people: People) -> None:
    response = follow(client, people.owner, people.profile)
    assert response.status_code == 400
    assert response.json()["message"] == "You cannot follow your own creator profile"
    assert follow(client, people.owner, people.second_profile).status_code == 200  # creators follow others
    assert followers_of(db, people.profile) == 0


def test_only_listed_creators_can_be_followed(client: TestClient, db: Session, people: People) -> None:
    people.second_profile.is_active = False
    db.commit()
    assert follow(client, people.fan, people.second_profile).status_code == 404
    missing = client.post(FOLLOWERS, json={"creator_id": 987654}, headers=factories.bearer(people.fan))
    assert missing.status_code == 404 and missing.json()["message"] == "Creator not found"


def test_one_follows_only_for_oneself(client: TestClient, db: Session, people: People) -> None:
    response = client.post(
        FOLLOWERS,
        json={"userid": people.other_fan.id, "creator_id": people.profile.id},
        headers=factories.bearer(people.fan),
    )
    assert response.status_code == 400 and "userid" in response.json()["fields"]
    follow(client, people.other_fan, people.profile)
    assert unfollow(client, people.fan, people.profile, userid=people.other_fan.id).status_code == 403
    removed_by_admin = unfollow(client, people.admin, people.profile, userid=people.other_fan.id)
    assert removed_by_admin.json() | {"userid": None} == {
        "creator_id": people.profile.id,
        "userid": None,
        "followers": 0,
        "isFollow": False,
    }
    assert db.scalar(select(Follow.id)) is None


# ---------------------------------------------------------------------------- remove every follow


def test_removing_every_follow_of_a_user(client: TestClient, db: Session, people: People) -> None:
    follow(client, people.fan, people.profile)
    follow(client, people.fan, people.second_profile)
    follow(client, people.other_fan, people.profile)
    assert (
        client.delete(
            IS_FOLLOW, params={"user_id": people.fan.id}, headers=factories.bearer(people.other_fan)
        ).status_code
        == 403
    )
    answer = client.delete(IS_FOLLOW, headers=factories.bearer(people.fan)).json()
    assert answer == {"userid": people.fan.id, "removed": 2}
    assert (followers_of(db, people.profile), followers_of(db, people.second_profile)) == (1, 0)
    unfollows = [code for code, _text, _owner in activity_codes(db, people.fan) if code == "Unfollow"]
    assert len(unfollows) == 2
    by_admin = client.delete(IS_FOLLOW, params={"user_id": people.other_fan.id}, headers=factories.bearer(people.admin))
    assert by_admin.json() == {"userid": people.other_fan.id, "removed": 1}
    assert followers_of(db, people.profile) == 0
    assert client.delete(IS_FOLLOW, headers=factories.bearer(people.fan)).json()["removed"] == 0


# ---------------------------------------------------------------------------------- follow lists


def test_follow_lists_and_who_may_read_them(client: TestClient, people: People) -> None:
    follow(client, people.fan, people.profile)
    follow(client, people.fan, people.second_profile)
    follow(client, people.other_fan, people.profile)

    mine = client.get(FOLLOWERS, headers=factories.bearer(people.fan)).json()
    assert mine["total_items"] == 2 and mine["limit"] == 50 and mine["offset"] == 0
    assert [row["creator_id"] for row in mine["data"]] == [people.second_profile.id, people.profile.id]
    assert mine["data"][1]["creator_name"] == people.profile.creator_name

    params = {"creator_id": people.profile.id, "limit": 1}
    page = client.get(FOLLOWERS, params=params, headers=factories.bearer(people.owner)).json()
    assert page["total_items"] == 2 and [row["userid"] for row in page["data"]] == [people.other_fan.id]
    assert page["data"][0]["platform_username"] == people.other_fan.platform_username
    assert client.get(FOLLOWERS, params=params, headers=factories.bearer(people.admin)).json()["total_items"] == 2
    stranger = client.get(FOLLOWERS, params=params, headers=factories.bearer(people.second_owner))
    assert stranger.status_code == 403
    one = client.get(
        FOLLOWERS,
        params={"creator_id": people.profile.id, "userid": people.fan.id},
        headers=factories.bearer(people.fan),
    ).json()
    assert [(row["userid"], row["creator_id"]) for row in one["data"]] == [(people.fan.id, people.profile.id)]
    others = client.get(FOLLOWERS, params={"userid": people.fan.id}, headers=factories.bearer(people.other_fan))
    assert others.status_code == 403


# ------------------------------------------------------------------------- index and realtime


def test_follows_reach_the_creator_cards_and_the_creators_room(
    client: TestClient, people: People, emits: RecordedEmits
) -> None:
    follow(client, people.fan, people.profile)
    follow(client, people.fan, people.profile)  # no change, no push
    follow(client, people.other_fan, people.profile)
    unfollow(client, people.other_fan, people.profile)
    pushed = emits.of(events.CREATOR_COUNTERS, events.creator_room(people.profile.id))
    assert [event["followers"] for event in pushed] == [1, 2, 1]
    assert pushed[0] == {"id": people.profile.id, "followers": 1, "views": 0, "likes": 0}

    grid = client.get(
        "/v2/user-recomendations/filtered-grid", params={"mode": "creators"}, headers=factories.bearer(people.fan)
    ).json()
    card = next(card for card in grid["data"] if card["id"] == people.profile.id)
    assert (card["followers"], card["is_follow"]) == (1, True)


# --------------------------------------------------------------------------------------- shares


def test_anyone_may_share_a_creator_profile(client: TestClient, db: Session, people: People) -> None:
    assert client.post(SHARES, json={"id": people.profile.id}).json() == {"id": people.profile.id, "shared": 1}
    by_guest = client.post(SHARES, json={"id": people.profile.id, "channel": "link"}, headers=guest_headers("g"))
    by_user = client.post(SHARES, json={"id": people.profile.id}, headers=factories.bearer(people.fan))
    assert (by_guest.json()["shared"], by_user.json()["shared"]) == (2, 3)
    assert client.post(SHARES, json={"id": people.second_profile.id}).json()["shared"] == 1
    assert client.post(SHARES, json={"id": 987654}).status_code == 404
