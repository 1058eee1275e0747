"""The admins' crawler calls (spec §7 Crawler): configurations, starting and stopping sessions,
signing finished ones, their status, and the tours they filed. The crawl itself runs as a task
(app/crawler/tasks.py → app/crawler/engine.py)."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.db import utcnow
from app.core.errors import Conflict, NotFound, field_error
from app.core.tasks import submit_after_commit
from app.crawler import engine
from app.crawler.models import (
    CrawledTour,
    CrawledTourStatus,
    CrawlerConfiguration,
    CrawlerSession,
    CrawlerSessionStatus,
    CrawlFrontier,
    FrontierState,
)
from app.crawler.schemas import (
    ConfigurationOut,
    ConfigurationWrite,
    CrawledTourOut,
    CrawledTourPage,
    CrawlSettings,
    SessionOut,
)
from app.realtime.events import ADMINS_ROOM, CRAWLER_STATUS, emit_after_commit
from app.tours.service import count_rows
from app.vendors.models import Vendor

RUN_TASK = "crawler.run_session"
ACTIVE = (CrawlerSessionStatus.queued, CrawlerSessionStatus.running)
ENDED = (CrawlerSessionStatus.stopped, CrawlerSessionStatus.finished, CrawlerSessionStatus.failed)
NO_CONFIGURATION = "No such crawler configuration"
NO_SESSION = "No such crawler session"
NEEDS_PATTERN = "The host has no link pattern: give the pattern of its tour links"
NOTHING_TO_CRAWL = "Give at least one start URL or sitemap"
ALREADY_RUNNING = "This configuration is already crawling (session {id})"
INACTIVE = "This configuration is switched off"


# --------------------------------------------------------------------------- configurations


def configurations(db: Session, configuration_id: int | None = None) -> list[ConfigurationOut]:
    statement = select(CrawlerConfiguration).order_by(CrawlerConfiguration.id)
    if configuration_id is not None:
        statement = statement.where(CrawlerConfiguration.id == configuration_id)
    found = list(db.scalars(statement))
    if configuration_id is not None and not found:
        raise NotFound(NO_CONFIGURATION)
    return [configuration_out(db, configuration) for configuration in found]


def configuration_out(db: Session, configuration: CrawlerConfiguration) -> ConfigurationOut:
    settings = CrawlSettings.model_validate(configuration.settings or {})
    latest = configuration.sessions[0] if configuration.sessions else None
    return ConfigurationOut(
        **settings.model_dump(exclude={"sitemap_urls"}),
        sitemap_urls=[str(url) for url in settings.sitemap_urls],
        id=configuration.id,
        name=configuration.name,
        vendor_id=configuration.vendor_id,
        vendor_name=configuration.vendor.name,
        start_urls=list(configuration.start_urls),
        schedule_cron=configuration.schedule_cron,
        is_active=configuration.is_active,
        created_at=configuration.created_at,
        last_session=session_out(db, latest) if latest else None,
    )


def save_configuration(db: Session, body: ConfigurationWrite) -> ConfigurationOut:
    """Add a configuration, or change the one `id` names."""
    vendor = db.get(Vendor, body.vendor_id)
    if vendor is None:
        raise field_error("vendor_id", "No such host")
    if not body.start_urls and not body.sitemap_urls:
        raise field_error("start_urls", NOTHING_TO_CRAWL)
    if not body.tour_link_pattern and not vendor.link_pattern:
        raise field_error("tour_link_pattern", NEEDS_PATTERN)
    if body.id is not None:
        configuration = db.get(CrawlerConfiguration, body.id)
        if configuration is None:
            raise field_error("id", NO_CONFIGURATION)
    else:
        configuration = CrawlerConfiguration()
        db.add(configuration)
    settings = CrawlSettings.model_validate(body.model_dump(include=set(CrawlSettings.model_fields)))
    configuration.name = body.name
    configuration.vendor_id = vendor.id
    configuration.start_urls = [str(url) for url in body.start_urls]
    configuration.settings = settings.model_dump(mode="json")
    configuration.schedule_cron = body.schedule_cron
    configuration.is_active = body.is_active
    db.commit()
    db.refresh(configuration)
    return configuration_out(db, configuration)


def remove_configuration(db: Session, configuration_id: int) -> None:
    """Remove a configuration with its sessions and the tours they filed; a running crawl stops (its
    worker sees the session gone at its next batch)."""
    configuration = db.get(CrawlerConfiguration, configuration_id)
    if configuration is None:
        raise field_error("id", NO_CONFIGURATION)
    db.delete(configuration)
    db.commit()


# --------------------------------------------------------------------------- sessions


def start(db: Session, configuration_id: int) -> SessionOut:
    configuration = db.get(CrawlerConfiguration, configuration_id)
    if configuration is None:
        raise field_error("configuration_id", NO_CONFIGURATION)
    if not configuration.is_active:
        raise Conflict(INACTIVE)
    running = db.scalar(
        select(CrawlerSession).where(
            CrawlerSession.configuration_id == configuration_id, CrawlerSession.status.in_(ACTIVE)
        )
    )
    if running is not None:
        raise Conflict(ALREADY_RUNNING.format(id=running.id))
    session = CrawlerSession(configuration_id=configuration_id, status=CrawlerSessionStatus.queued)
    db.add(session)
    db.flush()
    emit_after_commit(db, CRAWLER_STATUS, engine.status_event(session), room=ADMINS_ROOM)
    queue_run(db, session.id)
    db.commit()
    return session_out(db, session)


def queue_run(db: Session, session_id: int) -> None:
    """Submit the session's run once this transaction has committed (the worker must see it)."""
    submit_after_commit(db, RUN_TASK, session_id=session_id)


def stop(db: Session, session_id: int) -> SessionOut:
    """Stop a queued or running session; its worker ends after the batch in flight."""
    session = _session(db, session_id)
    if session.status in ACTIVE:
        session.status = CrawlerSessionStatus.stopped
        session.finished_at = utcnow()
        session.heartbeat_at = None
        emit_after_commit(db, CRAWLER_STATUS, engine.status_event(session), room=ADMINS_ROOM)
        db.commit()
    return session_out(db, session)


def sign(db: Session, session_id: int) -> SessionOut:
    """An admin acknowledges an ended session (its tours reviewed, or its failure seen)."""
    session = _session(db, session_id)
    if session.status not in ENDED:
        raise Conflict("Only an ended session can be signed: stop it first")
    if session.signed_at is None:
        session.signed_at = utcnow()
        db.commit()
    return session_out(db, session)


def status(db: Session, session_id: int) -> SessionOut:
    return session_out(db, _session(db, session_id))


def sessions(db: Session, *, active: bool | None, configuration_id: int | None, limit: int) -> list[SessionOut]:
    statement = select(CrawlerSession).order_by(CrawlerSession.id.desc()).limit(limit)
    if active is True:
        statement = statement.where(CrawlerSession.status.in_(ACTIVE))
    elif active is False:
        statement = statement.where(CrawlerSession.status.in_(ENDED))
    if configuration_id is not None:
        statement = statement.where(CrawlerSession.configuration_id == configuration_id)
    return [session_out(db, session) for session in db.scalars(statement)]


def _session(db: Session, session_id: int) -> CrawlerSession:
    session = db.get(CrawlerSession, session_id)
    if session is None:
        raise NotFound(NO_SESSION)
    return session


def session_out(db: Session, session: CrawlerSession) -> SessionOut:
    waiting = db.scalar(
        select(func.count())
        .select_from(CrawlFrontier)
        .where(CrawlFrontier.session_id == session.id, CrawlFrontier.state == FrontierState.pending)
    )
    return SessionOut(
        session_id=session.id,
        configuration_id=session.configuration_id,
        status=session.status.value,
        total_tours=session.total_tours,
        new_tours=session.new_tours,
        pid=session.pid,
        pages_fetched=session.pages_fetched,
        pages_failed=session.pages_failed,
        pages_waiting=int(waiting or 0),
        started_at=session.started_at,
        finished_at=session.finished_at,
        signed_at=session.signed_at,
        error=session.error,
    )


def resume_stale(db: Session) -> list[int]:
    """The watchdog: queue a new run of every running session whose worker went silent."""
    stale = engine.stale_sessions(db, utcnow())
    for session_id in stale:
        queue_run(db, session_id)
    db.commit()
    return stale


# --------------------------------------------------------------------------- crawled tours


def crawled_tours(
    db: Session, *, session_id: int | None, status: CrawledTourStatus | None, limit: int, offset: int
) -> CrawledTourPage:
    statement = select(CrawledTour).order_by(CrawledTour.id)
    if session_id is not None:
        statement = statement.where(CrawledTour.session_id == session_id)
    if status is not None:
        statement = statement.where(CrawledTour.status == status)
    total = count_rows(db, statement)
    rows = db.scalars(statement.limit(limit).offset(offset))
    return CrawledTourPage(
        data=[
            CrawledTourOut(
                id=tour.id,
                session_id=tour.session_id,
                link=tour.link,
                title=tour.title,
                description=(tour.data or {}).get("description") or None,
                image=(tour.data or {}).get("image") or None,
                status=tour.status.value,
                created_at=tour.created_at,
            )
            for tour in rows
        ],
        total_items=total,
        limit=limit,
        offset=offset,
    )
