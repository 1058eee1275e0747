"""The live push: a creator's open Analytics page moves while events arrive.

Each written batch of events (app/analytics/recorder.py) is added to the pending increments of the
creators it concerns; a creator gets at most one CREATOR_ANALYTICS push per PUSH_INTERVAL_SECONDS,
in the owner's own room (`user:{id}`: analytics are private). The push carries the creator's
all-time totals (views, likes, saves, shared, followers, as before) and, in `recent`, what happened
since the previous push: the sums per kind and per tour and ad, with the UTC time span they cover,
so a page adds them to its range's totals, to today's point of its series and to its table rows.

Pushes that would come sooner than the interval wait on a timer and go together. In a process with
several API workers each pushes its own events (a page may get one push per process per second).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.ads.models import Ad
from app.analytics.models import EventKind
from app.core.db import get_sessionmaker
from app.creators.models import Creator
from app.realtime.events import CREATOR_ANALYTICS, emit_now, user_room
from app.tours.models import Tour

logger = logging.getLogger("touratlas.analytics.live")

PUSH_INTERVAL_SECONDS = 1.0

TOUR_FIELDS = {EventKind.view: "views", EventKind.like: "likes", EventKind.save: "saves", EventKind.share: "shares"}
AD_FIELDS = {EventKind.ad_impression: "impressions", EventKind.ad_click: "clicks"}
CREATOR_FIELDS = {**TOUR_FIELDS, EventKind.follow: "follows", **AD_FIELDS}


@dataclass
class Increments:
    since: datetime | None = None
    until: datetime | None = None
    totals: dict[str, int] = field(default_factory=dict)
    tours: dict[int, dict[str, int]] = field(default_factory=dict)
    ads: dict[int, dict[str, int]] = field(default_factory=dict)

    def add(self, rows: Sequence[dict[str, Any]]) -> None:
        """One creator's rows of a written batch."""
        moments = [row["occurred_at"] for row in rows]
        first, last = min(moments), max(moments)
        self.since = first if self.since is None or first < self.since else self.since
        self.until = last if self.until is None or last > self.until else self.until
        totals = self.totals
        for row in rows:
            kind = row["kind"]
            value = row["value"]
            name = CREATOR_FIELDS[kind]
            totals[name] = totals.get(name, 0) + value
            if kind in TOUR_FIELDS:
                if row["tour_id"] is not None:
                    counts = self.tours.setdefault(row["tour_id"], {})
                    counts[name] = counts.get(name, 0) + value
            elif kind in AD_FIELDS and row["ad_id"] is not None:
                counts = self.ads.setdefault(row["ad_id"], {})
                counts[name] = counts.get(name, 0) + value

    def as_payload(self, guids: dict[int, str], ad_guids: dict[int, str] | None = None) -> dict[str, Any]:
        zero = dict.fromkeys(CREATOR_FIELDS.values(), 0)
        return {
            "since": self.since.isoformat() if self.since else None,
            "until": self.until.isoformat() if self.until else None,
            **zero,
            **self.totals,
            "tours": [
                {"tour_id": tour_id, "id": guids.get(tour_id), **dict.fromkeys(TOUR_FIELDS.values(), 0), **counts}
                for tour_id, counts in sorted(self.tours.items())
            ],
            "ads": [
                {"ad_id": ad_id, "id": (ad_guids or {}).get(ad_id), **dict.fromkeys(AD_FIELDS.values(), 0), **counts}
                for ad_id, counts in sorted(self.ads.items())
            ],
        }


class Pusher:
    """Pending increments per creator and when each was last pushed. Creators that are due are pushed
    at once by whoever noted the events (the sink's thread; the request's in tests), all of them with
    one query for their totals; the others wait for this pusher's thread, which pushes each as soon
    as its interval has passed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: dict[int, Increments] = {}
        self._last: dict[int, float] = {}
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._pushing = 0  # pushes taken from _pending and not sent yet
        self.interval = PUSH_INTERVAL_SECONDS

    def note(self, rows: Sequence[dict[str, Any]]) -> None:
        """A batch was written: add it up per creator, push whoever is due."""
        by_creator: dict[int, list[dict[str, Any]]] = {}
        for row in rows:
            creator_id = row.get("creator_id")
            if creator_id is not None:
                by_creator.setdefault(creator_id, []).append(row)
        with self._lock:
            for creator_id, mine in by_creator.items():
                self._pending.setdefault(creator_id, Increments()).add(mine)
            due = self._take_due(time.monotonic())
            waiting = bool(self._pending)
        if due:
            self._push(due)
        if waiting:
            self._ensure_thread()
            self._wake.set()

    def _take_due(self, now: float) -> dict[int, Increments]:
        due = {
            creator_id: increments
            for creator_id, increments in self._pending.items()
            if self._last.get(creator_id, -1e9) + self.interval <= now
        }
        for creator_id in due:
            del self._pending[creator_id]
            self._last[creator_id] = now
        return due

    def _next_due(self) -> float | None:
        if not self._pending:
            return None
        return min(self._last.get(creator_id, -1e9) + self.interval for creator_id in self._pending)

    def _ensure_thread(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name="touratlas-analytics-push", daemon=True)
                self._thread.start()

    def _loop(self) -> None:
        while True:
            with self._lock:
                next_due = self._next_due()
            timeout = None if next_due is None else max(0.0, next_due - time.monotonic())
            self._wake.wait(timeout)
            self._wake.clear()
            with self._lock:
                due = self._take_due(time.monotonic())
                self._pushing += 1
            try:
                if due:
                    self._push(due)
            finally:
                with self._lock:
                    self._pushing -= 1

    def _push(self, due: dict[int, Increments]) -> None:
        try:
            with get_sessionmaker()() as db:
                totals = creators_totals(db, list(due))
                tour_ids = {tour_id for increments in due.values() for tour_id in increments.tours}
                rows = db.execute(select(Tour.id, Tour.guid).where(Tour.id.in_(tour_ids))).all() if tour_ids else []
                guids = {int(tour_id): str(guid) for tour_id, guid in rows}
                # The analytics page's rows are keyed by the guid, tours and ads alike.
                ad_ids = {ad_id for increments in due.values() for ad_id in increments.ads}
                ad_rows = db.execute(select(Ad.id, Ad.guid).where(Ad.id.in_(ad_ids))).all() if ad_ids else []
                ad_guids = {int(ad_id): str(guid) for ad_id, guid in ad_rows}
        except Exception:
            logger.exception("could not read the analytics totals of %d creators", len(due))
            return
        for creator_id, increments in due.items():
            payload = totals.get(creator_id)
            if payload is None:
                continue
            owner_id = payload.pop("owner_id")
            payload["recent"] = increments.as_payload(guids, ad_guids)
            emit_now(CREATOR_ANALYTICS, payload, room=user_room(owner_id))

    def wait_idle(self, timeout: float = 5.0) -> None:
        """Until nothing waits to be pushed (tests)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if not self._pending and not self._pushing:
                    return
            time.sleep(0.02)

    def reset(self) -> None:
        with self._lock:
            self._pending.clear()
            self._last.clear()


def creators_totals(db: Session, creator_ids: list[int]) -> dict[int, dict[str, Any]]:
    """Each creator's all-time totals (the CREATOR_ANALYTICS fields) and owner's user id, in one query:
    views, likes and followers as the creator row keeps them, saves and shares summed over its tours."""
    sums = (
        select(
            Tour.creator_id.label("creator_id"),
            func.sum(Tour.saves).label("saves"),
            func.sum(Tour.shared).label("shared"),
        )
        .where(Tour.creator_id.in_(creator_ids))
        .group_by(Tour.creator_id)
        .subquery()
    )
    rows = db.execute(
        select(
            Creator.id,
            Creator.user_id,
            Creator.views,
            Creator.likes,
            func.coalesce(sums.c.saves, 0),
            func.coalesce(sums.c.shared, 0),
            Creator.followers,
        )
        .outerjoin(sums, sums.c.creator_id == Creator.id)
        .where(Creator.id.in_(creator_ids))
    ).all()
    return {
        int(creator_id): {
            "owner_id": owner_id,
            "creator_id": int(creator_id),
            "views": int(views),
            "likes": int(likes),
            "saves": int(saves),
            "shared": int(shared),
            "followers": int(followers),
        }
        for creator_id, owner_id, views, likes, saves, shared, followers in rows
    }


_pusher = Pusher()


def get_pusher() -> Pusher:
    return _pusher
