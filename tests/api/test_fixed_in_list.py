"""FixedInList (app/core/db.py): `IN` with a fixed number of placeholders gives what an expanding IN
gives, at every padding size and across chunks, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from app.core.db import FixedInList
from app.users.models import User
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
