"""The crawl itself: one worker runs one session, batch by batch, from the session's frontier.

Every batch: take the due pending URLs of the frontier, fetch and parse them on a thread pool (no
database in the threads), then write the outcome in ONE transaction: the frontier rows' new states,
the URLs found, the tours filed and the session's counters and heartbeat. A worker killed at any
point loses at most the batch in flight, whose rows are still pending: the next worker fetches them
again, and the unique normalised link of crawled_tours makes filing a tour a second time impossible
(such a tour counts as seen, not as new).

Politeness: robots.txt (protego) is read once per host and session and decides every URL; its
Crawl-delay stretches the configured per-host interval; at most `concurrency` requests per host are
in flight. Failures that may pass (timeouts, 5xx, 429) are retried with exponential backoff.
"""

from __future__ import annotations

import logging
import os
import re
import socket
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from protego import Protego
from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from app.classifications.dictionaries import normalise_link
from app.core.db import utcnow
from app.core.timestamps import as_utc
from app.crawler import fetcher as fetching
from app.crawler import parser
from app.crawler.models import (
    CrawledTour,
    CrawledTourStatus,
    CrawlerConfiguration,
    CrawlerSession,
    CrawlerSessionStatus,
    CrawlFrontier,
    FrontierKind,
    FrontierState,
)
from app.crawler.schemas import CrawlSettings
from app.realtime.events import ADMINS_ROOM, CRAWLER_STATUS, emit_after_commit
from app.tours.link_lookup import HTML_TYPES, MAX_PAGE_BYTES, PageMetadata
from app.tours.models import Tour

logger = logging.getLogger("touratlas.crawler")

MAX_ATTEMPTS = 4
BACKOFF_BASE_SECONDS = 1.0
BACKOFF_MAX_SECONDS = 60.0
# A running session whose worker has not written for this long lost it.
STALE_AFTER = timedelta(seconds=120)
# A batch should take about this long under a rate limit: the heartbeat stays fresh, and the session's
# counters (written with each batch, pushed as crawler:status) move every few seconds on the admins'
# screen instead of jumping once a long batch ends. An unlimited crawl batches by concurrency instead.
BATCH_SECONDS = 2.0
STATUS_EVERY_SECONDS = 1.0
ERROR_MAX = 500

Clock = Callable[[], datetime]
ClientFactory = Callable[[int], fetching.GuardedClient]


def worker_pid() -> str:
    """The worker as §7's `pid`: host and process, enough for an operator to find it."""
    return f"{socket.gethostname()}:{os.getpid()}"


# --------------------------------------------------------------------------- claiming


def claim(db: Session, session_id: int, pid: str, now: datetime) -> bool:
    """Take the session for this worker: a queued one, one released between slices, or a running one
    whose worker went silent. Atomic, so two workers never run one session."""
    result = db.execute(
        update(CrawlerSession)
        .where(
            CrawlerSession.id == session_id,
            or_(
                CrawlerSession.status == CrawlerSessionStatus.queued,
                (CrawlerSession.status == CrawlerSessionStatus.running)
                & or_(CrawlerSession.heartbeat_at.is_(None), CrawlerSession.heartbeat_at < now - STALE_AFTER),
            ),
        )
        .values(
            status=CrawlerSessionStatus.running,
            pid=pid,
            heartbeat_at=now,
            started_at=func.coalesce(CrawlerSession.started_at, now),
        )
        .execution_options(synchronize_session=False)
    )
    db.commit()
    return bool(getattr(result, "rowcount", 0) == 1)


def stale_sessions(db: Session, now: datetime) -> list[int]:
    """Running sessions whose worker went silent, or released between slices with no next slice
    queued (its process died in between): the watchdog hands them to a new worker. Queueing one that
    a worker is about to take costs nothing: the second claim fails."""
    return list(
        db.scalars(
            select(CrawlerSession.id).where(
                CrawlerSession.status == CrawlerSessionStatus.running,
                or_(CrawlerSession.heartbeat_at.is_(None), CrawlerSession.heartbeat_at < now - STALE_AFTER),
            )
        )
    )


# --------------------------------------------------------------------------- one URL


@dataclass(frozen=True, slots=True)
class Job:
    row_id: int
    url: str
    kind: FrontierKind
    depth: int
    attempts: int
    known: bool  # a published tour has this link: nothing to fetch
    validators: fetching.Validators | None  # of the pending crawled tour with this link


@dataclass(frozen=True, slots=True)
class FoundTour:
    link: str
    key: str
    title: str
    description: str
    image: str
    validators: fetching.Validators
    coordinate: str | None = None  # 'lat,lng' the page gave (the tour's place when it is approved)


@dataclass(slots=True)
class Outcome:
    job: Job
    state: FrontierState
    fetched: bool = False
    error: str | None = None
    retry_in: float | None = None
    pages: list[tuple[str, int]] = field(default_factory=list)  # (url, depth)
    sitemaps: list[str] = field(default_factory=list)
    tour: FoundTour | None = None
    tour_seen: bool = False  # a tour page already known (published, or unchanged since filed)


@dataclass
class Plan:
    """A session's settings, read once when the worker claims it."""

    session_id: int
    settings: CrawlSettings
    start_urls: list[str]
    tour_pattern: re.Pattern[str]
    hosts: frozenset[str]

    @classmethod
    def of(cls, configuration: CrawlerConfiguration, session_id: int) -> Plan:
        settings = CrawlSettings.model_validate(configuration.settings or {})
        pattern = settings.tour_link_pattern or configuration.vendor.link_pattern or r"(?!)"
        urls = [*configuration.start_urls, *(str(url) for url in settings.sitemap_urls)]
        return cls(
            session_id=session_id,
            settings=settings,
            start_urls=list(configuration.start_urls),
            tour_pattern=re.compile(pattern),
            hosts=frozenset(_host(url) for url in urls),
        )

    def is_tour(self, url: str) -> bool:
        return self.tour_pattern.match(url) is not None

    def in_scope(self, url: str) -> bool:
        return _host(url) in self.hosts


def _host(url: str) -> str:
    return (urlsplit(url).netloc or "").lower()


class Visitor:
    """Fetches and reads one URL (thread-safe; touches no database)."""

    def __init__(self, plan: Plan, client: fetching.GuardedClient, throttle: fetching.HostThrottle) -> None:
        self.plan = plan
        self.client = client
        self.throttle = throttle
        self._robots: dict[str, Protego | None] = {}
        self._robots_lock = threading.Lock()
        self._host_locks: dict[str, threading.Lock] = {}

    def robots(self, url: str) -> Protego | None:
        """The host's robots.txt, read once (None: none, so everything is allowed)."""
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        with self._robots_lock:
            lock = self._host_locks.setdefault(origin, threading.Lock())
        with lock:
            if origin not in self._robots:
                self._robots[origin] = self._read_robots(origin)
            return self._robots[origin]

    def _read_robots(self, origin: str) -> Protego | None:
        try:
            with self.throttle.turn(_host(origin)):
                answer = self.client.get(
                    origin + "/robots.txt", accept=fetching.ROBOTS_TYPES, max_bytes=fetching.MAX_ROBOTS_BYTES
                )
        except fetching.FetchFailed as exc:
            logger.info("crawler: no robots.txt from %s (%s): crawling it as unrestricted", origin, exc.message)
            return None
        if answer.status >= 500:
            # RFC 9309: a server error on robots.txt means "assume complete disallow".
            return Protego.parse("User-agent: *\nDisallow: /")
        if answer.status != 200:
            return None
        robots = Protego.parse(answer.body.decode(answer.charset or "utf-8", errors="replace"))
        delay = robots.crawl_delay(fetching.ROBOTS_AGENT)
        if delay:
            self.throttle.set_host_interval(_host(origin), float(delay))
        return robots

    def robots_sitemaps(self, url: str) -> list[str]:
        robots = self.robots(url)
        return list(robots.sitemaps) if robots is not None else []

    def visit(self, job: Job) -> Outcome:
        robots = self.robots(job.url)
        if robots is not None and not robots.can_fetch(job.url, fetching.ROBOTS_AGENT):
            return Outcome(job, FrontierState.skipped, error="Disallowed by robots.txt")
        if job.known:
            return Outcome(job, FrontierState.done, tour_seen=True)
        try:
            with self.throttle.turn(_host(job.url)):
                answer = self._fetch(job)
        except fetching.FetchFailed as exc:
            return self._failed(job, exc.message, retryable=exc.retryable, retry_after=None)
        if answer.not_modified:
            return Outcome(job, FrontierState.done, fetched=True, tour_seen=True)
        if answer.status != 200:
            retryable = answer.status in fetching.RETRYABLE_STATUSES
            return self._failed(job, f"Answered {answer.status}", retryable=retryable, retry_after=answer.retry_after)
        if job.kind is FrontierKind.sitemap:
            return self._read_sitemap(job, answer)
        return self._read_page(job, answer)

    def _fetch(self, job: Job) -> fetching.Answer:
        if job.kind is FrontierKind.sitemap:
            return self.client.get(job.url, accept=fetching.SITEMAP_TYPES, max_bytes=fetching.MAX_SITEMAP_BYTES)
        return self.client.get(job.url, accept=HTML_TYPES, max_bytes=MAX_PAGE_BYTES, validators=job.validators)

    def _failed(self, job: Job, message: str, *, retryable: bool, retry_after: float | None) -> Outcome:
        attempt = job.attempts + 1
        if not retryable or attempt >= MAX_ATTEMPTS:
            return Outcome(job, FrontierState.failed, fetched=True, error=message)
        backoff = min(BACKOFF_MAX_SECONDS, BACKOFF_BASE_SECONDS * 2 ** (attempt - 1))
        return Outcome(job, FrontierState.pending, fetched=True, error=message, retry_in=max(backoff, retry_after or 0))

    def _read_sitemap(self, job: Job, answer: fetching.Answer) -> Outcome:
        try:
            sitemap = parser.parse_sitemap(answer.body, fetching.MAX_SITEMAP_BYTES)
        except parser.NotASitemap as exc:
            return Outcome(job, FrontierState.failed, fetched=True, error=str(exc))
        return Outcome(
            job,
            FrontierState.done,
            fetched=True,
            pages=[(url, 0) for url in sitemap.pages],
            sitemaps=sitemap.sitemaps,
        )

    def _read_page(self, job: Job, answer: fetching.Answer) -> Outcome:
        if answer.content_type not in HTML_TYPES:
            return Outcome(job, FrontierState.failed, fetched=True, error=f"Not a web page ({answer.content_type})")
        outcome = Outcome(job, FrontierState.done, fetched=True)
        if job.depth < self.plan.settings.max_depth:
            outcome.pages = [(url, job.depth + 1) for url in parser.page_links(answer.body, answer.url, answer.charset)]
        if self.plan.is_tour(job.url) or self.plan.is_tour(answer.url):
            metadata = parser.tour_metadata(answer.body, answer.url, answer.charset)
            if metadata.title or metadata.image:
                outcome.tour = FoundTour(
                    link=answer.url,
                    key=normalise_link(answer.url),
                    title=metadata.title,
                    description=metadata.description,
                    image=metadata.image,
                    validators=answer.validators,
                    coordinate=_coordinate(metadata),
                )
            else:
                outcome.error = "A tour page with no title or image to file"
        return outcome


# --------------------------------------------------------------------------- the session


@dataclass
class Report:
    session_id: int
    status: str
    batches: int = 0
    pages: int = 0


class Crawl:
    """One worker's run of one session, until it ends, is stopped, or its time slice runs out."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        session_id: int,
        *,
        client_factory: ClientFactory = fetching.guarded_client,
        clock: Clock = utcnow,
        pid: str | None = None,
        batch_size: int | None = None,
    ) -> None:
        self.sessions = sessions
        self.session_id = session_id
        self.client_factory = client_factory
        self.clock = clock
        self.pid = pid or worker_pid()
        self.batch_size = batch_size  # None: sized to the host's pace (_batch_size)
        self._last_status = 0.0

    def run(self, *, time_budget: float | None = None, max_batches: int | None = None) -> Report:
        """Crawl until done; with a budget, release the session after it (the caller queues the next
        slice) so a long crawl never holds the embedded task thread for long."""
        with self.sessions() as db:
            if not claim(db, self.session_id, self.pid, self.clock()):
                return Report(self.session_id, "not claimed")
            session = db.get(CrawlerSession, self.session_id)
            assert session is not None
            plan = Plan.of(session.configuration, self.session_id)
        deadline = None if time_budget is None else time.monotonic() + time_budget
        interval = 1.0 / plan.settings.rate_limit if plan.settings.rate_limit > 0 else 0.0
        throttle = fetching.HostThrottle(interval=interval, concurrency=plan.settings.concurrency)
        client = self.client_factory(plan.settings.concurrency)
        report = Report(self.session_id, "running")
        try:
            visitor = Visitor(plan, client, throttle)
            with ThreadPoolExecutor(plan.settings.concurrency, thread_name_prefix="crawler") as pool:
                self._seed(plan, visitor)
                self._loop(plan, visitor, pool, report, deadline, max_batches)
        except Exception as exc:
            logger.exception("crawler session %s failed", self.session_id)
            self._end(CrawlerSessionStatus.failed, error=f"{type(exc).__name__}: {exc}"[:ERROR_MAX])
            report.status = "failed"
        finally:
            client.close()
        return report

    def _loop(
        self,
        plan: Plan,
        visitor: Visitor,
        pool: ThreadPoolExecutor,
        report: Report,
        deadline: float | None,
        max_batches: int | None,
    ) -> None:
        while True:
            if max_batches is not None and report.batches >= max_batches:
                report.status = "paused"
                return  # a test stands in for a killed worker: nothing is released
            if deadline is not None and time.monotonic() > deadline:
                self._release()
                report.status = "released"
                return
            with self.sessions() as db:
                session = db.get(CrawlerSession, self.session_id)
                if session is None or session.status != CrawlerSessionStatus.running or session.pid != self.pid:
                    report.status = session.status.value if session else "removed"
                    return  # stopped by an admin, removed, or taken over
                jobs, wait = self._due_jobs(db, plan, visitor.throttle)
            if not jobs:
                if wait is None:
                    self._end(CrawlerSessionStatus.finished)
                    report.status = "finished"
                    return
                time.sleep(min(wait, 1.0))
                self._touch()
                continue
            outcomes = list(pool.map(visitor.visit, jobs))
            self._record(plan, outcomes)
            report.batches += 1
            report.pages += sum(1 for outcome in outcomes if outcome.fetched)

    def _seed(self, plan: Plan, visitor: Visitor) -> None:
        """The start URLs, the configured sitemaps and those robots.txt lists: once per session."""
        with self.sessions() as db:
            if db.scalar(select(CrawlFrontier.id).where(CrawlFrontier.session_id == self.session_id).limit(1)):
                return  # resumed: the frontier is already there
            sitemaps = [str(url) for url in plan.settings.sitemap_urls]
            for start in [*plan.start_urls, *sitemaps]:
                sitemaps.extend(url for url in visitor.robots_sitemaps(start) if plan.in_scope(url))
            self._add_urls(db, plan, [(url, 0) for url in plan.start_urls], FrontierKind.page)
            self._add_urls(db, plan, [(url, 0) for url in sitemaps], FrontierKind.sitemap)
            db.commit()

    def _due_jobs(self, db: Session, plan: Plan, throttle: fetching.HostThrottle) -> tuple[list[Job], float | None]:
        """The next batch, and when none is due, how long until the earliest retry (None: all done)."""
        now = self.clock()
        rows = list(
            db.scalars(
                select(CrawlFrontier)
                .where(
                    CrawlFrontier.session_id == self.session_id,
                    CrawlFrontier.state == FrontierState.pending,
                    or_(CrawlFrontier.next_attempt_at.is_(None), CrawlFrontier.next_attempt_at <= now),
                )
                .order_by(CrawlFrontier.kind.desc(), CrawlFrontier.id)  # sitemaps before pages
                .limit(self.batch_size or self._batch_size(plan, throttle))
            )
        )
        if not rows:
            earliest = db.scalar(
                select(func.min(CrawlFrontier.next_attempt_at)).where(
                    CrawlFrontier.session_id == self.session_id, CrawlFrontier.state == FrontierState.pending
                )
            )
            return [], None if earliest is None else max(0.05, (as_utc(earliest) - now).total_seconds())
        keys = [row.url_key for row in rows if row.kind is FrontierKind.page]
        published = set(db.scalars(select(Tour.link_normalised).where(Tour.link_normalised.in_(keys))))
        pending = {
            tour.link_normalised: tour
            for tour in db.scalars(select(CrawledTour).where(CrawledTour.link_normalised.in_(keys)))
        }
        return [self._job(row, published, pending) for row in rows], None

    @staticmethod
    def _job(row: CrawlFrontier, published: set[str], crawled: dict[str, CrawledTour]) -> Job:
        known = crawled.get(row.url_key)
        validators = None
        if known is not None and known.status is CrawledTourStatus.new:
            data = known.data or {}
            validators = fetching.Validators(data.get("etag"), data.get("last_modified"))
        return Job(
            row_id=row.id,
            url=row.url,
            kind=row.kind,
            depth=row.depth,
            attempts=row.attempts,
            known=row.url_key in published or (known is not None and known.status is not CrawledTourStatus.new),
            validators=validators,
        )

    @staticmethod
    def _batch_size(plan: Plan, throttle: fetching.HostThrottle) -> int:
        """About BATCH_SECONDS of work at the host's pace, so the heartbeat stays fresh."""
        widest = plan.settings.concurrency * 16
        if throttle.interval <= 0:
            return widest
        return max(1, min(widest, int(BATCH_SECONDS / throttle.interval)))

    def _record(self, plan: Plan, outcomes: list[Outcome]) -> None:
        now = self.clock()
        with self.sessions() as db:
            session = db.get(CrawlerSession, self.session_id)
            assert session is not None
            self._record_rows(db, outcomes, now)
            for outcome in outcomes:
                self._add_urls(db, plan, outcome.pages, FrontierKind.page)
                self._add_urls(db, plan, [(url, 0) for url in outcome.sitemaps], FrontierKind.sitemap)
                session.total_tours += int(outcome.tour is not None or outcome.tour_seen)
                session.pages_fetched += int(outcome.fetched)
                session.pages_failed += int(outcome.state is FrontierState.failed)
            session.new_tours += self._file([outcome.tour for outcome in outcomes if outcome.tour], db)
            session.heartbeat_at = now
            self._maybe_emit(db, session)
            db.commit()

    @staticmethod
    def _record_rows(db: Session, outcomes: list[Outcome], now: datetime) -> None:
        """The frontier rows' new states: one UPDATE per distinct outcome (most rows of a batch end
        alike: done after one attempt), not one per row."""
        groups: dict[tuple[tuple[str, Any], ...], list[int]] = {}
        for outcome in outcomes:
            values: dict[str, Any] = {
                "state": outcome.state,
                "last_error": outcome.error[:ERROR_MAX] if outcome.error else None,
            }
            if outcome.fetched:
                values["attempts"] = outcome.job.attempts + 1
            if outcome.retry_in is not None:
                values["next_attempt_at"] = now + timedelta(seconds=outcome.retry_in)
            groups.setdefault(tuple(sorted(values.items())), []).append(outcome.job.row_id)
        for values_key, row_ids in groups.items():
            db.execute(update(CrawlFrontier).where(CrawlFrontier.id.in_(row_ids)).values(**dict(values_key)))

    def _file(self, tours: list[FoundTour], db: Session) -> int:
        """File the tours as pending crawler tours; returns how many are new. A link already filed (by
        this or an earlier session, or by a worker that died after filing it) refreshes the pending
        one instead: the unique normalised link is what makes a second filing impossible."""
        if not tours:
            return 0
        unique = {tour.key: tour for tour in tours}
        existing = {
            row.link_normalised: row
            for row in db.scalars(select(CrawledTour).where(CrawledTour.link_normalised.in_(list(unique))))
        }
        for key, row in existing.items():
            if row.status is CrawledTourStatus.new:
                row.title = unique[key].title or row.title
                row.data = _tour_data(unique[key])
        fresh = [tour for key, tour in unique.items() if key not in existing]
        try:
            with db.begin_nested():
                db.add_all(self._crawled(tour) for tour in fresh)
            return len(fresh)
        except IntegrityError:
            # Another worker filed one of them meanwhile: file them one by one, skipping those.
            return sum(self._file_one(db, tour) for tour in fresh)

    def _file_one(self, db: Session, tour: FoundTour) -> int:
        try:
            with db.begin_nested():
                db.add(self._crawled(tour))
            return 1
        except IntegrityError:
            return 0

    def _crawled(self, tour: FoundTour) -> CrawledTour:
        return CrawledTour(
            session_id=self.session_id,
            link=tour.link,
            link_normalised=tour.key,
            title=tour.title or None,
            data=_tour_data(tour),
        )

    def _add_urls(self, db: Session, plan: Plan, urls: Iterable[tuple[str, int]], kind: FrontierKind) -> None:
        """Queue URLs not yet in this session's frontier, within its scope and page budget."""
        fresh: dict[str, tuple[str, int]] = {}
        for url, depth in urls:
            if len(url) <= 2048 and plan.in_scope(url):
                fresh.setdefault(normalise_link(url), (url, depth))
        if not fresh:
            return
        db.flush()
        known = set(
            db.scalars(
                select(CrawlFrontier.url_key).where(
                    CrawlFrontier.session_id == self.session_id, CrawlFrontier.url_key.in_(list(fresh))
                )
            )
        )
        new = [(key, value) for key, value in fresh.items() if key not in known]
        if kind is FrontierKind.page:
            count = db.scalar(
                select(func.count())
                .select_from(CrawlFrontier)
                .where(CrawlFrontier.session_id == self.session_id, CrawlFrontier.kind == FrontierKind.page)
            )
            new = new[: max(0, plan.settings.max_pages - (count or 0))]
        db.add_all(
            CrawlFrontier(session_id=self.session_id, url=url, url_key=key, kind=kind, depth=depth, attempts=0)
            for key, (url, depth) in new
        )

    def _maybe_emit(self, db: Session, session: CrawlerSession, *, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self._last_status >= STATUS_EVERY_SECONDS:
            self._last_status = now
            emit_after_commit(db, CRAWLER_STATUS, status_event(session), room=ADMINS_ROOM)

    def _touch(self) -> None:
        with self.sessions() as db:
            db.execute(
                update(CrawlerSession)
                .where(CrawlerSession.id == self.session_id, CrawlerSession.pid == self.pid)
                .values(heartbeat_at=self.clock())
            )
            db.commit()

    def _release(self) -> None:
        """End of a time slice: the session stays running, free for the next slice's worker."""
        with self.sessions() as db:
            db.execute(
                update(CrawlerSession)
                .where(CrawlerSession.id == self.session_id, CrawlerSession.pid == self.pid)
                .values(heartbeat_at=None)
            )
            db.commit()

    def _end(self, status: CrawlerSessionStatus, *, error: str | None = None) -> None:
        with self.sessions() as db:
            session = db.get(CrawlerSession, self.session_id)
            if session is None or session.status != CrawlerSessionStatus.running:
                return
            session.status = status
            session.finished_at = self.clock()
            session.heartbeat_at = None
            session.error = error
            self._maybe_emit(db, session, force=True)
            db.commit()


def _coordinate(metadata: PageMetadata) -> str | None:
    """The page's place as the media form's pin ('lat,lng'); a postal address alone is left out (the
    admin names the place on approval: the geocoder would guess a city for it)."""
    if metadata.coordinates is None:
        return None
    lng, lat = metadata.coordinates
    return f"{lat},{lng}"


def _tour_data(tour: FoundTour) -> dict[str, Any]:
    return {
        "description": tour.description,
        "image": tour.image,
        "coordinate": tour.coordinate,
        "etag": tour.validators.etag,
        "last_modified": tour.validators.last_modified,
    }


def status_event(session: CrawlerSession) -> dict[str, Any]:
    """The crawler:status payload (app/realtime/events.py)."""
    return {
        "session_id": session.id,
        "configuration_id": session.configuration_id,
        "status": session.status.value,
        "total_tours": session.total_tours,
        "new_tours": session.new_tours,
        "pages_fetched": session.pages_fetched,
        "pages_failed": session.pages_failed,
    }
