"""Creator profiles (spec §3 "Creator profile", "Creator card"), featured tours and follows.

The counters (views, likes, followers, vt_count) are denormalised for cards and sorting; the
services that record a view, like, follow or tour keep them in step in the same transaction.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, Enum, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.core.db import Base, TimestampMixin, utcnow

if TYPE_CHECKING:
    from app.tours.models import Tour
    from app.users.models import User

MAX_FEATURED_TOURS = 10


class CreatorDefaultView(enum.StrEnum):
    grid = "grid"
    map = "map"


def default_img_settings() -> dict[str, Any]:
    return {"bgColor": "black", "logoScale": 10, "profileScale": 10}


class Creator(TimestampMixin, Base):
    __tablename__ = "creators"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), unique=True)
    creator_name: Mapped[str] = mapped_column(String(100), unique=True)
    description: Mapped[str | None] = mapped_column(Text)
    logo: Mapped[str | None] = mapped_column(String(512))
    trusted: Mapped[bool] = mapped_column(default=False)
    services: Mapped[list[str]] = mapped_column(JSON, default=list)
    website: Mapped[str | None] = mapped_column(String(2048))
    phone: Mapped[str | None] = mapped_column(String(32))
    contact_email: Mapped[str | None] = mapped_column(String(320))
    social_instagram: Mapped[str | None] = mapped_column(String(2048))
    social_twitter: Mapped[str | None] = mapped_column(String(2048))
    social_youtube: Mapped[str | None] = mapped_column(String(2048))
    social_facebook: Mapped[str | None] = mapped_column(String(2048))
    social_linkedin: Mapped[str | None] = mapped_column(String(2048))
    area_served: Mapped[list[str]] = mapped_column(JSON, default=list)
    default_view: Mapped[CreatorDefaultView] = mapped_column(
        Enum(CreatorDefaultView, native_enum=False, validate_strings=True, length=8), default=CreatorDefaultView.grid
    )
    img_settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=default_img_settings)
    is_active: Mapped[bool] = mapped_column(default=True, index=True)
    joined_fb_group: Mapped[bool] = mapped_column(default=False)
    views: Mapped[int] = mapped_column(default=0, index=True)
    likes: Mapped[int] = mapped_column(default=0)
    followers: Mapped[int] = mapped_column(default=0, index=True)
    vt_count: Mapped[int] = mapped_column(default=0, index=True)

    user: Mapped[User] = relationship(back_populates="creator")
    featured_tours: Mapped[list[CreatorFeaturedTour]] = relationship(
        back_populates="creator",
        order_by="CreatorFeaturedTour.position",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )


class CreatorFeaturedTour(Base):
    """One of a creator's up to MAX_FEATURED_TOURS featured tours ("favorite_tours"), in their order."""

    __tablename__ = "creator_featured_tours"
    __table_args__ = (UniqueConstraint("creator_id", "tour_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # The unique constraint leads with creator_id, so it also serves lookups by creator.
    creator_id: Mapped[int] = mapped_column(ForeignKey("creators.id", ondelete="CASCADE"))
    tour_id: Mapped[int] = mapped_column(ForeignKey("tours.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(default=0)

    creator: Mapped[Creator] = relationship(back_populates="featured_tours")
    tour: Mapped[Tour] = relationship()


class Follow(Base):
    __tablename__ = "follows"
    __table_args__ = (UniqueConstraint("user_id", "creator_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # The unique constraint leads with user_id, so it also serves "whom do I follow".
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    creator_id: Mapped[int] = mapped_column(ForeignKey("creators.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class LinkCheck(Base):
    """Whether a creator's website or social link answered, cached for a day (spec §5 "must be live"):
    a profile sent again, or approved a day later, does not knock on the same door again."""

    __tablename__ = "creator_link_checks"

    id: Mapped[int] = mapped_column(primary_key=True)
    # The link as checked, up to the creators' link columns' length; unique so one row per link.
    url: Mapped[str] = mapped_column(String(2048), unique=True)
    live: Mapped[bool]
    message: Mapped[str | None] = mapped_column(String(300))
    checked_at: Mapped[datetime] = mapped_column(default=utcnow)
