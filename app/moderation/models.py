"""The approval queue (spec §4 "Pending approval items").

Every change that waits for an admin is one item: `entity_type`/`entity_id` name the row it concerns
(absent for a request that creates something new, e.g. a category request) and `payload` holds the
proposed change, applied by the owning domain's service on approval.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, Enum, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.core.db import Base, utcnow

if TYPE_CHECKING:
    from app.users.models import User


class ApprovalKind(enum.StrEnum):
    category_request = "category_request"
    creator_profile_edit = "creator_profile_edit"
    new_alternative_custom_provider = "new_alternative_custom_provider"
    new_alternative_provider = "new_alternative_provider"
    new_creator_profile = "new_creator_profile"
    new_custom_provider = "new_custom_provider"
    new_provider = "new_provider"
    new_user = "new_user"
    new_virtual_tour = "new_virtual_tour"
    user_profile_edit = "user_profile_edit"
    vt_edit = "vt_edit"
    profile_image = "profile_image"
    new_ad = "new_ad"
    ad_edit = "ad_edit"
    # Beyond the spec: a trusted creator's new tour, published at once and audited after the fact.
    trusted_audit = "trusted_audit"


class ApprovalStatus(enum.StrEnum):
    pending = "pending"
    approved = "approved"
    rejected = "rejected"


class ApprovalItem(Base):
    __tablename__ = "approval_items"
    __table_args__ = (
        Index("ix_approval_items_kind_status", "kind", "status"),
        Index("ix_approval_items_entity_type_entity_id", "entity_type", "entity_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[ApprovalKind] = mapped_column(Enum(ApprovalKind, native_enum=False, validate_strings=True, length=40))
    status: Mapped[ApprovalStatus] = mapped_column(
        Enum(ApprovalStatus, native_enum=False, validate_strings=True, length=16),
        default=ApprovalStatus.pending,
        index=True,
    )
    entity_type: Mapped[str | None] = mapped_column(String(32))
    entity_id: Mapped[int | None]
    payload: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    submitted_by_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    reviewed_by_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    review_note: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    reviewed_at: Mapped[datetime | None]

    submitted_by: Mapped[User | None] = relationship(foreign_keys=[submitted_by_user_id])
    reviewed_by: Mapped[User | None] = relationship(foreign_keys=[reviewed_by_user_id])
