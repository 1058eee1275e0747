"""Writing events: cheap on the request path, never written for a transaction that rolls back.

`record(db, kind, ...)` keeps the event on the session's after-commit queue (app/core/after_commit.py):
nothing touches the database during the request. When the request's transaction commits, its events
go to this process's `EventSink`, which writes everything that arrived since its last write in ONE
multi-row INSERT of its own (every 0.2 s, or at once when 5,000 are waiting; at once with
TASKS_EAGER, i.e. in tests). A rolled-back transaction drops its events with its other callbacks.

The price of batching: the events of the last 0.2 s are lost if the process dies (a kill -9, not a
normal stop: the sink writes what it holds at exit). They are statistics, not state: every counter
shown on a card lives on its row and moves in the request's own transaction.
"""

from __future__ import annotations

import atexit
import logging
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.orm import Session, sessionmaker

from app.analytics.models import BUCKET_SECONDS, AnalyticsEvent, EventKind
from app.core.after_commit import after_commit
from app.core.db import get_sessionmaker, utcnow
from app.core.settings import get_settings

logger = logging.getLogger("touratlas.analytics")

FLUSH_INTERVAL_SECONDS = 0.2
FLUSH_AT = 5000

Row = dict[str, Any]
Listener = Callable[[Sequence[Row]], None]


def bucket_of(moment: datetime) -> int:
    """The quarter hour holding `moment`, as a number (epoch seconds // 900)."""
    return int(moment.timestamp()) // BUCKET_SECONDS


def event_row(
    kind: EventKind,
    *,
    value: int = 1,
    tour_id: int | None = None,
    ad_id: int | None = None,
    creator_id: int | None = None,
    user_id: int | None = None,
    viewer_key: str | None = None,
    occurred_at: datetime | None = None,
) -> Row:
    moment = occurred_at or utcnow()
    return {
        "kind": kind,
        "value": value,
        "occurred_at": moment,
        "bucket": bucket_of(moment),
        "tour_id": tour_id,
        "ad_id": ad_id,
        "creator_id": creator_id,
        "user_id": user_id,
        "viewer_key": viewer_key,
    }


def record(db: Session, kind: EventKind, **fields: Any) -> None:
    """Record one event once `db`'s transaction commits (dropped on rollback). Fields: value (+1, or
    -1 for an unlike / unsave / unfollow), tour_id, ad_id, creator_id (the owner's creator),
    user_id, viewer_key, occurred_at (default now, UTC)."""
    row = event_row(kind, **fields)
    if not db.in_transaction():
        db.begin()  # the event belongs to this transaction: its rollback drops it
    after_commit(db, partial(get_sink().add, row), description="analytics event")


# ------------------------------------------------------------------------------------------ the sink

COLUMNS = ("kind", "value", "occurred_at", "bucket", "tour_id", "ad_id", "creator_id", "user_id", "viewer_key")


def write_events(db: Session, rows: Sequence[Row]) -> None:
    """One batch, straight to the driver: COPY on PostgreSQL, one prepared INSERT run for every row
    on SQLite (SQLAlchemy's per-row type processing cost more than the write itself)."""
    connection = db.connection()
    if connection.dialect.name == "postgresql":
        raw: Any = connection.connection.driver_connection
        with raw.cursor() as cursor, cursor.copy(f"COPY analytics_events ({', '.join(COLUMNS)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(
                    (
                        row["kind"].value,
                        row["value"],
                        row["occurred_at"],
                        row["bucket"],
                        row["tour_id"],
                        row["ad_id"],
                        row["creator_id"],
                        row["user_id"],
                        row["viewer_key"],
                    )
                )
    elif connection.dialect.name == "sqlite":
        # SQLAlchemy's own text form of a SQLite DATETIME: UTC wall time, microseconds.
        connection.exec_driver_sql(
            f"INSERT INTO analytics_events ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})",
            [
                (
                    row["kind"].value,
                    row["value"],
                    row["occurred_at"].astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f"),
                    row["bucket"],
                    row["tour_id"],
                    row["ad_id"],
                    row["creator_id"],
                    row["user_id"],
                    row["viewer_key"],
                )
                for row in rows
            ],
        )
    else:
        db.execute(insert(AnalyticsEvent), list(rows))


class EventSink:
    """This process's events waiting to be written, written in batches by one thread."""

    def __init__(self, session_factory: Callable[[], sessionmaker[Session]] = get_sessionmaker) -> None:
        self._session_factory = session_factory
        self._pending: list[Row] = []
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._listeners: list[Listener] = []
        self.written = 0

    def add_listener(self, listener: Listener) -> None:
        """Called with every batch once it is written (the live push)."""
        self._listeners.append(listener)

    def add(self, row: Row) -> None:
        self.add_many((row,))

    def add_many(self, rows: Sequence[Row]) -> None:
        with self._lock:
            self._pending.extend(rows)
            waiting = len(self._pending)
        if get_settings().tasks_eager:
            self.flush()
            return
        self._ensure_thread()
        if waiting >= FLUSH_AT:
            self._wake.set()

    def flush(self) -> int:
        """Write everything waiting now, in one INSERT; returns how many were written. A failed
        write is logged and its events are dropped (a retry could write them twice)."""
        with self._write_lock:
            with self._lock:
                rows, self._pending = self._pending, []
            if not rows:
                return 0
            try:
                with self._session_factory().begin() as db:
                    write_events(db, rows)
            except Exception:
                logger.exception("could not write %d analytics events; dropped", len(rows))
                return 0
            self.written += len(rows)
        for listener in self._listeners:
            try:
                listener(rows)
            except Exception:
                logger.exception("analytics listener failed")
        return len(rows)

    def _ensure_thread(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                return
            self._thread = threading.Thread(target=self._loop, name="touratlas-analytics", daemon=True)
            self._thread.start()

    def _loop(self) -> None:
        while True:
            self._wake.wait(FLUSH_INTERVAL_SECONDS)
            self._wake.clear()
            self.flush()


_sink: EventSink | None = None
_sink_lock = threading.Lock()


def get_sink() -> EventSink:
    global _sink
    if _sink is None:
        with _sink_lock:
            if _sink is None:
                _sink = EventSink()
                from app.analytics import live

                _sink.add_listener(live.get_pusher().note)
                atexit.register(_sink.flush)
    return _sink


def flush_events() -> int:
    """Write this process's waiting events now (tests, benchmarks, shutdown)."""
    return get_sink().flush()


def count_events(db: Session) -> int:
    from sqlalchemy import func

    return int(db.scalar(select(func.count()).select_from(AnalyticsEvent)) or 0)
