"""Wire shapes of the Billing calls (spec §7 Billing; §3 "Billing plan", "Subscription"), with the
spec's own field names (`apprrove_needed` included)."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, Field

from app.core.timestamps import UtcDateTime
from app.core.types import DbId

StatusName = Literal["active", "inactive", "incomplete", "ended", "trialing", "error"]


class PlanFeatureOut(BaseModel):
    name: str
    coming_soon: bool


class RecurringOut(BaseModel):
    interval: Literal["month", "year"]
    trial_period_days: int


class PlanOut(BaseModel):
    id: int
    active: bool
    plan_name: str
    description: str | None
    cost: Decimal
    discount_cost: Decimal | None
    currency: str
    is_indefinite_trial: bool
    # Spec §9: free when the discount cost is 0 or the trial is indefinite.
    is_free: bool
    recurring: RecurringOut
    features: list[PlanFeatureOut]


class PlanList(BaseModel):
    data: list[PlanOut]


class BillingConfig(BaseModel):
    # Empty when payments are off (no Stripe key): the plans page then says so.
    publishable_key: str
    manage_payments_url: str
    payments_enabled: bool


class SubscriptionOut(BaseModel):
    id: int
    status: StatusName
    plan: PlanOut
    plan_name: str
    is_trial: bool
    end_time: UtcDateTime | None
    next_period_start_time: UtcDateTime | None
    created_at: UtcDateTime
    cancelled_at: UtcDateTime | None


class CreatedSubscriptionOut(SubscriptionOut):
    # Stripe.js confirms the first payment ("payment") or saves a card during a trial ("setup") with it;
    # null when nothing is to be paid (the free plan, a platform-run trial).
    client_secret: str | None
    intent_type: Literal["payment", "setup"] | None


class SubscriptionCreateIn(BaseModel):
    plan_name: str = Field(min_length=1, max_length=100)
    # True: subscribe and pay now; false: start the plan's free trial (when the user has not had one).
    apprrove_needed: bool = True
    user_email: str | None = Field(default=None, max_length=320)
    userid: DbId | None = None


class CreatedData(BaseModel):
    subscription: CreatedSubscriptionOut


class SubscriptionCreated(BaseModel):
    message: str
    data: CreatedData


class SubscriptionDeleteIn(BaseModel):
    plan_name: str = Field(min_length=1, max_length=100)
    user_email: str | None = Field(default=None, max_length=320)
    userid: DbId | None = None


class SubscriptionCancelled(BaseModel):
    message: str
    data: SubscriptionOut
    creator_deleted: bool
    hosts_deleted: int
    tours_deleted: int


class SubscriptionList(BaseModel):
    data: list[SubscriptionOut]


class PaymentIntentOut(BaseModel):
    subscription_id: int
    status: StatusName
    client_secret: str
    intent_type: Literal["payment", "setup"] | None
    publishable_key: str


class TrialSubscriptions(BaseModel):
    # How many trials the user has had (0: the plans page offers one).
    count: int
    data: list[SubscriptionOut]
    # The newest trial has ended and nothing replaced it: the end-of-trial dialog shows.
    trial_ended: bool
    ended_subscription: SubscriptionOut | None
    # Times the dialog was closed, and how many it may be (spec §9: 3, then checked every 60 s).
    dismiss_count: int
    max_dismissals: int
    closable: bool


class WebhookAnswer(BaseModel):
    received: bool
    duplicate: bool
