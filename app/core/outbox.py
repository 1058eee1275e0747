"""The transactional outbox.

A service that changes something the outside world must hear about (the search index, mail,
realtime clients) adds an `OutboxEntry` in the same transaction as the change. The entry commits or
rolls back with it, so no index update or mail is ever lost or sent for a change that did not
happen. Workers claim due entries (`status = pending`, `available_at <= now`), handle them and mark
them done; a failure goes back to pending with a later `available_at`.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Enum, Index, String, Text
from sqlalchemy.orm import Mapped, Session, mapped_column

from app.core.db import Base, utcnow


class OutboxStatus(enum.StrEnum):
    pending = "pending"
    processing = "processing"
    done = "done"
    failed = "failed"


class OutboxEntry(Base):
    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_status_available_at", "status", "available_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # What to do: 'index.tour', 'index.creator', 'index.ad', 'index.tag', 'mail.send', 'realtime.emit', ...
    topic: Mapped[str] = mapped_column(String(64), index=True)
    aggregate_id: Mapped[str] = mapped_column(String(64))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[OutboxStatus] = mapped_column(
        Enum(OutboxStatus, native_enum=False, validate_strings=True, length=16), default=OutboxStatus.pending
    )
    attempts: Mapped[int] = mapped_column(default=0)
    available_at: Mapped[datetime] = mapped_column(default=utcnow)
    claimed_by: Mapped[str | None] = mapped_column(String(128), index=True)
    claimed_at: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


def add_outbox(session: Session, topic: str, aggregate_id: str | int, payload: dict[str, Any]) -> OutboxEntry:
    """Record work for after the commit; it is flushed with the caller's other changes."""
    now = utcnow()
    entry = OutboxEntry(
        topic=topic,
        aggregate_id=str(aggregate_id),
        payload=payload,
        status=OutboxStatus.pending,
        attempts=0,
        available_at=now,
        created_at=now,
    )
    session.add(entry)
    return entry
