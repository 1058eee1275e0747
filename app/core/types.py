"""Integers a request may carry: bounded to what every database column holds.

An integer the database cannot hold used to reach it and answer 500 (SQLite raises OverflowError above
2^63 - 1; PostgreSQL refuses an `integer` column value above 2^31 - 1). Every integer field of a
request body and every integer path or query parameter is one of these types, so the bound is in the
OpenAPI document and a value beyond it is the usual 400 (tests/api/test_integer_bounds.py holds it).

The bound is PostgreSQL's `integer` (32-bit: ids and counts are `Mapped[int]` columns), the narrower
of our two databases; no id or count comes near it.
"""

from typing import Annotated

from pydantic import Field

DB_INT_MIN = -(2**31)
DB_INT_MAX = 2**31 - 1

DbInt = Annotated[int, Field(ge=DB_INT_MIN, le=DB_INT_MAX)]
"""Any integer a column holds."""

DbId = Annotated[int, Field(ge=1, le=DB_INT_MAX)]
"""A row's id: the database numbers rows from 1."""
