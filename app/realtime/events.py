"""Realtime events: the one way domain code pushes something to open pages.

A service calls `emit_after_commit(db, EVENT, data, room=...)` in the transaction that made the
change; the event leaves only after that transaction commits (and is dropped on rollback), like a
background task. Rooms and event names are the contract with the React client:

rooms   `tour:{guid}` · `creator:{id}` · `user:{id}` · `admins` · `everyone`
events  see the constants below; payloads are plain JSON objects. The client's copy of this list is
        frontend/src/shared/socket/events.ts (tests/realtime/test_contract.py keeps both equal).

With REDIS_URL set the event goes through a write-only Redis manager, so any process (an API worker,
a Celery worker, the CLI) reaches sockets held by every API process. Without it, the event is handed
to this process's Socket.IO server on its event loop; other processes have no server to reach, and
their events are dropped (the embedded mode runs tasks in the API process, so nothing is lost there).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from functools import lru_cache, partial
from typing import Any, Protocol
from urllib.parse import urlsplit

import socketio
from sqlalchemy.orm import Session

from app.core.after_commit import after_commit
from app.core.settings import get_settings

logger = logging.getLogger("touratlas.realtime")

TOUR_COUNTERS = "tour:counters"  # {id (guid), views, likes, saves, shared}
CREATOR_COUNTERS = "creator:counters"  # {id, followers, views, likes}
# {kind, id, item_id, action, pending: {kind: count}}: id is what the item is about as its domain names
# it (an approval item's id; a tour's guid for new_virtual_tour / vt_edit), item_id the approval item's
# id (null when there is none, e.g. a deleted tour's); action added, removed, approved,
# rejected or deleted; pending the counts of every kind (app/moderation/service.py, as GET /v2/pending/approval-items).
MODERATION_QUEUE = "moderation:queue"
NOTIFICATION = "notification"  # {id, title, text, created_at}
# {session_id, configuration_id, status, total_tours, new_tours, pages_fetched, pages_failed}: at most one a
# second per running session, and one on every change of status (app/crawler/engine.py).
CRAWLER_STATUS = "crawler:status"
# {run_id, status, total, done, subscribed, unsubscribed, rejected, error, started_at, finished_at}: a
# members-sync's progress, as GET /v2/mailing-list/members-sync answers it, to the admins' room
# (app/mailing/service.py): when it starts or resumes, after its batches, and when it ends.
MAILING_SYNC = "mailing:sync"
CREATOR_ANALYTICS = "creator:analytics"  # {creator_id, views, likes, saves, shared, followers}
APP_VERSION = "app:version"  # {gui_version}
TRIAL_ENDED = "billing:trial_ended"  # {subscription_id, plan_name, end_time}
# {subscription_id, plan_name, status, is_trial, end_time}: a subscription of the user changed (a Stripe
# webhook, a cancellation); open billing pages reload it (app/billing/service.py).
SUBSCRIPTION_CHANGED = "billing:subscription"
# {kind}: category, subcategory, media_type, capture_device or tag; an admin changed that dictionary,
# so open pages reload it (app/classifications/admin.py).
DICTIONARIES_CHANGED = "dictionaries:changed"

ADMINS_ROOM = "admins"
EVERYONE_ROOM = "everyone"


def tour_room(guid: str) -> str:
    return f"tour:{guid}"


def creator_room(creator_id: int) -> str:
    return f"creator:{creator_id}"


def user_room(user_id: int) -> str:
    return f"user:{user_id}"


def redis_channel(redis_url: str) -> str:
    """The pub/sub channel the Socket.IO managers share. Redis channels ignore database numbers, so
    the number goes into the name: deployments (or test runs) on other databases of one Redis
    server never hear each other's events."""
    database = urlsplit(redis_url).path.strip("/") or "0"
    return f"touratlas-socketio-{database}"


class Emitter(Protocol):
    def emit(self, event: str, data: dict[str, Any], *, room: str) -> None: ...


class RedisEmitter:
    """Publishes through Redis to every API process's Socket.IO server (python-socketio's
    write-only manager, the documented way for workers to emit)."""

    def __init__(self, redis_url: str) -> None:
        # Short timeouts: an unreachable Redis costs a missed push, never a hanging request.
        self._manager = socketio.RedisManager(
            redis_url,
            channel=redis_channel(redis_url),
            write_only=True,
            redis_options={"socket_timeout": 2, "socket_connect_timeout": 2},
        )

    def emit(self, event: str, data: dict[str, Any], *, room: str) -> None:
        self._manager.emit(event, data, room=room, namespace="/")


class LocalEmitter:
    """Hands the event to this process's AsyncServer on the loop it runs on. The server binds its
    loop at start-up (and again on a connection, should the lifespan not have run). With no loop
    bound (no server in this process, e.g. a CLI command) there is nobody to tell: dropped."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()
        # Tasks started on the server's own loop, kept until done (the loop holds only weak references).
        self._tasks: set[asyncio.Task[None]] = set()

    def bind_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        with self._lock:
            self._loop = loop

    def emit(self, event: str, data: dict[str, Any], *, room: str) -> None:
        from app.realtime.server import get_sio

        loop = self._loop
        if loop is None or loop.is_closed():
            logger.debug("no running Socket.IO loop; dropped %s to %s", event, room)
            return
        coroutine = get_sio().emit(event, data, room=room)
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            task = loop.create_task(coroutine)
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        else:
            asyncio.run_coroutine_threadsafe(coroutine, loop)


@lru_cache
def get_emitter() -> Emitter:
    settings = get_settings()
    if settings.redis_url:
        return RedisEmitter(settings.redis_url)
    return LocalEmitter()


def emit_now(event_name: str, data: dict[str, Any], *, room: str) -> None:
    """Emit outside any transaction (workers, start-up). Failures are logged, never raised: a
    missed push costs a stale counter on screen, not a lost write."""
    try:
        get_emitter().emit(event_name, data, room=room)
    except Exception:
        logger.exception("could not emit %s to %s", event_name, room)


def emit_after_commit(db: Session, event_name: str, data: dict[str, Any], *, room: str) -> None:
    """Queue an event for when this session's transaction commits; dropped on rollback."""
    after_commit(db, partial(emit_now, event_name, data, room=room), description=f"event {event_name} to {room}")
