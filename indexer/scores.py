"""Ranking scores folded into tour documents and refreshed by the periodic rank calculation.

Both decay with time, so `ranks/calc` (a beat task) recomputes them for every document.
"""

from __future__ import annotations

import math

TRENDING_HALF_LIFE_HOURS = 72.0
POPULAR_RECENCY_DAYS = 90.0
# A million views is "as viewed as it gets" for the popularity half of the Popular feed.
POPULAR_VIEWS_CEILING = 6.0


def trending_score(*, views: int, likes: int, saves: int, shared: int, age_hours: float) -> float:
    """Engagement with exponential time decay: shares and saves weigh most, views least."""
    engagement = views + 3 * likes + 4 * saves + 5 * shared
    decay = 0.5 ** (max(age_hours, 0.0) / TRENDING_HALF_LIFE_HOURS)
    return round(float(math.log1p(engagement) * decay), 6)


def popular_score(*, views: int, age_days: float) -> float:
    """Spec §2: Popular mixes 50 % most viewed and 50 % newest."""
    viewed = min(1.0, math.log10(1 + max(views, 0)) / POPULAR_VIEWS_CEILING)
    recent = math.exp(-max(age_days, 0.0) / POPULAR_RECENCY_DAYS)
    return round(0.5 * viewed + 0.5 * recent, 6)
