"""The admins' crawler calls (spec §7 Crawler): configurations, starting and stopping sessions,
signing finished ones, their status, and the tours they filed. The crawl itself runs as a task
(app/crawler/tasks.py → app/crawler/engine.py)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.core.db import utcnow
from app.core.errors import Conflict, NotFound, field_error
from app.core.tasks import submit_after_commit
from app.core.timestamps import as_utc
from app.crawler import engine, schedule
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

logger = logging.getLogger("touratlas.crawler")

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
        schedule_next_at=_next_due(configuration, utcnow()),
        is_active=configuration.is_active,
        created_at=configuration.created_at,
        last_session=session_out(db, latest) if latest else None,
    )


def save_configuration(db: Session, body: ConfigurationWrite, *, now: datetime | None = None) -> ConfigurationOut:
    """Add a configuration, or change the one `id` names. A schedule that is new, changed or switched
    back on counts its due times from `now`: none that passed before it applied starts a session."""
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
    schedule_applies_anew = (
        configuration.schedule_since is None
        or configuration.schedule_cron != body.schedule_cron
        or (body.is_active and not configuration.is_active)
    )
    if schedule_applies_anew:
        configuration.schedule_since = now or utcnow()
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
    session = _new_session(db, configuration_id, scheduled_for=None)
    if session is None:  # the schedule (or another admin) started one since the check above
        raise Conflict(ALREADY_RUNNING.format(id=_active_session_id(db, configuration_id)))
    _queue_new_session(db, session)
    return session_out(db, session)


def _new_session(db: Session, configuration_id: int, *, scheduled_for: datetime | None) -> CrawlerSession | None:
    """A queued session of the configuration, or None when the database refuses it: the
    configuration has an active session, or one was already started for this due time."""
    session = CrawlerSession(
        configuration_id=configuration_id, status=CrawlerSessionStatus.queued, scheduled_for=scheduled_for
    )
    try:
        with db.begin_nested():
            db.add(session)
    except IntegrityError:
        return None
    return session


def _queue_new_session(db: Session, session: CrawlerSession) -> None:
    emit_after_commit(db, CRAWLER_STATUS, engine.status_event(session), room=ADMINS_ROOM)
    queue_run(db, session.id)
    db.commit()


def _active_session_id(db: Session, configuration_id: int) -> int | None:
    return db.scalar(
        select(CrawlerSession.id).where(
            CrawlerSession.configuration_id == configuration_id, CrawlerSession.status.in_(ACTIVE)
        )
    )


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
        scheduled_for=session.scheduled_for,
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


# --------------------------------------------------------------------------- the schedule


@dataclass(frozen=True, slots=True)
class Due:
    configuration_id: int
    due_at: datetime


def _next_due(configuration: CrawlerConfiguration, now: datetime) -> datetime | None:
    if not configuration.is_active or not configuration.schedule_cron:
        return None
    try:
        return schedule.next_due(configuration.schedule_cron, now)
    except schedule.InvalidSchedule:
        return None  # stored before schedules were checked: the configuration's next save says why


def due_configurations(db: Session, now: datetime) -> list[Due]:
    """The configurations whose schedule names a time since their last run, with that time: the
    latest one at or before `now`, so a scheduler that was down for a while starts one session, not
    one per time it missed. A time at which a session of the configuration was active, or after
    which one was started, is not due: a crawl that overruns its schedule skips the times it covered."""
    scheduled = db.execute(
        select(CrawlerConfiguration.id, CrawlerConfiguration.schedule_cron, CrawlerConfiguration.schedule_since)
        .where(CrawlerConfiguration.is_active.is_(True), CrawlerConfiguration.schedule_cron.is_not(None))
        .order_by(CrawlerConfiguration.id)
    ).all()
    due: list[Due] = []
    for configuration_id, cron, since in scheduled:
        if not cron:
            continue
        try:
            due_at = schedule.latest_due(cron, now)
        except schedule.InvalidSchedule:
            logger.warning("crawler configuration %s: unreadable schedule %r", configuration_id, cron)
            continue
        if since is not None and due_at < as_utc(since):
            continue
        latest = db.execute(
            select(CrawlerSession.status, CrawlerSession.started_at, CrawlerSession.finished_at)
            .where(CrawlerSession.configuration_id == configuration_id)
            .order_by(CrawlerSession.id.desc())
            .limit(1)
        ).first()
        if latest is not None and _covers(latest.status, latest.started_at, latest.finished_at, due_at):
            continue
        due.append(Due(configuration_id, due_at))
    return due


def _covers(
    status: CrawlerSessionStatus, started_at: datetime | None, finished_at: datetime | None, due_at: datetime
) -> bool:
    """A session in this state ran at `due_at` or after it (or runs still)."""
    if status in ACTIVE:
        return True
    ended = finished_at or started_at
    return ended is not None and as_utc(ended) >= due_at


def start_scheduled(db: Session, due: Due) -> SessionOut | None:
    """Start the session `due` stands for; None when the database refuses it because another
    scheduler (or process, or an admin) got there first: one session per due time, one active
    session per configuration, whoever asks and however often."""
    session = _new_session(db, due.configuration_id, scheduled_for=due.due_at)
    if session is None:
        db.rollback()
        return None
    _queue_new_session(db, session)
    logger.info("crawler configuration %s: session %s started for %s", due.configuration_id, session.id, due.due_at)
    return session_out(db, session)


def start_due(db: Session, now: datetime) -> list[int]:
    """The schedule's periodic task: start every configuration that is due (app/crawler/tasks.py)."""
    started: list[int] = []
    for due in due_configurations(db, now):
        session = start_scheduled(db, due)
        if session is not None:
            started.append(session.session_id)
    return started


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
