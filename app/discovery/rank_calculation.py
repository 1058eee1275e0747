"""The rank calculation (`ranks/calc`; Celery beat runs it hourly): the scores behind the Trending
and Featured feeds.

- Trending: every view, like, save and share of the last TRENDING_WINDOW_HOURS counts by its weight,
  halved for every 72 hours of its age (indexer/scores.py); the score is the log of that sum plus
  the tour's value from the "Trending" rank source (an admin's boost, if any). Stored in
  `Tour.trending_score`, which the index copies.
- Featured order: featured tours are numbered 1…n without gaps. The order an admin dragged them into
  comes first; featured tours without a place yet follow by their "Featured" rank value, then by
  trending.
- Popular (views and recency) is computed whenever a tour's document is written; `refresh_scores`
  (daily) rewrites every tour's scores in the index so the recency half stays current.

Only rows whose value changed are written, each with its outbox entry, so the index follows.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy import ColumnElement, Select, Table, bindparam, func, insert, select, update
from sqlalchemy.orm import InstrumentedAttribute, Session, sessionmaker

from app.classifications.models import Rank, RankEntityType, RankSource
from app.core import outbox_topics
from app.core.db import utcnow
from app.core.outbox import OutboxEntry, OutboxStatus
from app.core.outbox_topics import OutboxTopic
from app.core.tasks import request_outbox_dispatch
from app.engagement.models import TourLike, TourSave, TourShare, TourView
from app.tours.models import Tour
from indexer.scores import ENGAGEMENT_WEIGHTS, TRENDING_WINDOW_HOURS, decayed_weight, trending_score

logger = logging.getLogger("touratlas.ranking")

CALC_RANKS_TASK = "ranks.calc"

TRENDING_SOURCE = "Trending"
FEATURED_SOURCE = "Featured"
# Smaller changes are not worth an index write; an hour of decay moves an active tour by more.
TRENDING_TOLERANCE = 0.001
WRITE_BATCH = 1000
# Scores are written with Core statements, which leave the ORM's `updated_at` hook out of it.
_TOURS = cast(Table, Tour.__table__)

_INTERACTIONS: tuple[tuple[str, Any], ...] = (
    ("view", TourView),
    ("like", TourLike),
    ("save", TourSave),
    ("share", TourShare),
)


@dataclass(frozen=True)
class RankReport:
    trending_changed: int
    featured_renumbered: int


def calculate_ranks(session_factory: sessionmaker[Session], *, now: datetime | None = None) -> RankReport:
    """The `ranks.calc` task: one transaction; the index follows through the outbox."""
    moment = now or utcnow()
    with session_factory.begin() as session:
        trending = update_trending_scores(session, moment)
        featured = renumber_featured_tours(session)
    logger.info("ranks: %d trending scores and %d featured places changed", trending, featured)
    return RankReport(trending_changed=trending, featured_renumbered=featured)


def request_score_refresh(session_factory: sessionmaker[Session]) -> None:
    """The `ranks.refresh_scores` task: one outbox entry that rewrites every tour's scores in the index."""
    with session_factory.begin() as session:
        outbox_topics.all_scores_stale(session)


# ----------------------------------------------------------------------------------------- trending


def update_trending_scores(session: Session, now: datetime) -> int:
    """Store the trending score of every tour whose score moved; returns how many changed."""
    engagement = decayed_engagement(session, now)
    boosts = rank_values(session, TRENDING_SOURCE)
    stored = _stored_scores(session, set(engagement) | set(boosts))
    targets = {tour_id: trending_score(engagement.get(tour_id, 0.0), boosts.get(tour_id, 0.0)) for tour_id in stored}
    changed = {
        tour_id: score for tour_id, score in targets.items() if abs(score - stored[tour_id]) > TRENDING_TOLERANCE
    }
    _write_scores(session, changed)
    _queue_index_updates(session, OutboxTopic.tour_counters, changed)
    return len(changed)


def decayed_engagement(session: Session, now: datetime) -> dict[int, float]:
    """Tour id → the weighted, decayed sum of its recent interactions. The database groups them by
    tour and hour, so this reads one row per tour and active hour, not one per interaction."""
    since = now - timedelta(hours=TRENDING_WINDOW_HOURS)
    totals: dict[int, float] = defaultdict(float)
    dialect = session.get_bind().dialect.name
    for kind, model in _INTERACTIONS:
        weight = ENGAGEMENT_WEIGHTS[kind]
        for tour_id, hour, count in session.execute(_hourly_counts(model.tour_id, model.created_at, since, dialect)):
            age_hours = (now - _as_utc(hour)).total_seconds() / 3600
            totals[tour_id] += decayed_weight(weight, count, age_hours)
    return dict(totals)


def _hourly_counts(
    tour_id: InstrumentedAttribute[int], created_at: InstrumentedAttribute[datetime], since: datetime, dialect: str
) -> Select[Any]:
    hour = _hour_of(created_at, dialect)
    return (
        select(tour_id, hour.label("hour"), func.count())
        .where(created_at >= since)
        .group_by(tour_id, hour)
        .execution_options(yield_per=10_000)
    )


def _hour_of(created_at: InstrumentedAttribute[datetime], dialect: str) -> ColumnElement[Any]:
    """The start of the interaction's hour (its age counts from there: at most an hour's error on a
    72-hour half-life)."""
    if dialect == "postgresql":
        return func.date_trunc("hour", created_at)
    return func.strftime("%Y-%m-%d %H:00:00", created_at)


def _as_utc(value: datetime | str) -> datetime:
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def rank_values(session: Session, source_name: str) -> dict[int, float]:
    """Tour id → its value from the named rank source (admins set these through the ranks calls)."""
    rows = session.execute(
        select(Rank.entity_id, Rank.value)
        .join(RankSource, RankSource.id == Rank.rank_source_id)
        .where(RankSource.name == source_name, Rank.entity_type == RankEntityType.tour)
    )
    return {entity_id: value for entity_id, value in rows}


def _stored_scores(session: Session, scored_ids: set[int]) -> dict[int, float]:
    """The stored score of every tour that has one, and of every tour that should get one."""
    rows = session.execute(select(Tour.id, Tour.trending_score).where(Tour.trending_score != 0)).all()
    stored = {tour_id: score for tour_id, score in rows}
    missing = sorted(scored_ids - stored.keys())
    for chunk in _chunks(missing, WRITE_BATCH):
        rows = session.execute(select(Tour.id, Tour.trending_score).where(Tour.id.in_(chunk))).all()
        stored.update({tour_id: score for tour_id, score in rows})
    return stored


def _write_scores(session: Session, scores: dict[int, float]) -> None:
    # updated_at is set to itself: a new score is not an edit of the tour.
    statement = (
        update(_TOURS)
        .where(_TOURS.c.id == bindparam("tour_id"))
        .values(trending_score=bindparam("score"), updated_at=_TOURS.c.updated_at)
    )
    rows = [{"tour_id": tour_id, "score": score} for tour_id, score in scores.items()]
    for chunk in _chunks(rows, WRITE_BATCH):
        session.connection().execute(statement, chunk)


# ----------------------------------------------------------------------------------------- featured


def renumber_featured_tours(session: Session) -> int:
    """Number the featured tours 1…n (see the module text); returns how many places changed."""
    featured_rank = rank_values(session, FEATURED_SOURCE)
    rows = session.execute(
        select(Tour.id, Tour.featured_order, Tour.trending_score).where(Tour.is_featured.is_(True))
    ).all()

    def place(row: Any) -> tuple[int, int, float, float, int]:
        unplaced = row.featured_order is None
        return (int(unplaced), row.featured_order or 0, -featured_rank.get(row.id, 0.0), -row.trending_score, row.id)

    ordered = sorted(rows, key=place)
    changed = {row.id: position for position, row in enumerate(ordered, start=1) if row.featured_order != position}
    stale = list(session.scalars(select(Tour.id).where(Tour.is_featured.is_(False), Tour.featured_order.is_not(None))))
    statement = (
        update(_TOURS)
        .where(_TOURS.c.id == bindparam("tour_id"))
        .values(featured_order=bindparam("position"), updated_at=_TOURS.c.updated_at)
    )
    rows_to_write = [{"tour_id": tour_id, "position": position} for tour_id, position in changed.items()]
    rows_to_write += [{"tour_id": tour_id, "position": None} for tour_id in stale]
    for chunk in _chunks(rows_to_write, WRITE_BATCH):
        session.connection().execute(statement, chunk)
    _queue_index_updates(session, OutboxTopic.tour, [row["tour_id"] for row in rows_to_write])
    return len(rows_to_write)


# ----------------------------------------------------------------------------------------- outbox


def _queue_index_updates(session: Session, topic: OutboxTopic, tour_ids: Iterable[int]) -> None:
    """One outbox entry per changed tour, inserted in bulk (an hourly run may touch many tours)."""
    now = utcnow()
    rows = [
        {
            "topic": topic,
            "aggregate_id": str(tour_id),
            "payload": {},
            "status": OutboxStatus.pending,
            "attempts": 0,
            "available_at": now,
            "created_at": now,
        }
        for tour_id in tour_ids
    ]
    if not rows:
        return
    for chunk in _chunks(rows, WRITE_BATCH):
        session.execute(insert(OutboxEntry), chunk)
    # Bulk inserts bypass the unit of work that notices outbox writes: ask for the dispatch here.
    request_outbox_dispatch(session)


def _chunks(items: Sequence[Any], size: int) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
