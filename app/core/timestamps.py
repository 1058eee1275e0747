"""A datetime type for response schemas that always carries a UTC offset.

SQLite hands back naive datetimes while PostgreSQL returns aware ones; every timestamp the app stores is UTC,
so naive values are read as UTC and the JSON always says so (`+00:00`), whatever the database.
"""

from datetime import UTC, datetime
from typing import Annotated

from pydantic import AfterValidator


def as_utc(moment: datetime) -> datetime:
    """Treat a naive datetime as UTC and convert an aware one to UTC."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


UtcDateTime = Annotated[datetime, AfterValidator(as_utc)]
