"""Billing (spec §4 "Billing flow", §7 Billing): the only code that changes the billing tables, with
app/billing/webhooks.py (Stripe's events) and app/billing/trials.py (the end of platform-run trials).

A plan is free when its discount cost is 0 or its trial is indefinite (spec §9). Choosing the free
plan records it at once. A plan with a trial starts it without a card when the user has never had
one ("Start n Day Free Trial", `apprrove_needed` false): through Stripe when payments are on, run by
the platform itself when they are off. Subscribing (`apprrove_needed` true) needs Stripe: the answer
carries the client secret Stripe.js confirms the first payment with; the status then follows Stripe's
webhooks. A retried create never subscribes twice: the request's Idempotency-Key is stored on the
subscription it made, the same plan is never subscribed twice while one is in force, and Stripe's
creates carry idempotency keys derived from the same facts.

Cancelling (spec §4) ends the subscription and, for a paid plan, deletes the creator profile, the
user's custom hosts and the tours on them, in the request's one transaction; the index follows
through the outbox entries those domains' services write.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.billing.models import (
    MAX_TRIAL_DIALOG_DISMISSALS,
    BillingPlan,
    Subscription,
    SubscriptionStatus,
    Trial,
)
from app.billing.stripe_gateway import PAYMENTS_OFF, PaymentError, PaymentsOff, RemoteSubscription, StripeGateway
from app.core.db import utcnow
from app.core.errors import AppError, BadRequest, Conflict, Forbidden, NotFound, field_error
from app.realtime.events import SUBSCRIPTION_CHANGED, emit_after_commit, user_room
from app.users.models import User

# Statuses of a subscription in force or waiting for its first payment: the same plan is not
# subscribed again while one of these stands.
LIVE = (SubscriptionStatus.active, SubscriptionStatus.trialing, SubscriptionStatus.incomplete)

UNKNOWN_PLAN = "There is no such plan"
PLAN_COMING_SOON = "This plan is coming soon"
NOT_YOUR_ACCOUNT = "You can only manage your own subscriptions"
NOT_YOUR_EMAIL = "This is not your account's e-mail"
TRIAL_USED = "You have already had your free trial: subscribe to continue"
NO_TRIAL = "This plan has no free trial"
CANCEL_FIRST = "You already have the {plan} plan: cancel it first"
NOTHING_TO_CANCEL = "You have no {plan} subscription"
NOTHING_TO_PAY = "No payment is waiting"
PROVIDER_DOWN = "The payment service cannot be reached: please try again later"

# Stripe's subscription statuses (https://docs.stripe.com/api/subscriptions/object#subscription_object-status)
# as spec §4 shows them: active, Inactive, incomplete, ended, and a trial.
STRIPE_STATUSES: dict[str, SubscriptionStatus] = {
    "active": SubscriptionStatus.active,
    "trialing": SubscriptionStatus.trialing,
    "incomplete": SubscriptionStatus.incomplete,
    "incomplete_expired": SubscriptionStatus.ended,
    "canceled": SubscriptionStatus.ended,
    "past_due": SubscriptionStatus.inactive,
    "unpaid": SubscriptionStatus.inactive,
    "paused": SubscriptionStatus.inactive,
}


def status_of(remote_status: str) -> SubscriptionStatus:
    return STRIPE_STATUSES.get(remote_status, SubscriptionStatus.inactive)


# ---------------------------------------------------------------------------------------------- plans


def is_free(plan: BillingPlan) -> bool:
    """Spec §9: free when the discount cost is 0 or the trial is indefinite."""
    return plan.is_indefinite_trial or (plan.discount_cost is not None and plan.discount_cost == 0)


def charged_amount(plan: BillingPlan) -> Decimal:
    """What a period costs: the discount cost while there is one, else the cost."""
    if plan.discount_cost is not None and plan.discount_cost > 0:
        return plan.discount_cost
    return plan.cost


def plans(db: Session) -> list[BillingPlan]:
    """Every plan, active ones first in their order; an inactive plan shows 'Coming Soon!'."""
    return list(
        db.scalars(select(BillingPlan).order_by(BillingPlan.active.desc(), BillingPlan.position, BillingPlan.id))
    )


def _plan(db: Session, plan_name: str) -> BillingPlan:
    plan = db.scalar(select(BillingPlan).where(func.lower(BillingPlan.plan_name) == plan_name.strip().lower()))
    if plan is None:
        raise field_error("plan_name", UNKNOWN_PLAN)
    return plan


# ------------------------------------------------------------------------------------------- reading


def _own(caller: User, userid: int | None, user_email: str | None) -> None:
    """A user acts on their own subscriptions only (admins read them: `readable_user`)."""
    if userid is not None and userid != caller.id:
        raise Forbidden(NOT_YOUR_ACCOUNT, fields={"userid": NOT_YOUR_ACCOUNT})
    if user_email and user_email.strip().lower() != caller.email.lower():
        raise Forbidden(NOT_YOUR_EMAIL, fields={"user_email": NOT_YOUR_EMAIL})


def readable_user(db: Session, caller: User, userid: int | None) -> User:
    """Whose subscriptions a read is about: the caller's own, or anyone's for an admin."""
    if userid is None or userid == caller.id:
        return caller
    if not caller.is_admin:
        raise Forbidden(NOT_YOUR_ACCOUNT, fields={"userid": NOT_YOUR_ACCOUNT})
    user = db.get(User, userid)
    if user is None:
        raise NotFound("No such user")
    return user


def subscriptions_of(db: Session, user: User) -> list[Subscription]:
    return list(
        db.scalars(
            select(Subscription)
            .where(Subscription.user_id == user.id)
            .order_by(Subscription.created_at.desc(), Subscription.id.desc())
        )
    )


@dataclass(frozen=True, slots=True)
class TrialState:
    count: int
    trials: list[Subscription]
    dismiss_count: int
    # The newest trial has ended and nothing paid or trialing replaced it: the end-of-trial dialog shows.
    ended: Subscription | None

    @property
    def closable(self) -> bool:
        return self.dismiss_count < MAX_TRIAL_DIALOG_DISMISSALS


def aware(moment: datetime | None) -> datetime | None:
    if moment is not None and moment.tzinfo is None:  # SQLite hands back naive UTC
        return moment.replace(tzinfo=UTC)
    return moment


def trial_state(db: Session, user: User, *, now: datetime | None = None) -> TrialState:
    moment = now or utcnow()
    history = db.scalar(select(Trial).where(Trial.user_id == user.id))
    trials = [subscription for subscription in subscriptions_of(db, user) if subscription.is_trial]
    in_force = any(
        subscription.status in (SubscriptionStatus.active, SubscriptionStatus.trialing)
        and not is_free(subscription.plan)
        and not _past(subscription, moment)
        for subscription in subscriptions_of(db, user)
    )
    newest = trials[0] if trials else None
    ended = None
    if (
        newest is not None
        and not in_force
        and newest.cancelled_at is None
        and (newest.status == SubscriptionStatus.ended or _past(newest, moment))
    ):
        ended = newest
    return TrialState(
        count=max(history.count if history else 0, len(trials)),
        trials=trials,
        dismiss_count=history.dismiss_count if history else 0,
        ended=ended,
    )


def _past(subscription: Subscription, moment: datetime) -> bool:
    end = aware(subscription.end_time)
    return (
        subscription.is_trial
        and subscription.status == SubscriptionStatus.trialing
        and end is not None
        and end <= moment
    )


def dismiss_trial_dialog(db: Session, user: User) -> TrialState:
    """The end-of-trial dialog was closed: counted, up to the times it may be closed (spec §9)."""
    state = trial_state(db, user)
    if state.ended is None:
        raise Conflict("There is no ended trial to dismiss")
    if not state.closable:
        raise Conflict("This dialog can no longer be closed: choose a plan or cancel")
    history = _history(db, user)
    history.dismiss_count += 1
    db.flush()
    return trial_state(db, user)


def _history(db: Session, user: User) -> Trial:
    history = db.scalar(select(Trial).where(Trial.user_id == user.id))
    if history is None:
        history = Trial(user_id=user.id, count=0, dismiss_count=0)
        db.add(history)
        db.flush()
    return history


def trial_available(db: Session, user: User) -> bool:
    return trial_state(db, user).count == 0


# ------------------------------------------------------------------------------------------ creating


@dataclass(frozen=True, slots=True)
class Created:
    subscription: Subscription
    # Stripe.js confirms the first payment ("payment") or saves a card during a trial ("setup").
    client_secret: str | None
    intent_type: str | None
    # True when an earlier request already made it (a retry, a double click).
    existing: bool


def create_subscription(
    db: Session,
    gateway: StripeGateway,
    caller: User,
    *,
    plan_name: str,
    approve_needed: bool,
    userid: int | None,
    user_email: str | None,
    request_key: str | None,
) -> Created:
    _own(caller, userid, user_email)
    plan = _plan(db, plan_name)
    if not plan.active:
        raise field_error("plan_name", PLAN_COMING_SOON)
    if request_key:
        earlier = db.scalar(
            select(Subscription).where(Subscription.user_id == caller.id, Subscription.request_key == request_key)
        )
        if earlier is not None:
            return Created(earlier, earlier.client_secret, _intent_type(earlier), existing=True)
    live = [subscription for subscription in subscriptions_of(db, caller) if subscription.status in LIVE]
    same = next((subscription for subscription in live if subscription.plan_id == plan.id), None)
    if same is not None:
        return Created(same, same.client_secret, _intent_type(same), existing=True)
    if is_free(plan):
        paid = next((subscription for subscription in live if not is_free(subscription.plan)), None)
        if paid is not None:
            raise Conflict(
                CANCEL_FIRST.format(plan=paid.plan.plan_name),
                fields={"plan_name": CANCEL_FIRST.format(plan=paid.plan.plan_name)},
            )
        subscription = _add(db, caller, plan, status=SubscriptionStatus.active, is_trial=False, request_key=request_key)
        return Created(subscription, None, None, existing=False)
    other = next((subscription for subscription in live if not is_free(subscription.plan)), None)
    if other is not None:
        message = CANCEL_FIRST.format(plan=other.plan.plan_name)
        raise Conflict(message, fields={"plan_name": message})
    wants_trial = not approve_needed
    if wants_trial:
        if plan.trial_period_days <= 0:
            raise field_error("plan_name", NO_TRIAL)
        if not trial_available(db, caller):
            raise field_error("plan_name", TRIAL_USED)
    if not gateway.enabled:
        if not wants_trial:
            raise field_error("plan_name", PAYMENTS_OFF)
        return Created(_platform_trial(db, caller, plan, request_key), None, None, existing=False)
    return _stripe_subscription(db, gateway, caller, plan, wants_trial=wants_trial, request_key=request_key)


def _intent_type(subscription: Subscription) -> str | None:
    if subscription.client_secret is None:
        return None
    return "setup" if subscription.client_secret.startswith("seti_") else "payment"


def _add(
    db: Session,
    user: User,
    plan: BillingPlan,
    *,
    status: SubscriptionStatus,
    is_trial: bool,
    request_key: str | None,
    end_time: datetime | None = None,
    remote: RemoteSubscription | None = None,
) -> Subscription:
    subscription = Subscription(
        user_id=user.id,
        plan_id=plan.id,
        status=status,
        is_trial=is_trial,
        end_time=end_time,
        request_key=request_key,
    )
    if remote is not None:
        copy_remote(subscription, remote)
        subscription.stripe_subscription_id = remote.id
        subscription.stripe_customer_id = remote.customer
        subscription.client_secret = remote.client_secret
    subscription.plan = plan
    # A request racing this one with the same key (or for the same Stripe subscription) inserted
    # first: answer what it inserted.
    try:
        with db.begin_nested():
            db.add(subscription)
            db.flush()
    except IntegrityError:
        found = db.scalar(
            select(Subscription).where(
                Subscription.user_id == user.id,
                (Subscription.request_key == request_key)
                if remote is None
                else (Subscription.stripe_subscription_id == remote.id),
            )
        )
        if found is None:
            raise
        return found
    if is_trial:
        history = _history(db, user)
        history.count += 1
    announce(db, subscription)
    return subscription


def copy_remote(subscription: Subscription, remote: RemoteSubscription) -> None:
    subscription.status = status_of(remote.status)
    subscription.end_time = remote.trial_end if remote.status == "trialing" else remote.current_period_end
    subscription.next_period_start_time = (
        None
        if remote.cancel_at_period_end or remote.status in ("canceled", "incomplete_expired")
        else remote.current_period_end
    )
    if remote.client_secret is not None or subscription.status != SubscriptionStatus.incomplete:
        subscription.client_secret = remote.client_secret


def _platform_trial(db: Session, user: User, plan: BillingPlan, request_key: str | None) -> Subscription:
    """Payments off: the platform runs the trial; app/billing/trials.py ends it when its time is up."""
    end = utcnow() + timedelta(days=plan.trial_period_days)
    return _add(
        db, user, plan, status=SubscriptionStatus.trialing, is_trial=True, request_key=request_key, end_time=end
    )


def _stripe_subscription(
    db: Session,
    gateway: StripeGateway,
    user: User,
    plan: BillingPlan,
    *,
    wants_trial: bool,
    request_key: str | None,
) -> Created:
    earlier_count = db.scalar(
        select(func.count())
        .select_from(Subscription)
        .where(Subscription.user_id == user.id, Subscription.plan_id == plan.id)
    )
    try:
        customer = _customer(db, gateway, user)
        price = _price(gateway, plan)
        remote = gateway.create_subscription(
            customer=customer,
            price=price,
            trial_days=plan.trial_period_days if wants_trial else 0,
            metadata={"userid": str(user.id), "plan_name": plan.plan_name},
            idempotency_key=f"touratlas-subscription-{user.id}-{plan.id}-{request_key or earlier_count}",
        )
    except PaymentsOff as exc:
        raise field_error("plan_name", PAYMENTS_OFF) from exc
    except PaymentError as exc:
        raise _payment_error(exc) from exc
    subscription = _add(
        db,
        user,
        plan,
        status=status_of(remote.status),
        is_trial=wants_trial,
        request_key=request_key,
        remote=remote,
    )
    return Created(subscription, remote.client_secret, remote.intent_type, existing=False)


def _payment_error(exc: PaymentError) -> AppError:
    """Spec §8: the provider's message when it is meant for the payer, else a 503 the client shows
    as 'An unexpected error occured.'."""
    if exc.user_message:
        return BadRequest(exc.user_message, fields={"payment": exc.user_message})
    return AppError(PROVIDER_DOWN, status_code=503)


def _customer(db: Session, gateway: StripeGateway, user: User) -> str:
    known = db.scalar(
        select(Subscription.stripe_customer_id)
        .where(Subscription.user_id == user.id, Subscription.stripe_customer_id.is_not(None))
        .order_by(Subscription.id.desc())
        .limit(1)
    )
    if known:
        return known
    name = " ".join(part for part in (user.first_name, user.last_name) if part) or user.email
    return gateway.create_customer(
        user_id=user.id, email=user.email, name=name, idempotency_key=f"touratlas-customer-{user.id}"
    )


def _price(gateway: StripeGateway, plan: BillingPlan) -> str:
    """The plan's Stripe price, created the first time it is needed (one per plan and amount)."""
    if plan.stripe_price_id:
        return plan.stripe_price_id
    cents = int((charged_amount(plan) * 100).to_integral_value())
    plan.stripe_price_id = gateway.create_price(
        plan_name=plan.plan_name,
        plan_id=plan.id,
        unit_amount=cents,
        currency=plan.currency,
        interval=plan.interval.value,
        idempotency_key=f"touratlas-plan-{plan.id}-{cents}-{plan.currency}-{plan.interval.value}",
    )
    return plan.stripe_price_id


# ---------------------------------------------------------------------------------- paying, refreshing


def payment_intent(db: Session, gateway: StripeGateway, caller: User, subscription_id: int | None) -> Created:
    """GET payment-intent: the secret Stripe.js confirms the waiting payment with (re-read from
    Stripe, so a secret that moved on is never answered stale)."""
    if not gateway.enabled:
        raise BadRequest(PAYMENTS_OFF)
    query = select(Subscription).where(
        Subscription.user_id == caller.id,
        Subscription.stripe_subscription_id.is_not(None),
        Subscription.status.in_(LIVE),
    )
    if subscription_id is not None:
        query = query.where(Subscription.id == subscription_id)
    subscription = db.scalar(query.order_by(Subscription.id.desc()).limit(1))
    if subscription is None or subscription.stripe_subscription_id is None:
        raise NotFound(NOTHING_TO_PAY)
    try:
        remote = gateway.retrieve_subscription(subscription.stripe_subscription_id)
    except PaymentError as exc:
        raise _payment_error(exc) from exc
    copy_remote(subscription, remote)
    if remote.client_secret is None:
        raise NotFound(NOTHING_TO_PAY)
    return Created(subscription, remote.client_secret, remote.intent_type, existing=True)


# ---------------------------------------------------------------------------------------- cancelling


@dataclass(frozen=True, slots=True)
class Cancelled:
    subscription: Subscription
    creator_deleted: bool
    hosts_deleted: int
    tours_deleted: int


def cancel_subscription(
    db: Session,
    gateway: StripeGateway,
    caller: User,
    *,
    plan_name: str,
    userid: int | None,
    user_email: str | None,
) -> Cancelled:
    _own(caller, userid, user_email)
    plan = _plan(db, plan_name)
    subscription = db.scalar(
        select(Subscription)
        .where(Subscription.user_id == caller.id, Subscription.plan_id == plan.id, Subscription.cancelled_at.is_(None))
        .order_by(Subscription.id.desc())
        .limit(1)
    )
    if subscription is None:
        message = NOTHING_TO_CANCEL.format(plan=plan.plan_name)
        raise NotFound(message, fields={"plan_name": message})
    if subscription.stripe_subscription_id and subscription.status != SubscriptionStatus.ended:
        try:
            remote = gateway.cancel_subscription(subscription.stripe_subscription_id)
        except PaymentsOff:
            remote = None  # the key was removed since: nothing more to tell Stripe
        except PaymentError as exc:
            raise _payment_error(exc) from exc
        if remote is not None:
            copy_remote(subscription, remote)
    now = utcnow()
    if subscription.status != SubscriptionStatus.ended:
        subscription.end_time = now
    subscription.status = SubscriptionStatus.ended
    subscription.cancelled_at = now
    subscription.next_period_start_time = None
    subscription.client_secret = None
    creator_deleted, hosts, tours = (False, 0, 0) if is_free(plan) else _cascade(db, caller)
    db.flush()
    announce(db, subscription)
    return Cancelled(subscription, creator_deleted, hosts, tours)


def _cascade(db: Session, user: User) -> tuple[bool, int, int]:
    """Spec §4: the creator profile, the custom hosts and the media on them go (each through its own
    domain's service, which writes the outbox entries the index follows)."""
    from app.creators import editing
    from app.tours import service as tours
    from app.vendors import service as vendors

    host_ids = vendors.custom_host_ids(db, user)
    tours_deleted = tours.delete_tours_on_hosts(db, host_ids)
    hosts_deleted = vendors.delete_custom_hosts(db, user)
    creator_deleted = False
    if user.creator is not None:
        editing.delete_profile(db, user, creator_id=None, user_id=None)
        creator_deleted = True
        db.expire(user, ["creator"])
    return creator_deleted, hosts_deleted, tours_deleted


# -------------------------------------------------------------------------------------------- pushing


def moment_json(moment: datetime | None) -> str | None:
    utc = aware(moment)
    return utc.isoformat() if utc else None


def announce(db: Session, subscription: Subscription) -> None:
    """The user's open pages hear the subscription's new state once the transaction commits."""
    emit_after_commit(db, SUBSCRIPTION_CHANGED, announcement(subscription), room=user_room(subscription.user_id))


def announcement(subscription: Subscription) -> dict[str, Any]:
    return {
        "subscription_id": subscription.id,
        "plan_name": subscription.plan.plan_name,
        "status": subscription.status.value,
        "is_trial": subscription.is_trial,
        "end_time": moment_json(subscription.end_time),
    }
