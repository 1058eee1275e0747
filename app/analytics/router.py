"""Spec §7 Creators, the analytics GETs: creator-analytic-totals, media-views-by-date,
media-activity-by-date, creator-analytics (limit, offset), and the ads equivalents
ads-analytic-totals, ads-views-by-date (impressions), ads-activity-by-date (clicks) and ads-analytics.

Every call reads a range of days in the caller's time zone (date_from, date_to, time_zone) of one
creator: the caller's own, or for an admin any creator named by creator_id or user_id."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from app.analytics import service
from app.analytics.schemas import (
    AdsActivityByDate,
    AdsAnalyticsPage,
    AdsAnalyticTotals,
    AdsViewsByDate,
    CreatorAnalyticsPage,
    CreatorAnalyticTotals,
    MediaActivityByDate,
    MediaViewsByDate,
)
from app.core.deps import CreatorUser, DbSession
from app.core.errors import error_responses
from app.core.types import DB_INT_MAX, DbId
from app.users.models import User

router = APIRouter(prefix="/v2/creators", tags=["analytics"])

DEFAULT_LIMIT = 50
MAX_LIMIT = 200


class RangeParams(BaseModel):
    date_from: date | None = Field(
        None, description=f"First day in time_zone, ISO date (default: {service.DEFAULT_DAYS - 1} days before date_to)"
    )
    date_to: date | None = Field(
        None, description=f"Last day in time_zone, ISO date (default: today there); at most {service.MAX_DAYS} days"
    )
    time_zone: str = Field(
        service.DEFAULT_TIME_ZONE, max_length=64, description="IANA time zone of the days (e.g. Europe/Berlin)"
    )
    creator_id: DbId | None = Field(None, description="Admins: the creator (default: the caller's own)")
    user_id: DbId | None = Field(None, description="Admins: the creator's user account")


class PageParams(RangeParams):
    limit: int = Field(DEFAULT_LIMIT, ge=1, le=MAX_LIMIT)
    offset: int = Field(0, ge=0, le=DB_INT_MAX)


ERRORS = error_responses(404)


def _window(db: Session, user: User, params: RangeParams) -> service.Window:
    return service.window(
        db,
        user,
        creator_id=params.creator_id,
        user_id=params.user_id,
        date_from=params.date_from,
        date_to=params.date_to,
        time_zone=params.time_zone,
    )


def _range_window(params: Annotated[RangeParams, Query()], db: DbSession, user: CreatorUser) -> service.Window:
    """The range a call reads (its query), checked before the handler runs."""
    return _window(db, user, params)


@dataclass(frozen=True, slots=True)
class PagedWindow:
    win: service.Window
    limit: int
    offset: int

    def page_fields(self) -> dict[str, Any]:
        return {**self.win.range_fields(), "limit": self.limit, "offset": self.offset}


def _paged_window(params: Annotated[PageParams, Query()], db: DbSession, user: CreatorUser) -> PagedWindow:
    """The range and the page a listing reads (one query model: every field checked before the window)."""
    return PagedWindow(_window(db, user, params), params.limit, params.offset)


Window = Annotated[service.Window, Depends(_range_window)]
Paged = Annotated[PagedWindow, Depends(_paged_window)]


def _totals(db: Session, win: service.Window, **columns: str) -> dict[str, Any]:
    """The range and the creator's counts within it, named `wire name=count name`."""
    totals = service.totals_of(service.creator_days(db, win))
    return {**win.range_fields(), **{wire: totals[name] for wire, name in columns.items()}}


def _per_day(db: Session, win: service.Window, **columns: str) -> dict[str, Any]:
    """The range and each of its days with the counts named `wire name=count name`."""
    days = service.creator_days(db, win)
    data = [{"date": day, **{wire: counts[name] for wire, name in columns.items()}} for day, counts in days.items()]
    return {**win.range_fields(), "data": data}


@router.get("/creator-analytic-totals", response_model=CreatorAnalyticTotals, responses=ERRORS)
def creator_analytic_totals(win: Window, db: DbSession, _creator: CreatorUser) -> CreatorAnalyticTotals:
    """Views, likes, saves, shares of the creator's tours and new followers, within the range."""
    counts = _totals(db, win, views="views", likes="likes", saves="saves", shared="shares", follows="follows")
    return CreatorAnalyticTotals(**counts)


@router.get("/media-views-by-date", response_model=MediaViewsByDate, responses=ERRORS)
def media_views_by_date(win: Window, db: DbSession, _creator: CreatorUser) -> MediaViewsByDate:
    """Counted views of the creator's tours per day."""
    return MediaViewsByDate(**_per_day(db, win, views="views"))


@router.get("/media-activity-by-date", response_model=MediaActivityByDate, responses=ERRORS)
def media_activity_by_date(win: Window, db: DbSession, _creator: CreatorUser) -> MediaActivityByDate:
    """Likes, saves and shares of the creator's tours and new followers, per day."""
    return MediaActivityByDate(**_per_day(db, win, likes="likes", saves="saves", shared="shares", follows="follows"))


@router.get("/creator-analytics", response_model=CreatorAnalyticsPage, responses=ERRORS)
def creator_analytics(page: Paged, db: DbSession, _creator: CreatorUser) -> CreatorAnalyticsPage:
    """The creator's tours with their counts in the range, most viewed first (limit, offset)."""
    rows, total = service.tour_rows(db, page.win, limit=page.limit, offset=page.offset)
    return CreatorAnalyticsPage(**page.page_fields(), data=rows, total_items=total)


@router.get("/ads-analytic-totals", response_model=AdsAnalyticTotals, responses=ERRORS)
def ads_analytic_totals(win: Window, db: DbSession, _creator: CreatorUser) -> AdsAnalyticTotals:
    """Impressions and clicks of the creator's ads within the range."""
    return AdsAnalyticTotals(**_totals(db, win, impressions="impressions", clicks="clicks"))


@router.get("/ads-views-by-date", response_model=AdsViewsByDate, responses=ERRORS)
def ads_views_by_date(win: Window, db: DbSession, _creator: CreatorUser) -> AdsViewsByDate:
    """Impressions of the creator's ads per day."""
    return AdsViewsByDate(**_per_day(db, win, impressions="impressions"))


@router.get("/ads-activity-by-date", response_model=AdsActivityByDate, responses=ERRORS)
def ads_activity_by_date(win: Window, db: DbSession, _creator: CreatorUser) -> AdsActivityByDate:
    """Clicks of the creator's ads per day."""
    return AdsActivityByDate(**_per_day(db, win, clicks="clicks"))


@router.get("/ads-analytics", response_model=AdsAnalyticsPage, responses=ERRORS)
def ads_analytics(page: Paged, db: DbSession, _creator: CreatorUser) -> AdsAnalyticsPage:
    """The creator's ads with impressions and clicks in the range, most shown first (limit, offset)."""
    rows, total = service.ad_rows(db, page.win, limit=page.limit, offset=page.offset)
    return AdsAnalyticsPage(**page.page_fields(), data=rows, total_items=total)
