"""Platform state (spec §3 "Platform state", §7 Config): one row, id 1."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from sqlalchemy import text
from sqlalchemy.orm import Session

from app.core.after_commit import after_commit
from app.core.app_state import kept_on
from app.core.errors import BadRequest
from app.core.settings import APP_VERSION, get_settings
from app.platform.models import PlatformConfig
from app.realtime.events import APP_VERSION as APP_VERSION_EVENT
from app.realtime.events import EVERYONE_ROOM, emit_after_commit

CONFIG_ID = 1


def get_config(session: Session) -> PlatformConfig:
    """The platform config; an unconfigured platform reads as the defaults (open, no image approval)."""
    config = session.get(PlatformConfig, CONFIG_ID)
    if config is None:
        config = PlatformConfig(id=CONFIG_ID, restrict_access=False, images_approval=False, gui_version=APP_VERSION)
        session.add(config)
        session.flush()
    return config


MAX_VERSION_LENGTH = 32  # platform_config.gui_version
BAD_VERSION = f"A version is 1 to {MAX_VERSION_LENGTH} characters, without spaces"


def update_config(
    session: Session, *, restrict_access: bool | None, images_approval: bool | None, gui_version: str | None = None
) -> PlatformConfig:
    """PUT /v2/config/. A changed gui_version is pushed (app:version) to every open page once this
    commits, as `python -m app.cli announce-version` does."""
    config = get_config(session)
    if gui_version is not None:
        version = gui_version.strip()
        if not version or len(version) > MAX_VERSION_LENGTH or any(char.isspace() for char in version):
            raise BadRequest(BAD_VERSION, fields={"gui_version": BAD_VERSION})
        if version != config.gui_version:
            config.gui_version = version
            emit_after_commit(session, APP_VERSION_EVENT, {"gui_version": version}, room=EVERYONE_ROOM)
    if restrict_access is not None:
        config.restrict_access = restrict_access
    if images_approval is not None:
        config.images_approval = images_approval
    session.flush()
    # Every cache of this process drops its reading once the change is visible to others.
    after_commit(session, RestrictAccessCache.invalidate_all, key=_CONFIG_CHANGED)
    return config


# ------------------------------------------------------------------- restrict_access, cached

RESTRICT_ACCESS_TTL_SECONDS = 5.0
_CONFIG_CHANGED = "platform_config_changed"


@dataclass(frozen=True)
class _Reading:
    restrict_access: bool
    read_at: float
    generation: int


class RestrictAccessCache:
    """restrict_access as this process last read it, for at most `ttl` seconds: the route guard
    asks on every request, and the row changes rarely. A committed PUT /v2/config/ invalidates
    every cache of the process at once; other processes catch up within the TTL."""

    _generation: ClassVar[int] = 0
    _generation_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, ttl: float = RESTRICT_ACCESS_TTL_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self._ttl = ttl
        self._clock = clock
        self._reading: _Reading | None = None

    def restrict_access(self, session: Session) -> bool:
        known = self.fresh_reading()
        if known is not None:
            return known
        now, generation = self._clock(), RestrictAccessCache._generation
        config = session.get(PlatformConfig, CONFIG_ID)
        self._reading = _Reading(config is not None and config.restrict_access, now, generation)
        return self._reading.restrict_access

    def fresh_reading(self) -> bool | None:
        """The cached setting while it is fresh, else None: lets the guard skip opening a session."""
        reading = self._reading
        if reading is None or reading.generation != RestrictAccessCache._generation:
            return None
        if self._clock() - reading.read_at >= self._ttl:
            return None
        return reading.restrict_access

    @classmethod
    def invalidate_all(cls) -> None:
        with cls._generation_lock:
            cls._generation += 1


def restrict_access_cache(state: object) -> RestrictAccessCache:
    """The cache kept on an application's state (one per process; a fresh one per test app)."""
    return kept_on(state, "restrict_access_cache", RestrictAccessCache, RestrictAccessCache)


def set_gui_version(session: Session, version: str) -> PlatformConfig:
    config = get_config(session)
    config.gui_version = version
    session.flush()
    return config


def database_status(session: Session) -> str:
    try:
        session.execute(text("SELECT 1"))
    except Exception as exc:  # noqa: BLE001 - health reports any failure as text
        return f"error: {exc.__class__.__name__}"
    return "ok"


def redis_status() -> str:
    url = get_settings().redis_url
    if not url:
        return "not configured (in-process tasks)"
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1).ping()
    except Exception as exc:  # noqa: BLE001
        return f"error: {exc.__class__.__name__}"
    return "ok"
