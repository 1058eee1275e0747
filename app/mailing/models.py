"""Mailing-list members, kept in step with the mailing-list provider (spec §7 members-diff/members-sync)."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import Enum, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, validates

from app.core.db import Base, utcnow


class MemberStatus(enum.StrEnum):
    subscribed = "subscribed"
    unsubscribed = "unsubscribed"


class MailingListMember(Base):
    __tablename__ = "mailing_list_members"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(320), unique=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    first_name: Mapped[str | None] = mapped_column(String(100))
    last_name: Mapped[str | None] = mapped_column(String(100))
    status: Mapped[MemberStatus] = mapped_column(
        Enum(MemberStatus, native_enum=False, validate_strings=True, length=16),
        default=MemberStatus.subscribed,
        index=True,
    )
    # The member's id at the mailing-list provider, once synchronised.
    provider_id: Mapped[str | None] = mapped_column(String(255), index=True)
    synced_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    @validates("email")
    def _lowercase_email(self, _key: str, email: str) -> str:
        # Users' emails are stored lowercased; members match them by plain equality.
        return email.strip().lower()


class SyncStatus(enum.StrEnum):
    running = "running"
    completed = "completed"
    failed = "failed"


class MailingSyncRun(Base):
    """One members-sync: its progress is kept here batch by batch, so a run stopped by a failure or a
    killed worker continues from `cursor` (the last e-mail handled, in e-mail order) instead of
    starting over."""

    __tablename__ = "mailing_sync_runs"

    id: Mapped[int] = mapped_column(primary_key=True)
    status: Mapped[SyncStatus] = mapped_column(
        Enum(SyncStatus, native_enum=False, validate_strings=True, length=16), default=SyncStatus.running, index=True
    )
    requested_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    # The changes this run has to make (fixed when it starts or resumes) and those made so far.
    total: Mapped[int] = mapped_column(default=0)
    done: Mapped[int] = mapped_column(default=0)
    subscribed: Mapped[int] = mapped_column(default=0)
    unsubscribed: Mapped[int] = mapped_column(default=0)
    # Members the provider refused (an invalid address, a compliance state): counted, not retried.
    rejected: Mapped[int] = mapped_column(default=0)
    cursor: Mapped[str | None] = mapped_column(String(320))
    error: Mapped[str | None] = mapped_column(String(500))
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Written after every batch: a running run whose heartbeat is old lost its worker and may be resumed.
    heartbeat_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]
