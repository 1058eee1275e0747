"""Wire shapes of in-app notifications."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints

from app.core.timestamps import UtcDateTime
from app.core.types import DbId

Title = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Message = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=5000)]


class UserMessage(BaseModel):
    userid: DbId
    title: Title
    message: Message


class NotificationOut(BaseModel):
    id: int
    kind: str = Field(description="user_message for an administrator's message")
    title: str
    text: str | None
    link: str | None
    created_at: UtcDateTime
    read_at: UtcDateTime | None


class UserMessageAnswer(BaseModel):
    message: str
    data: NotificationOut


class NotificationsPage(BaseModel):
    data: list[NotificationOut]
    unread: int = Field(description="How many of the account's notifications are unread")
    total_items: int
    limit: int
    offset: int


class MarkRead(BaseModel):
    ids: list[DbId] | None = Field(default=None, max_length=200, description="None marks every notification read")


class MarkReadAnswer(BaseModel):
    message: str
    updated: int
