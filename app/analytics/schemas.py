"""Answers of the analytics calls (spec §7 Creators: creator-analytic-totals, media-views-by-date,
media-activity-by-date, creator-analytics, and the ads equivalents)."""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, Field


class AnalyticsRange(BaseModel):
    creator_id: int
    date_from: date = Field(description="First day, in time_zone")
    date_to: date = Field(description="Last day, in time_zone (included)")
    time_zone: str = Field(description="IANA time zone whose midnights bound the days")


class CreatorAnalyticTotals(AnalyticsRange):
    views: int
    likes: int = Field(description="Likes minus unlikes within the range")
    saves: int = Field(description="Saves minus unsaves within the range")
    shared: int
    follows: int = Field(description="New followers minus unfollows within the range")


class ViewsOnDay(BaseModel):
    date: date
    views: int


class MediaViewsByDate(AnalyticsRange):
    data: list[ViewsOnDay] = Field(description="Every day of the range, oldest first (0 when nothing happened)")


class ActivityOnDay(BaseModel):
    date: date
    likes: int
    saves: int
    shared: int
    follows: int


class MediaActivityByDate(AnalyticsRange):
    data: list[ActivityOnDay] = Field(description="Every day of the range, oldest first")


class TourAnalyticsRow(BaseModel):
    id: str = Field(description="The tour guid")
    title: str
    preview_picture: str | None
    status: str
    views: int
    likes: int
    saves: int
    shared: int


class CreatorAnalyticsPage(AnalyticsRange):
    data: list[TourAnalyticsRow] = Field(description="The creator's tours, most viewed in the range first")
    total_items: int
    limit: int
    offset: int


class AdsAnalyticTotals(AnalyticsRange):
    impressions: int
    clicks: int


class ImpressionsOnDay(BaseModel):
    date: date
    impressions: int


class AdsViewsByDate(AnalyticsRange):
    data: list[ImpressionsOnDay] = Field(description="Every day of the range, oldest first")


class ClicksOnDay(BaseModel):
    date: date
    clicks: int


class AdsActivityByDate(AnalyticsRange):
    data: list[ClicksOnDay] = Field(description="Every day of the range, oldest first")


class AdAnalyticsRow(BaseModel):
    id: str = Field(description="The ad guid")
    title: str
    preview_picture: str | None
    status: str
    impressions: int
    clicks: int


class AdsAnalyticsPage(AnalyticsRange):
    data: list[AdAnalyticsRow] = Field(description="The creator's ads, most shown in the range first")
    total_items: int
    limit: int
    offset: int
