"""Spec §7 Creators, the analytics GETs: creator-analytic-totals, media-views-by-date,
media-activity-by-date, creator-analytics (limit, offset), and the ads equivalents
ads-analytic-totals, ads-views-by-date (impressions), ads-activity-by-date (clicks) and ads-analytics.

Every call reads a range of days in the caller's time zone (date_from, date_to, time_zone) of one
creator: the caller's own, or for an admin any creator named by creator_id or user_id."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

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


Range = Annotated[RangeParams, Query()]
Page = Annotated[PageParams, Query()]
ERRORS = error_responses(404)


def _window(db: DbSession, user: CreatorUser, params: RangeParams) -> service.Window:
    return service.window(
        db,
        user,
        creator_id=params.creator_id,
        user_id=params.user_id,
        date_from=params.date_from,
        date_to=params.date_to,
        time_zone=params.time_zone,
    )


@router.get("/creator-analytic-totals", response_model=CreatorAnalyticTotals, responses=ERRORS)
def creator_analytic_totals(params: Range, db: DbSession, user: CreatorUser) -> CreatorAnalyticTotals:
    """Views, likes, saves, shares of the creator's tours and new followers, within the range."""
    win = _window(db, user, params)
    totals = service.totals_of(service.creator_days(db, win))
    return CreatorAnalyticTotals(
        **win.range_fields(),
        views=totals["views"],
        likes=totals["likes"],
        saves=totals["saves"],
        shared=totals["shares"],
        follows=totals["follows"],
    )


@router.get("/media-views-by-date", response_model=MediaViewsByDate, responses=ERRORS)
def media_views_by_date(params: Range, db: DbSession, user: CreatorUser) -> MediaViewsByDate:
    """Counted views of the creator's tours per day."""
    win = _window(db, user, params)
    days = service.creator_days(db, win)
    return MediaViewsByDate(
        **win.range_fields(), data=[{"date": day, "views": counts["views"]} for day, counts in days.items()]
    )


@router.get("/media-activity-by-date", response_model=MediaActivityByDate, responses=ERRORS)
def media_activity_by_date(params: Range, db: DbSession, user: CreatorUser) -> MediaActivityByDate:
    """Likes, saves and shares of the creator's tours and new followers, per day."""
    win = _window(db, user, params)
    days = service.creator_days(db, win)
    return MediaActivityByDate(
        **win.range_fields(),
        data=[
            {
                "date": day,
                "likes": counts["likes"],
                "saves": counts["saves"],
                "shared": counts["shares"],
                "follows": counts["follows"],
            }
            for day, counts in days.items()
        ],
    )


@router.get("/creator-analytics", response_model=CreatorAnalyticsPage, responses=ERRORS)
def creator_analytics(params: Page, db: DbSession, user: CreatorUser) -> CreatorAnalyticsPage:
    """The creator's tours with their counts in the range, most viewed first (limit, offset)."""
    win = _window(db, user, params)
    rows, total = service.tour_rows(db, win, limit=params.limit, offset=params.offset)
    return CreatorAnalyticsPage(
        **win.range_fields(), data=rows, total_items=total, limit=params.limit, offset=params.offset
    )


@router.get("/ads-analytic-totals", response_model=AdsAnalyticTotals, responses=ERRORS)
def ads_analytic_totals(params: Range, db: DbSession, user: CreatorUser) -> AdsAnalyticTotals:
    """Impressions and clicks of the creator's ads within the range."""
    win = _window(db, user, params)
    totals = service.totals_of(service.creator_days(db, win))
    return AdsAnalyticTotals(**win.range_fields(), impressions=totals["impressions"], clicks=totals["clicks"])


@router.get("/ads-views-by-date", response_model=AdsViewsByDate, responses=ERRORS)
def ads_views_by_date(params: Range, db: DbSession, user: CreatorUser) -> AdsViewsByDate:
    """Impressions of the creator's ads per day."""
    win = _window(db, user, params)
    days = service.creator_days(db, win)
    return AdsViewsByDate(
        **win.range_fields(), data=[{"date": day, "impressions": counts["impressions"]} for day, counts in days.items()]
    )


@router.get("/ads-activity-by-date", response_model=AdsActivityByDate, responses=ERRORS)
def ads_activity_by_date(params: Range, db: DbSession, user: CreatorUser) -> AdsActivityByDate:
    """Clicks of the creator's ads per day."""
    win = _window(db, user, params)
    days = service.creator_days(db, win)
    return AdsActivityByDate(
        **win.range_fields(), data=[{"date": day, "clicks": counts["clicks"]} for day, counts in days.items()]
    )


@router.get("/ads-analytics", response_model=AdsAnalyticsPage, responses=ERRORS)
def ads_analytics(params: Page, db: DbSession, user: CreatorUser) -> AdsAnalyticsPage:
    """The creator's ads with impressions and clicks in the range, most shown first (limit, offset)."""
    win = _window(db, user, params)
    rows, total = service.ad_rows(db, win, limit=params.limit, offset=params.offset)
    return AdsAnalyticsPage(
        **win.range_fields(), data=rows, total_items=total, limit=params.limit, offset=params.offset
    )
