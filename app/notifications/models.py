"""In-app notifications and the stored mail outbox.

`OutgoingMail` is every mail the platform sends. With SMTP_URL set the mail worker delivers queued
rows; without it they stay stored, readable by admins and tests (ARCHITECTURE.md: embedded mail).
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Enum, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, utcnow


class MailStatus(enum.StrEnum):
    queued = "queued"
    sent = "sent"
    failed = "failed"


class Notification(Base):
    __tablename__ = "notifications"
    __table_args__ = (Index("ix_notifications_user_id_read_at", "user_id", "read_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # ix_notifications_user_id_read_at leads with user_id, so it also serves "my notifications".
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(64))
    title: Mapped[str] = mapped_column(String(255))
    body: Mapped[str | None] = mapped_column(Text)
    link: Mapped[str | None] = mapped_column(String(2048))
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    read_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class OutgoingMail(Base):
    __tablename__ = "outgoing_mail"
    __table_args__ = (Index("ix_outgoing_mail_status_created_at", "status", "created_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    to_address: Mapped[str] = mapped_column(String(320), index=True)
    # Where an answer goes when it is not the sender (the contact form: the visitor who wrote).
    reply_to: Mapped[str | None] = mapped_column(String(320))
    subject: Mapped[str] = mapped_column(String(255))
    body_text: Mapped[str] = mapped_column(Text)
    body_html: Mapped[str | None] = mapped_column(Text)
    template: Mapped[str | None] = mapped_column(String(100), index=True)
    status: Mapped[MailStatus] = mapped_column(
        Enum(MailStatus, native_enum=False, validate_strings=True, length=16), default=MailStatus.queued
    )
    attempts: Mapped[int] = mapped_column(default=0)
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    sent_at: Mapped[datetime | None]
