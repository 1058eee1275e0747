"""Billing (spec §3 "Billing plan", "Subscription", §4 "Billing flow").

`StripeEvent` is the replay-safe webhook inbox: an event is inserted once by its Stripe id (insert,
do nothing on conflict) and processed afterwards, so a redelivered event is never applied twice.
"""

from __future__ import annotations

import enum
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, BigInteger, Enum, ForeignKey, Index, Numeric, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.core.db import Base, utcnow

if TYPE_CHECKING:
    from app.users.models import User

MAX_TRIAL_DIALOG_DISMISSALS = 3


class PlanInterval(enum.StrEnum):
    month = "month"
    year = "year"


class SubscriptionStatus(enum.StrEnum):
    active = "active"
    inactive = "inactive"
    incomplete = "incomplete"
    ended = "ended"
    trialing = "trialing"
    error = "error"


class BillingPlan(Base):
    __tablename__ = "billing_plans"

    id: Mapped[int] = mapped_column(primary_key=True)
    plan_name: Mapped[str] = mapped_column(String(100), unique=True)
    active: Mapped[bool] = mapped_column(default=True)
    description: Mapped[str | None] = mapped_column(String(2000))
    cost: Mapped[Decimal] = mapped_column(Numeric(10, 2), default=Decimal("0.00"))
    discount_cost: Mapped[Decimal | None] = mapped_column(Numeric(10, 2))
    currency: Mapped[str] = mapped_column(String(3), default="usd")
    is_indefinite_trial: Mapped[bool] = mapped_column(default=False)
    interval: Mapped[PlanInterval] = mapped_column(
        Enum(PlanInterval, native_enum=False, validate_strings=True, length=8), default=PlanInterval.month
    )
    trial_period_days: Mapped[int] = mapped_column(default=0)
    # [{"name": "...", "coming_soon": false}, ...]
    features: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    stripe_price_id: Mapped[str | None] = mapped_column(String(255))
    position: Mapped[int] = mapped_column(default=0)


class Subscription(Base):
    __tablename__ = "subscriptions"
    __table_args__ = (
        Index("ix_subscriptions_user_id_status", "user_id", "status"),
        # A retried create (the same Idempotency-Key) finds the subscription its first try made.
        UniqueConstraint("user_id", "request_key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # ix_subscriptions_user_id_status leads with user_id, so it also serves "my subscriptions".
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    plan_id: Mapped[int] = mapped_column(ForeignKey("billing_plans.id"), index=True)
    status: Mapped[SubscriptionStatus] = mapped_column(
        Enum(SubscriptionStatus, native_enum=False, validate_strings=True, length=16),
        default=SubscriptionStatus.incomplete,
    )
    is_trial: Mapped[bool] = mapped_column(default=False)
    stripe_subscription_id: Mapped[str | None] = mapped_column(String(255), unique=True)
    stripe_customer_id: Mapped[str | None] = mapped_column(String(255), index=True)
    client_secret: Mapped[str | None] = mapped_column(String(500))
    end_time: Mapped[datetime | None] = mapped_column(index=True)
    next_period_start_time: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    cancelled_at: Mapped[datetime | None]
    # The client's Idempotency-Key of the request that created it (None when it sent none).
    request_key: Mapped[str | None] = mapped_column(String(100))
    # `created` (Unix seconds) of the newest Stripe event applied: an older one never overwrites it.
    last_event_created: Mapped[int | None] = mapped_column(BigInteger)

    plan: Mapped[BillingPlan] = relationship()
    user: Mapped[User] = relationship()


class Trial(Base):
    """A user's trial history: how many trials, when the last ended, how often its dialog was closed."""

    __tablename__ = "trials"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), unique=True)
    count: Mapped[int] = mapped_column(default=0)
    last_trial_end: Mapped[datetime | None]
    # The end-of-trial dialog may be closed MAX_TRIAL_DIALOG_DISMISSALS times (spec §9).
    dismiss_count: Mapped[int] = mapped_column(default=0)


class StripeEvent(Base):
    __tablename__ = "stripe_events"

    id: Mapped[str] = mapped_column(String(255), primary_key=True)
    type: Mapped[str] = mapped_column(String(100), index=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    received_at: Mapped[datetime] = mapped_column(default=utcnow)
    processed_at: Mapped[datetime | None] = mapped_column(index=True)
