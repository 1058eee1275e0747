"""Likes, saves, shares and counted views of tours (spec §3 "Player parameters", §4 "Like and save").

Every counter moves in one SQL UPDATE (`likes = likes + 1`) that runs only when the row that
justifies it was really inserted or deleted: the insert is `ON CONFLICT DO NOTHING` and its rowcount
says whether it happened. Two parallel likes by one user therefore count once (the unique key makes
the second a no-op), likes by different users never lose an update (the row lock on the tour
serialises the increments), and an unlike never takes a counter below 0.

A change of counters is announced after the commit: a folded index update ("index.tour_counters",
so the feed's sort orders follow), a realtime push to the tour's room, and an analytics event
(app/analytics: written after commit, it also moves the creator's open Analytics page).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy import ColumnElement, CursorResult, case, delete, literal_column, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import InstrumentedAttribute, Session

from app.analytics.models import EventKind
from app.analytics.service import record_tour_event
from app.auth.service import record_activity
from app.core import outbox_topics
from app.core.db import Base, utcnow
from app.core.errors import BadRequest
from app.core.settings import get_settings
from app.creators.models import Creator
from app.engagement.models import TourLike, TourSave, TourShare, TourView
from app.realtime.events import (
    CREATOR_COUNTERS,
    TOUR_COUNTERS,
    creator_room,
    emit_after_commit,
    tour_room,
)
from app.tours import queries
from app.tours.models import Tour
from app.users.models import User

CANNOT_SAVE_OWN = "You cannot save your own media"
# Activities recorded by the server (spec §4 "Like and save").
SAVE_ACTIVITY, UNDO_SAVE_ACTIVITY = "Save", "Undo save"
# A viewer counts once per tour per UTC day (the window the demo corpus uses too).
VIEW_WINDOW = timedelta(days=1)


@dataclass(frozen=True)
class TourCounters:
    guid: str
    views: int
    likes: int
    saves: int
    shared: int

    def as_event(self) -> dict[str, Any]:
        """The TOUR_COUNTERS payload of app/realtime/events.py."""
        return {"id": self.guid, "views": self.views, "likes": self.likes, "saves": self.saves, "shared": self.shared}


@dataclass(frozen=True)
class PlayerState:
    counters: TourCounters
    user_like: bool
    user_save: bool


# ------------------------------------------------------------------------------ atomic building blocks


def insert_if_absent(db: Session, model: type[Base], values: dict[str, Any]) -> bool:
    """INSERT … ON CONFLICT DO NOTHING; True when the row was inserted. Any unique key of the table
    counts as the conflict, so a parallel duplicate waits for the first one and then does nothing.
    A returned row, not the rowcount, tells: drivers report the rowcount of this form differently."""
    dialect = db.get_bind().dialect.name
    statement: postgresql.Insert | sqlite.Insert
    if dialect == "postgresql":
        statement = postgresql.insert(model).values(**values).on_conflict_do_nothing()
    else:
        statement = sqlite.insert(model).values(**values).on_conflict_do_nothing()
    return db.execute(statement.returning(literal_column("1"))).first() is not None


def delete_rows(db: Session, statement: Any) -> int:
    """Run a DELETE and tell how many rows it removed (0 when a parallel request removed them first)."""
    result = cast(CursorResult[Any], db.execute(statement.execution_options(synchronize_session=False)))
    return int(result.rowcount)


def step(column: InstrumentedAttribute[int], delta: int) -> ColumnElement[int]:
    """`column + delta`, floored at 0, evaluated by the database on the locked row."""
    if delta >= 0:
        return column + delta
    return case((column + delta < 0, 0), else_=column + delta)


# ------------------------------------------------------------------------------------------- reading


def current_counters(db: Session, tour_id: int) -> TourCounters:
    row = db.execute(select(Tour.guid, Tour.views, Tour.likes, Tour.saves, Tour.shared).where(Tour.id == tour_id)).one()
    return TourCounters(*row)


def player_state(db: Session, guid: str, user: User | None) -> PlayerState:
    """GET player/{tour_id}: the counters and, for a signed-in user, whether they like and save it."""
    tour = queries.visible_tour(db, viewer=user, guid=guid)
    counters = current_counters(db, tour.id)
    if user is None:
        return PlayerState(counters, user_like=False, user_save=False)
    liked = db.get(TourLike, (user.id, tour.id)) is not None
    saved = db.get(TourSave, (user.id, tour.id)) is not None
    return PlayerState(counters, user_like=liked, user_save=saved)


def tour_stats(db: Session, guid: str, user: User | None) -> TourCounters:
    """GET tour-stats/{tour_id}: the four counters."""
    return current_counters(db, queries.visible_tour(db, viewer=user, guid=guid).id)


# ------------------------------------------------------------------------------------------- writing


# A counter's analytics event.
EVENT_OF_COUNTER = {
    "views": EventKind.view,
    "likes": EventKind.like,
    "saves": EventKind.save,
    "shared": EventKind.share,
}


def _move_counters(
    db: Session, tour: Tour, *, user_id: int | None = None, viewer_key: str | None = None, **deltas: int
) -> TourCounters:
    """One UPDATE of the tour's counters (and its creator's views/likes), announced after commit,
    and an analytics event per counter moved (who moved it: user_id and viewer_key)."""
    values = {name: step(getattr(Tour, name), delta) for name, delta in deltas.items()}
    row = db.execute(
        update(Tour)
        .where(Tour.id == tour.id)
        .values(**values)
        .returning(Tour.guid, Tour.views, Tour.likes, Tour.saves, Tour.shared)
        .execution_options(synchronize_session=False)
    ).one()
    counters = TourCounters(*row)
    outbox_topics.tour_counters_changed(db, tour.id)
    emit_after_commit(db, TOUR_COUNTERS, counters.as_event(), room=tour_room(counters.guid))
    creator_deltas = {name: delta for name, delta in deltas.items() if name in ("views", "likes")}
    if tour.creator_id is not None and creator_deltas:
        _move_creator_totals(db, tour.creator_id, creator_deltas)
    for name, delta in deltas.items():
        record_tour_event(db, tour, EVENT_OF_COUNTER[name], value=delta, user_id=user_id, viewer_key=viewer_key)
    return counters


def _move_creator_totals(db: Session, creator_id: int, deltas: dict[str, int]) -> None:
    """A creator's views and likes are the sums over their tours (spec §3 creator card/profile)."""
    values = {name: step(getattr(Creator, name), delta) for name, delta in deltas.items()}
    row = db.execute(
        update(Creator)
        .where(Creator.id == creator_id)
        .values(**values)
        .returning(Creator.id, Creator.followers, Creator.views, Creator.likes)
        .execution_options(synchronize_session=False)
    ).one_or_none()
    if row is None:
        return
    outbox_topics.creator_changed(db, creator_id)
    emit_creator_counters(db, *row)


def emit_creator_counters(db: Session, creator_id: int, followers: int, views: int, likes: int) -> None:
    """The CREATOR_COUNTERS push to the creator's room, after commit."""
    data = {"id": creator_id, "followers": followers, "views": views, "likes": likes}
    emit_after_commit(db, CREATOR_COUNTERS, data, room=creator_room(creator_id))


def set_like(db: Session, user: User, guid: str, like: bool) -> tuple[TourCounters, bool]:
    """POST post_likes: like or unlike; idempotent per user. Returns the counters and the new state."""
    tour = queries.visible_tour(db, viewer=user, guid=guid)
    if like:
        changed = insert_if_absent(db, TourLike, {"user_id": user.id, "tour_id": tour.id, "created_at": utcnow()})
    else:
        changed = delete_rows(db, delete(TourLike).where(TourLike.user_id == user.id, TourLike.tour_id == tour.id)) > 0
    if not changed:
        return current_counters(db, tour.id), like
    return _move_counters(db, tour, user_id=user.id, viewer_key=f"u:{user.id}", likes=1 if like else -1), like


def set_save(db: Session, user: User, guid: str, save: bool) -> tuple[TourCounters, bool]:
    """POST post_saves: save or unsave; idempotent per user; records 'Save' / 'Undo save'. A user
    cannot save their own media (the card hides the button; spec §2)."""
    tour = queries.visible_tour(db, viewer=user, guid=guid)
    if save and tour.user_id == user.id:
        raise BadRequest(CANNOT_SAVE_OWN, fields={"id": CANNOT_SAVE_OWN})
    if save:
        changed = insert_if_absent(db, TourSave, {"user_id": user.id, "tour_id": tour.id, "created_at": utcnow()})
    else:
        changed = delete_rows(db, delete(TourSave).where(TourSave.user_id == user.id, TourSave.tour_id == tour.id)) > 0
    if not changed:
        return current_counters(db, tour.id), save
    record_activity(
        db,
        user_id=user.id,
        code=SAVE_ACTIVITY if save else UNDO_SAVE_ACTIVITY,
        text=tour.guid,
        owner_id=str(tour.user_id),
    )
    return _move_counters(db, tour, user_id=user.id, viewer_key=f"u:{user.id}", saves=1 if save else -1), save


def record_share(
    db: Session, guid: str, *, user: User | None, guest_id: str | None, channel: str | None
) -> TourCounters:
    """POST post_shares: anyone may share; every share counts."""
    tour = queries.visible_tour(db, viewer=user, guid=guid)
    db.add(
        TourShare(
            tour_id=tour.id,
            user_id=user.id if user else None,
            guest_id=None if user else guest_id,
            channel=channel,
            created_at=utcnow(),
        )
    )
    db.flush()
    viewer_key = f"u:{user.id}" if user else (f"g:{guest_id}" if guest_id else None)
    return _move_counters(db, tour, user_id=user.id if user else None, viewer_key=viewer_key, shared=1)


# --------------------------------------------------------------------------------------------- views


@dataclass(frozen=True)
class Viewer:
    """Who is looking: a user, a guest (by the guest id of their token) or an address."""

    user: User | None
    guest_id: str | None
    ip: str | None

    @property
    def key(self) -> str:
        if self.user is not None:
            return user_viewer_key(self.user.id)
        if self.guest_id:
            return f"g:{self.guest_id}"
        return f"ip:{hashed_ip(self.ip or 'unknown')}"


def user_viewer_key(user_id: int) -> str:
    """A signed-in viewer's key (Viewer.key), for callers that hold the user's id, not a `User`."""
    return f"u:{user_id}"


def hashed_ip(ip: str) -> str:
    """A keyed hash: the stored key identifies a repeat visitor without keeping their address (and
    without letting anyone recover it by hashing all 2^32 IPv4 addresses)."""
    secret = get_settings().resolved_jwt_secret().encode()
    return hmac.new(secret, ip.encode(), hashlib.sha256).hexdigest()[:40]


def window_start(moment: datetime) -> datetime:
    """The start of the counting window holding `moment` (UTC midnight for a one-day window)."""
    seconds = int(VIEW_WINDOW.total_seconds())
    epoch = int(moment.timestamp())
    return datetime.fromtimestamp(epoch - epoch % seconds, tz=UTC)


def record_view(db: Session, guid: str, viewer: Viewer) -> tuple[TourCounters, bool]:
    """POST post_view: counts once per viewer per window (the unique key on (tour, viewer_key,
    window_start) turns a repeat into a no-op). Returns the counters and whether this view counted."""
    tour = queries.visible_tour(db, viewer=viewer.user, guid=guid)
    now = utcnow()
    counted = insert_if_absent(
        db,
        TourView,
        {
            "tour_id": tour.id,
            "user_id": viewer.user.id if viewer.user else None,
            "guest_id": None if viewer.user else viewer.guest_id,
            "viewer_key": viewer.key,
            "window_start": window_start(now),
            "created_at": now,
        },
    )
    if not counted:
        return current_counters(db, tour.id), False
    return _move_counters(
        db, tour, user_id=viewer.user.id if viewer.user else None, viewer_key=viewer.key, views=1
    ), True
