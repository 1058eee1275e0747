"""FixedInList (app/core/db.py): `IN` with a fixed number of placeholders gives what an expanding IN
gives, at every padding size and across chunks, on SQLite and PostgreSQL; and DirectRead, which runs
them on the driver's cursor, gives the rows a session would."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from app.core.db import DirectRead, FixedInList
from app.users.models import AuthSystem, User
from tests import factories

_users = User.__table__.c
IDS_OF = FixedInList(lambda ids: select(_users.id).where(_users.is_active == bindparam("active"), _users.id.in_(ids)))


@pytest.mark.parametrize("asked", [1, 7, 8, 9, 33, 128, 129, 300])
def test_same_rows_as_an_expanding_in(db: Session, asked: int) -> None:
    users = [factories.user(db, email=f"in{number}@example.com") for number in range(12)]
    users[3].is_active = False
    db.flush()
    known = [user.id for user in users]
    # Asked ids: known ones (some twice), unknown ones, in any order.
    values = [[*known, known[0], 10**9, -5][number % 15] for number in range(asked)]
    expanding = select(_users.id).where(_users.is_active.is_(True), _users.id.in_(values))
    assert sorted({row[0] for row in IDS_OF.rows(db, values, {"active": True})}) == sorted(db.scalars(expanding))


def test_no_values_no_query(db: Session) -> None:
    assert IDS_OF.rows(db, [], {"active": True}) == []


# Of every kind of column the converters differ for between the dialects: booleans, JSON, datetimes
# (text on SQLite) both as a parameter and in the rows, and a constant written into the statement.
ACCOUNTS_SINCE = (
    select(_users.id, _users.is_active, _users.last_location, _users.created_at, _users.email)
    .where(
        _users.created_at >= bindparam("since"), _users.is_deleted.is_(False), _users.auth_system == AuthSystem.email
    )
    .order_by(_users.id)
)
DIRECT_ACCOUNTS_SINCE = DirectRead(ACCOUNTS_SINCE)


def test_a_direct_read_gives_the_sessions_rows(db: Session) -> None:
    located = factories.user(db, email="located@example.com", last_location={"lat": 48.85, "lng": 2.35})
    plain = factories.user(db, email="plain@example.com")
    plain.is_active = False
    factories.user(db, email="gone@example.com", is_deleted=True)
    db.flush()
    since = min(located.created_at, plain.created_at) - timedelta(seconds=1)
    expected = [tuple(row) for row in db.execute(ACCOUNTS_SINCE, {"since": since})]
    rows = DIRECT_ACCOUNTS_SINCE.rows(db, {"since": since})
    assert rows == expected
    by_email = {row[4]: row for row in rows}
    assert set(by_email) >= {"located@example.com", "plain@example.com"}
    assert "gone@example.com" not in by_email
    assert by_email["located@example.com"][1:3] == (True, {"lat": 48.85, "lng": 2.35})
    assert by_email["plain@example.com"][1:3] == (False, None)
    assert isinstance(by_email["plain@example.com"][3], datetime)
    assert DIRECT_ACCOUNTS_SINCE.rows(db, {"since": since + timedelta(days=1)}) == []
