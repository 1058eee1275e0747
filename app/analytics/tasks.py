"""Analytics' background task: the incremental rollup, every minute (Celery beat in the distributed
stack, the in-process scheduler embedded)."""

from __future__ import annotations

from app.analytics.rollup import ROLLUP_EVERY_SECONDS, ROLLUP_TASK, roll_up
from app.core.db import get_sessionmaker
from app.core.tasks import task


@task(ROLLUP_TASK, every=ROLLUP_EVERY_SECONDS)
def rollup_task() -> dict[str, int]:
    report = roll_up(get_sessionmaker())
    return {"start": report.start, "end": report.end, "rows": report.rows}
