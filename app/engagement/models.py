"""Likes, saves, shares and views (spec §3 "Player parameters", §4 "Like and save").

Likes and saves are one row per (user, tour), so toggling is idempotent and user_like/user_save are
a primary-key lookup. Views count once per viewer per counting window: the unique
(…, viewer_key, window_start) makes a repeated view in the same window an insert conflict, not a
second count. A viewer key is "u:{user id}", "g:{guest id}" or "ip:{hash}".
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, utcnow


class TourLike(Base):
    __tablename__ = "tour_likes"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    tour_id: Mapped[int] = mapped_column(ForeignKey("tours.id", ondelete="CASCADE"), primary_key=True, index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TourSave(Base):
    __tablename__ = "tour_saves"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    tour_id: Mapped[int] = mapped_column(ForeignKey("tours.id", ondelete="CASCADE"), primary_key=True, index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TourShare(Base):
    __tablename__ = "tour_shares"

    id: Mapped[int] = mapped_column(primary_key=True)
    tour_id: Mapped[int] = mapped_column(ForeignKey("tours.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    guest_id: Mapped[str | None] = mapped_column(String(64))
    channel: Mapped[str | None] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TourView(Base):
    __tablename__ = "tour_views"
    __table_args__ = (
        # Leads with tour_id, so it also serves "views of a tour" (analytics by date).
        UniqueConstraint("tour_id", "viewer_key", "window_start"),
        Index("ix_tour_views_tour_id_created_at", "tour_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tour_id: Mapped[int] = mapped_column(ForeignKey("tours.id", ondelete="CASCADE"))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    guest_id: Mapped[str | None] = mapped_column(String(64))
    viewer_key: Mapped[str] = mapped_column(String(100))
    window_start: Mapped[datetime]
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class CreatorView(Base):
    __tablename__ = "creator_views"
    __table_args__ = (
        UniqueConstraint("creator_id", "viewer_key", "window_start"),
        Index("ix_creator_views_creator_id_created_at", "creator_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    creator_id: Mapped[int] = mapped_column(ForeignKey("creators.id", ondelete="CASCADE"))
    viewer_key: Mapped[str] = mapped_column(String(100))
    window_start: Mapped[datetime]
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
