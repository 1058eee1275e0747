"""Spec §7 Billing (/v2/billing/): plans, config, subscriptions (create, read, cancel), the waiting
payment's intent, the user's trials, and Stripe's webhook.

The plans, the config and the webhook are reachable by anyone, even while restrict_access is on
(spec §2: the billing pages stay open to signed-out visitors; Stripe signs its webhooks instead of
holding a token). A user creates and cancels only their own subscriptions; admins may read anyone's.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Header, Query, Request, Response
from starlette.concurrency import run_in_threadpool

from app.billing import service, webhooks
from app.billing.models import MAX_TRIAL_DIALOG_DISMISSALS, BillingPlan, Subscription
from app.billing.schemas import (
    BillingConfig,
    CreatedData,
    CreatedSubscriptionOut,
    PaymentIntentOut,
    PlanFeatureOut,
    PlanList,
    PlanOut,
    RecurringOut,
    SubscriptionCancelled,
    SubscriptionCreated,
    SubscriptionCreateIn,
    SubscriptionDeleteIn,
    SubscriptionList,
    SubscriptionOut,
    TrialSubscriptions,
    WebhookAnswer,
)
from app.billing.stripe_gateway import BadSignature, StripeGateway, get_gateway
from app.core.access import unrestricted
from app.core.deps import AccountOwner, CurrentUser, DbSession
from app.core.errors import BadRequest, error_responses
from app.core.settings import get_settings
from app.core.types import DbId

router = APIRouter(prefix="/v2/billing", tags=["billing"])

Gateway = Annotated[StripeGateway, Depends(get_gateway)]
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        max_length=100,
        description="A key the client makes once per attempt: a retried request with it never subscribes twice",
    ),
]


def plan_out(plan: BillingPlan) -> PlanOut:
    return PlanOut(
        id=plan.id,
        active=plan.active,
        plan_name=plan.plan_name,
        description=plan.description,
        cost=plan.cost,
        discount_cost=plan.discount_cost,
        currency=plan.currency,
        is_indefinite_trial=plan.is_indefinite_trial,
        is_free=service.is_free(plan),
        recurring=RecurringOut(interval=plan.interval.value, trial_period_days=plan.trial_period_days),  # type: ignore[arg-type]
        features=[
            PlanFeatureOut(name=str(feature.get("name", "")), coming_soon=bool(feature.get("coming_soon", False)))
            for feature in plan.features or []
        ],
    )


def subscription_out(subscription: Subscription) -> SubscriptionOut:
    return SubscriptionOut(
        id=subscription.id,
        status=subscription.status.value,  # type: ignore[arg-type]
        plan=plan_out(subscription.plan),
        plan_name=subscription.plan.plan_name,
        is_trial=subscription.is_trial,
        end_time=subscription.end_time,
        next_period_start_time=subscription.next_period_start_time,
        created_at=subscription.created_at,
        cancelled_at=subscription.cancelled_at,
    )


@router.get("/plans", response_model=PlanList, dependencies=[Depends(unrestricted)])
def list_plans(db: DbSession) -> PlanList:
    """Every plan (spec §3 Billing plan), active ones first in their order; an inactive plan is shown
    as 'Coming Soon!'."""
    return PlanList(data=[plan_out(plan) for plan in service.plans(db)])


@router.get("/config", response_model=BillingConfig, dependencies=[Depends(unrestricted)])
def billing_config(gateway: Gateway) -> BillingConfig:
    """Stripe's publishable key and the page where subscribers manage their payment methods; both
    empty, with `payments_enabled` false, when payments are off."""
    settings = get_settings()
    enabled = gateway.enabled and bool(settings.stripe_publishable_key)
    return BillingConfig(
        publishable_key=settings.stripe_publishable_key if enabled else "",
        manage_payments_url=settings.stripe_manage_payments_url if enabled else "",
        payments_enabled=enabled,
    )


@router.post(
    "/subscriptions",
    response_model=SubscriptionCreated,
    responses={
        201: {"model": SubscriptionCreated, "description": "Subscribed, or the trial started"},
        **error_responses(403, 409, 503),
    },
)
def create_subscription(
    body: SubscriptionCreateIn,
    user: CurrentUser,
    db: DbSession,
    gateway: Gateway,
    response: Response,
    idempotency_key: IdempotencyKey = None,
) -> SubscriptionCreated:
    """Choose a plan (spec §4 Billing flow). The free plan is recorded at once; `apprrove_needed`
    false starts the plan's free trial (once per user), true subscribes: the answer's `client_secret`
    is what Stripe.js confirms the first payment with, and the status then follows Stripe's webhooks.
    With payments off a paid plan answers 400 saying so. 201 when made now; 200 when an earlier
    request (the same Idempotency-Key, or the same plan still in force) already made it. 409 while
    another paid plan is in force."""
    created = service.create_subscription(
        db,
        gateway,
        user,
        plan_name=body.plan_name,
        approve_needed=body.apprrove_needed,
        userid=body.userid,
        user_email=body.user_email,
        request_key=idempotency_key,
    )
    subscription = created.subscription
    if not created.existing:
        response.status_code = 201
    out = CreatedSubscriptionOut(
        **subscription_out(subscription).model_dump(),
        client_secret=created.client_secret,
        intent_type=created.intent_type,  # type: ignore[arg-type]
    )
    if created.existing:
        message = "You already have this plan"
    elif subscription.is_trial:
        message = "Your free trial has started"
    elif created.client_secret:
        message = "Confirm the payment to start your plan"
    else:
        message = "Your plan is active"
    return SubscriptionCreated(message=message, data=CreatedData(subscription=out))


@router.get("/subscriptions", response_model=SubscriptionList, responses=error_responses(404))
def list_subscriptions(
    user: AccountOwner,
    db: DbSession,
    userid: Annotated[
        DbId | None, Query(description="Whose subscriptions (one's own by default; any for admins)")
    ] = None,
) -> SubscriptionList:
    """A user's subscriptions, newest first (spec §2 billing subscriptions)."""
    owner = service.readable_user(db, user, userid)
    return SubscriptionList(data=[subscription_out(row) for row in service.subscriptions_of(db, owner)])


@router.delete("/subscriptions", response_model=SubscriptionCancelled, responses=error_responses(403, 404, 503))
def cancel_subscription(
    body: SubscriptionDeleteIn, user: CurrentUser, db: DbSession, gateway: Gateway
) -> SubscriptionCancelled:
    """Cancel one's plan (spec §4): Stripe stops billing at once, and for a paid plan the creator
    profile, the custom hosts and the tours on them are deleted in the same transaction."""
    cancelled = service.cancel_subscription(
        db, gateway, user, plan_name=body.plan_name, userid=body.userid, user_email=body.user_email
    )
    return SubscriptionCancelled(
        message="Your plan has been cancelled",
        data=subscription_out(cancelled.subscription),
        creator_deleted=cancelled.creator_deleted,
        hosts_deleted=cancelled.hosts_deleted,
        tours_deleted=cancelled.tours_deleted,
    )


@router.get("/payment-intent", response_model=PaymentIntentOut, responses=error_responses(404, 503))
def payment_intent(
    user: CurrentUser,
    db: DbSession,
    gateway: Gateway,
    subscription_id: Annotated[
        DbId | None, Query(description="The waiting subscription (the newest by default)")
    ] = None,
) -> PaymentIntentOut:
    """The client secret of the caller's waiting payment (a subscription's first invoice, or the card
    a trial saves), for the payment form's Stripe Elements; 404 when nothing waits."""
    found = service.payment_intent(db, gateway, user, subscription_id)
    assert found.client_secret is not None
    return PaymentIntentOut(
        subscription_id=found.subscription.id,
        status=found.subscription.status.value,  # type: ignore[arg-type]
        client_secret=found.client_secret,
        intent_type=found.intent_type,  # type: ignore[arg-type]
        publishable_key=get_settings().stripe_publishable_key,
    )


def _trials(db: DbSession, owner_state: service.TrialState) -> TrialSubscriptions:
    return TrialSubscriptions(
        count=owner_state.count,
        data=[subscription_out(row) for row in owner_state.trials],
        trial_ended=owner_state.ended is not None,
        ended_subscription=subscription_out(owner_state.ended) if owner_state.ended else None,
        dismiss_count=owner_state.dismiss_count,
        max_dismissals=MAX_TRIAL_DIALOG_DISMISSALS,
        closable=owner_state.closable,
    )


@router.get("/trial-subscriptions", response_model=TrialSubscriptions, responses=error_responses(404))
def trial_subscriptions(
    user: AccountOwner,
    db: DbSession,
    user_id: Annotated[DbId | None, Query(description="Whose trials (one's own by default; any for admins)")] = None,
) -> TrialSubscriptions:
    """A user's trials (`count` and `data`), and whether the end-of-trial dialog is due: the newest
    trial has ended and nothing replaced it (spec §4)."""
    owner = service.readable_user(db, user, user_id)
    return _trials(db, service.trial_state(db, owner))


@router.post("/trial-subscriptions/dismissals", response_model=TrialSubscriptions, responses=error_responses(409))
def dismiss_trial_dialog(user: CurrentUser, db: DbSession) -> TrialSubscriptions:
    """The end-of-trial dialog was closed (spec §9: it may be, 3 times; 409 after that, or when no
    trial has ended)."""
    return _trials(db, service.dismiss_trial_dialog(db, user))


@router.post(
    "/webhook", response_model=WebhookAnswer, responses=error_responses(400), dependencies=[Depends(unrestricted)]
)
async def stripe_webhook(
    request: Request,
    db: DbSession,
    gateway: Gateway,
    stripe_signature: Annotated[str | None, Header(alias="Stripe-Signature")] = None,
) -> WebhookAnswer:
    """Stripe's events: the signature is verified with the SDK (400 when it does not verify), the
    event stored once by its id and processed by a task; a replayed or duplicated event is answered
    200 and changes nothing."""
    payload = await request.body()
    try:
        event = gateway.verify_event(payload, stripe_signature)
    except BadSignature as exc:
        raise BadRequest(f"Invalid Stripe webhook: {exc}", fields={"Stripe-Signature": "Invalid signature"}) from exc
    inserted = await run_in_threadpool(webhooks.record_event, db, event)
    return WebhookAnswer(received=True, duplicate=not inserted)
