"""Help & Feedback (spec §2 modals, §7 support): bug reports with screenshots, feature requests and
support messages, including contact-form messages to a creator."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import Enum, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.core.db import Base, TimestampMixin, utcnow


class BugReportStatus(enum.StrEnum):
    open = "open"
    in_progress = "in_progress"
    fixed = "fixed"
    closed = "closed"


class FeatureRequestStatus(enum.StrEnum):
    open = "open"
    planned = "planned"
    done = "done"
    declined = "declined"


class SupportMessageKind(enum.StrEnum):
    support = "support"
    creator_contact = "creator_contact"


class BugReport(TimestampMixin, Base):
    __tablename__ = "bug_reports"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    title: Mapped[str] = mapped_column(String(255))
    description: Mapped[str | None] = mapped_column(Text)
    page_url: Mapped[str | None] = mapped_column(String(2048))
    user_agent: Mapped[str | None] = mapped_column(String(512))
    status: Mapped[BugReportStatus] = mapped_column(
        Enum(BugReportStatus, native_enum=False, validate_strings=True, length=16),
        default=BugReportStatus.open,
        index=True,
    )

    images: Mapped[list[BugReportImage]] = relationship(
        back_populates="bug_report", order_by="BugReportImage.id", cascade="all, delete-orphan", passive_deletes=True
    )


class BugReportImage(Base):
    __tablename__ = "bug_report_images"

    id: Mapped[int] = mapped_column(primary_key=True)
    bug_report_id: Mapped[int] = mapped_column(ForeignKey("bug_reports.id", ondelete="CASCADE"), index=True)
    path: Mapped[str] = mapped_column(String(1024))
    content_type: Mapped[str] = mapped_column(String(100))
    size_bytes: Mapped[int]

    bug_report: Mapped[BugReport] = relationship(back_populates="images")


class FeatureRequest(Base):
    __tablename__ = "feature_requests"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    title: Mapped[str] = mapped_column(String(255))
    description: Mapped[str | None] = mapped_column(Text)
    status: Mapped[FeatureRequestStatus] = mapped_column(
        Enum(FeatureRequestStatus, native_enum=False, validate_strings=True, length=16),
        default=FeatureRequestStatus.open,
        index=True,
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class SupportMessage(Base):
    __tablename__ = "support_messages"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    email: Mapped[str] = mapped_column(String(320))
    name: Mapped[str | None] = mapped_column(String(200))
    subject: Mapped[str | None] = mapped_column(String(255))
    message: Mapped[str] = mapped_column(Text)
    kind: Mapped[SupportMessageKind] = mapped_column(
        Enum(SupportMessageKind, native_enum=False, validate_strings=True, length=16),
        default=SupportMessageKind.support,
        index=True,
    )
    # Set for contact-form messages addressed to a creator.
    creator_id: Mapped[int | None] = mapped_column(ForeignKey("creators.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    handled_at: Mapped[datetime | None]
