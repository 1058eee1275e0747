"""Shared set-up of the billing tests: the seeded plans, a local fake Stripe, and the accounts."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import pytest
import stripe
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.billing.models import BillingPlan, PlanInterval
from app.classifications.dictionaries import BILLING_PLANS
from app.core.settings import get_settings
from app.users.models import User
from tests import factories
from tests.fakes.stripe import SECRET_KEY, FakeStripe

PLANS = "/v2/billing/plans"
CONFIG = "/v2/billing/config"
SUBSCRIPTIONS = "/v2/billing/subscriptions"
PAYMENT_INTENT = "/v2/billing/payment-intent"
TRIALS = "/v2/billing/trial-subscriptions"
DISMISSALS = "/v2/billing/trial-subscriptions/dismissals"
WEBHOOK = "/v2/billing/webhook"
WEBHOOK_SECRET = "whsec_test_touratlas_fake_secret"
PUBLISHABLE_KEY = "pk_test_touratlas_fake"
MONTHLY = "Creator Monthly"


def add_plans(db: Session) -> dict[str, BillingPlan]:
    """The plans the seed places (app/classifications/seed.py), from the same built-in list."""
    rows = {
        spec.plan_name: BillingPlan(
            plan_name=spec.plan_name,
            active=spec.active,
            description=spec.description,
            cost=spec.cost,
            discount_cost=spec.discount_cost,
            currency=spec.currency,
            is_indefinite_trial=spec.is_indefinite_trial,
            interval=PlanInterval(spec.interval),
            trial_period_days=spec.trial_period_days,
            features=[feature.as_json() for feature in spec.features],
            position=position,
        )
        for position, spec in enumerate(BILLING_PLANS)
    }
    db.add_all(rows.values())
    db.flush()
    return rows


def payments_on(monkeypatch: pytest.MonkeyPatch, fake: FakeStripe) -> None:
    settings = get_settings()
    monkeypatch.setattr(settings, "stripe_secret_key", SECRET_KEY)
    monkeypatch.setattr(settings, "stripe_api_base", fake.url)
    monkeypatch.setattr(settings, "stripe_webhook_secret", WEBHOOK_SECRET)
    monkeypatch.setattr(settings, "stripe_publishable_key", PUBLISHABLE_KEY)
    monkeypatch.setattr(settings, "stripe_manage_payments_url", "https://billing.stripe.com/p/login/test_touratlas")


@dataclass
class Accounts:
    user: User
    other: User
    admin: User
    plans: dict[str, BillingPlan]
    headers: dict[str, dict[str, str]]


def accounts(db: Session) -> Accounts:
    plans = add_plans(db)
    user, other, admin = factories.user(db), factories.user(db), factories.user(db, admin=True)
    db.commit()
    headers = {"user": factories.bearer(user), "other": factories.bearer(other), "admin": factories.bearer(admin)}
    return Accounts(user, other, admin, plans, headers)


def event(kind: str, obj: dict[str, Any], *, created: int | None = None, event_id: str | None = None) -> dict[str, Any]:
    return {
        "id": event_id or f"evt_{time.time_ns()}",
        "object": "event",
        "api_version": "2026-10-28.endive",
        "created": created if created is not None else int(time.time()),
        "type": kind,
        "livemode": False,
        "pending_webhooks": 1,
        "data": {"object": obj},
    }


def deliver(
    client: TestClient, body: dict[str, Any], *, secret: str = WEBHOOK_SECRET, timestamp: int | None = None
) -> tuple[int, dict[str, Any]]:
    """POST an event as Stripe does, signed with the SDK's own signing helper."""
    payload = json.dumps(body)
    signature = stripe.WebhookSignature.generate_signature_header(payload, secret, timestamp)
    response = client.post(
        WEBHOOK, content=payload, headers={"Stripe-Signature": signature, "Content-Type": "application/json"}
    )
    return response.status_code, response.json()
