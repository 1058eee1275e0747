"""Wire shapes of the cross-domain approval queue (spec §7 Pending)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from app.core.timestamps import UtcDateTime
from app.moderation.models import ApprovalKind


class PendingItemOut(BaseModel):
    id: int
    kind: ApprovalKind
    entity_type: str | None = Field(
        description="What the item is about: user, tour, …; null for a request of something new"
    )
    entity_id: int | None
    userid: int | None = Field(description="Who submitted it")
    payload: dict[str, Any] = Field(description="The proposed change, as its domain filed it")
    created_at: UtcDateTime


class PendingItemsAnswer(BaseModel):
    data: list[PendingItemOut]
    pending: dict[str, int] = Field(description="Items waiting per kind, every kind named (0 when none)")
    total_items: int
    limit: int
    offset: int
