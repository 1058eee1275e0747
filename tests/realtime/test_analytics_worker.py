"""Issue 15: the analytics rollup runs in a real Celery worker on Redis and PostgreSQL (the distributed
stack), sent by name on the queue the beat schedule names; a second run changes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import insert, select

from app.analytics.models import AnalyticsEvent, EventKind, RollupState, TourRollup
from app.analytics.recorder import event_row
from app.analytics.rollup import ROLLUP_TASK, STATE_NAME
from app.core.db import utcnow
from tests.realtime.conftest import World
from tests.realtime.stack import Stack, wait_for

pytestmark = pytest.mark.distributed


def rollup_of(stack: Stack, tour_id: int) -> list[tuple[Any, ...]]:
    with stack.session() as session:
        rows = session.execute(
            select(TourRollup.day, TourRollup.views, TourRollup.likes).where(TourRollup.tour_id == tour_id)
        ).all()
        return [tuple(row) for row in rows]


def test_the_worker_rolls_up_the_events(stack: Stack, world: World) -> None:
    stack.workers("w1")
    tour = world.tours[0]
    earlier = utcnow() - timedelta(days=1)  # a UTC day that has ended: the tour rollups hold whole days
    rows = [event_row(EventKind.view, tour_id=tour.id, occurred_at=earlier) for _ in range(3)]
    rows.append(event_row(EventKind.like, tour_id=tour.id, occurred_at=earlier))
    with stack.session() as session:
        session.execute(insert(AnalyticsEvent), rows)
        session.commit()

    stack.send_task(ROLLUP_TASK, queue="default")
    rolled = wait_for(lambda: rollup_of(stack, tour.id), what="the rollup rows", timeout=30)
    assert [(views, likes) for _day, views, likes in rolled] == [(3, 1)]
    with stack.session() as session:
        state = session.get(RollupState, STATE_NAME)
        assert state is not None and state.watermark >= (rolled[0][0] + 1) * 96
        first_run = state.updated_at

    # Run again (the margin behind the watermark is recomputed): the same rows.
    stack.send_task(ROLLUP_TASK, queue="default")

    def second_run_done() -> bool:
        with stack.session() as session:
            again = session.get(RollupState, STATE_NAME)
            return again is not None and again.updated_at > first_run

    wait_for(second_run_done, what="a second run", timeout=30)
    assert rollup_of(stack, tour.id) == rolled
