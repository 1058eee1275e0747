"""The Socket.IO server, mounted on the API's port at /socket.io.

A client connects with its user or guest token (`auth: {token}`); a missing, invalid or expired
token, or the token of an account that is no longer active, is refused. Every socket is in
`everyone`; a user's socket is also in `user:{id}`, an admin's in `admins`. Pages join and leave the
rooms of what they show with the `join` / `leave` events (`tour:{guid}`, `creator:{id}`); the answer
(the Socket.IO acknowledgement) is `{ok: true}` or `{ok: false, error}`.

With REDIS_URL set, the Redis manager lets several API processes share rooms; without it, the
in-memory manager serves the single embedded process.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

import socketio
from socketio.exceptions import ConnectionRefusedError as ConnectionRefused

from app.core.security import InvalidToken, TokenClaims, decode_token
from app.core.settings import get_settings
from app.realtime.events import ADMINS_ROOM, EVERYONE_ROOM, LocalEmitter, get_emitter, redis_channel, user_room

logger = logging.getLogger("touratlas.realtime")

# Rooms a page may join itself; user and admin rooms are given on connect and never joined by name.
JOINABLE_ROOM = re.compile(r"(?:tour:[A-Za-z0-9_-]{1,64}|creator:[1-9][0-9]{0,17})")
# A tab shows a handful of tours and creators at once; more joins than this are a misbehaving client.
MAX_JOINED_ROOMS = 100


@lru_cache
def get_sio() -> socketio.AsyncServer:
    settings = get_settings()
    manager = (
        socketio.AsyncRedisManager(settings.redis_url, channel=redis_channel(settings.redis_url))
        if settings.redis_url
        else None
    )
    sio = socketio.AsyncServer(
        async_mode="asgi",
        client_manager=manager,
        cors_allowed_origins=origin_allowed,
        logger=False,
        engineio_logger=False,
    )
    _register_handlers(sio)
    return sio


def origin_allowed(origin: str | None, environ: dict[str, Any]) -> bool:
    """Browsers connect from the page the API itself serves (same host, whatever the scheme a proxy
    in front speaks), from PUBLIC_URL, or from the configured CORS origins (the Vite dev server).
    A client that sends no Origin (not a browser) is let through: the token is what admits it."""
    if origin is None:
        return True
    settings = get_settings()
    if origin in settings.cors_origins or origin == _origin_of(settings.public_url):
        return True
    hosts = {environ.get("HTTP_HOST", ""), *environ.get("HTTP_X_FORWARDED_HOST", "").split(",")}
    return urlsplit(origin).netloc in {host.strip() for host in hosts if host.strip()}


def _origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _bind_local_emitter() -> None:
    """In-process emits need the loop this server runs on."""
    emitter = get_emitter()
    if isinstance(emitter, LocalEmitter):
        emitter.bind_loop(asyncio.get_running_loop())


@dataclass(frozen=True)
class Connection:
    """Who holds a socket, as checked on connect."""

    user_id: int | None
    is_admin: bool


def authenticate(token: object) -> Connection:
    """The connection a token allows; raises ConnectionRefused with the reason (the client reads it) otherwise."""
    if not isinstance(token, str) or not token:
        raise ConnectionRefused("token required")
    try:
        claims = decode_token(token)
    except InvalidToken as exc:
        raise ConnectionRefused("invalid or expired token") from exc
    if claims.user_id is None:
        return Connection(user_id=None, is_admin=False)
    return _active_user_connection(claims)


def _active_user_connection(claims: TokenClaims) -> Connection:
    """A user's token is only as good as the account behind it (as for API calls): drafted, deleted
    or signed out everywhere (token_version bumped) means refused; admin rights are read from the
    database, not from a token that may predate their removal."""
    from app.core.db import get_sessionmaker
    from app.users.models import User

    with get_sessionmaker()() as session:
        user = session.get(User, claims.user_id)
        if user is None or user.is_deleted or not user.is_active or not user.user_active:
            raise ConnectionRefused("this account is not active")
        if user.token_version != claims.ver:
            raise ConnectionRefused("invalid or expired token")
        return Connection(user_id=user.id, is_admin=user.is_admin)


def room_error(room: object) -> str | None:
    """Why a page may not join or leave `room`, or None when it may."""
    if not isinstance(room, str) or not JOINABLE_ROOM.fullmatch(room):
        return "unknown room"
    return None


def _room_of(data: Any) -> object:
    """`join` and `leave` take the room name, or `{room: name}`."""
    return data.get("room") if isinstance(data, dict) else data


def _register_handlers(sio: socketio.AsyncServer) -> None:
    @sio.event  # type: ignore[untyped-decorator]
    async def connect(sid: str, environ: dict[str, Any], auth: dict[str, Any] | None) -> None:
        _bind_local_emitter()
        token = (auth or {}).get("token") if isinstance(auth, dict) else None
        connection = await asyncio.to_thread(authenticate, token)
        await sio.save_session(sid, {"user_id": connection.user_id, "is_admin": connection.is_admin})
        await sio.enter_room(sid, EVERYONE_ROOM)
        if connection.user_id is not None:
            await sio.enter_room(sid, user_room(connection.user_id))
        if connection.is_admin:
            await sio.enter_room(sid, ADMINS_ROOM)

    @sio.event  # type: ignore[untyped-decorator]
    async def join(sid: str, data: Any = None) -> dict[str, Any]:
        room = _room_of(data)
        if error := room_error(room):
            return {"ok": False, "error": error}
        if len(sio.rooms(sid)) >= MAX_JOINED_ROOMS:
            return {"ok": False, "error": "too many rooms"}
        await sio.enter_room(sid, room)
        return {"ok": True}

    @sio.event  # type: ignore[untyped-decorator]
    async def leave(sid: str, data: Any = None) -> dict[str, Any]:
        room = _room_of(data)
        if error := room_error(room):
            return {"ok": False, "error": error}
        await sio.leave_room(sid, room)
        return {"ok": True}


async def announce_version_at_startup() -> None:
    """Tell every open page which version this process serves. A failure is logged, never fatal:
    pages still learn the version from their 15-minute check."""
    from app.core.db import get_sessionmaker
    from app.realtime.version import announce_version

    try:
        version = await asyncio.to_thread(announce_version, get_sessionmaker())
    except Exception:
        logger.exception("could not announce the app version at start-up")
        return
    logger.info("announced app version %s", version)


@asynccontextmanager
async def realtime_lifespan() -> AsyncIterator[None]:
    """Start-up of an API process's realtime side: bind the in-process emitter to this loop, start
    the Redis manager's listener, announce the version."""
    _bind_local_emitter()
    get_sio()
    await announce_version_at_startup()
    yield
