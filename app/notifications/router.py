"""Spec §7 Support and notifications: POST /v2/notifications/user-message (admins) and the account's
own notifications (GET /v2/notifications/, PUT /v2/notifications/read)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.core.deps import AdminUser, CurrentUser, DbSession
from app.core.errors import error_responses
from app.core.types import DbInt
from app.notifications import service
from app.notifications.models import Notification
from app.notifications.schemas import (
    MarkRead,
    MarkReadAnswer,
    NotificationOut,
    NotificationsPage,
    UserMessage,
    UserMessageAnswer,
)
from app.users import service as users

router = APIRouter(prefix="/v2/notifications", tags=["notifications"])


@router.post("/user-message", response_model=UserMessageAnswer, responses=error_responses(404))
def post_user_message(body: UserMessage, admin: AdminUser, db: DbSession) -> UserMessageAnswer:
    """An administrator's message to one account: stored in its notifications and pushed to its open pages."""
    user = users.get_user(db, body.userid)
    notification = service.send_user_message(db, admin=admin, user=user, title=body.title, message=body.message)
    return UserMessageAnswer(message="The message has been sent", data=notification_out(notification))


@router.get("/", response_model=NotificationsPage)
def list_notifications(
    user: CurrentUser,
    db: DbSession,
    unread_only: bool = Query(False),
    limit: int = Query(20, ge=1, le=100),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> NotificationsPage:
    """The caller's notifications, newest first."""
    page, total, unread = service.notifications_of(db, user, unread_only=unread_only, limit=limit, offset=offset)
    return NotificationsPage(
        data=[notification_out(row) for row in page], unread=unread, total_items=total, limit=limit, offset=offset
    )


@router.put("/read", response_model=MarkReadAnswer)
def mark_read(body: MarkRead, user: CurrentUser, db: DbSession) -> MarkReadAnswer:
    updated = service.mark_read(db, user, body.ids)
    return MarkReadAnswer(message="Marked as read", updated=updated)


def notification_out(row: Notification) -> NotificationOut:
    return NotificationOut(
        id=row.id,
        kind=row.kind,
        title=row.title,
        text=row.body,
        link=row.link,
        created_at=row.created_at,
        read_at=row.read_at,
    )
