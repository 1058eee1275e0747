"""Ranking scores folded into tour documents and refreshed by the periodic rank calculation.

Trending is engagement with a 72-hour half-life: each view, like, save and share counts by its
weight, halved for every 72 hours of its age. `app/discovery/ranking.py` (`ranks.calc`, hourly)
sums the interactions of the last TRENDING_WINDOW_HOURS into `Tour.trending_score`, which the index
copies. Popular mixes views and recency and is computed when a document is written; the daily
score refresh keeps its recency half current.
"""

from __future__ import annotations

import math

TRENDING_HALF_LIFE_HOURS = 72.0
# Seven half-lives: an older interaction weighs under 1 % of a fresh one and is left out.
TRENDING_WINDOW_HOURS = 7 * TRENDING_HALF_LIFE_HOURS
# Shares and saves say most about a tour, views least.
ENGAGEMENT_WEIGHTS = {"view": 1.0, "like": 3.0, "save": 4.0, "share": 5.0}
POPULAR_RECENCY_DAYS = 90.0
# A million views is "as viewed as it gets" for the popularity half of the Popular feed.
POPULAR_VIEWS_CEILING = 6.0


def decayed_weight(weight: float, count: int, age_hours: float) -> float:
    """What `count` interactions of one kind, `age_hours` old, add to a tour's trending sum."""
    return weight * count * math.pow(0.5, max(age_hours, 0.0) / TRENDING_HALF_LIFE_HOURS)


def trending_score(decayed_engagement: float, boost: float = 0.0) -> float:
    """The Trending feed's score: the log of the decayed engagement (so a viral tour does not bury
    everything else for weeks), plus an admin's rank boost."""
    return round(math.log1p(max(decayed_engagement, 0.0)) + boost, 6)


def popular_score(*, views: int, age_days: float) -> float:
    """Spec §2: Popular mixes 50 % most viewed and 50 % newest."""
    viewed = min(1.0, math.log10(1 + max(views, 0)) / POPULAR_VIEWS_CEILING)
    recent = math.exp(-max(age_days, 0.0) / POPULAR_RECENCY_DAYS)
    return round(0.5 * viewed + 0.5 * recent, 6)
