"""Spec §7 Crawler, for admins: configurations (GET, POST, remove), start, stop, sign, status and
sessions; plus the tours the sessions filed, for the moderation's crawler tours tab, and their
approval (into published tours) or rejection (beyond §7, which names no call for them).

start, stop and sign act on sessions, so they sit beside status and sessions under /v2/crawler/
(the spec lists them after configuration/remove without repeating the prefix)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.core.deps import AdminUser, DbSession, GeocoderDep
from app.core.errors import error_responses
from app.core.types import DbId, DbInt
from app.crawler import service
from app.crawler.models import CrawledTourStatus
from app.crawler.schemas import (
    ConfigurationIdBody,
    ConfigurationList,
    ConfigurationOut,
    ConfigurationWrite,
    CrawledTourApproval,
    CrawledTourDecisionAnswer,
    CrawledTourIds,
    CrawledTourPage,
    MessageAnswer,
    SessionIdBody,
    SessionList,
    SessionOut,
    StartBody,
)

router = APIRouter(prefix="/v2/crawler", tags=["crawler"])


@router.get("/configuration", response_model=ConfigurationList, responses=error_responses(404))
def list_configurations(
    _admin: AdminUser, db: DbSession, id: Annotated[DbId | None, Query()] = None
) -> ConfigurationList:
    """Every crawler configuration (or the one `id` names) with its latest session."""
    return ConfigurationList(data=service.configurations(db, id))


@router.post("/configuration", response_model=ConfigurationOut, responses=error_responses(400))
def save_configuration(body: ConfigurationWrite, _admin: AdminUser, db: DbSession) -> ConfigurationOut:
    """Add a configuration, or change the one `id` names."""
    return service.save_configuration(db, body)


@router.post("/configuration/remove", response_model=MessageAnswer, responses=error_responses(400))
def remove_configuration(body: ConfigurationIdBody, _admin: AdminUser, db: DbSession) -> MessageAnswer:
    """Remove a configuration with its sessions and their crawled tours; a running crawl stops."""
    service.remove_configuration(db, body.id)
    return MessageAnswer(message="Configuration removed")


@router.post("/start", response_model=SessionOut, responses=error_responses(400, 409))
def start(body: StartBody, _admin: AdminUser, db: DbSession) -> SessionOut:
    """Queue a new session of the configuration; a worker takes it and crawls."""
    return service.start(db, body.configuration_id)


@router.post("/stop", response_model=SessionOut, responses=error_responses(404))
def stop(body: SessionIdBody, _admin: AdminUser, db: DbSession) -> SessionOut:
    """Stop a session (session_id, total_tours, new_tours, pid come back)."""
    return service.stop(db, body.session_id)


@router.post("/sign", response_model=SessionOut, responses=error_responses(404, 409))
def sign(body: SessionIdBody, _admin: AdminUser, db: DbSession) -> SessionOut:
    """Acknowledge an ended session."""
    return service.sign(db, body.session_id)


@router.get("/status", response_model=SessionOut, responses=error_responses(404))
def status(session_id: Annotated[DbId, Query()], _admin: AdminUser, db: DbSession) -> SessionOut:
    """A session's state and counters (the live ones arrive as crawler:status events)."""
    return service.status(db, session_id)


@router.get("/sessions", response_model=SessionList)
def sessions(
    _admin: AdminUser,
    db: DbSession,
    active: Annotated[bool | None, Query(description="true: queued or running; false: ended")] = None,
    configuration_id: Annotated[DbId | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> SessionList:
    """Sessions, newest first."""
    return SessionList(data=service.sessions(db, active=active, configuration_id=configuration_id, limit=limit))


@router.get("/tours", response_model=CrawledTourPage)
def crawled_tours(
    _admin: AdminUser,
    db: DbSession,
    session_id: Annotated[DbId | None, Query()] = None,
    status: Annotated[CrawledTourStatus | None, Query()] = CrawledTourStatus.new,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> CrawledTourPage:
    """The tours crawls filed, oldest first; by default the pending ones (status new)."""
    return service.crawled_tours(db, session_id=session_id, status=status, limit=limit, offset=offset)


@router.post("/tours/approve", response_model=CrawledTourDecisionAnswer, responses=error_responses(400))
def approve_crawled_tours(
    body: CrawledTourApproval, admin: AdminUser, db: DbSession, geocoder: GeocoderDep
) -> CrawledTourDecisionAnswer:
    """Publish crawled tours as tours of the owner named (else the admin), in the category and media
    type chosen; each outcome says what became of one tour. A bad choice is a 400 and publishes none."""
    return service.approve_crawled(db, admin=admin, body=body, geocoder=geocoder)


@router.post("/tours/reject", response_model=CrawledTourDecisionAnswer, responses=error_responses(400))
def reject_crawled_tours(body: CrawledTourIds, _admin: AdminUser, db: DbSession) -> CrawledTourDecisionAnswer:
    """Set crawled tours aside: they leave the crawler tours tab and later crawls skip their links."""
    return service.reject_crawled(db, body.ids)
