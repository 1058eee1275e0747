"""Spec §6 Admin "users (activate, deactivate, settings, stats)" and §7 Users: get-moderation-users,
admin-stats, get-api-statistic, admin-user-settings, send-mail and vt-transfer."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.core.outbox import OutboxEntry
from app.core.security import hash_password
from app.creators.models import Creator, CreatorFeaturedTour
from app.notifications.models import OutgoingMail
from app.tours.models import Tour, TourStatus
from app.users.models import BetaTesterAnswer, SessionActivity, User, UserSession
from tests import factories


@pytest.fixture(autouse=True)
def fresh_limits() -> Iterator[None]:
    reset_rate_limits()
    yield


@lru_cache
def _password_hash(password: str) -> str:
    return hash_password(password)


@pytest.fixture(autouse=True)
def quick_passwords(monkeypatch: pytest.MonkeyPatch) -> None:
    # Argon2 is slow on purpose; these tests build many accounts with the same password.
    monkeypatch.setattr(factories, "hash_password", _password_hash)


def get(client: TestClient, admin: User, path: str, **params: Any) -> Any:
    return client.get(f"/v2/users/{path}", params=params, headers=factories.bearer(admin))


# --------------------------------------------------------------------------------- moderation list


def test_moderation_users_filter_by_state_role_and_search(client: TestClient, db: Session) -> None:
    admin = factories.user(db, admin=True, first_name="Zed", platform_username="zed.admin")
    ada = factories.user(db, first_name="Ada", platform_username="ada.l", email="ada@example.com")
    drafted = factories.user(db, first_name="Bob", is_active=False)
    blocked = factories.user(db, first_name="Cy", user_active=False)
    deleted = factories.user(db, first_name="Di", is_deleted=True)
    cm = factories.user(db, first_name="Eve", roles=["CM"], potential_creator=True)
    factories.creator(db, ada)
    db.commit()

    def userids(**params: Any) -> list[int]:
        response = get(client, admin, "get-moderation-users", **params)
        assert response.status_code == 200, response.text
        return [row["userid"] for row in response.json()["data"]]

    assert set(userids()) == {admin.id, ada.id, drafted.id, blocked.id, cm.id}
    assert userids(state="active", sorting="name") == [ada.id, cm.id, admin.id]
    assert userids(state="drafted") == [drafted.id]
    assert userids(state="blocked") == [blocked.id]
    assert userids(state="deleted") == [deleted.id]
    assert userids(role="admin") == [admin.id]
    assert userids(role="cm") == [cm.id]
    assert userids(role="creator") == [ada.id]
    assert userids(role="potential_creator") == [cm.id]
    assert set(userids(role="user")) == {drafted.id, blocked.id, cm.id}
    assert userids(searchPattern="ADA@") == [ada.id]
    assert userids(sorting="oldest")[:2] == [admin.id, ada.id]
    bad = get(client, admin, "get-moderation-users", state="sleeping")
    assert bad.status_code == 400 and "state" in bad.json()["fields"]


def test_moderation_users_page_and_row_shape(client: TestClient, db: Session) -> None:
    admin = factories.user(db, admin=True)
    owner = factories.user(db, user_active=False)
    profile = factories.creator(db, owner)
    category, media, host = factories.category(db, "Parks"), factories.media_type(db, "360"), factories.vendor(db, "H")
    for status in (TourStatus.active, TourStatus.draft):
        factories.tour(db, owner, category_row=category, media_type_row=media, vendor_row=host, status=status)
    for _ in range(3):
        factories.user(db)
    db.commit()
    page = get(client, admin, "get-moderation-users", limit=2, offset=0, sorting="oldest").json()
    assert (page["total_items"], page["limit"], page["offset"], len(page["data"])) == (5, 2, 0, 2)
    row = page["data"][1]
    assert row["userid"] == owner.id and row["creatorId"] == profile.id
    assert (row["state"], row["tours_count"], row["user_active"]) == ("blocked", 2, False)
    assert page["data"][0]["tours_count"] == 0
    last = get(client, admin, "get-moderation-users", limit=2, offset=4).json()
    assert len(last["data"]) == 1 and last["total_items"] == 5


# ------------------------------------------------------------------------------------ admin stats


def test_admin_stats_count_accounts(client: TestClient, db: Session) -> None:
    admin = factories.user(db, admin=True)
    factories.user(db, roles=["CM"])
    factories.user(db, is_active=False)
    factories.user(db, user_active=False)
    factories.user(db, is_deleted=True)
    old = factories.user(db, created_at=datetime.now(UTC) - timedelta(days=10))
    ancient = factories.user(db, created_at=datetime.now(UTC) - timedelta(days=40), potential_creator=True)
    factories.creator(db, old)
    factories.creator(db, factories.user(db), is_active=False)
    db.add(BetaTesterAnswer(user_id=ancient.id, answers={}))
    db.commit()
    response = get(client, admin, "admin-stats")
    assert response.status_code == 200
    data = response.json()["data"]
    # The daily series counts every account created in the range, deleted ones too (they joined then).
    assert data.pop("daily")["total"] == 7
    assert data == {
        "total": 7,
        "active": 5,
        "drafted": 1,
        "blocked": 1,
        "deleted": 1,
        "creators": 1,
        "potential_creators": 1,
        "admins": 1,
        "content_managers": 1,
        "beta_testers": 1,
        "new_last_7_days": 5,
        "new_last_30_days": 6,
    }


# ---------------------------------------------------------------------------------- API statistic


def test_api_statistic_counts_sessions_and_activities_per_utc_day(client: TestClient, db: Session) -> None:
    admin, ada, bob = factories.user(db, admin=True), factories.user(db), factories.user(db)
    day = datetime(2026, 3, 10, tzinfo=UTC)
    late = day + timedelta(hours=23, minutes=59)
    db.add_all(
        [
            UserSession(user_id=ada.id, started_at=day + timedelta(hours=1)),
            UserSession(user_id=bob.id, started_at=late),
            UserSession(guest_id="g-1", started_at=late),
            UserSession(guest_id="g-2", started_at=day + timedelta(days=1, hours=1)),
            UserSession(user_id=ada.id, started_at=day - timedelta(days=3)),  # outside the range
            SessionActivity(userid=ada.id, activity_code="Sign in", created_at=day + timedelta(hours=1)),
            SessionActivity(userid=ada.id, activity_code="Follow", created_at=day + timedelta(hours=2)),
            SessionActivity(userid=bob.id, activity_code="Sign in", created_at=late),
            SessionActivity(userid=bob.id, activity_code="Save", created_at=day + timedelta(days=2)),
            SessionActivity(userid=None, activity_code="Save", created_at=day + timedelta(days=2, hours=3)),
        ]
    )
    db.commit()
    response = get(client, admin, "get-api-statistic", date_from="2026-03-10", date_to="2026-03-12")
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert (data["date_from"], data["date_to"]) == ("2026-03-10", "2026-03-12")
    assert data["totals"] == {
        "sessions": 4,
        "user_sessions": 2,
        "guest_sessions": 2,
        "active_users": 2,
        "activities": 5,
    }
    assert data["activity_codes"] == [
        {"activity_code": "Save", "count": 2},
        {"activity_code": "Sign in", "count": 2},
        {"activity_code": "Follow", "count": 1},
    ]
    assert data["days"] == [
        {
            "date": "2026-03-10",
            "sessions": 3,
            "user_sessions": 2,
            "guest_sessions": 1,
            "active_users": 2,
            "activities": 3,
            "by_code": {"Sign in": 2, "Follow": 1},
        },
        {
            "date": "2026-03-11",
            "sessions": 1,
            "user_sessions": 0,
            "guest_sessions": 1,
            "active_users": 0,
            "activities": 0,
            "by_code": {},
        },
        {
            "date": "2026-03-12",
            "sessions": 0,
            "user_sessions": 0,
            "guest_sessions": 0,
            "active_users": 1,
            "activities": 2,
            "by_code": {"Save": 2},
        },
    ]
    saves = get(
        client, admin, "get-api-statistic", date_from="2026-03-10", date_to="2026-03-12", activity_code="Save"
    ).json()["data"]
    assert saves["totals"]["activities"] == 2 and saves["activity_codes"] == [{"activity_code": "Save", "count": 2}]
    assert saves["totals"]["sessions"] == 4  # sessions have no code: the filter narrows activities only


def test_api_statistic_range_rules(client: TestClient, db: Session) -> None:
    admin = factories.user(db, admin=True)
    db.commit()
    default = get(client, admin, "get-api-statistic").json()["data"]
    today = datetime.now(UTC).date()
    assert date.fromisoformat(default["date_to"]) == today
    assert len(default["days"]) == 30 and default["days"][0]["date"] == (today - timedelta(days=29)).isoformat()
    reversed_range = get(client, admin, "get-api-statistic", date_from="2026-03-12", date_to="2026-03-10")
    assert reversed_range.status_code == 400
    assert reversed_range.json()["fields"] == {"date_from": "date_from must not be after date_to"}
    too_long = get(client, admin, "get-api-statistic", date_from="2024-01-01", date_to="2026-01-01")
    assert too_long.status_code == 400 and too_long.json()["message"] == "Ask for at most 366 days at a time"
    not_a_date = get(client, admin, "get-api-statistic", date_from="yesterday")
    assert not_a_date.status_code == 400 and "date_from" in not_a_date.json()["fields"]


# -------------------------------------------------------------------------------- account settings


def test_admin_reads_and_writes_a_users_settings(client: TestClient, db: Session) -> None:
    admin, user = factories.user(db, admin=True), factories.user(db)
    profile = factories.creator(db, user)
    db.commit()
    read = get(client, admin, "admin-user-settings", userid=user.id)
    assert read.status_code == 200
    assert read.json()["data"] == {
        "userid": user.id,
        "is_admin": False,
        "roles": [],
        "trusted": False,
        "potential_creator": False,
        "is_active": True,
        "user_active": True,
        "editing_creator_pending": False,
        "profile_edit_pending": False,
        "tour_edit_pending": False,
    }
    body = {
        "userid": user.id,
        "roles": ["CM", "CM"],
        "trusted": True,
        "potential_creator": True,
        "tour_edit_pending": True,
    }
    saved = client.post("/v2/users/admin-user-settings", json=body, headers=factories.bearer(admin))
    assert saved.status_code == 200 and saved.json()["message"] == "The user's settings have been saved"
    data = saved.json()["data"]
    assert (data["roles"], data["trusted"], data["potential_creator"], data["tour_edit_pending"]) == (
        ["CM"],
        True,
        True,
        True,
    )
    db.expire_all()
    assert db.get(Creator, profile.id).trusted is True  # type: ignore[union-attr]
    # The role is effective at once: the new content manager searches users.
    search = client.get("/v2/users/search-users", params={"searchPattern": "tester"}, headers=factories.bearer(user))
    assert search.status_code == 200
    # A trusted creator's rename needs no approval.
    rename = client.put(
        "/v2/users/user-params", json={"params": {"platform_username": "trusted.name"}}, headers=factories.bearer(user)
    )
    assert rename.status_code == 200


def test_blocking_through_settings_and_the_lock_out_guards(client: TestClient, db: Session) -> None:
    admin, user = factories.user(db, admin=True), factories.user(db)
    db.commit()

    def post(body: dict[str, Any]) -> Any:
        return client.post("/v2/users/admin-user-settings", json=body, headers=factories.bearer(admin))

    assert post({"userid": user.id, "user_active": False}).json()["data"]["user_active"] is False
    assert client.get("/v2/users/", headers=factories.bearer(user)).status_code == 401
    assert post({"userid": user.id, "user_active": True}).status_code == 200
    assert client.get("/v2/users/", headers=factories.bearer(user)).status_code == 200
    unknown_role = post({"userid": user.id, "roles": ["CM", "wizard"]})
    assert unknown_role.status_code == 400 and unknown_role.json()["fields"]["roles"].endswith("(not wizard)")
    own_rights = post({"userid": admin.id, "is_admin": False})
    assert own_rights.status_code == 400 and own_rights.json()["fields"] == {
        "is_admin": "You cannot remove your own administrator rights"
    }
    assert post({"userid": admin.id, "user_active": False}).status_code == 400
    assert post({"userid": 999_999, "trusted": True}).status_code == 404
    assert post({"userid": user.id, "trusted": "very"}).status_code == 400
    assert get(client, admin, "admin-user-settings").status_code == 400  # userid is required
    assert post({"userid": user.id, "is_admin": True}).json()["data"]["is_admin"] is True
    assert post({"userid": user.id, "roles": ["CM"]}).json()["data"]["roles"] == ["CM"]
    assert post({"userid": user.id, "roles": []}).json()["data"]["roles"] == []


# ------------------------------------------------------------------------------------------- mail


def test_send_mail_goes_through_the_mail_port(client: TestClient, db: Session) -> None:
    admin, user = factories.user(db, admin=True), factories.user(db, email="reader@example.com")
    db.commit()
    response = get(client, admin, "send-mail", userid=user.id, subject=" Your tours ", text="Thanks for the tours!")
    assert response.status_code == 200
    mail = db.scalars(select(OutgoingMail)).one()
    assert response.json()["data"] == {"mail_id": mail.id, "to_address": "reader@example.com"}
    assert (mail.subject, mail.body_text, mail.template) == ("Your tours", "Thanks for the tours!", "admin_message")
    blank = get(client, admin, "send-mail", userid=user.id, subject="   ", text="Hello")
    assert blank.status_code == 400 and blank.json()["fields"] == {"subject": "This field is required"}
    missing = get(client, admin, "send-mail", userid=user.id, subject="Hi")
    assert missing.status_code == 400 and "text" in missing.json()["fields"]
    long_subject = get(client, admin, "send-mail", userid=user.id, subject="x" * 201, text="Hello")
    assert long_subject.status_code == 400 and "subject" in long_subject.json()["fields"]
    assert get(client, admin, "send-mail", userid=999_999, subject="Hi", text="Hello").status_code == 404
    assert len(db.scalars(select(OutgoingMail)).all()) == 1


# --------------------------------------------------------------------------------------- transfer


def _two_creators(db: Session) -> dict[str, Any]:
    source, target = factories.user(db), factories.user(db)
    source_profile, target_profile = factories.creator(db, source), factories.creator(db, target)
    category, media, host = factories.category(db, "Parks"), factories.media_type(db, "360"), factories.vendor(db, "H")

    def tour(owner: User, profile: Creator, **fields: Any) -> Tour:
        return factories.tour(
            db, owner, category_row=category, media_type_row=media, vendor_row=host, creator_id=profile.id, **fields
        )

    tours = [tour(source, source_profile), tour(source, source_profile), tour(source, source_profile, status="draft")]
    kept = tour(target, target_profile)
    tours[0].is_featured, tours[0].featured_order = True, 1
    db.add(CreatorFeaturedTour(creator_id=source_profile.id, tour_id=tours[0].id, position=0))
    source_profile.vt_count, target_profile.vt_count = 2, 1
    db.commit()
    return {
        "source": source,
        "target": target,
        "source_profile": source_profile,
        "target_profile": target_profile,
        "tours": tours,
        "kept": kept,
    }


def test_transfer_of_every_tour_keeps_creators_and_index_in_step(client: TestClient, db: Session) -> None:
    admin = factories.user(db, admin=True)
    world = _two_creators(db)
    source, target = world["source"], world["target"]
    before = client.get(f"/v2/user-recomendations/creator-media/{target.id}").json()
    assert before["total_items"] == 1
    response = client.put(
        "/v2/users/vt-transfer",
        json={"from_userid": source.id, "to_userid": target.id},
        headers=factories.bearer(admin),
    )
    assert response.status_code == 200, response.text
    assert response.json()["data"] == {"transferred": 3, "tours": sorted(tour.guid for tour in world["tours"])}
    db.expire_all()
    moved = db.scalars(select(Tour).where(Tour.id.in_([tour.id for tour in world["tours"]]))).all()
    assert {(tour.user_id, tour.creator_id, tour.is_featured, tour.featured_order) for tour in moved} == {
        (target.id, world["target_profile"].id, False, None)
    }
    assert db.get(Creator, world["source_profile"].id).vt_count == 0  # type: ignore[union-attr]
    assert db.get(Creator, world["target_profile"].id).vt_count == 3  # type: ignore[union-attr]
    assert db.scalars(select(CreatorFeaturedTour)).all() == []
    topics = {(entry.topic, entry.aggregate_id) for entry in db.scalars(select(OutboxEntry))}
    assert {("index.tour", str(tour.id)) for tour in world["tours"]} <= topics
    assert {
        ("index.creator", str(world["source_profile"].id)),
        ("index.creator", str(world["target_profile"].id)),
    } <= topics
    # The index follows: the listed tours now show on the receiver's page and no longer on the giver's.
    assert client.get(f"/v2/user-recomendations/creator-media/{target.id}").json()["total_items"] == 3
    assert client.get(f"/v2/user-recomendations/creator-media/{source.id}").json()["total_items"] == 0


def test_transfer_of_listed_tours_to_a_user_without_a_profile(client: TestClient, db: Session) -> None:
    admin, plain = factories.user(db, admin=True), factories.user(db)
    world = _two_creators(db)
    world["source"].is_deleted = True  # a deleted account's tours can still find a new home
    db.commit()
    chosen = world["tours"][1]
    response = client.put(
        "/v2/users/vt-transfer",
        json={"from_userid": world["source"].id, "to_userid": plain.id, "tours": [chosen.guid]},
        headers=factories.bearer(admin),
    )
    assert response.status_code == 200 and response.json()["message"] == "1 tours transferred"
    db.expire_all()
    moved = db.get(Tour, chosen.id)
    assert moved is not None and (moved.user_id, moved.creator_id) == (plain.id, None)
    assert db.get(Creator, world["source_profile"].id).vt_count == 1  # type: ignore[union-attr]
    assert db.get(Tour, world["tours"][0].id).user_id == world["source"].id  # type: ignore[union-attr]


def test_transfer_refuses_bad_requests(client: TestClient, db: Session) -> None:
    admin, drafted = factories.user(db, admin=True), factories.user(db, is_active=False)
    world = _two_creators(db)
    source, target = world["source"], world["target"]

    def put(body: dict[str, Any]) -> Any:
        return client.put("/v2/users/vt-transfer", json=body, headers=factories.bearer(admin))

    same = put({"from_userid": source.id, "to_userid": source.id})
    assert same.status_code == 400 and same.json()["fields"] == {"to_userid": "Choose two different accounts"}
    inactive = put({"from_userid": source.id, "to_userid": drafted.id})
    assert inactive.status_code == 400 and inactive.json()["fields"] == {
        "to_userid": "The receiving account is not active"
    }
    foreign = put({"from_userid": source.id, "to_userid": target.id, "tours": [world["kept"].guid, "nope"]})
    assert foreign.status_code == 400
    assert foreign.json()["fields"]["tours"].startswith("These tours do not belong to this account")
    assert "nope" in foreign.json()["fields"]["tours"]
    empty = put({"from_userid": source.id, "to_userid": target.id, "tours": []})
    assert empty.status_code == 400 and empty.json()["fields"] == {"tours": "Choose at least one tour"}
    assert put({"from_userid": source.id, "to_userid": 999_999}).status_code == 404
    gone = factories.user(db, is_deleted=True)
    db.commit()
    assert put({"from_userid": source.id, "to_userid": gone.id}).status_code == 404
    assert put({"from_userid": source.id}).status_code == 400
    db.expire_all()
    assert {tour.user_id for tour in db.scalars(select(Tour))} == {source.id, target.id}
    assert len(db.scalars(select(Tour).where(Tour.user_id == source.id)).all()) == 3
