"""In-app notifications (spec §6 "notifications to users", §7 POST /v2/notifications/user-message): an
admin's message to one account is stored as a notification and pushed to that account's open pages
(`notification` to the `user:{id}` room) once the transaction commits; the account reads its list
and marks what it has read. Services never commit."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from app.core.db import utcnow
from app.notifications.models import Notification
from app.realtime.events import NOTIFICATION, emit_after_commit, user_room
from app.users.models import User

USER_MESSAGE = "user_message"


def send_user_message(session: Session, *, admin: User, user: User, title: str, message: str) -> Notification:
    notification = Notification(
        user_id=user.id,
        kind=USER_MESSAGE,
        title=title.strip(),
        body=message.strip(),
        data={"from_userid": admin.id},
        created_at=utcnow(),
    )
    session.add(notification)
    session.flush()
    created = notification.created_at
    moment = created if created.tzinfo is not None else created.replace(tzinfo=UTC)
    emit_after_commit(
        session,
        NOTIFICATION,
        {
            "id": notification.id,
            "title": notification.title,
            "text": notification.body,
            "created_at": moment.isoformat(),
        },
        room=user_room(user.id),
    )
    return notification


def notifications_of(
    session: Session, user: User, *, unread_only: bool, limit: int, offset: int
) -> tuple[list[Notification], int, int]:
    """One page of the account's notifications, newest first, the total and how many are unread."""
    mine = select(Notification).where(Notification.user_id == user.id)
    if unread_only:
        mine = mine.where(Notification.read_at.is_(None))
    total = session.scalar(select(func.count()).select_from(mine.subquery())) or 0
    unread = (
        session.scalar(
            select(func.count())
            .select_from(Notification)
            .where(Notification.user_id == user.id, Notification.read_at.is_(None))
        )
        or 0
    )
    page = session.scalars(
        mine.order_by(Notification.created_at.desc(), Notification.id.desc()).limit(limit).offset(offset)
    )
    return list(page), total, unread


def mark_read(session: Session, user: User, ids: Sequence[int] | None) -> int:
    """Mark the listed notifications of this account (all of them when `ids` is None) read."""
    statement = (
        update(Notification)
        .where(Notification.user_id == user.id, Notification.read_at.is_(None))
        .values(read_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    if ids is not None:
        statement = statement.where(Notification.id.in_(list(ids)))
    result = session.execute(statement)
    return int(getattr(result, "rowcount", 0) or 0)
