"""The rollups: events summed per (tour | ad | creator, quarter-hour bucket), one column per kind.

A run recomputes every bucket from `watermark - MARGIN_BUCKETS` up to the bucket that ended
GRACE_SECONDS ago, each with one `INSERT … SELECT … GROUP BY … ON CONFLICT DO UPDATE SET column =
excluded.column` per rollup table (the same SQL on SQLite and PostgreSQL), then moves the watermark.
Buckets from the watermark on have no rows yet (a run's rows commit with its watermark): they take a
plain INSERT … SELECT, without the conflict check (a big backlog's first run). On PostgreSQL a backlog
of PARALLEL_FROM_BUCKETS or more is split by table over PARALLEL_CONNECTIONS connections of their own
(one INSERT … SELECT is one process: a big backlog would use one core), each clearing leftovers of an
interrupted run first; the watermark moves only once all of them have committed.
Rows are overwritten with complete counts, never incremented, so running a window again gives the
same rows (idempotent), and an event written late (a slow request, a sink that waited) is counted
when the next run recomputes its bucket, within MARGIN_BUCKETS. Runs are serialised by the lock on
the state row (PostgreSQL) or SQLite's single writer.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import DateTime, bindparam, select, text
from sqlalchemy.orm import Session, sessionmaker

from app.analytics.models import BUCKET_SECONDS, RollupState
from app.analytics.recorder import bucket_of
from app.core.db import utcnow

STATE_NAME = "events"
ROLLUP_TASK = "analytics.rollup"
ROLLUP_EVERY_SECONDS = 60.0
# Buckets recomputed behind the watermark on every run: events that reach the table up to an hour
# after their quarter hour ended still count.
MARGIN_BUCKETS = 4
# A bucket is rolled up (and read from the rollups) once it ended this long ago.
GRACE_SECONDS = 10
# A backlog of four days or more (a first run, a worker that was down) is rolled up in parallel on
# PostgreSQL: the tour rollups on one connection, the creator and ad rollups on another.
PARALLEL_FROM_BUCKETS = 4 * 86_400 // BUCKET_SECONDS
PARALLEL_CONNECTIONS = 2


# Rows go in in key order: the primary key's b-tree is filled from left to right, not at random.
def _sum(kind: str) -> str:
    return f"SUM(CASE WHEN kind = '{kind}' THEN value ELSE 0 END)"


_TOUR_SQL = f"""
INSERT INTO analytics_tour_rollups (tour_id, bucket, creator_id, views, likes, saves, shares)
SELECT tour_id, bucket, MAX(creator_id), {_sum("view")}, {_sum("like")}, {_sum("save")}, {_sum("share")}
FROM analytics_events
WHERE bucket >= :start AND bucket < :end AND tour_id IS NOT NULL AND kind IN ('view', 'like', 'save', 'share')
GROUP BY tour_id, bucket
ORDER BY tour_id, bucket
ON CONFLICT (tour_id, bucket) DO UPDATE SET creator_id = excluded.creator_id, views = excluded.views,
    likes = excluded.likes, saves = excluded.saves, shares = excluded.shares
"""

_AD_SQL = f"""
INSERT INTO analytics_ad_rollups (ad_id, bucket, creator_id, impressions, clicks)
SELECT ad_id, bucket, MAX(creator_id), {_sum("ad_impression")}, {_sum("ad_click")}
FROM analytics_events
WHERE bucket >= :start AND bucket < :end AND ad_id IS NOT NULL AND kind IN ('ad_impression', 'ad_click')
GROUP BY ad_id, bucket
ORDER BY ad_id, bucket
ON CONFLICT (ad_id, bucket) DO UPDATE SET creator_id = excluded.creator_id, impressions = excluded.impressions,
    clicks = excluded.clicks
"""

_CREATOR_SQL = f"""
INSERT INTO analytics_creator_rollups (creator_id, bucket, views, likes, saves, shares, follows, impressions, clicks)
SELECT creator_id, bucket, {_sum("view")}, {_sum("like")}, {_sum("save")}, {_sum("share")}, {_sum("follow")},
    {_sum("ad_impression")}, {_sum("ad_click")}
FROM analytics_events
WHERE bucket >= :start AND bucket < :end AND creator_id IS NOT NULL
GROUP BY creator_id, bucket
ORDER BY creator_id, bucket
ON CONFLICT (creator_id, bucket) DO UPDATE SET views = excluded.views, likes = excluded.likes,
    saves = excluded.saves, shares = excluded.shares, follows = excluded.follows,
    impressions = excluded.impressions, clicks = excluded.clicks
"""

ROLLUP_STATEMENTS = (_TOUR_SQL, _AD_SQL, _CREATOR_SQL)
ROLLUP_TABLES = {
    _TOUR_SQL: "analytics_tour_rollups",
    _AD_SQL: "analytics_ad_rollups",
    _CREATOR_SQL: "analytics_creator_rollups",
}
# The statements each parallel connection runs: the two big rollups apart.
PARALLEL_SHARES = ((_TOUR_SQL,), (_CREATOR_SQL, _AD_SQL))


@dataclass(frozen=True)
class RollupReport:
    start: int
    end: int
    rows: int


def watermark(db: Session) -> int:
    """Buckets below this are complete in the rollups; from it on, answers read the events."""
    return int(db.scalar(select(RollupState.watermark).where(RollupState.name == STATE_NAME)) or 0)


def _without_upsert(statement: str) -> str:
    return statement[: statement.index("ON CONFLICT")]


def roll_up_window(db: Session, start: int, end: int, *, fresh_from: int | None = None) -> int:
    """Recompute the rollup rows of buckets [start, end); returns how many rows were written.
    Buckets from `fresh_from` on are known to have no rollup rows yet (above the watermark): they are
    inserted without the upsert's conflict check, the cheaper path for a big backlog."""
    if db.get_bind().dialect.name == "postgresql":
        # The first run over a big backlog groups millions of rows: let the hash aggregate stay in memory.
        db.execute(text("SET LOCAL work_mem = '256MB'"))
    split = end if fresh_from is None else min(max(fresh_from, start), end)
    written = 0
    for statement in ROLLUP_STATEMENTS:
        for sql, low, high in ((statement, start, split), (_without_upsert(statement), split, end)):
            if low < high:
                result = db.execute(text(sql), {"start": low, "end": high})
                written += max(0, int(getattr(result, "rowcount", 0) or 0))
    return written


def _roll_up_fresh(session_factory: sessionmaker[Session], statements: tuple[str, ...], start: int, end: int) -> int:
    """Buckets [start, end), above the watermark, of some rollup tables, in a transaction of their own.
    Rows there can only be an interrupted run's leftovers (a run's rows count once the watermark
    passes them): they are cleared, then the plain INSERT runs."""
    written = 0
    with session_factory.begin() as db:
        db.execute(text("SET LOCAL work_mem = '256MB'"))
        for statement in statements:
            db.execute(
                text(f"DELETE FROM {ROLLUP_TABLES[statement]} WHERE bucket >= :start AND bucket < :end"),
                {"start": start, "end": end},
            )
            result = db.execute(text(_without_upsert(statement)), {"start": start, "end": end})
            written += max(0, int(getattr(result, "rowcount", 0) or 0))
    return written


def roll_up_backlog(session_factory: sessionmaker[Session], start: int, end: int) -> int:
    """A big backlog above the watermark, PARALLEL_SHARES side by side (PostgreSQL)."""
    with ThreadPoolExecutor(max_workers=PARALLEL_CONNECTIONS, thread_name_prefix="touratlas-rollup") as pool:
        shares = [pool.submit(_roll_up_fresh, session_factory, share, start, end) for share in PARALLEL_SHARES]
        return sum(share.result() for share in shares)


def _ensure_state(db: Session) -> None:
    """The state row, created once (a parallel first run's insert is a no-op)."""
    db.execute(
        text(
            "INSERT INTO analytics_rollup_state (name, watermark, updated_at) VALUES (:name, 0, :now) "
            "ON CONFLICT (name) DO NOTHING"
        ).bindparams(bindparam("now", type_=DateTime(timezone=True))),
        {"name": STATE_NAME, "now": utcnow()},
    )


def roll_up(session_factory: sessionmaker[Session], *, now: datetime | None = None) -> RollupReport:
    """One incremental run (the periodic task): the window since the watermark, margin included."""
    end = bucket_of((now or utcnow()) - timedelta(seconds=GRACE_SECONDS))
    with session_factory.begin() as db:
        _ensure_state(db)
        state = db.execute(select(RollupState).where(RollupState.name == STATE_NAME).with_for_update()).scalar_one()
        start = max(0, state.watermark - MARGIN_BUCKETS) if state.watermark else 0
        if start >= end:
            return RollupReport(start, end, 0)
        fresh_from = min(max(state.watermark, start), end)
        if db.get_bind().dialect.name == "postgresql" and end - fresh_from >= PARALLEL_FROM_BUCKETS:
            rows = roll_up_window(db, start, fresh_from) + roll_up_backlog(session_factory, fresh_from, end)
        else:
            rows = roll_up_window(db, start, end, fresh_from=state.watermark)
        state.watermark = max(state.watermark, end)
        state.updated_at = utcnow()
        return RollupReport(start, end, rows)
