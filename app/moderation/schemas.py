"""Wire shapes of the cross-domain approval queue (spec §7 Pending)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from app.core.timestamps import UtcDateTime
from app.core.types import DbId
from app.moderation.models import ApprovalKind, ApprovalStatus

MAX_DECIDED_AT_ONCE = 100
REASON_MIN, REASON_MAX = 3, 1000


class ItemSummary(BaseModel):
    """What a queue row shows without more calls."""

    title: str | None = Field(description="The tour's, profile's, host's or category's name")
    username: str | None = Field(description="The owner's platform username")
    preview_picture: str | None = Field(description="A picture of it (tour preview, logo, profile image)")
    link: str | None = Field(description="Where it lives (the tour's link, the host's domain, the profile's website)")


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
    summary: ItemSummary


class PendingItemsAnswer(BaseModel):
    data: list[PendingItemOut]
    pending: dict[str, int] = Field(description="Items waiting per kind, every kind named (0 when none)")
    total_items: int
    limit: int
    offset: int


class PendingDecision(BaseModel):
    ids: list[DbId] = Field(min_length=1, max_length=MAX_DECIDED_AT_ONCE, description="approval item ids")
    decision: Literal["approve", "reject"]
    reason: str | None = Field(
        default=None,
        max_length=REASON_MAX,
        description=f"Mailed to the owner; required ({REASON_MIN}..{REASON_MAX} characters) to reject",
    )


class DecisionOutcome(BaseModel):
    id: int
    status: Literal["approved", "rejected", "conflict", "not_found"]
    message: str


class PendingDecisionAnswer(BaseModel):
    data: list[DecisionOutcome]
    pending: dict[str, int] = Field(description="Items waiting per kind after the decisions")


class ApprovalItemDetail(BaseModel):
    """One item with both versions, for a diff view."""

    id: int
    kind: ApprovalKind
    status: ApprovalStatus
    userid: int | None = Field(description="Who submitted it")
    username: str | None = Field(description="The owner's platform username")
    created_at: UtcDateTime
    reviewed_by: int | None
    reviewed_at: UtcDateTime | None
    review_note: str | None
    summary: ItemSummary
    current: dict[str, Any] | None = Field(description="The published version as its domain shows it; null if none")
    proposed: dict[str, Any] = Field(description="The change waiting for a decision")
