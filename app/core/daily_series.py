"""Daily series for the admins' statistics (admin-stats of users, tours, creators, vendors): the
range of UTC days a call asks for (`date_from`, `date_to`: ISO dates, at most 366 days, 400
otherwise) and how many rows were created on each of those days, every day named (zero when none),
so a chart needs no gap filling."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from pydantic import BaseModel, Field
from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from app.core.db import utcnow
from app.core.errors import BadRequest

MAX_DAYS = 366
DEFAULT_DAYS = 30
DATE_FROM_DESCRIPTION = f"First UTC day, ISO date (default: {DEFAULT_DAYS - 1} days before date_to)"
DATE_TO_DESCRIPTION = f"Last UTC day, ISO date (default: today); at most {MAX_DAYS} days in all"


class DayCount(BaseModel):
    date: date
    count: int


class DailySeries(BaseModel):
    date_from: date
    date_to: date
    total: int = Field(description="Created within the range")
    series: list[DayCount] = Field(description="Every day of the range, oldest first, 0 when nothing was created")


def day_range(date_from: date | None, date_to: date | None) -> tuple[date, date]:
    """The UTC days asked for: by default the last 30 days up to today; at most 366 days."""
    last = date_to or utcnow().date()
    first = date_from or last - timedelta(days=DEFAULT_DAYS - 1)
    if first > last:
        message = "date_from must not be after date_to"
        raise BadRequest(message, fields={"date_from": message})
    if (last - first).days + 1 > MAX_DAYS:
        message = f"Ask for at most {MAX_DAYS} days at a time"
        raise BadRequest(message, fields={"date_from": message})
    return first, last


def utc_day(session: Session, column: Any) -> ColumnElement[str]:
    """A timestamp's UTC calendar day as 'YYYY-MM-DD'. SQLite stores UTC text already; PostgreSQL
    converts from timestamptz, whatever the server's time zone is."""
    if session.get_bind().dialect.name == "postgresql":
        return func.to_char(func.timezone("UTC", column), "YYYY-MM-DD")
    return func.strftime("%Y-%m-%d", column)


def daily_counts(
    session: Session,
    column: InstrumentedAttribute[datetime],
    first: date,
    last: date,
    *conditions: ColumnElement[bool],
) -> DailySeries:
    """Rows whose `column` falls on each UTC day from `first` to `last` (both included)."""
    start = datetime.combine(first, time.min, tzinfo=UTC)
    end = datetime.combine(last + timedelta(days=1), time.min, tzinfo=UTC)
    day = utc_day(session, column)
    rows = session.execute(
        select(day, func.count()).where(column >= start, column < end, *conditions).group_by(day)
    ).all()
    counted = {str(text): int(count) for text, count in rows}
    series = [
        DayCount(date=moment, count=counted.get(moment.isoformat(), 0))
        for moment in (first + timedelta(days=offset) for offset in range((last - first).days + 1))
    ]
    return DailySeries(date_from=first, date_to=last, total=sum(point.count for point in series), series=series)
