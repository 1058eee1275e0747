"""Cron expressions of the crawler configurations' schedules (cronsim reads and evaluates them).

A schedule is a five-field cron expression (minute, hour, day of month, month, day of week), read in
UTC, or one of the usual shorthands (@hourly, @daily, …). The crawler's periodic task
(app/crawler/tasks.py) asks `latest_due` once a minute; the configuration's answer shows `next_due`.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cronsim import CronSim, CronSimError

from app.core.timestamps import as_utc

# The shorthands Vixie cron and its descendants accept (cronsim reads only the five fields).
SHORTHANDS = {
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
    "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@hourly": "0 * * * *",
}
FIVE_FIELDS = "five fields, minute hour day-of-month month day-of-week, in UTC (e.g. 0 3 * * 1), or @daily"


class InvalidSchedule(ValueError):
    """Not a schedule we can run; the message says what is wrong, for the admin to read."""


def check(expression: str) -> str:
    """The expression as it is stored (spaces tidied); InvalidSchedule when it is not one."""
    tidy = " ".join(expression.split())
    _simulation(tidy, datetime(2000, 1, 1, tzinfo=UTC))
    return tidy


def _simulation(expression: str, start: datetime, *, reverse: bool = False) -> CronSim:
    tidy = " ".join(expression.split())
    fields = SHORTHANDS.get(tidy.lower(), tidy)
    if len(fields.split()) != 5:
        # cronsim also takes a sixth (seconds) field; a crawl started to the second makes no sense
        # when the schedule is looked at once a minute.
        raise InvalidSchedule(f"Not a cron expression: give {FIVE_FIELDS}")
    try:
        return CronSim(fields, start, reverse=reverse)
    except CronSimError as exc:
        raise InvalidSchedule(f"{exc} in the cron expression: give {FIVE_FIELDS}") from exc


def latest_due(expression: str, now: datetime) -> datetime:
    """The latest time at or before `now` the expression names (UTC)."""
    # cronsim walking backwards yields times strictly before its start: start one second later.
    start = as_utc(now).replace(microsecond=0) + timedelta(seconds=1)
    return as_utc(next(_simulation(expression, start, reverse=True)))


def next_due(expression: str, now: datetime) -> datetime:
    """The first time after `now` the expression names (UTC)."""
    return as_utc(next(_simulation(expression, as_utc(now))))
