"""The dictionaries tours are classified by (spec §3 "Category" … "Rank source") and ranks.

The hosts (vendors) tours live on are the vendors domain's (app/vendors/models.py).
"""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import Enum, Float, ForeignKey, Index, LargeBinary, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from app.core.db import Base, utcnow

TAG_EMBEDDING_DIMENSIONS = 384


class ImageSource(enum.StrEnum):
    """Where a category icon lives; a cloud icon is fetched through GET category-icon."""

    local = "local"
    cloud = "cloud"


class TagTopicType(enum.StrEnum):
    category = "category"
    media_type = "media_type"


class DictionaryKind(enum.StrEnum):
    """The dictionaries an administrator edits (names translated, usage checked, batch-uploaded)."""

    category = "category"
    subcategory = "subcategory"
    media_type = "media_type"
    capture_device = "capture_device"
    tag = "tag"


class EmbeddingJobStatus(enum.StrEnum):
    queued = "queued"
    running = "running"
    done = "done"
    failed = "failed"


class RankEntityType(enum.StrEnum):
    tour = "tour"
    creator = "creator"
    ad = "ad"


class Category(Base):
    __tablename__ = "categories"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    slug: Mapped[str] = mapped_column(String(100), unique=True)
    image_search: Mapped[str | None] = mapped_column(String(1024))
    source_image_search: Mapped[ImageSource] = mapped_column(
        Enum(ImageSource, native_enum=False, validate_strings=True, length=8), default=ImageSource.local
    )
    position: Mapped[int] = mapped_column(default=0, index=True)
    is_active: Mapped[bool] = mapped_column(default=True)

    subcategories: Mapped[list[Subcategory]] = relationship(back_populates="category", order_by="Subcategory.name")


class Subcategory(Base):
    __tablename__ = "subcategories"
    __table_args__ = (UniqueConstraint("category_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    # The unique constraint leads with category_id, so it also serves "subcategories of a category".
    category_id: Mapped[int] = mapped_column(ForeignKey("categories.id", ondelete="CASCADE"))
    is_active: Mapped[bool] = mapped_column(default=True)

    category: Mapped[Category] = relationship(back_populates="subcategories")


class MediaType(Base):
    __tablename__ = "media_types"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    slug: Mapped[str] = mapped_column(String(100), unique=True)
    is_active: Mapped[bool] = mapped_column(default=True)
    # Panoramas and 360 video: the filters' "360° only" switch keeps tours of these types.
    is_360: Mapped[bool] = mapped_column(default=False, server_default=false())


class CaptureDevice(Base):
    __tablename__ = "capture_devices"

    id: Mapped[int] = mapped_column(primary_key=True)
    camera_name: Mapped[str] = mapped_column(String(200), unique=True)
    is_active: Mapped[bool] = mapped_column(default=True)


class Tag(Base):
    """A tag belongs to one topic: a category or a media type (topic_id is that row's id).

    `name_lower` exists because an index on lower(name) is not portable between SQLite and
    PostgreSQL; tag search is case-insensitive (spec §5) and filters on it.
    """

    __tablename__ = "tags"
    __table_args__ = (
        UniqueConstraint("name", "topic_type", "topic_id"),
        Index("ix_tags_topic_type_topic_id", "topic_type", "topic_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    name_lower: Mapped[str] = mapped_column(String(100), index=True)
    description: Mapped[str | None] = mapped_column(Text)
    is_active: Mapped[bool] = mapped_column(default=True, index=True)
    topic_type: Mapped[TagTopicType] = mapped_column(
        Enum(TagTopicType, native_enum=False, validate_strings=True, length=16)
    )
    topic_id: Mapped[int]
    # TAG_EMBEDDING_DIMENSIONS float32 values, little-endian (numpy .tobytes()); null until embedded.
    embedding: Mapped[bytes | None] = mapped_column(LargeBinary)

    @validates("name")
    def _keep_name_lower(self, _key: str, name: str) -> str:
        self.name_lower = name.lower()
        return name


class RankSource(Base):
    __tablename__ = "rank_sources"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)


class Rank(Base):
    """A tour's, creator's or ad's rank value from one source (entity_id is that row's id)."""

    __tablename__ = "ranks"
    __table_args__ = (
        UniqueConstraint("rank_source_id", "entity_type", "entity_id"),
        Index("ix_ranks_entity_type_entity_id", "entity_type", "entity_id"),
        Index("ix_ranks_rank_source_id_entity_type_value", "rank_source_id", "entity_type", "value"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # Both indexes above lead with rank_source_id, so they serve lookups by source too.
    rank_source_id: Mapped[int] = mapped_column(ForeignKey("rank_sources.id", ondelete="CASCADE"))
    entity_type: Mapped[RankEntityType] = mapped_column(
        Enum(RankEntityType, native_enum=False, validate_strings=True, length=16)
    )
    entity_id: Mapped[int]
    value: Mapped[float] = mapped_column(Float, default=0.0)
    position: Mapped[int | None]
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    source: Mapped[RankSource] = relationship()


class DictionaryName(Base):
    """A dictionary row's name in a language other than English (the row's own `name` is English).

    `scope` is the set a name must be unique in: "" for categories, media types and capture devices,
    the category id for a subcategory, "category:3" / "media_type:2" for a tag (as its topic). The
    unique constraint on `name_lower` keeps names unique in each language, case-insensitively.
    """

    __tablename__ = "dictionary_names"
    __table_args__ = (
        UniqueConstraint("kind", "entity_id", "language"),
        UniqueConstraint("kind", "scope", "language", "name_lower"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[DictionaryKind] = mapped_column(
        Enum(DictionaryKind, native_enum=False, validate_strings=True, length=16)
    )
    entity_id: Mapped[int]
    language: Mapped[str] = mapped_column(String(8))
    scope: Mapped[str] = mapped_column(String(40), default="")
    name: Mapped[str] = mapped_column(String(200))
    name_lower: Mapped[str] = mapped_column(String(200))

    @validates("name")
    def _keep_name_lower(self, _key: str, name: str) -> str:
        self.name_lower = name.lower()
        return name


class TagEmbeddingJob(Base):
    """One run of "embed every tag again" (POST admin-tag-embeddings): its progress, for the admin
    who started it (GET admin-tag-embeddings)."""

    __tablename__ = "tag_embedding_jobs"

    id: Mapped[int] = mapped_column(primary_key=True)
    status: Mapped[EmbeddingJobStatus] = mapped_column(
        Enum(EmbeddingJobStatus, native_enum=False, validate_strings=True, length=16),
        default=EmbeddingJobStatus.queued,
        index=True,
    )
    total: Mapped[int] = mapped_column(default=0)
    done: Mapped[int] = mapped_column(default=0)
    message: Mapped[str | None] = mapped_column(Text)
    requested_by_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    finished_at: Mapped[datetime | None]


class SeededEntry(Base):
    """A built-in dictionary entry the seed has inserted (or found) once: it is never inserted again,
    so an entry an administrator renamed does not come back under its built-in name."""

    __tablename__ = "seeded_entries"
    __table_args__ = (UniqueConstraint("kind", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    key: Mapped[str] = mapped_column(String(400))
