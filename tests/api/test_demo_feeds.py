"""Feeds that differ (issue 18 part 8): on the demo corpus, Popular, Trending and For You each rank by
their own rule, say which in `ranked_by`, and their first pages differ as those rules say."""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import pairwise
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.db import get_engine, get_sessionmaker
from app.search.sync import reindex
from app.tours.models import Tour
from app.users.models import User, UserInterest
from demo.corpus import DEMO_EMAIL
from demo.loader import load_demo
from indexer.scores import popular_score
from tests import factories

GRID = "/v2/user-recomendations/filtered-grid"
PAGE = 24


def first_page(client: TestClient, feed: str, headers: dict[str, str] | None = None) -> tuple[str, list[str]]:
    response = client.get(GRID, params={"feed": feed, "mode": "media", "limit": PAGE}, headers=headers or {})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body["ranked_by"], [card["guid"] for card in body["data"] if card["type"] == "vt"]


def test_popular_trending_and_for_you_rank_by_their_own_rules(client: TestClient, db: Session) -> None:
    report = load_demo(get_engine(), images=False, hash_password=lambda password: f"plain:{password}")
    assert report.loaded
    reindex(get_sessionmaker())
    tours = {tour.guid: tour for tour in db.scalars(select(Tour))}
    now = datetime.now(UTC)

    def popular_of(guid: str) -> float:
        tour = tours[guid]
        age_days = (now - tour.created_at.replace(tzinfo=UTC)).total_seconds() / 86400
        return popular_score(views=tour.views, age_days=age_days)

    def mean(values: list[float]) -> float:
        return sum(values) / len(values)

    popular_rule, popular = first_page(client, "popular")
    trending_rule, trending = first_page(client, "trending")
    assert (popular_rule, trending_rule) == ("popular", "trending")
    assert len(popular) == len(trending) == PAGE

    # Each page follows its own rule …
    popular_scores = [popular_of(guid) for guid in popular]
    assert all(a >= b - 1e-4 for a, b in pairwise(popular_scores))
    trending_scores = [tours[guid].trending_score for guid in trending]
    assert trending_scores == sorted(trending_scores, reverse=True)
    # … and wins by it against the other's page: the two rules pick different tours.
    assert mean(popular_scores) > mean([popular_of(guid) for guid in trending])
    assert mean(trending_scores) > mean([tours[guid].trending_score for guid in popular])
    assert len(set(popular[:12]) & set(trending[:12])) <= 4, (popular[:12], trending[:12])
    # Trending finds older tours whose audience came back lately, which Popular's recency half passes by.
    month_old = [guid for guid in trending[:12] if (now - tours[guid].created_at.replace(tzinfo=UTC)).days > 30]
    assert len(month_old) >= 3

    # For You, signed in (no embeddings in tests): trending among the user's interests.
    demo_user = db.scalar(select(User).where(User.email == DEMO_EMAIL))
    assert demo_user is not None
    interests = set(db.scalars(select(UserInterest.category_id).where(UserInterest.user_id == demo_user.id)))
    for_you_rule, for_you = first_page(client, "for_you", factories.bearer(demo_user))
    assert for_you_rule == "interests" and interests
    assert {tours[guid].category_id for guid in for_you} <= interests
    assert for_you != trending

    assert first_page(client, "new")[0] == "newest"
    assert first_page(client, "user_favorite")[0] == "favorite"
    assert first_page(client, "featured")[0] == "featured"
