"""Release notes (spec §3 "Release"): a release and its New / Improved / Fixed / Coming Soon items."""

from __future__ import annotations

import enum
from datetime import date, datetime

from sqlalchemy import Enum, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.core.db import Base, utcnow

VERSION_PREFIX = "Version "


class ReleaseItemType(enum.StrEnum):
    new = "New"
    improved = "Improved"
    fixed = "Fixed"
    coming_soon = "Coming Soon"


def _enum_values(enum_class: type[enum.StrEnum]) -> list[str]:
    return [member.value for member in enum_class]


class Release(Base):
    __tablename__ = "releases"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(255))
    # Always stored with its "Version " prefix (spec §3: added when missing).
    version: Mapped[str] = mapped_column(String(64))
    release_date: Mapped[date] = mapped_column(index=True)
    release_time: Mapped[str | None] = mapped_column(String(5))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    items: Mapped[list[ReleaseItem]] = relationship(
        back_populates="release", order_by="ReleaseItem.position", cascade="all, delete-orphan", passive_deletes=True
    )


class ReleaseItem(Base):
    __tablename__ = "release_items"

    id: Mapped[int] = mapped_column(primary_key=True)
    release_id: Mapped[int] = mapped_column(ForeignKey("releases.id", ondelete="CASCADE"), index=True)
    # Stored as the spec's display values ("Coming Soon"), not the Python member names.
    item_type: Mapped[ReleaseItemType] = mapped_column(
        Enum(ReleaseItemType, native_enum=False, validate_strings=True, length=16, values_callable=_enum_values)
    )
    title: Mapped[str] = mapped_column(String(255))
    description: Mapped[str | None] = mapped_column(Text)
    position: Mapped[int] = mapped_column(default=0)

    release: Mapped[Release] = relationship(back_populates="items")
