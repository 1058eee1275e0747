"""The 'new version' notice (spec §4 version check): open pages compare the announced gui_version with
the version they were built as, and offer a reload when they differ.

Clients also poll GET /v2/config/app-version every 15 minutes; the event only makes it immediate. An
API process announces its own build at start-up (a rolling deploy tells the pages still open on older
processes), and an admin can announce again with `python -m app.cli announce-version`.
"""

from __future__ import annotations

from sqlalchemy.orm import Session, sessionmaker

from app.core.settings import APP_VERSION
from app.platform import service as platform_service
from app.realtime.events import APP_VERSION as APP_VERSION_EVENT
from app.realtime.events import EVERYONE_ROOM, emit_after_commit

MAX_VERSION_LENGTH = 32  # platform_config.gui_version


def announce_version(session_factory: sessionmaker[Session], version: str = APP_VERSION) -> str:
    """Make `version` the platform's gui_version and tell every open page; returns it."""
    with session_factory.begin() as session:
        return announce_in(session, version)


def announce_in(session: Session, version: str) -> str:
    """The same notice inside the caller's transaction (a published release): told once it commits."""
    version = version.strip()
    if not version or len(version) > MAX_VERSION_LENGTH:
        raise ValueError(f"a version is 1 to {MAX_VERSION_LENGTH} characters")
    platform_service.set_gui_version(session, version)
    emit_after_commit(session, APP_VERSION_EVENT, {"gui_version": version}, room=EVERYONE_ROOM)
    return version
