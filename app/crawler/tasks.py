"""The crawler's tasks: a session's run, in time slices so a long crawl never holds the embedded
task thread (each slice queues the next); the watchdog that hands a session whose worker died to a
new one; and the schedule, which starts the configurations whose cron time has come. The periodic
ones run from Celery beat in the distributed stack, from the in-process scheduler embedded."""

from __future__ import annotations

from app.core.db import get_sessionmaker, utcnow
from app.core.tasks import get_task_runner, task
from app.crawler import service
from app.crawler.engine import Crawl

SLICE_SECONDS = 30.0
WATCHDOG_EVERY_SECONDS = 60.0
# Cron's own resolution: a scheduled session starts within a minute of its due time.
SCHEDULE_EVERY_SECONDS = 60.0


@task(service.RUN_TASK, queue="default")
def run_session(session_id: int) -> dict[str, object]:
    report = Crawl(get_sessionmaker(), session_id).run(time_budget=SLICE_SECONDS)
    if report.status == "released":
        get_task_runner().submit(service.RUN_TASK, session_id=session_id)
    return {"session_id": session_id, "status": report.status, "pages": report.pages}


@task("crawler.resume_stale", every=WATCHDOG_EVERY_SECONDS)
def resume_stale() -> dict[str, list[int]]:
    with get_sessionmaker()() as db:
        return {"resumed": service.resume_stale(db)}


@task("crawler.schedule", every=SCHEDULE_EVERY_SECONDS)
def start_scheduled() -> dict[str, list[int]]:
    """Start every configuration whose schedule is due. Safe to run from two schedulers at once, or
    again after a restart: the database refuses a second session for one due time."""
    with get_sessionmaker()() as db:
        return {"started": service.start_due(db, utcnow())}
