"""The rank calculation (`ranks.calc`): trending from decayed interactions, admin boosts, featured
order, and the Trending and Featured feeds following through the outbox."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.classifications.models import Rank, RankEntityType, RankSource
from app.core.db import get_sessionmaker, utcnow
from app.core.outbox import OutboxEntry, OutboxStatus
from app.core.tasks import periodic_schedule
from app.discovery.rank_calculation import calculate_ranks, request_score_refresh
from app.engagement.models import TourLike, TourSave, TourShare, TourView
from app.search.registry import get_index
from app.tours.models import Tour
from app.users.models import User
from indexer.queries import FeedQuery, Sort
from indexer.scores import TRENDING_HALF_LIFE_HOURS
from tests import factories

NOW = utcnow().replace(minute=30, second=0, microsecond=0)


def like(db: Session, tour: Tour, user: User, at: datetime) -> None:
    db.add(TourLike(user_id=user.id, tour_id=tour.id, created_at=at))


def view(db: Session, tour: Tour, viewer: str, at: datetime) -> None:
    db.add(TourView(tour_id=tour.id, viewer_key=viewer, window_start=at, created_at=at))


def feed_titles(client: TestClient, feed: str) -> list[str]:
    answer = client.get("/v2/user-recomendations/filtered-grid", params={"feed": feed, "mode": "media", "limit": 48})
    assert answer.status_code == 200, answer.text
    return [card["title"] for card in answer.json()["data"] if card["type"] == "vt"]


def rank(db: Session, source: str, tour: Tour, value: float) -> None:
    row = db.scalar(select(RankSource).where(RankSource.name == source))
    if row is None:
        row = RankSource(name=source)
        db.add(row)
        db.flush()
    db.add(Rank(rank_source_id=row.id, entity_type=RankEntityType.tour, entity_id=tour.id, value=value))


def scores(db: Session) -> dict[str, float]:
    db.expire_all()
    return {tour.title: tour.trending_score for tour in db.scalars(select(Tour))}


@pytest.fixture
def tours(db: Session) -> dict[str, Tour]:
    catalog = factories.catalog(db)
    owner = factories.user(db)
    made = {name: catalog.tour(db, owner, title=name, age_days=30) for name in ("Old hit", "Fresh", "Quiet")}
    fans = [factories.user(db) for _ in range(5)]
    for fan in fans:  # five likes ten days ago
        like(db, made["Old hit"], fan, NOW - timedelta(days=10))
    like(db, made["Fresh"], fans[0], NOW)
    view(db, made["Fresh"], "g:a", NOW)
    view(db, made["Fresh"], "g:b", NOW - timedelta(hours=1))
    db.add(TourSave(user_id=fans[1].id, tour_id=made["Fresh"].id, created_at=NOW - timedelta(hours=2)))
    db.add(TourShare(tour_id=made["Fresh"].id, created_at=NOW - timedelta(days=30)))  # out of the window
    db.commit()
    return made


def expected(*interactions: tuple[float, float]) -> float:
    """(weight, age in hours) pairs → the score, as specified: log1p of the decayed sum."""
    return math.log1p(sum(weight * 0.5 ** (age / TRENDING_HALF_LIFE_HOURS) for weight, age in interactions))


def test_trending_is_decayed_engagement_and_the_feed_follows(
    client: TestClient, db: Session, tours: dict[str, Tour]
) -> None:
    report = calculate_ranks(get_sessionmaker(), now=NOW)
    assert report.trending_changed == 2
    stored = scores(db)
    # Interactions count from the start of their hour: NOW is half past, so each is half an hour older.
    assert stored["Fresh"] == pytest.approx(expected((3, 0.5), (1, 0.5), (1, 1.5), (4, 2.5)), abs=1e-5)
    assert stored["Old hit"] == pytest.approx(expected(*[(3, 240.5)] * 5), abs=1e-5)
    assert stored["Quiet"] == 0
    # The commit dispatched the outbox (eagerly in tests): the index and the Trending feed follow.
    assert feed_titles(client, "trending") == ["Fresh", "Old hit", "Quiet"]
    changed = db.scalars(select(OutboxEntry.aggregate_id).where(OutboxEntry.topic == "index.tour_counters")).all()
    assert sorted(changed) == sorted(str(tours[name].id) for name in ("Fresh", "Old hit"))
    assert set(db.scalars(select(OutboxEntry.status)).all()) == {OutboxStatus.done}

    # Same moment, same scores: nothing to write.
    assert calculate_ranks(get_sessionmaker(), now=NOW).trending_changed == 0


def test_old_engagement_fades_out_and_leaves_the_feed(client: TestClient, db: Session, tours: dict[str, Tour]) -> None:
    calculate_ranks(get_sessionmaker(), now=NOW)
    later = NOW + timedelta(days=12)  # the old likes are now 22 days old: out of the 21-day window
    calculate_ranks(get_sessionmaker(), now=later)
    stored = scores(db)
    assert stored["Old hit"] == 0
    assert stored["Fresh"] == pytest.approx(expected((3, 288.5), (1, 288.5), (1, 289.5), (4, 290.5)), abs=1e-5)
    assert feed_titles(client, "trending")[0] == "Fresh"


def test_an_admins_trending_rank_boosts_a_tour(client: TestClient, db: Session, tours: dict[str, Tour]) -> None:
    rank(db, "Trending", tours["Quiet"], 5.0)
    db.commit()
    calculate_ranks(get_sessionmaker(), now=NOW)
    assert scores(db)["Quiet"] == 5.0
    assert feed_titles(client, "trending")[0] == "Quiet"


def test_featured_tours_are_numbered_without_gaps(client: TestClient, db: Session) -> None:
    catalog = factories.catalog(db)
    owner = factories.user(db)
    placed_late = catalog.tour(db, owner, title="Dragged second", is_featured=True, featured_order=9)
    placed_first = catalog.tour(db, owner, title="Dragged first", is_featured=True, featured_order=4)
    unplaced_ranked = catalog.tour(db, owner, title="New, ranked", is_featured=True)
    catalog.tour(db, owner, title="New, unranked", is_featured=True)
    unfeatured = catalog.tour(db, owner, title="No longer featured", is_featured=False, featured_order=2)
    rank(db, "Featured", unplaced_ranked, 3.0)
    db.commit()
    db.expire_all()
    edited_at = {tour.id: tour.updated_at for tour in db.scalars(select(Tour))}

    report = calculate_ranks(get_sessionmaker(), now=NOW)
    assert report.featured_renumbered == 5
    db.expire_all()
    order = {tour.title: tour.featured_order for tour in db.scalars(select(Tour))}
    assert order == {
        "Dragged first": 1,
        "Dragged second": 2,
        "New, ranked": 3,
        "New, unranked": 4,
        "No longer featured": None,
    }
    assert feed_titles(client, "featured") == ["Dragged first", "Dragged second", "New, ranked", "New, unranked"]
    # A new rank is not an edit of the tour.
    assert {tour.id: tour.updated_at for tour in db.scalars(select(Tour))} == edited_at
    assert placed_first.id != placed_late.id != unfeatured.id
    assert calculate_ranks(get_sessionmaker(), now=NOW).featured_renumbered == 0


def test_the_score_refresh_rewrites_popular_and_trending_in_the_index(db: Session, tours: dict[str, Tour]) -> None:
    index = get_index()

    def first(sort: Sort) -> str:
        return str(index.feed(FeedQuery(sort=sort, limit=10)).docs[0]["title"])

    # Scores gone stale in the index (all three tours have the same views, age and stored trending).
    index.update_counters({tours["Old hit"].id: {"trending": 99.0, "popular": 99.0}})
    assert first(Sort.TRENDING) == first(Sort.POPULAR) == "Old hit"
    request_score_refresh(get_sessionmaker())  # one outbox entry; its commit dispatches it
    # Equal scores again: the newest tour (highest id) leads both orders.
    assert first(Sort.TRENDING) == first(Sort.POPULAR) == "Quiet"


def test_every_periodic_task_is_registered_with_its_interval() -> None:
    schedule = periodic_schedule()
    assert schedule["ranks.calc"] == 3600
    assert schedule["outbox.dispatch"] == 10
    assert {"ranks.refresh_scores", "billing.end_trials", "mail.retry", "outbox.purge"} <= set(schedule)
