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
