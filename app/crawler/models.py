"""The provider crawler (spec §7 Crawler): configurations, their runs, and the tours a run found."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, Enum, ForeignKey, Index, String, Text, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.core.db import Base, TimestampMixin, utcnow

if TYPE_CHECKING:
    from app.vendors.models import Vendor


class CrawlerSessionStatus(enum.StrEnum):
    queued = "queued"
    running = "running"
    stopped = "stopped"
    finished = "finished"
    failed = "failed"


class CrawledTourStatus(enum.StrEnum):
    new = "new"
    imported = "imported"
    skipped = "skipped"


class CrawlerConfiguration(TimestampMixin, Base):
    __tablename__ = "crawler_configurations"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    vendor_id: Mapped[int] = mapped_column(ForeignKey("vendors.id", ondelete="CASCADE"), index=True)
    start_urls: Mapped[list[str]] = mapped_column(JSON, default=list)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    is_active: Mapped[bool] = mapped_column(default=True, index=True)
    # A five-field cron expression in UTC (app/crawler/schedule.py): the periodic task starts a
    # session at each time it names.
    schedule_cron: Mapped[str | None] = mapped_column(String(100))
    # The schedule counts due times from here: set when the expression changes or the configuration
    # is switched on, so a schedule never starts a session for a time that passed before it applied.
    schedule_since: Mapped[datetime | None]

    vendor: Mapped[Vendor] = relationship()
    sessions: Mapped[list[CrawlerSession]] = relationship(
        back_populates="configuration",
        order_by="CrawlerSession.id.desc()",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )


# The statuses of a session that holds its configuration (app/crawler/service.py ACTIVE).
ACTIVE_SESSION = "status IN ('queued', 'running')"


class CrawlerSession(Base):
    __tablename__ = "crawler_sessions"
    __table_args__ = (
        # The database guards what the schedule must never do, whichever scheduler or process asks:
        # start a configuration twice for one due time ...
        UniqueConstraint("configuration_id", "scheduled_for"),
        # ... or run two sessions of one configuration at once (an admin's start included).
        Index(
            "ix_crawler_sessions_one_active",
            "configuration_id",
            unique=True,
            sqlite_where=text(ACTIVE_SESSION),
            postgresql_where=text(ACTIVE_SESSION),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    configuration_id: Mapped[int] = mapped_column(
        ForeignKey("crawler_configurations.id", ondelete="CASCADE"), index=True
    )
    status: Mapped[CrawlerSessionStatus] = mapped_column(
        Enum(CrawlerSessionStatus, native_enum=False, validate_strings=True, length=16),
        default=CrawlerSessionStatus.queued,
        index=True,
    )
    total_tours: Mapped[int] = mapped_column(default=0)
    new_tours: Mapped[int] = mapped_column(default=0)
    # The worker task id running this session (the wire calls it pid).
    pid: Mapped[str | None] = mapped_column(String(255))
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    error: Mapped[str | None] = mapped_column(Text)
    # When an admin acknowledged ("signed") the finished run.
    signed_at: Mapped[datetime | None]
    # The running worker touches this after every batch; a running session whose heartbeat is stale
    # lost its worker (killed, host gone) and is resumed from its frontier (app/crawler/service.py).
    heartbeat_at: Mapped[datetime | None] = mapped_column(index=True)
    pages_fetched: Mapped[int] = mapped_column(default=0)
    pages_failed: Mapped[int] = mapped_column(default=0)
    # The due time of the schedule this session was started for (None: an admin started it).
    scheduled_for: Mapped[datetime | None]

    configuration: Mapped[CrawlerConfiguration] = relationship(back_populates="sessions")


class CrawledTour(Base):
    __tablename__ = "crawled_tours"

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("crawler_sessions.id", ondelete="CASCADE"), index=True)
    link: Mapped[str] = mapped_column(String(2048), unique=True)
    # The form links are compared in (app.classifications.dictionaries.normalise_link): unique, so a
    # tour is filed once whatever spelling of its link a sitemap or a page gave, and however often a
    # resumed worker meets it again.
    link_normalised: Mapped[str] = mapped_column(String(2048), unique=True)
    title: Mapped[str | None] = mapped_column(String(500))
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # Set when the crawled tour was imported as a tour.
    tour_id: Mapped[int | None] = mapped_column(ForeignKey("tours.id", ondelete="SET NULL"), index=True)
    status: Mapped[CrawledTourStatus] = mapped_column(
        Enum(CrawledTourStatus, native_enum=False, validate_strings=True, length=16),
        default=CrawledTourStatus.new,
        index=True,
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    session: Mapped[CrawlerSession] = relationship()


class FrontierState(enum.StrEnum):
    pending = "pending"
    done = "done"
    failed = "failed"
    skipped = "skipped"  # robots.txt disallows it, or the crawl's limits left it out


class FrontierKind(enum.StrEnum):
    sitemap = "sitemap"
    page = "page"


class CrawlFrontier(Base):
    """A session's URLs to visit and what became of each: the crawl's whole state lives here, so a
    worker that dies loses nothing; the next one takes the pending rows again."""

    __tablename__ = "crawl_frontier"
    __table_args__ = (UniqueConstraint("session_id", "url_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("crawler_sessions.id", ondelete="CASCADE"))
    url: Mapped[str] = mapped_column(String(2048))
    # The normalised URL: one visit per page in a session whatever spelling led to it.
    url_key: Mapped[str] = mapped_column(String(2048))
    kind: Mapped[FrontierKind] = mapped_column(Enum(FrontierKind, native_enum=False, validate_strings=True, length=16))
    depth: Mapped[int] = mapped_column(default=0)
    state: Mapped[FrontierState] = mapped_column(
        Enum(FrontierState, native_enum=False, validate_strings=True, length=16),
        default=FrontierState.pending,
        index=True,
    )
    attempts: Mapped[int] = mapped_column(default=0)
    # A failed fetch that may succeed later (timeout, 5xx, 429) waits until then (backoff).
    next_attempt_at: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(String(500))
