"""The events table and its rollups.

`analytics_events` is append-only: one row per view, like, save, share, follow, ad impression or ad
click (an unlike, unsave or unfollow is the same kind with `value` -1, so a sum is the net change).
`creator_id` is the owner's creator at the time of the event, denormalised so no rollup needs a join.
`bucket` is the event's quarter hour as a number (`epoch seconds // 900`): every rollup groups by it
with integer arithmetic that reads the same on SQLite and PostgreSQL, and every time zone's midnight
falls on a quarter-hour boundary, so a day in the viewer's zone is an exact sum of buckets.

The ad and creator rollups hold one row per (ad | creator, bucket) with a column per kind; the tour
rollups one per (tour, UTC day: `bucket // 96`), as the per-tour table needs range totals, not a
series. Rows of buckets before the watermark (`analytics_rollup_state`) are complete, tour rows of
the UTC days that ended before it; later events are read live.
"""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import BigInteger, Enum, Index, Integer, SmallInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, utcnow

# Not foreign keys: the log outlives what it is about, and a write of the hot path checks nothing.
BUCKET_SECONDS = 900
BUCKETS_PER_DAY = 86_400 // BUCKET_SECONDS


class EventKind(enum.StrEnum):
    view = "view"
    like = "like"
    save = "save"
    share = "share"
    follow = "follow"
    ad_impression = "ad_impression"
    ad_click = "ad_click"


def _kind_enum() -> Enum:
    return Enum(EventKind, native_enum=False, validate_strings=True, length=16)


class AnalyticsEvent(Base):
    __tablename__ = "analytics_events"
    __table_args__ = (
        # The rollup's window scan and the live part of every creator's answer.
        Index("ix_analytics_events_bucket", "bucket"),
        Index("ix_analytics_events_creator_id_bucket", "creator_id", "bucket"),
    )

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    kind: Mapped[EventKind] = mapped_column(_kind_enum())
    value: Mapped[int] = mapped_column(SmallInteger, default=1)
    occurred_at: Mapped[datetime] = mapped_column(default=utcnow)
    bucket: Mapped[int] = mapped_column(BigInteger)
    tour_id: Mapped[int | None]
    ad_id: Mapped[int | None]
    creator_id: Mapped[int | None]
    user_id: Mapped[int | None]
    viewer_key: Mapped[str | None] = mapped_column(String(100))


class TourRollup(Base):
    __tablename__ = "analytics_tour_rollups"
    __table_args__ = (Index("ix_analytics_tour_rollups_creator_id_day", "creator_id", "day"),)

    tour_id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    day: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)  # UTC days since 1970
    creator_id: Mapped[int | None]
    views: Mapped[int] = mapped_column(default=0)
    likes: Mapped[int] = mapped_column(default=0)
    saves: Mapped[int] = mapped_column(default=0)
    shares: Mapped[int] = mapped_column(default=0)


class AdRollup(Base):
    __tablename__ = "analytics_ad_rollups"
    __table_args__ = (Index("ix_analytics_ad_rollups_creator_id_bucket", "creator_id", "bucket"),)

    ad_id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    bucket: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    creator_id: Mapped[int | None]
    impressions: Mapped[int] = mapped_column(default=0)
    clicks: Mapped[int] = mapped_column(default=0)


class CreatorRollup(Base):
    __tablename__ = "analytics_creator_rollups"

    creator_id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    bucket: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    views: Mapped[int] = mapped_column(default=0)
    likes: Mapped[int] = mapped_column(default=0)
    saves: Mapped[int] = mapped_column(default=0)
    shares: Mapped[int] = mapped_column(default=0)
    follows: Mapped[int] = mapped_column(default=0)
    impressions: Mapped[int] = mapped_column(default=0)
    clicks: Mapped[int] = mapped_column(default=0)


class RollupState(Base):
    """The watermark: every event of a bucket below `watermark` is in the rollups."""

    __tablename__ = "analytics_rollup_state"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    watermark: Mapped[int] = mapped_column(BigInteger, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
