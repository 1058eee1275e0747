"""Issue 15 parts 3 and 4: the analytics events, their rollups and the creators' analytics calls.

Correctness is checked against a brute-force count of random events in Python, for time zones with a
whole-hour offset, a half-hour offset, a quarter-hour offset and a daylight-saving change inside the
range, with events on both sides of every local midnight; part of the events read from the rollups
and part live, then all from the rollups. Also: idempotent rollups, every call and caller, the write
paths recording their events, and events dropped with a rolled-back transaction."""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from app.ads.models import Ad, AdApprovalState, AdStatus
from app.analytics import service as analytics
from app.analytics.models import AdRollup, AnalyticsEvent, CreatorRollup, EventKind, RollupState, TourRollup
from app.analytics.recorder import event_row, flush_events, record
from app.analytics.rollup import PARALLEL_FROM_BUCKETS, ROLLUP_TASK, roll_up, roll_up_backlog, roll_up_window, watermark
from app.core.db import get_sessionmaker, utcnow
from app.core.security import hash_password
from app.core.tasks import task_spec
from app.creators.models import Creator
from app.tours.models import Tour
from app.users.models import User
from tests import factories

TOTALS = "/v2/creators/creator-analytic-totals"
VIEWS = "/v2/creators/media-views-by-date"
ACTIVITY = "/v2/creators/media-activity-by-date"
TABLE = "/v2/creators/creator-analytics"
AD_TOTALS = "/v2/creators/ads-analytic-totals"
AD_VIEWS = "/v2/creators/ads-views-by-date"
AD_ACTIVITY = "/v2/creators/ads-activity-by-date"
AD_TABLE = "/v2/creators/ads-analytics"
EVERY_CALL = (TOTALS, VIEWS, ACTIVITY, TABLE, AD_TOTALS, AD_VIEWS, AD_ACTIVITY, AD_TABLE)

FIRST, LAST = date(2026, 10, 24), date(2026, 11, 8)
# UTC; India (+5:30); Nepal (+5:45); New York and Berlin change clocks inside the range (Nov 1, Oct 25).
ZONES = ("UTC", "Asia/Kolkata", "Asia/Kathmandu", "America/New_York", "Europe/Berlin")
KIND_FIELDS = {
    EventKind.view: "views",
    EventKind.like: "likes",
    EventKind.save: "saves",
    EventKind.share: "shares",
    EventKind.follow: "follows",
    EventKind.ad_impression: "impressions",
    EventKind.ad_click: "clicks",
}


@pytest.fixture(autouse=True)
def cheap_passwords(monkeypatch: pytest.MonkeyPatch) -> None:
    hashed = hash_password("Secret1!")
    monkeypatch.setattr(factories, "hash_password", lambda _password: hashed)


@dataclass
class World:
    owner: User
    creator: Creator
    tours: list[Tour]
    ads: list[Ad]
    other_owner: User
    other_creator: Creator
    other_tour: Tour
    fan: User
    admin: User


def add_ad(db: Session, owner: User, creator: Creator | None, title: str) -> Ad:
    ad = Ad(
        user_id=owner.id,
        creator_id=creator.id if creator else None,
        title=title,
        link=f"https://example.com/ad/{title.replace(' ', '-')}",
        status=AdStatus.active,
        approval_state=AdApprovalState.approved,
    )
    db.add(ad)
    db.flush()
    return ad


@pytest.fixture
def world(db: Session) -> World:
    catalog = factories.catalog(db)
    owner, other_owner, fan = factories.user(db), factories.user(db), factories.user(db)
    admin = factories.user(db, admin=True)
    creator = factories.creator(db, owner)
    other_creator = factories.creator(db, other_owner)
    tours = [catalog.tour(db, owner, creator_id=creator.id, title=f"Tour {number}") for number in range(3)]
    other_tour = catalog.tour(db, other_owner, creator_id=other_creator.id, title="Other tour")
    ads = [add_ad(db, owner, creator, "First ad"), add_ad(db, owner, None, "Second ad")]
    db.commit()
    return World(owner, creator, tours, ads, other_owner, other_creator, other_tour, fan, admin)


def get(client: TestClient, path: str, user: User, **params: Any) -> Any:
    return client.get(path, params=params, headers=factories.bearer(user))


def ok(client: TestClient, path: str, user: User, **params: Any) -> dict[str, Any]:
    answer = get(client, path, user, **params)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


# ---------------------------------------------------------------------------- random events, brute force


def local_midnight(day: date, zone: str) -> datetime:
    return datetime.combine(day, time.min, tzinfo=ZoneInfo(zone)).astimezone(UTC)


def random_events(world: World, seed: int, count: int = 700) -> list[dict[str, Any]]:
    """Events of both creators from two days before FIRST to two days after LAST, plus events one
    second before, at and one second after every local midnight of every zone."""
    rng = random.Random(seed)
    start = datetime.combine(FIRST - timedelta(days=2), time.min, tzinfo=UTC)
    span = (LAST - FIRST).days + 5
    moments = [start + timedelta(seconds=rng.randrange(span * 86400)) for _ in range(count)]
    for zone in ZONES:
        for offset in range(-1, (LAST - FIRST).days + 2):
            midnight = local_midnight(FIRST + timedelta(days=offset), zone)
            moments += [midnight - timedelta(seconds=1), midnight, midnight + timedelta(seconds=1)]
    rows = []
    for moment in moments:
        kind = rng.choice(list(EventKind))
        mine = rng.random() < 0.8
        creator = world.creator if mine else world.other_creator
        value = -1 if kind in (EventKind.like, EventKind.save, EventKind.follow) and rng.random() < 0.2 else 1
        fields: dict[str, Any] = {"creator_id": creator.id, "value": value, "occurred_at": moment}
        if kind in (EventKind.ad_impression, EventKind.ad_click):
            fields["ad_id"] = rng.choice(world.ads).id if mine else 10_000
        elif kind is not EventKind.follow:
            fields["tour_id"] = rng.choice(world.tours).id if mine else world.other_tour.id
        rows.append(event_row(kind, **fields))
    return rows


def brute_force_days(rows: list[dict[str, Any]], creator_id: int, zone: str) -> dict[str, dict[str, int]]:
    days = {
        (FIRST + timedelta(days=n)).isoformat(): dict.fromkeys(KIND_FIELDS.values(), 0)
        for n in range((LAST - FIRST).days + 1)
    }
    for row in rows:
        if row["creator_id"] != creator_id:
            continue
        day = row["occurred_at"].astimezone(ZoneInfo(zone)).date().isoformat()
        if day in days:
            days[day][KIND_FIELDS[row["kind"]]] += row["value"]
    return days


def brute_force_tours(rows: list[dict[str, Any]], zone: str) -> dict[int, dict[str, int]]:
    start, end = local_midnight(FIRST, zone), local_midnight(LAST + timedelta(days=1), zone)
    counts: dict[int, dict[str, int]] = defaultdict(lambda: {"views": 0, "likes": 0, "saves": 0, "shares": 0})
    for row in rows:
        if row["tour_id"] is not None and start <= row["occurred_at"] < end:
            counts[row["tour_id"]][KIND_FIELDS[row["kind"]]] += row["value"]
    return counts


def answered_days(client: TestClient, world: World, zone: str) -> dict[str, dict[str, int]]:
    params = {"date_from": FIRST.isoformat(), "date_to": LAST.isoformat(), "time_zone": zone}
    views = ok(client, VIEWS, world.owner, **params)["data"]
    activity = ok(client, ACTIVITY, world.owner, **params)["data"]
    impressions = ok(client, AD_VIEWS, world.owner, **params)["data"]
    clicks = ok(client, AD_ACTIVITY, world.owner, **params)["data"]
    result = {}
    for seen, acted, shown, clicked in zip(views, activity, impressions, clicks, strict=True):
        assert seen["date"] == acted["date"] == shown["date"] == clicked["date"]
        result[seen["date"]] = {
            "views": seen["views"],
            "likes": acted["likes"],
            "saves": acted["saves"],
            "shares": acted["shared"],
            "follows": acted["follows"],
            "impressions": shown["impressions"],
            "clicks": clicked["clicks"],
        }
    return result


def check_against_brute_force(client: TestClient, world: World, rows: list[dict[str, Any]]) -> None:
    for zone in ZONES:
        expected = brute_force_days(rows, world.creator.id, zone)
        assert answered_days(client, world, zone) == expected, zone
        params = {"date_from": FIRST.isoformat(), "date_to": LAST.isoformat(), "time_zone": zone}
        totals = ok(client, TOTALS, world.owner, **params)
        for name, field in (("views", "views"), ("likes", "likes"), ("saves", "saves"), ("shares", "shared")):
            assert totals[field] == sum(day[name] for day in expected.values()), (zone, name)
        assert totals["follows"] == sum(day["follows"] for day in expected.values())
        ad_totals = ok(client, AD_TOTALS, world.owner, **params)
        assert ad_totals["impressions"] == sum(day["impressions"] for day in expected.values())
        assert ad_totals["clicks"] == sum(day["clicks"] for day in expected.values())
        per_tour = brute_force_tours(rows, zone)
        table = ok(client, TABLE, world.owner, **params)
        by_guid = {tour.guid: tour.id for tour in world.tours}
        assert table["total_items"] == len(world.tours)
        for row in table["data"]:
            want = per_tour.get(by_guid[row["id"]], {"views": 0, "likes": 0, "saves": 0, "shares": 0})
            got = {"views": row["views"], "likes": row["likes"], "saves": row["saves"], "shares": row["shared"]}
            assert got == want, (zone, row["title"])
        assert [row["views"] for row in table["data"]] == sorted((row["views"] for row in table["data"]), reverse=True)


def insert_rows(db: Session, rows: list[dict[str, Any]]) -> None:
    db.execute(insert(AnalyticsEvent), rows)
    db.commit()


def rollup_rows(db: Session) -> tuple[list[Any], list[Any], list[Any]]:
    db.expire_all()
    tours = db.execute(select(TourRollup).order_by(TourRollup.tour_id, TourRollup.bucket)).scalars().all()
    ads = db.execute(select(AdRollup).order_by(AdRollup.ad_id, AdRollup.bucket)).scalars().all()
    creators = db.execute(select(CreatorRollup).order_by(CreatorRollup.creator_id, CreatorRollup.bucket)).scalars()
    as_tuple = lambda row: tuple(getattr(row, column.key) for column in row.__table__.columns)  # noqa: E731
    return [as_tuple(row) for row in tours], [as_tuple(row) for row in ads], [as_tuple(row) for row in creators]


@pytest.mark.parametrize("seed", [1, 2])
def test_answers_match_a_brute_force_count_live_partly_rolled_up_and_rolled_up(
    client: TestClient, db: Session, world: World, seed: int
) -> None:
    rows = random_events(world, seed)
    insert_rows(db, rows)
    # Nothing rolled up yet: every answer is the live part.
    check_against_brute_force(client, world, rows)
    # Rolled up to the middle of the range: rollups below the watermark, events above.
    middle = datetime(2026, 11, 1, 7, 23, tzinfo=UTC)
    report = roll_up(get_sessionmaker(), now=middle)
    assert report.start == 0 and report.rows > 0
    assert watermark(db) == report.end
    check_against_brute_force(client, world, rows)
    # Everything rolled up.
    roll_up(get_sessionmaker())
    check_against_brute_force(client, world, rows)


def test_rollups_are_idempotent_and_equal_a_rollup_from_scratch(db: Session, world: World) -> None:
    rows = random_events(world, seed=3, count=400)
    insert_rows(db, rows)
    factory = get_sessionmaker()
    # Incrementally, in three runs at moving times, then once more at the last time (nothing new).
    for moment in (datetime(2026, 10, 27, tzinfo=UTC), datetime(2026, 11, 3, 12, tzinfo=UTC), None):
        roll_up(factory, now=moment)
    incremental = rollup_rows(db)
    again = roll_up(factory)
    assert rollup_rows(db) == incremental
    assert again.start == again.end - 4  # only the margin is recomputed
    # The whole window recomputed over existing rows, twice: the same rows.
    end = watermark(db)
    for _ in range(2):
        with factory.begin() as session:
            roll_up_window(session, 0, end)
        assert rollup_rows(db) == incremental
    # From scratch: the same rows.
    for model in (TourRollup, AdRollup, CreatorRollup, RollupState):
        db.execute(delete(model))
    db.commit()
    roll_up(factory)
    assert rollup_rows(db) == incremental
    assert incremental[0] and incremental[1] and incremental[2]


def test_a_big_backlog_rolled_up_in_parallel_clears_an_interrupted_runs_leftovers(db: Session, world: World) -> None:
    """PostgreSQL rolls a backlog of four days or more up over two connections, each committing on its
    own before the watermark moves: a run cut off in between leaves rows above the watermark, which
    the next run must replace, not trip over."""
    if db.get_bind().dialect.name != "postgresql":
        pytest.skip("the parallel backlog path is PostgreSQL's (SQLite rolls up in one transaction)")
    rows = random_events(world, seed=5, count=300)
    insert_rows(db, rows)
    factory = get_sessionmaker()
    report = roll_up(factory)
    assert report.end - report.start >= PARALLEL_FROM_BUCKETS  # the parallel path ran
    expected = rollup_rows(db)
    assert expected[0] and expected[1] and expected[2]
    # An interrupted run: its parallel half committed, the watermark never moved.
    roll_up_backlog(factory, 0, report.end)
    db.execute(delete(RollupState))
    db.commit()
    roll_up(factory)
    assert rollup_rows(db) == expected


def test_a_late_event_within_the_margin_is_counted_by_the_next_run(
    client: TestClient, db: Session, world: World
) -> None:
    factory = get_sessionmaker()
    roll_up(factory)
    late = utcnow() - timedelta(minutes=20)  # its quarter hour is already below the watermark
    insert_rows(
        db, [event_row(EventKind.view, tour_id=world.tours[0].id, creator_id=world.creator.id, occurred_at=late)]
    )
    roll_up(factory)
    today = late.date().isoformat()
    assert ok(client, TOTALS, world.owner, date_from=today, date_to=today)["views"] == 1


def test_the_rollup_task_is_registered_and_rolls_up(db: Session, world: World) -> None:
    insert_rows(db, [event_row(EventKind.like, tour_id=world.tours[1].id, creator_id=world.creator.id)])
    task_spec(ROLLUP_TASK).function()
    # The current quarter hour stays live: the event is rolled up only once its bucket has ended.
    roll_up(get_sessionmaker(), now=utcnow() + timedelta(minutes=16))
    db.expire_all()
    assert db.scalars(select(TourRollup.likes).where(TourRollup.tour_id == world.tours[1].id)).all() == [1]


# ------------------------------------------------------------------------------------- the write paths


def events_of(db: Session) -> list[tuple[str, int, int | None, int | None, int | None]]:
    flush_events()
    db.expire_all()
    return [
        (row.kind.value, row.value, row.tour_id, row.creator_id, row.user_id)
        for row in db.scalars(select(AnalyticsEvent).order_by(AnalyticsEvent.id))
    ]


def test_the_write_paths_record_their_events(client: TestClient, db: Session, world: World) -> None:
    fan = factories.bearer(world.fan)
    tour = world.tours[0]
    assert client.post("/v2/virtualtours/post_view", json={"id": tour.guid}, headers=fan).status_code == 200
    assert client.post("/v2/virtualtours/post_view", json={"id": tour.guid}, headers=fan).status_code == 200
    liked = client.post("/v2/virtualtours/post_likes", json={"id": tour.guid, "isLike": True}, headers=fan)
    assert liked.status_code == 200
    unliked = client.post("/v2/virtualtours/post_likes", json={"id": tour.guid, "isLike": False}, headers=fan)
    assert unliked.status_code == 200
    saved = client.post("/v2/virtualtours/post_saves", json={"id": tour.guid, "isSave": True}, headers=fan)
    assert saved.status_code == 200
    shared = client.post("/v2/virtualtours/post_shares", json={"id": tour.guid, "channel": "copy"}, headers=fan)
    assert shared.status_code == 200
    followed = client.post(
        "/v2/creators/followers", json={"userid": world.fan.id, "creator_id": world.creator.id}, headers=fan
    )
    assert followed.status_code == 200
    c, f, t = world.creator.id, world.fan.id, tour.id
    # The repeated view did not count, so it is no event either.
    assert events_of(db) == [
        ("view", 1, t, c, f),
        ("like", 1, t, c, f),
        ("like", -1, t, c, f),
        ("save", 1, t, c, f),
        ("share", 1, t, c, f),
        ("follow", 1, None, c, f),
    ]
    today = datetime.now(UTC).date().isoformat()
    totals = ok(client, TOTALS, world.owner, date_from=today, date_to=today)
    assert {name: totals[name] for name in ("views", "likes", "saves", "shared", "follows")} == {
        "views": 1,
        "likes": 0,
        "saves": 1,
        "shared": 1,
        "follows": 1,
    }
    # Today's numbers are there before any rollup; the default range ends today.
    assert ok(client, VIEWS, world.owner)["data"][-1] == {"date": today, "views": 1}


def test_ad_impressions_and_clicks_recorded_for_the_ads_code(client: TestClient, db: Session, world: World) -> None:
    first, second = world.ads
    analytics.record_ad_impression(db, first, user_id=world.fan.id, viewer_key=f"u:{world.fan.id}")
    analytics.record_ad_impression(db, first, viewer_key="g:guest")
    analytics.record_ad_impression(db, second)  # no creator on the ad: its owner's creator
    analytics.record_ad_click(db, first, user_id=world.fan.id)
    db.commit()
    flush_events()
    today = datetime.now(UTC).date().isoformat()
    assert ok(client, AD_TOTALS, world.owner, date_from=today, date_to=today)["impressions"] == 3
    table = ok(client, AD_TABLE, world.owner, date_from=today, date_to=today)
    assert table["total_items"] == 2
    assert [(row["id"], row["impressions"], row["clicks"]) for row in table["data"]] == [
        (first.guid, 2, 1),
        (second.guid, 1, 0),
    ]
    roll_up(get_sessionmaker(), now=utcnow() + timedelta(minutes=16))
    assert ok(client, AD_TABLE, world.owner, date_from=today, date_to=today)["data"] == table["data"]
    # The other creator sees none of it.
    assert ok(client, AD_TOTALS, world.other_owner, date_from=today, date_to=today)["impressions"] == 0


def test_events_are_dropped_with_a_rolled_back_transaction(db: Session, world: World) -> None:
    tour = world.tours[0]
    analytics.record_tour_event(db, tour, EventKind.view)
    db.rollback()
    assert events_of(db) == []
    # A rolled-back savepoint takes its events along; the transaction's own stay.
    analytics.record_tour_event(db, tour, EventKind.like)
    with db.begin_nested() as savepoint:
        analytics.record_tour_event(db, tour, EventKind.save)
        savepoint.rollback()
    db.commit()
    assert [kind for kind, *_rest in events_of(db)] == ["like"]


def test_a_failed_request_records_nothing(client: TestClient, db: Session, world: World) -> None:
    fan = factories.bearer(world.fan)
    # Saving one's own tour fails (400) after nothing was written: no event.
    own = client.post(
        "/v2/virtualtours/post_saves",
        json={"id": world.tours[0].guid, "isSave": True},
        headers=factories.bearer(world.owner),
    )
    assert own.status_code == 400
    assert client.post("/v2/virtualtours/post_view", json={"id": "missing"}, headers=fan).status_code == 404
    assert events_of(db) == []


def test_record_keeps_the_event_until_commit(db: Session, world: World) -> None:
    record(db, EventKind.view, tour_id=world.tours[0].id, creator_id=world.creator.id)
    assert events_of(db) == []
    db.commit()
    assert len(events_of(db)) == 1


# ------------------------------------------------------------------------------------ callers and errors


@pytest.mark.parametrize("path", EVERY_CALL)
def test_every_call_for_its_creator_and_for_admins(client: TestClient, world: World, path: str) -> None:
    own = ok(client, path, world.owner)
    assert own["creator_id"] == world.creator.id and own["time_zone"] == "UTC"
    assert (date.fromisoformat(own["date_to"]) - date.fromisoformat(own["date_from"])).days == 29
    by_creator = ok(client, path, world.admin, creator_id=world.other_creator.id)
    by_user = ok(client, path, world.admin, user_id=world.other_owner.id)
    assert by_creator["creator_id"] == by_user["creator_id"] == world.other_creator.id
    # A creator naming their own creator is fine; anybody else's is not.
    assert ok(client, path, world.owner, creator_id=world.creator.id)["creator_id"] == world.creator.id
    assert get(client, path, world.owner, creator_id=world.other_creator.id).status_code == 403
    assert get(client, path, world.owner, user_id=world.other_owner.id).status_code == 403
    assert get(client, path, world.owner, creator_id=99_999).status_code == 403
    assert get(client, path, world.fan).status_code == 403  # not a creator
    assert client.get(path).status_code == 401
    assert get(client, path, world.admin).status_code == 400  # an admin names the creator
    assert get(client, path, world.admin, creator_id=99_999).status_code == 404
    assert get(client, path, world.admin, creator_id=world.creator.id, user_id=world.other_owner.id).status_code == 404


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"date_from": "2026-03-02", "date_to": "2026-03-01"}, "date_from"),
        ({"date_from": "2024-01-01", "date_to": "2025-01-01"}, "date_from"),  # 367 days
        ({"date_from": "1999-12-31", "date_to": "2000-01-05"}, "date_from"),
        ({"date_from": "not-a-date"}, "date_from"),
        ({"time_zone": "Mars/Olympus"}, "time_zone"),
        ({"time_zone": "../../etc/passwd"}, "time_zone"),
        ({"time_zone": "EST5EDT,M3.2.0,M11.1.0"}, "time_zone"),
        ({"limit": 0}, "limit"),
        ({"limit": 201}, "limit"),
        ({"offset": -1}, "offset"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(
    client: TestClient, world: World, params: dict[str, Any], field: str
) -> None:
    answer = get(client, TABLE, world.owner, **params)
    assert answer.status_code == 400, answer.text
    assert field in answer.json()["fields"], answer.json()


def test_a_full_year_is_allowed_and_every_day_is_named(client: TestClient, world: World) -> None:
    body = ok(client, VIEWS, world.owner, date_from="2024-01-01", date_to="2024-12-31", time_zone="Pacific/Chatham")
    assert len(body["data"]) == 366 and body["data"][0]["date"] == "2024-01-01"
    assert all(point["views"] == 0 for point in body["data"])


def test_the_table_pages(client: TestClient, db: Session, world: World) -> None:
    rows = [
        event_row(EventKind.view, tour_id=tour.id, creator_id=world.creator.id)
        for number, tour in enumerate(world.tours)
        for _ in range(number + 1)
    ]
    insert_rows(db, rows)
    first = ok(client, TABLE, world.owner, limit=2)
    assert first["total_items"] == 3 and first["limit"] == 2 and first["offset"] == 0
    assert [row["title"] for row in first["data"]] == ["Tour 2", "Tour 1"]
    assert [row["views"] for row in first["data"]] == [3, 2]
    second = ok(client, TABLE, world.owner, limit=2, offset=2)
    assert [(row["title"], row["views"]) for row in second["data"]] == [("Tour 0", 1)]
    assert ok(client, TABLE, world.owner, offset=10)["data"] == []


def test_served_ads_impressions_and_clicks_over_http_reach_the_ads_analytics(
    client: TestClient, db: Session, world: World
) -> None:
    """The ads calls write the events: an impression once per page view, a click once."""
    first = world.ads[0]
    headers = factories.bearer(world.fan)
    for _ in range(2):  # a re-render of the same page view counts once
        assert client.get(f"/v2/ads/show/{first.id}", params={"page_view": "pv-1"}, headers=headers).status_code == 200
    assert client.get(f"/v2/ads/show/{first.id}", params={"page_view": "pv-2"}, headers=headers).status_code == 200
    answer = client.post(f"/v2/ads/click/{first.id}", json={"page_view": "pv-2"}, headers=headers)
    assert answer.status_code == 200, answer.text
    flush_events()
    today = datetime.now(UTC).date().isoformat()
    table = ok(client, AD_TABLE, world.owner, date_from=today, date_to=today)
    assert [(row["id"], row["impressions"], row["clicks"]) for row in table["data"] if row["id"] == first.guid] == [
        (first.guid, 2, 1)
    ]
