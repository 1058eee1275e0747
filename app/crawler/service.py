"""The admins' crawler calls (spec §7 Crawler): configurations, starting and stopping sessions,
signing finished ones, their status, and the tours they filed. The crawl itself runs as a task
(app/crawler/tasks.py → app/crawler/engine.py).

A filed tour waits (status `new`) in the moderation's crawler tours tab until an admin approves it
(it becomes a published tour through the tours' own add, with the owner and category the admin
chose: app/tours/service.py writes the tour, the index follows through the outbox) or rejects it
(status `skipped`: later crawls count its link as known and never file it again)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, joinedload

from app.core.db import utcnow
from app.core.errors import AppError, BadRequest, Conflict, NotFound, field_error
from app.core.tasks import submit_after_commit
from app.core.timestamps import as_utc
from app.crawler import engine, schedule
from app.crawler import fetcher as fetching
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
    CrawledTourApproval,
    CrawledTourDecisionAnswer,
    CrawledTourOut,
    CrawledTourOutcome,
    CrawledTourPage,
    CrawlSettings,
    SessionOut,
)
from app.locations.ports import Geocoder
from app.realtime.events import ADMINS_ROOM, CRAWLER_STATUS, emit_after_commit
from app.tours import images
from app.tours import service as tours
from app.tours.models import Tour
from app.tours.schemas import TourWrite
from app.tours.service import count_rows
from app.users import owners
from app.users.models import User
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
    rows = list(
        db.scalars(
            statement.options(joinedload(CrawledTour.session).joinedload(CrawlerSession.configuration))
            .limit(limit)
            .offset(offset)
        )
    )
    guids = _guids(db, [row.tour_id for row in rows if row.tour_id is not None])
    return CrawledTourPage(
        data=[crawled_tour_out(tour, guids) for tour in rows], total_items=total, limit=limit, offset=offset
    )


def _guids(db: Session, tour_ids: list[int]) -> dict[int, str]:
    if not tour_ids:
        return {}
    rows = db.execute(select(Tour.id, Tour.guid).where(Tour.id.in_(tour_ids)))
    return {tour_id: guid for tour_id, guid in rows}


def crawled_tour_out(tour: CrawledTour, guids: dict[int, str]) -> CrawledTourOut:
    data = tour.data or {}
    configuration = tour.session.configuration
    return CrawledTourOut(
        id=tour.id,
        session_id=tour.session_id,
        configuration_id=configuration.id,
        configuration_name=configuration.name,
        vendor_id=configuration.vendor_id,
        vendor_name=configuration.vendor.name,
        link=tour.link,
        title=tour.title,
        description=data.get("description") or None,
        image=data.get("image") or None,
        coordinate=data.get("coordinate") or None,
        status=tour.status.value,
        tour_guid=guids.get(tour.tour_id) if tour.tour_id is not None else None,
        created_at=tour.created_at,
    )


def pending_count(db: Session) -> int:
    return int(
        db.scalar(select(func.count()).select_from(CrawledTour).where(CrawledTour.status == CrawledTourStatus.new)) or 0
    )


# --------------------------------------------------------------------------- reviewing crawled tours

APPROVED = "Published"
REJECTED = "Rejected: later crawls skip this link"
ALREADY_DECIDED = "Already decided by an administrator"
NO_CRAWLED_TOUR = "No such crawled tour"
LINK_TAKEN = "A tour with this link already exists: the crawled one is set aside"
IMAGE_TYPES = ("image/jpeg", "image/png")
# The choices made once for every tour of an approval: a failure there is the request's (400), not
# one tour's. The other fields (link, title, description, picture, host) are each tour's own.
SHARED_FIELDS = frozenset(
    {
        "userid",
        "media_type_id",
        "category_id",
        "subcategory_id",
        "tags",
        "newCategory",
        "third_party_creator",
        "creator_website",
        "address_str",
    }
)


@dataclass(frozen=True, slots=True)
class _Reviewed:
    """The crawled tours an approval or rejection names, in the order it named them."""

    rows: dict[int, CrawledTour]

    @classmethod
    def load(cls, db: Session, ids: list[int]) -> _Reviewed:
        found = db.scalars(
            select(CrawledTour)
            .where(CrawledTour.id.in_(ids))
            .options(joinedload(CrawledTour.session).joinedload(CrawlerSession.configuration))
        )
        return cls({row.id: row for row in found})

    def outcome_if_undecidable(self, crawled_id: int) -> CrawledTourOutcome | None:
        row = self.rows.get(crawled_id)
        if row is None:
            return CrawledTourOutcome(id=crawled_id, status="not_found", message=NO_CRAWLED_TOUR)
        if row.status is not CrawledTourStatus.new:
            return CrawledTourOutcome(id=crawled_id, status="conflict", message=ALREADY_DECIDED)
        return None


def reject_crawled(db: Session, ids: list[int]) -> CrawledTourDecisionAnswer:
    """Set crawled tours aside: they leave the tab, and later crawls count their links as known."""
    reviewed = _Reviewed.load(db, ids)
    outcomes: list[CrawledTourOutcome] = []
    for crawled_id in dict.fromkeys(ids):
        refused = reviewed.outcome_if_undecidable(crawled_id)
        if refused is not None:
            outcomes.append(refused)
            continue
        reviewed.rows[crawled_id].status = CrawledTourStatus.skipped
        outcomes.append(CrawledTourOutcome(id=crawled_id, status="rejected", message=REJECTED))
    db.flush()
    return CrawledTourDecisionAnswer(data=outcomes, pending=pending_count(db))


def approve_crawled(
    db: Session, *, admin: User, body: CrawledTourApproval, geocoder: Geocoder
) -> CrawledTourDecisionAnswer:
    """Publish crawled tours as tours of the chosen owner, each through the tours' own add (spec §5
    rules, the index through the outbox), by the admin, so none waits for approval again. A choice
    that fails (an unknown category, an inactive owner, an address not found) is a 400 and nothing is
    published; a tour that fails on its own (its link not in the host's format, a title the rules
    refuse) is reported and stays waiting while the others are published."""
    owner = _owner(db, admin, body)
    reviewed = _Reviewed.load(db, body.ids)
    outcomes: list[CrawledTourOutcome] = []
    for crawled_id in dict.fromkeys(body.ids):
        refused = reviewed.outcome_if_undecidable(crawled_id)
        if refused is not None:
            outcomes.append(refused)
            continue
        crawled = reviewed.rows[crawled_id]
        outcomes.append(_approve_one(db, crawled, admin=admin, owner=owner, body=body, geocoder=geocoder))
    db.flush()
    return CrawledTourDecisionAnswer(data=outcomes, pending=pending_count(db))


def _owner(db: Session, admin: User, body: CrawledTourApproval) -> User:
    if body.userid is None and not (body.platform_username or "").strip():
        owner = admin
    else:
        try:
            owner = owners.named_owner(db, userid=body.userid, platform_username=body.platform_username)
        except NotFound as exc:
            raise field_error("userid", exc.message) from exc
    owners.check_active(owner)
    return owner


def _approve_one(
    db: Session, crawled: CrawledTour, *, admin: User, owner: User, body: CrawledTourApproval, geocoder: Geocoder
) -> CrawledTourOutcome:
    data = crawled.data or {}
    vendor = crawled.session.configuration.vendor
    address = (body.address_str or "").strip() or None
    coordinate = None if address else data.get("coordinate") or None
    form = TourWrite(
        vendor=vendor.id,
        link=crawled.link,
        title=crawled.title,
        description=data.get("description") or None,
        preview_picture=_picture(data.get("image") or None),
        media_type_id=body.media_type_id,
        category_id=body.category_id,
        subcategory_id=body.subcategory_id,
        tags=body.tags,
        third_party_creator=body.third_party_creator,
        creator_website=body.creator_website,
        address_str=address,
        coordinate=coordinate,
        # A crawled page rarely names its place: the tour is published without one unless given.
        physical_address=bool(address or coordinate),
        is_active=True,
    )
    try:
        with db.begin_nested():
            saved = tours.add_tour(db, editor=admin, body=form, geocoder=geocoder, owner=owner)
    except AppError as exc:
        shared = {field: message for field, message in exc.fields.items() if field in SHARED_FIELDS}
        if isinstance(exc, NotFound) and address:
            shared = {"address_str": exc.message}
        if shared:
            # One choice for every tour: the whole approval is refused, as a form would be.
            raise BadRequest(next(iter(shared.values())), fields=shared) from exc
        return CrawledTourOutcome(id=crawled.id, status="invalid", message=exc.message, fields=exc.fields)
    if saved.tour is None:
        # 208: a tour has this link already (added by hand meanwhile): nothing to publish.
        existing = tours.tour_by_link(db, crawled.link)
        crawled.status = CrawledTourStatus.skipped
        crawled.tour_id = existing.id if existing is not None else None
        guid = existing.guid if existing is not None else None
        return CrawledTourOutcome(id=crawled.id, status="exists", message=LINK_TAKEN, guid=guid)
    crawled.status = CrawledTourStatus.imported
    crawled.tour_id = saved.tour.id
    return CrawledTourOutcome(id=crawled.id, status="approved", message=APPROVED, guid=saved.tour.guid)


def _picture(image: str | None) -> str | None:
    """The tour's preview: an https picture of the host is used where it is, as the media form uses
    the lookup's; a plain-http one (mixed content on an https site) is fetched through the SSRF guard
    and stored as an upload. A picture that cannot be fetched leaves the tour without one (a host
    that requires a picture then refuses the tour, which stays waiting)."""
    if not image or image.lower().startswith("https://"):
        return image
    client = fetching.guarded_client(1)
    try:
        answer = client.get(image, accept=IMAGE_TYPES, max_bytes=images.UPLOAD_RULES.max_bytes)
        if answer.status != 200 or answer.content_type not in IMAGE_TYPES:
            logger.info("crawler: picture %s answered %s %s", image, answer.status, answer.content_type)
            return None
        return images.store_preview(answer.body).card
    except (fetching.FetchFailed, AppError) as exc:
        logger.info("crawler: picture %s not stored: %s", image, getattr(exc, "message", exc))
        return None
    finally:
        client.close()
