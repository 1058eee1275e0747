"""Database and index agree after a random mix of writes that go through the outbox, and a full
reindex gives the same answer; a write made while the index is down is applied later, not lost."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.db import get_sessionmaker
from app.core.outbox import OutboxEntry, OutboxStatus, add_outbox
from app.search.documents import listable_tours
from app.search.registry import get_index
from app.search.sync import dispatch_index_outbox, reindex
from app.tours.models import ApprovalState, Tour, TourStatus, TourVisibility
from app.users.models import User
from indexer.queries import FeedQuery, Sort, TourFilter
from tests import factories


def listed_in_database(db: Session) -> dict[int, tuple[str, int, int, bool]]:
    rows = db.execute(listable_tours()).all()
    return {
        tour.id: (tour.title, tour.views, tour.category_id, tour.visibility == TourVisibility.unlisted)
        for tour, _user, _creator in rows
    }


def listed_in_index() -> dict[int, tuple[str, int]]:
    """Every tour the index lists, unlisted ones too (as an owner's page asks)."""
    page = get_index().feed(FeedQuery(filter=TourFilter(with_unlisted=True), sort=Sort.NEWEST, limit=10_000))
    return {doc["id"]: (doc["title"], doc["views"]) for doc in page.docs}


def assert_parity(db: Session) -> None:
    expected = listed_in_database(db)
    actual = listed_in_index()
    assert set(actual) == set(expected)
    assert actual == {tour_id: value[:2] for tour_id, value in expected.items()}
    public = {tour_id for tour_id, value in expected.items() if not value[3]}
    assert set(get_index().feed(FeedQuery(limit=10_000)).ids) == public
    for category_id in {value[2] for value in expected.values()}:
        in_category = get_index().feed(FeedQuery(filter=TourFilter(categories=(category_id,)), limit=10_000))
        assert set(in_category.ids) == {tour_id for tour_id in public if expected[tour_id][2] == category_id}


def test_random_writes_keep_database_and_index_equal(db: Session) -> None:
    rng = random.Random(42)
    categories = [factories.category(db, name) for name in ("Museums", "Nature", "Hotels")]
    media_type = factories.media_type(db, "360 Panorama")
    vendor = factories.vendor(db, "Kuula")
    owners = [factories.user(db) for _ in range(4)]
    tours = [
        factories.tour(
            db, rng.choice(owners), category_row=rng.choice(categories), media_type_row=media_type, vendor_row=vendor
        )
        for _ in range(40)
    ]
    db.commit()
    for step in range(300):
        tour = db.get(Tour, rng.choice(tours).id)
        assert tour is not None
        action = rng.choice(["title", "views", "status", "approval", "category", "owner", "visibility"])
        if action == "title":
            tour.title = f"Renamed {step}"
        elif action == "views":
            tour.views = rng.randint(0, 10_000)
            add_outbox(db, "index.tour_counters", tour.id, {})
        elif action == "status":
            tour.status = rng.choice(list(TourStatus))
        elif action == "approval":
            tour.approval_state = rng.choice(list(ApprovalState))
        elif action == "category":
            tour.category_id = rng.choice(categories).id
        elif action == "visibility":
            tour.visibility = rng.choice(list(TourVisibility))
        else:
            owner = db.get(User, tour.user_id)
            assert owner is not None
            owner.is_active = not owner.is_active
            for owned in db.scalars(select(Tour).where(Tour.user_id == owner.id)):
                add_outbox(db, "index.tour", owned.id, {})
        if action != "views":
            add_outbox(db, "index.tour", tour.id, {})
        if step % 7 == 0:
            db.commit()  # commits dispatch the outbox (eagerly in tests)
    db.commit()
    assert_parity(db)
    reindex_counts = reindex(get_sessionmaker())
    assert reindex_counts["tours"] == len(listed_in_database(db))
    assert_parity(db)


def test_a_write_while_the_index_is_down_is_applied_later(db: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.core.db import get_sessionmaker

    category = factories.category(db, "Museums")
    tour = factories.tour(
        db,
        factories.user(db),
        category_row=category,
        media_type_row=factories.media_type(db, "Video"),
        vendor_row=factories.vendor(db, "Kuula"),
    )
    index = get_index()

    def index_down(*_args: object, **_kwargs: object) -> int:
        raise ConnectionError("index unavailable")

    monkeypatch.setattr(index, "upsert_tours", index_down)
    db.commit()  # the eager dispatch fails: the entry must stay, marked for a retry
    entry = db.scalars(select(OutboxEntry).where(OutboxEntry.aggregate_id == str(tour.id))).one()
    assert (
        entry.status == OutboxStatus.pending and entry.attempts == 1 and "index unavailable" in (entry.last_error or "")
    )
    assert tour.id not in index.tour_ids()
    monkeypatch.undo()
    db.execute(OutboxEntry.__table__.update().values(available_at=entry.created_at))
    db.commit()
    assert dispatch_index_outbox(get_sessionmaker()) >= 1
    assert tour.id in index.tour_ids()
