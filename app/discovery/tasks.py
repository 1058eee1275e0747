"""Discovery's background tasks: the rank calculation behind Trending and Featured, and the daily
rewrite of every tour's time-dependent scores in the index."""

from __future__ import annotations

from app.core.db import get_sessionmaker
from app.core.tasks import task
from app.discovery.rank_calculation import CALC_RANKS_TASK, calculate_ranks, request_score_refresh

HOUR = 60 * 60.0
DAY = 24 * HOUR


@task(CALC_RANKS_TASK, every=HOUR)
def calculate_ranks_task() -> dict[str, int]:
    report = calculate_ranks(get_sessionmaker())
    return {"trending_changed": report.trending_changed, "featured_renumbered": report.featured_renumbered}


@task("ranks.refresh_scores", every=DAY)
def refresh_scores_task() -> None:
    request_score_refresh(get_sessionmaker())
