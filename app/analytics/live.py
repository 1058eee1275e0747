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

    def add(self, row: dict[str, Any]) -> None:
        kind = EventKind(row["kind"])
        value = int(row["value"])
        moment: datetime = row["occurred_at"]
        self.since = moment if self.since is None or moment < self.since else self.since
        self.until = moment if self.until is None or moment > self.until else self.until
        name = CREATOR_FIELDS[kind]
        self.totals[name] = self.totals.get(name, 0) + value
        if kind in TOUR_FIELDS and row.get("tour_id") is not None:
            counts = self.tours.setdefault(int(row["tour_id"]), {})
            counts[name] = counts.get(name, 0) + value
        if kind in AD_FIELDS and row.get("ad_id") is not None:
            counts = self.ads.setdefault(int(row["ad_id"]), {})
            counts[name] = counts.get(name, 0) + value

    def as_payload(self, guids: dict[int, str]) -> dict[str, Any]:
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
                {"ad_id": ad_id, **dict.fromkeys(AD_FIELDS.values(), 0), **counts}
                for ad_id, counts in sorted(self.ads.items())
            ],
        }


class Pusher:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: dict[int, Increments] = {}
        self._last: dict[int, float] = {}
        self._timers: dict[int, threading.Timer] = {}
        self.interval = PUSH_INTERVAL_SECONDS

    def note(self, rows: Sequence[dict[str, Any]]) -> None:
        """A batch was written: add it up per creator, push whoever is due."""
        due: list[int] = []
        now = time.monotonic()
        with self._lock:
            for row in rows:
                creator_id = row.get("creator_id")
                if creator_id is None:
                    continue
                self._pending.setdefault(int(creator_id), Increments()).add(row)
            for creator_id in {int(row["creator_id"]) for row in rows if row.get("creator_id") is not None}:
                if creator_id in self._timers:
                    continue
                wait = self._last.get(creator_id, -1e9) + self.interval - now
                if wait <= 0:
                    due.append(creator_id)
                else:
                    timer = threading.Timer(wait, self._push_later, args=(creator_id,))
                    timer.daemon = True
                    self._timers[creator_id] = timer
                    timer.start()
        for creator_id in due:
            self.push(creator_id)

    def _push_later(self, creator_id: int) -> None:
        with self._lock:
            self._timers.pop(creator_id, None)
        self.push(creator_id)

    def push(self, creator_id: int) -> None:
        with self._lock:
            increments = self._pending.pop(creator_id, None)
            self._last[creator_id] = time.monotonic()
        if increments is None:
            return
        try:
            with get_sessionmaker()() as db:
                payload = creator_totals(db, creator_id)
                if payload is None:
                    return
                owner_id = payload.pop("owner_id")
                rows = db.execute(select(Tour.id, Tour.guid).where(Tour.id.in_(increments.tours))).all()
                guids = {int(tour_id): str(guid) for tour_id, guid in rows}
        except Exception:
            logger.exception("could not read the analytics totals of creator %s", creator_id)
            return
        payload["recent"] = increments.as_payload(guids)
        emit_now(CREATOR_ANALYTICS, payload, room=user_room(owner_id))

    def wait_idle(self, timeout: float = 5.0) -> None:
        """Until no delayed push is waiting (tests)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                timers = list(self._timers.values())
            if not timers:
                return
            for timer in timers:
                timer.join(max(0.0, deadline - time.monotonic()))

    def reset(self) -> None:
        with self._lock:
            for timer in self._timers.values():
                timer.cancel()
            self._timers.clear()
            self._pending.clear()
            self._last.clear()


def creator_totals(db: Session, creator_id: int) -> dict[str, Any] | None:
    """The creator's all-time totals (the CREATOR_ANALYTICS fields) and the owner's user id: views and
    likes as the creator row keeps them, saves and shares summed over the creator's tours."""
    of_creator = Tour.creator_id == creator_id
    saves = select(func.coalesce(func.sum(Tour.saves), 0)).where(of_creator).scalar_subquery()
    shared = select(func.coalesce(func.sum(Tour.shared), 0)).where(of_creator).scalar_subquery()
    row = db.execute(
        select(Creator.user_id, Creator.views, Creator.likes, saves, shared, Creator.followers).where(
            Creator.id == creator_id
        )
    ).one_or_none()
    if row is None:
        return None
    owner_id, views, likes, saves_total, shared_total, followers = row
    return {
        "owner_id": owner_id,
        "creator_id": creator_id,
        "views": int(views),
        "likes": int(likes),
        "saves": int(saves_total),
        "shared": int(shared_total),
        "followers": int(followers),
    }


_pusher = Pusher()


def get_pusher() -> Pusher:
    return _pusher
