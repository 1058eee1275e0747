"""Platform state (spec §3 "Platform state", §7 Config): one row, id 1."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.orm import Session

from app.core.settings import APP_VERSION, get_settings
from app.platform.models import PlatformConfig

CONFIG_ID = 1


def get_config(session: Session) -> PlatformConfig:
    """The platform config; an unconfigured platform reads as the defaults (open, no image approval)."""
    config = session.get(PlatformConfig, CONFIG_ID)
    if config is None:
        config = PlatformConfig(id=CONFIG_ID, restrict_access=False, images_approval=False, gui_version=APP_VERSION)
        session.add(config)
        session.flush()
    return config


def update_config(session: Session, *, restrict_access: bool | None, images_approval: bool | None) -> PlatformConfig:
    config = get_config(session)
    if restrict_access is not None:
        config.restrict_access = restrict_access
    if images_approval is not None:
        config.images_approval = images_approval
    session.flush()
    return config


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
