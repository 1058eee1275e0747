"""The crawler's wire shapes (spec §7 Crawler). A configuration's crawl settings travel flat beside
its name and start URLs and are kept in its `settings` JSON."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, Field, HttpUrl, field_validator

from app.core.timestamps import UtcDateTime
from app.core.types import DbId
from app.crawler import schedule
from app.tours.models import MAX_TAGS_PER_TOUR
from app.tours.schemas import LINK_MAX, TagRef

MAX_START_URLS = 50
MAX_SITEMAPS = 20
MAX_PAGES_LIMIT = 100_000
MAX_CONCURRENCY = 16
MAX_RATE = 100.0  # requests per second per host
MAX_DEPTH = 10
# Crawled tours decided by one call (each approval may fetch the tour's picture).
MAX_REVIEWED_AT_ONCE = 50

Url = Annotated[HttpUrl, Field(max_length=2048)]


class CrawlSettings(BaseModel):
    """How politely and how far a configuration crawls."""

    sitemap_urls: list[Url] = Field(default_factory=list, max_length=MAX_SITEMAPS)
    # Requests per second to one host; 0 lifts the limit (a robots.txt Crawl-delay still applies).
    rate_limit: float = Field(1.0, ge=0, le=MAX_RATE)
    concurrency: int = Field(2, ge=1, le=MAX_CONCURRENCY, description="Requests in flight per host")
    max_pages: int = Field(10_000, ge=1, le=MAX_PAGES_LIMIT, description="Pages one session visits at most")
    max_depth: int = Field(3, ge=0, le=MAX_DEPTH, description="Link hops followed from a start page")
    # Which pages are tours; empty: the host's own link pattern.
    tour_link_pattern: str | None = Field(None, max_length=1000)

    @field_validator("tour_link_pattern")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        try:
            re.compile(value)
        except re.error as exc:
            raise ValueError(f"Not a valid regular expression: {exc}") from exc
        return value


class ConfigurationWrite(CrawlSettings):
    id: DbId | None = Field(None, description="Set to change a configuration; absent to add one")
    name: str = Field(min_length=1, max_length=200)
    vendor_id: DbId = Field(description="The provider (host) crawled")
    start_urls: list[Url] = Field(default_factory=list, max_length=MAX_START_URLS)
    schedule_cron: str | None = Field(
        None,
        max_length=100,
        description="When to crawl by itself: a five-field cron expression in UTC (minute hour day-of-month "
        "month day-of-week, e.g. `0 3 * * 1`) or @hourly, @daily, @weekly, @monthly; empty: only when started",
    )
    is_active: bool = True

    @field_validator("name")
    @classmethod
    def _trimmed(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("A name is required")
        return value.strip()

    @field_validator("schedule_cron")
    @classmethod
    def _a_schedule(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        try:
            return schedule.check(value)
        except schedule.InvalidSchedule as exc:
            raise ValueError(str(exc)) from exc


class SessionOut(BaseModel):
    session_id: int
    configuration_id: int
    status: str
    # The schedule's due time this session was started for; null when an admin started it.
    scheduled_for: UtcDateTime | None
    total_tours: int
    new_tours: int
    pid: str | None
    pages_fetched: int
    pages_failed: int
    pages_waiting: int
    started_at: UtcDateTime | None
    finished_at: UtcDateTime | None
    signed_at: UtcDateTime | None
    error: str | None


class ConfigurationOut(CrawlSettings):
    id: int
    name: str
    vendor_id: int
    vendor_name: str
    start_urls: list[str]
    sitemap_urls: list[str]  # type: ignore[assignment]
    schedule_cron: str | None
    # When the schedule next starts a session (UTC); null without a schedule or while switched off.
    schedule_next_at: UtcDateTime | None
    is_active: bool
    created_at: UtcDateTime
    last_session: SessionOut | None


class ConfigurationList(BaseModel):
    data: list[ConfigurationOut]


class ConfigurationIdBody(BaseModel):
    id: DbId


class StartBody(BaseModel):
    configuration_id: DbId


class SessionIdBody(BaseModel):
    session_id: DbId


class SessionList(BaseModel):
    data: list[SessionOut]


class CrawledTourOut(BaseModel):
    id: int
    session_id: int
    configuration_id: int
    configuration_name: str
    vendor_id: int
    vendor_name: str
    link: str
    title: str | None
    description: str | None
    image: str | None
    coordinate: str | None = Field(description="'lat,lng' the page gave, used as the tour's place on approval")
    status: str
    tour_guid: str | None = Field(description="The tour it became (approved), or the one that already had its link")
    created_at: UtcDateTime


class CrawledTourPage(BaseModel):
    data: list[CrawledTourOut]
    total_items: int
    limit: int
    offset: int


class MessageAnswer(BaseModel):
    message: str


class CrawledTourIds(BaseModel):
    ids: list[DbId] = Field(min_length=1, max_length=MAX_REVIEWED_AT_ONCE, description="crawled tour ids")


class CrawledTourApproval(CrawledTourIds):
    """Publish crawled tours as tours of one owner, in one category: the choices a crawled page cannot
    make. Each tour keeps its own link, title, description, picture and (when the page gave one) place."""

    userid: DbId | None = Field(None, description="The owner; absent: platform_username, else the approving admin")
    platform_username: str | None = Field(None, max_length=64, description="The owner, by platform username")
    media_type_id: DbId
    category_id: DbId
    subcategory_id: DbId | None = None
    tags: list[TagRef] = Field(default_factory=list, max_length=MAX_TAGS_PER_TOUR)
    third_party_creator: str | None = Field(None, max_length=200, description="Creator Name shown on the tours")
    creator_website: str | None = Field(None, max_length=LINK_MAX, description="Creator Website, https:// only")
    address_str: str | None = Field(
        None, max_length=1024, description="The tours' place; absent: the place each page gave, if any"
    )


class CrawledTourOutcome(BaseModel):
    id: int
    status: Literal["approved", "rejected", "exists", "conflict", "invalid", "not_found"] = Field(
        description="exists: a tour already has the link (the crawled one is set aside); "
        "conflict: already decided; invalid: this tour cannot be published as it is (message, fields)"
    )
    message: str
    fields: dict[str, str] = Field(default_factory=dict)
    guid: str | None = Field(None, description="The tour published (approved) or already there (exists)")


class CrawledTourDecisionAnswer(BaseModel):
    data: list[CrawledTourOutcome]
    pending: int = Field(description="Crawled tours still waiting after the decisions")
