"""What the feed knows of a signed-in viewer, read in one statement: the tours behind their taste
vector (For You, and the Sponsored cards' similarity), their interest categories, and the tags the
Sponsored cards are matched on (app/ads/serving.py).

Every signed-in feed page with a Sponsored slot needs all three. Read as six statements, each one's
round trip through SQLAlchemy cost more than SQLite's work on it; one UNION ALL of the same six
SELECTs, built once, costs one. Each row says which part it belongs to.

The Sponsored cards' share of it (tags and taste vector, `AdTaste`) is kept per viewer for
AD_TASTE_TTL_SECONDS by each process (`AdTasteCache`): a visitor scrolling the feed asks for page
after page, and their likes and saves move the ads' order, not what the page may show. The frequency
cap (impressions) and everything else of the page are read on every request."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Select, Table, bindparam, literal_column, select, union_all
from sqlalchemy.orm import Session

from app.classifications.models import Tag, TagTopicType
from app.core.app_state import kept_on
from app.engagement.models import TourLike, TourSave
from app.tours.models import TourTag
from app.users.models import UserInterest

# The taste vector averages the latest TASTE_ENGAGEMENTS likes and saves (each).
TASTE_ENGAGEMENTS = 50
# The Sponsored cards are matched on the tags of the latest RECENT_ENGAGEMENTS likes and saves (each).
RECENT_ENGAGEMENTS = 100

_likes = cast(Table, TourLike.__table__)
_saves = cast(Table, TourSave.__table__)
_interests = UserInterest.__table__.c
_tour_tags = TourTag.__table__.c
_tags = Tag.__table__.c


def latest(engagements: Table, count: int) -> Select[tuple[int]]:
    """The tours of the viewer's `count` latest likes or saves."""
    return (
        select(engagements.c.tour_id)
        .where(engagements.c.user_id == bindparam("user_id"))
        .order_by(engagements.c.created_at.desc())
        .limit(count)
    )


TASTE_LIKES = latest(_likes, TASTE_ENGAGEMENTS)
TASTE_SAVES = latest(_saves, TASTE_ENGAGEMENTS)
INTERESTS = select(_interests.category_id).where(_interests.user_id == bindparam("user_id"))


def _engaged_tags(engagements: Table) -> Select[tuple[int]]:
    recent = latest(engagements, RECENT_ENGAGEMENTS).scalar_subquery()
    return select(_tour_tags.tag_id).where(_tour_tags.tour_id.in_(recent))


# The active tags of the viewer's interest categories' topics.
_INTEREST_TAGS = select(_tags.id).where(
    _tags.topic_type == TagTopicType.category,
    _tags.topic_id.in_(INTERESTS.scalar_subquery()),
    _tags.is_active.is_(True),
)

TASTE, INTEREST, TAG = 0, 1, 2


def _part(kind: int, values: Select[tuple[int]]) -> Select[tuple[Any, int]]:
    inner = values.subquery()
    return select(literal_column(str(kind)).label("kind"), next(iter(inner.c)).label("value"))


SIGNALS = union_all(
    _part(TASTE, TASTE_LIKES),
    _part(TASTE, TASTE_SAVES),
    _part(INTEREST, INTERESTS),
    _part(TAG, _engaged_tags(_likes)),
    _part(TAG, _engaged_tags(_saves)),
    _part(TAG, _INTEREST_TAGS),
)


@dataclass(frozen=True, slots=True)
class ViewerSignals:
    taste_tours: frozenset[int]
    """The tours of the latest TASTE_ENGAGEMENTS likes and saves: the taste vector is their mean."""
    interests: tuple[int, ...]
    """The interest categories, in the order the database gives them (as `interest_categories`)."""
    tag_ids: frozenset[int]
    """The tags of the latest RECENT_ENGAGEMENTS likes and saves and of the interest categories."""


def viewer_signals(db: Session, user_id: int) -> ViewerSignals:
    taste: set[int] = set()
    interests: list[int] = []
    tags: set[int] = set()
    parts = {TASTE: taste.add, INTEREST: interests.append, TAG: tags.add}
    for kind, value in db.execute(SIGNALS, {"user_id": user_id}):
        parts[int(kind)](int(value))
    return ViewerSignals(taste_tours=frozenset(taste), interests=tuple(interests), tag_ids=frozenset(tags))


# How long a process matches the Sponsored cards on a viewer's tags and taste as it last read them.
AD_TASTE_TTL_SECONDS = 30.0
AD_TASTE_CACHE_SIZE = 10_000


@dataclass(frozen=True, slots=True)
class AdTaste:
    """What the Sponsored cards are matched on (serving.ViewerTaste without whom to cap)."""

    tag_ids: frozenset[int]
    vector: list[float] | None


class AdTasteCache:
    """AdTaste by user id as this process last read it, for at most `ttl` seconds (one per
    application, on its state: a fresh one per test app). Emptied whole when full, as the index's
    CountCache: a bound, not an eviction policy."""

    def __init__(
        self,
        ttl: float = AD_TASTE_TTL_SECONDS,
        size: int = AD_TASTE_CACHE_SIZE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._ttl, self._size, self._clock = ttl, size, clock
        self._tastes: dict[int, tuple[float, AdTaste]] = {}

    def taste(self, user_id: int, read: Callable[[], AdTaste]) -> AdTaste:
        now = self._clock()
        known = self._tastes.get(user_id)
        if known is not None and now - known[0] < self._ttl:
            return known[1]
        taste = read()
        if len(self._tastes) >= self._size:
            self._tastes.clear()
        self._tastes[user_id] = (now, taste)
        return taste


def ad_taste_cache(state: object) -> AdTasteCache:
    """The cache kept on an application's state (one per process; a fresh one per test app)."""
    return kept_on(state, "ad_taste_cache", AdTasteCache, AdTasteCache)
