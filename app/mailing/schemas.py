from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.core.timestamps import UtcDateTime
from app.core.types import DB_INT_MAX

DEFAULT_LIMIT = 20
MAX_LIMIT = 100


class PingOut(BaseModel):
    health_status: str
    list_id: str
    list_name: str
    member_count: int


class DiffParams(BaseModel):
    limit: int = Field(DEFAULT_LIMIT, ge=1, le=MAX_LIMIT)
    offset: int = Field(0, ge=0, le=DB_INT_MAX)


class PersonOut(BaseModel):
    email: str
    first_name: str
    last_name: str


class DiffSide(BaseModel):
    total_items: int
    data: list[PersonOut]


class MembersDiffOut(BaseModel):
    to_subscribe: DiffSide
    to_unsubscribe: DiffSide
    consenting: int
    subscribed: int
    in_step: bool
    limit: int
    offset: int


class SyncRunOut(BaseModel):
    run_id: int
    status: Literal["running", "completed", "failed"]
    total: int
    done: int
    subscribed: int
    unsubscribed: int
    rejected: int
    error: str | None
    # UTC whatever the database hands back (SQLite's are naive): a push and a read say the same.
    started_at: UtcDateTime
    finished_at: UtcDateTime | None


class SyncStateOut(BaseModel):
    data: SyncRunOut | None
