"""Ads (spec §3 "Ad card"): sponsored cards with a link and a preview image, placed by creators or
by admins on a user's behalf, moderated like tours (§4: ads and ad edits wait for approval)."""

from __future__ import annotations

import enum
import uuid
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import Enum, ForeignKey, Index, LargeBinary, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.core.db import Base, TimestampMixin, utcnow

if TYPE_CHECKING:
    from app.classifications.models import Tag
    from app.users.models import User

MAX_TAGS_PER_AD = 10


def new_guid() -> str:
    return uuid.uuid4().hex


class AdStatus(enum.StrEnum):
    """The same values as tours' TourStatus, so listing code can treat both alike."""

    active = "active"
    draft = "draft"


class AdApprovalState(enum.StrEnum):
    """The same values as tours' ApprovalState."""

    pending = "pending"
    approved = "approved"
    rejected = "rejected"


class AdEngagementKind(enum.StrEnum):
    like = "like"
    save = "save"
    share = "share"
    view = "view"
    click = "click"


class Ad(TimestampMixin, Base):
    __tablename__ = "ads"
    __table_args__ = (
        Index("ix_ads_user_id_status", "user_id", "status"),
        Index("ix_ads_status_approval_state", "status", "approval_state"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    guid: Mapped[str] = mapped_column(String(32), default=new_guid, unique=True, index=True)
    # ix_ads_user_id_status leads with user_id, so it also serves lookups by owner.
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    creator_id: Mapped[int | None] = mapped_column(ForeignKey("creators.id", ondelete="SET NULL"), index=True)
    title: Mapped[str] = mapped_column(String(255))
    description: Mapped[str | None] = mapped_column(Text)
    link: Mapped[str] = mapped_column(String(2048), unique=True)
    preview_picture: Mapped[str | None] = mapped_column(String(1024))
    status: Mapped[AdStatus] = mapped_column(
        Enum(AdStatus, native_enum=False, validate_strings=True, length=16), default=AdStatus.active
    )
    approval_state: Mapped[AdApprovalState] = mapped_column(
        Enum(AdApprovalState, native_enum=False, validate_strings=True, length=16), default=AdApprovalState.pending
    )
    is_featured: Mapped[bool] = mapped_column(default=False, index=True)
    featured_order: Mapped[int | None]
    views: Mapped[int] = mapped_column(default=0, index=True)
    likes: Mapped[int] = mapped_column(default=0)
    saves: Mapped[int] = mapped_column(default=0)
    shared: Mapped[int] = mapped_column(default=0)
    clicks: Mapped[int] = mapped_column(default=0)
    # Who added it: the owner, or an admin adding on the owner's behalf.
    created_by_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)

    owner: Mapped[User] = relationship(foreign_keys=[user_id])
    tag_links: Mapped[list[AdTag]] = relationship(
        back_populates="ad", order_by="AdTag.position", cascade="all, delete-orphan", passive_deletes=True
    )
    tags: Mapped[list[Tag]] = relationship(secondary="ad_tags", order_by="AdTag.position", viewonly=True)


class AdTag(Base):
    """Tags of an ad (GET ads/user/ad-tags/{user_id}), at most MAX_TAGS_PER_AD."""

    __tablename__ = "ad_tags"

    ad_id: Mapped[int] = mapped_column(ForeignKey("ads.id", ondelete="CASCADE"), primary_key=True)
    tag_id: Mapped[int] = mapped_column(ForeignKey("tags.id", ondelete="CASCADE"), primary_key=True, index=True)
    position: Mapped[int] = mapped_column(default=0)

    ad: Mapped[Ad] = relationship(back_populates="tag_links")


class AdEngagement(Base):
    """One row per like, save, share, view or click of an ad.

    A user likes or saves an ad at most once: a unique index restricted to those two kinds (shares,
    views and clicks repeat). Upserts must name that predicate (`index_where`) to hit the index.
    """

    __tablename__ = "ad_engagements"
    __table_args__ = (
        Index(
            "ix_ad_engagements_one_like_or_save",
            "ad_id",
            "user_id",
            "kind",
            unique=True,
            sqlite_where=text("kind IN ('like', 'save')"),
            postgresql_where=text("kind IN ('like', 'save')"),
        ),
        Index("ix_ad_engagements_ad_id_kind_created_at", "ad_id", "kind", "created_at"),
        # An impression or a click counts once per viewer per page view (GET show/{ad_id}, POST
        # click/{ad_id}); NULLs (older rows) never collide.
        Index(
            "ix_ad_engagements_once_per_page_view",
            "ad_id",
            "kind",
            "viewer_key",
            "page_view",
            unique=True,
            sqlite_where=text("kind IN ('view', 'click')"),
            postgresql_where=text("kind IN ('view', 'click')"),
        ),
        # The per-viewer frequency cap reads a viewer's recent impressions.
        Index("ix_ad_engagements_viewer_key_created_at", "viewer_key", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # Both indexes above lead with ad_id, so they serve lookups by ad too.
    ad_id: Mapped[int] = mapped_column(ForeignKey("ads.id", ondelete="CASCADE"))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    guest_id: Mapped[str | None] = mapped_column(String(64))
    # Who saw or clicked (a user, a guest id or a keyed hash of the address; engagement.Viewer.key)
    # and the page view it happened in (an id the client makes per page view, not per re-render).
    viewer_key: Mapped[str | None] = mapped_column(String(64))
    page_view: Mapped[str | None] = mapped_column(String(64))
    kind: Mapped[AdEngagementKind] = mapped_column(
        Enum(AdEngagementKind, native_enum=False, validate_strings=True, length=16)
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class AdEmbedding(Base):
    """The sentence embedding of an ad's text and tags (the serving's similarity to a viewer's
    taste); text_hash tells whether it must be recomputed. Shaped like tours' TourEmbedding."""

    __tablename__ = "ad_embeddings"

    ad_id: Mapped[int] = mapped_column(ForeignKey("ads.id", ondelete="CASCADE"), primary_key=True)
    model: Mapped[str] = mapped_column(String(100))
    # float32 little-endian (numpy .tobytes()).
    vector: Mapped[bytes] = mapped_column(LargeBinary)
    text_hash: Mapped[str] = mapped_column(String(64))
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
