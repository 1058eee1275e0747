"""Virtual tours (spec §3 "Media (tour) read/write", §4 "Media"), their tags and embeddings, and
daily featured-tour submissions.

A tour is listed when it is `active` and `approved` and its owner is an active account. `status`
is the owner's choice (active or draft); `approval_state` is moderation's (trusted users' tours
are approved on save); `visibility`, the owner's too, says whether a listed tour is also found by
discovery (public) or only by its link and on its owner's pages (unlisted). Counters are
denormalised for cards and sorting and kept in step by the engagement services.
"""

from __future__ import annotations

import enum
import uuid
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, Enum, Float, ForeignKey, Index, LargeBinary, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.core.db import Base, TimestampMixin, utcnow

if TYPE_CHECKING:
    from app.classifications.models import CaptureDevice, Category, MediaType, Subcategory, Tag
    from app.creators.models import Creator
    from app.users.models import User
    from app.vendors.models import Vendor

MAX_TAGS_PER_TOUR = 10
DESCRIPTION_MAX_LENGTH = 4000


def new_guid() -> str:
    return uuid.uuid4().hex


class TourStatus(enum.StrEnum):
    active = "active"
    draft = "draft"


class TourVisibility(enum.StrEnum):
    """Who finds a published tour: everyone (`public`: feeds, map, search, recommendations), or only
    whoever has its link or opens its owner's pages (`unlisted`)."""

    public = "public"
    unlisted = "unlisted"


class ApprovalState(enum.StrEnum):
    pending = "pending"
    approved = "approved"
    rejected = "rejected"


class Tour(TimestampMixin, Base):
    __tablename__ = "tours"
    __table_args__ = (
        # The owner's lists (manage media, drafts) and the moderation queue.
        Index("ix_tours_user_id_status", "user_id", "status"),
        Index("ix_tours_status_approval_state", "status", "approval_state"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    guid: Mapped[str] = mapped_column(String(32), default=new_guid, unique=True, index=True)
    # ix_tours_user_id_status leads with user_id, so it also serves lookups by owner.
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    creator_id: Mapped[int | None] = mapped_column(ForeignKey("creators.id", ondelete="SET NULL"), index=True)
    vendor_id: Mapped[int] = mapped_column(ForeignKey("vendors.id"), index=True)
    media_type_id: Mapped[int] = mapped_column(ForeignKey("media_types.id"), index=True)
    category_id: Mapped[int] = mapped_column(ForeignKey("categories.id"), index=True)
    subcategory_id: Mapped[int | None] = mapped_column(ForeignKey("subcategories.id", ondelete="SET NULL"), index=True)
    camera_id: Mapped[int | None] = mapped_column(ForeignKey("capture_devices.id", ondelete="SET NULL"), index=True)
    title: Mapped[str] = mapped_column(String(255), index=True)
    description: Mapped[str | None] = mapped_column(Text)
    link: Mapped[str] = mapped_column(String(2048), unique=True)
    # The link reduced to its identity (scheme, case, tracking parameters and trailing slash removed),
    # so the same tour cannot be added twice under two spellings of its URL.
    link_normalised: Mapped[str] = mapped_column(String(2048), unique=True, index=True)
    preview_picture: Mapped[str | None] = mapped_column(String(1024))
    vt_website: Mapped[str | None] = mapped_column(String(2048))
    creator_website: Mapped[str | None] = mapped_column(String(2048))
    third_party_creator: Mapped[str | None] = mapped_column(String(200))
    is_ai_generated: Mapped[bool] = mapped_column(default=False)
    address_street: Mapped[str | None] = mapped_column(String(255))
    address_city: Mapped[str | None] = mapped_column(String(255), index=True)
    address_province: Mapped[str | None] = mapped_column(String(255))
    address_zip: Mapped[str | None] = mapped_column(String(32))
    address_country: Mapped[str | None] = mapped_column(String(2), index=True)
    address_str: Mapped[str | None] = mapped_column(String(1024))
    address_id: Mapped[str | None] = mapped_column(String(255), index=True)
    lat: Mapped[float | None] = mapped_column(Float)
    lng: Mapped[float | None] = mapped_column(Float)
    status: Mapped[TourStatus] = mapped_column(
        Enum(TourStatus, native_enum=False, validate_strings=True, length=16), default=TourStatus.active
    )
    approval_state: Mapped[ApprovalState] = mapped_column(
        Enum(ApprovalState, native_enum=False, validate_strings=True, length=16), default=ApprovalState.pending
    )
    visibility: Mapped[TourVisibility] = mapped_column(
        Enum(TourVisibility, native_enum=False, validate_strings=True, length=16),
        default=TourVisibility.public,
        server_default=TourVisibility.public.value,
    )
    provider_version: Mapped[str | None] = mapped_column(String(64))
    views: Mapped[int] = mapped_column(default=0, index=True)
    likes: Mapped[int] = mapped_column(default=0, index=True)
    saves: Mapped[int] = mapped_column(default=0, index=True)
    shared: Mapped[int] = mapped_column(default=0, index=True)
    featured_order: Mapped[int | None] = mapped_column(index=True)
    is_featured: Mapped[bool] = mapped_column(default=False, index=True)
    trending_score: Mapped[float] = mapped_column(Float, default=0.0, index=True)
    # Who added it: the owner, or a CM/admin adding on the owner's behalf.
    created_by_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    published_at: Mapped[datetime | None] = mapped_column(index=True)

    owner: Mapped[User] = relationship(foreign_keys=[user_id])
    created_by: Mapped[User | None] = relationship(foreign_keys=[created_by_user_id])
    creator: Mapped[Creator | None] = relationship()
    vendor: Mapped[Vendor] = relationship()
    media_type: Mapped[MediaType] = relationship()
    category: Mapped[Category] = relationship()
    subcategory: Mapped[Subcategory | None] = relationship()
    camera: Mapped[CaptureDevice | None] = relationship()
    # Write tags through tag_links (it carries the position); `tags` is the read view in that order.
    tag_links: Mapped[list[TourTag]] = relationship(
        back_populates="tour", order_by="TourTag.position", cascade="all, delete-orphan", passive_deletes=True
    )
    tags: Mapped[list[Tag]] = relationship(secondary="tour_tags", order_by="TourTag.position", viewonly=True)

    @property
    def hashtags(self) -> list[list[Any]]:
        """[tag id, hashtag] of the tags the description's hashtags gave, in the tour's tag order (the
        form content key `hashtags`, beside `tag_ids`: app/tours/service.py)."""
        return [[link.tag_id, link.hashtag] for link in self.tag_links if link.hashtag]

    @property
    def coordinates(self) -> list[float] | None:
        """[lat, lng] as the wire carries it, or None when the tour has no location."""
        if self.lat is None or self.lng is None:
            return None
        return [self.lat, self.lng]


class TourTag(Base):
    __tablename__ = "tour_tags"

    tour_id: Mapped[int] = mapped_column(ForeignKey("tours.id", ondelete="CASCADE"), primary_key=True)
    tag_id: Mapped[int] = mapped_column(ForeignKey("tags.id", ondelete="CASCADE"), primary_key=True, index=True)
    position: Mapped[int] = mapped_column(default=0)
    # The description's hashtag this tag came from, as written ('GoldenHour', 'замок'); None for a tag
    # picked in the form (app/classifications/hashtags.py).
    hashtag: Mapped[str | None] = mapped_column(String(100))

    tour: Mapped[Tour] = relationship(back_populates="tag_links")
    tag: Mapped[Tag] = relationship()


class TourEmbedding(Base):
    """The sentence embedding of a tour's text; text_hash tells whether it must be recomputed."""

    __tablename__ = "tour_embeddings"

    tour_id: Mapped[int] = mapped_column(ForeignKey("tours.id", ondelete="CASCADE"), primary_key=True)
    model: Mapped[str] = mapped_column(String(100))
    # float32 little-endian (numpy .tobytes()).
    vector: Mapped[bytes] = mapped_column(LargeBinary)
    text_hash: Mapped[str] = mapped_column(String(64))
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class DailyFeaturedSubmission(Base):
    """A tour submitted to the daily featured-tour programme (POST send-tour-today)."""

    __tablename__ = "daily_featured_submissions"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    tour_id: Mapped[int] = mapped_column(ForeignKey("tours.id", ondelete="CASCADE"), index=True)
    description: Mapped[str | None] = mapped_column(Text)
    social_links: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    consent_creator_mention: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    status: Mapped[ApprovalState] = mapped_column(
        Enum(ApprovalState, native_enum=False, validate_strings=True, length=16),
        default=ApprovalState.pending,
        index=True,
    )

    tour: Mapped[Tour] = relationship()
