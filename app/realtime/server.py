"""The Socket.IO server, mounted on the API's port at /socket.io.

With REDIS_URL set, the Redis manager lets several API processes share rooms; without it, the
in-memory manager serves the single embedded process.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Any

import socketio

from app.core.security import InvalidToken, decode_token
from app.core.settings import get_settings

logger = logging.getLogger("touratlas.realtime")


@lru_cache
def get_sio() -> socketio.AsyncServer:
    settings = get_settings()
    manager = socketio.AsyncRedisManager(settings.redis_url) if settings.redis_url else None
    sio = socketio.AsyncServer(
        async_mode="asgi",
        client_manager=manager,
        cors_allowed_origins=settings.cors_origins,
        logger=False,
        engineio_logger=False,
    )
    _register_handlers(sio)
    return sio


def _register_handlers(sio: socketio.AsyncServer) -> None:
    @sio.event  # type: ignore[untyped-decorator]
    async def connect(sid: str, environ: dict[str, Any], auth: dict[str, Any] | None) -> None:
        token = (auth or {}).get("token")
        if not isinstance(token, str) or not token:
            raise ConnectionRefusedError("token required")
        try:
            claims = decode_token(token)
        except InvalidToken as exc:
            raise ConnectionRefusedError("invalid or expired token") from exc
        await sio.save_session(sid, {"claims": claims.model_dump()})
        if claims.user_id is not None:
            await sio.enter_room(sid, f"user:{claims.user_id}")
            if claims.is_admin:
                await sio.enter_room(sid, "admins")
