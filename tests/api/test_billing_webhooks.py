"""Stripe's webhooks (ARCHITECTURE.md Payments): verified with the SDK, stored once in the inbox,
processed by a task; a replayed, duplicated or out-of-order event changes nothing twice. Events are
signed with the SDK's own signing helper and carry the objects the fake Stripe holds."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.billing import webhooks
from app.billing.models import StripeEvent, Subscription, SubscriptionStatus, Trial
from app.core.db import get_sessionmaker
from app.core.settings import get_settings
from app.realtime import events as realtime
from tests.api.billing_setup import (
    MONTHLY,
    SUBSCRIPTIONS,
    TRIALS,
    WEBHOOK,
    Accounts,
    accounts,
    deliver,
    event,
    payments_on,
)
from tests.fakes.stripe import FakeStripe, running_stripe


@pytest.fixture(scope="module")
def fake_stripe() -> Iterator[FakeStripe]:
    with running_stripe() as fake:
        yield fake


@pytest.fixture
def s(db: Session, monkeypatch: pytest.MonkeyPatch, fake_stripe: FakeStripe) -> Accounts:
    fake_stripe.reset()
    payments_on(monkeypatch, fake_stripe)
    return accounts(db)


@pytest.fixture
def pushed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any], str]]:
    sent: list[tuple[str, dict[str, Any], str]] = []
    monkeypatch.setattr(realtime, "emit_now", lambda name, data, *, room: sent.append((name, data, room)))
    return sent


def subscribed(client: TestClient, s: Accounts, db: Session, *, trial: bool = False) -> tuple[int, str]:
    response = client.post(
        SUBSCRIPTIONS, json={"plan_name": MONTHLY, "apprrove_needed": not trial}, headers=s.headers["user"]
    )
    assert response.status_code == 201, response.text
    sub_id = response.json()["data"]["subscription"]["id"]
    row = db.get(Subscription, sub_id)
    assert row is not None and row.stripe_subscription_id is not None
    return sub_id, row.stripe_subscription_id


def status_of(db: Session, sub_id: int) -> SubscriptionStatus:
    db.expire_all()
    row = db.get(Subscription, sub_id)
    assert row is not None
    return row.status


def test_a_paid_invoice_makes_the_subscription_active_and_tells_the_user(
    client: TestClient, s: Accounts, db: Session, fake_stripe: FakeStripe, pushed: list
) -> None:
    sub_id, remote_id = subscribed(client, s, db)
    paid = fake_stripe.advance(remote_id, "active")
    code, body = deliver(client, event("customer.subscription.updated", paid))
    assert (code, body) == (200, {"received": True, "duplicate": False})
    assert status_of(db, sub_id) == SubscriptionStatus.active
    stored = db.scalar(select(StripeEvent))
    assert stored is not None and stored.processed_at is not None and stored.type == "customer.subscription.updated"
    row = db.get(Subscription, sub_id)
    assert row is not None and row.end_time is not None and row.next_period_start_time is not None
    assert (realtime.SUBSCRIPTION_CHANGED, f"user:{s.user.id}") in [(name, room) for name, _data, room in pushed]
    change = next(
        data for name, data, _room in pushed if name == realtime.SUBSCRIPTION_CHANGED and data["status"] == "active"
    )
    assert change["subscription_id"] == sub_id and change["plan_name"] == MONTHLY


def test_a_bad_signature_is_refused_and_stores_nothing(
    client: TestClient, s: Accounts, db: Session, fake_stripe: FakeStripe
) -> None:
    sub_id, remote_id = subscribed(client, s, db)
    body = event("customer.subscription.updated", fake_stripe.advance(remote_id, "active"))
    code, answer = deliver(client, body, secret="whsec_someone_else")
    assert code == 400 and answer["fields"] == {"Stripe-Signature": "Invalid signature"}
    # An old signature (outside the SDK's 5-minute tolerance) is refused too, as is none at all.
    code, _ = deliver(client, body, timestamp=int(time.time()) - 3600)
    assert code == 400
    missing = client.post(WEBHOOK, content=json.dumps(body), headers={"Content-Type": "application/json"})
    assert missing.status_code == 400
    # A payload changed after signing does not verify.
    payload = json.dumps(body)
    import stripe

    header = stripe.WebhookSignature.generate_signature_header(payload, "whsec_test_touratlas_fake_secret")
    tampered = client.post(WEBHOOK, content=payload.replace("active", "canceled"), headers={"Stripe-Signature": header})
    assert tampered.status_code == 400
    assert db.scalar(select(func.count()).select_from(StripeEvent)) == 0
    assert status_of(db, sub_id) == SubscriptionStatus.incomplete


def test_webhooks_are_refused_when_no_secret_is_configured(
    client: TestClient, s: Accounts, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "stripe_webhook_secret", "")
    code, answer = deliver(client, event("customer.subscription.updated", {"id": "sub_x", "object": "subscription"}))
    assert code == 400 and "not configured" in answer["message"]


def test_a_replayed_or_duplicated_event_changes_nothing_twice(
    client: TestClient, s: Accounts, db: Session, fake_stripe: FakeStripe, pushed: list
) -> None:
    sub_id, remote_id = subscribed(client, s, db)
    paid = event("customer.subscription.updated", fake_stripe.advance(remote_id, "active"), event_id="evt_paid_1")
    assert deliver(client, paid) == (200, {"received": True, "duplicate": False})
    pushes = len(pushed)
    # The user cancels; then Stripe delivers the old event again (a retry, or a replay by someone).
    assert (
        client.request("DELETE", SUBSCRIPTIONS, json={"plan_name": MONTHLY}, headers=s.headers["user"]).status_code
        == 200
    )
    assert status_of(db, sub_id) == SubscriptionStatus.ended
    for _ in range(2):
        assert deliver(client, paid) == (200, {"received": True, "duplicate": True})
    assert status_of(db, sub_id) == SubscriptionStatus.ended
    assert db.scalar(select(func.count()).select_from(StripeEvent)) == 1
    # Processing the stored event again (a second worker, the sweep) does nothing either.
    assert webhooks.process_event(get_sessionmaker(), "evt_paid_1") is False
    assert webhooks.process_waiting(get_sessionmaker()) == 0
    assert [name for name, _data, _room in pushed[pushes:]] == [realtime.SUBSCRIPTION_CHANGED]  # the cancel only


def test_an_event_that_arrives_late_never_overwrites_a_newer_status(
    client: TestClient, s: Accounts, db: Session, fake_stripe: FakeStripe
) -> None:
    sub_id, remote_id = subscribed(client, s, db)
    incomplete = fake_stripe.webhook_object(remote_id)
    active = fake_stripe.advance(remote_id, "active")
    past_due = fake_stripe.advance(remote_id, "past_due")
    now = int(time.time())
    # Stripe sent created (t), paid (t+1), past_due (t+2); they arrive newest first.
    assert deliver(client, event("customer.subscription.updated", past_due, created=now + 2))[0] == 200
    assert status_of(db, sub_id) == SubscriptionStatus.inactive
    assert deliver(client, event("customer.subscription.updated", active, created=now + 1))[0] == 200
    assert deliver(client, event("customer.subscription.created", incomplete, created=now))[0] == 200
    assert status_of(db, sub_id) == SubscriptionStatus.inactive
    row = db.get(Subscription, sub_id)
    assert row is not None and row.last_event_created == now + 2
    # Every event is stored and marked processed, skipped or not.
    assert db.scalar(select(func.count()).select_from(StripeEvent).where(StripeEvent.processed_at.is_(None))) == 0


def test_of_two_events_of_the_same_second_the_one_further_along_wins(
    client: TestClient, s: Accounts, db: Session, fake_stripe: FakeStripe
) -> None:
    sub_id, remote_id = subscribed(client, s, db)
    incomplete = fake_stripe.webhook_object(remote_id)
    active = fake_stripe.advance(remote_id, "active")
    now = int(time.time())
    deliver(client, event("customer.subscription.updated", active, created=now))
    deliver(client, event("customer.subscription.created", incomplete, created=now))
    assert status_of(db, sub_id) == SubscriptionStatus.active


def test_a_trial_stripe_ends_without_a_card_makes_the_dialog_due(
    client: TestClient, s: Accounts, db: Session, fake_stripe: FakeStripe, pushed: list
) -> None:
    sub_id, remote_id = subscribed(client, s, db, trial=True)
    ended = fake_stripe.advance(remote_id, "canceled")
    assert deliver(client, event("customer.subscription.deleted", ended))[0] == 200
    assert status_of(db, sub_id) == SubscriptionStatus.ended
    history = db.scalar(select(Trial).where(Trial.user_id == s.user.id))
    assert history is not None and history.last_trial_end is not None
    assert realtime.TRIAL_ENDED in [name for name, _data, _room in pushed]
    trials = client.get(TRIALS, headers=s.headers["user"]).json()
    assert (trials["trial_ended"], trials["ended_subscription"]["id"]) == (True, sub_id)


def test_an_event_ahead_of_its_subscription_waits_for_it(
    client: TestClient, s: Accounts, db: Session, fake_stripe: FakeStripe
) -> None:
    """An event about a subscription not stored yet (it overtook the request creating it) stays
    waiting, and the sweep applies it once the subscription is there."""
    sub_id, remote_id = subscribed(client, s, db)
    row = db.get(Subscription, sub_id)
    assert row is not None
    row.stripe_subscription_id = None
    db.commit()
    active = fake_stripe.advance(remote_id, "active")
    assert deliver(client, event("customer.subscription.updated", active, event_id="evt_early"))[0] == 200
    stored = db.get(StripeEvent, "evt_early")
    assert stored is not None and stored.processed_at is None
    row = db.get(Subscription, sub_id)
    assert row is not None
    row.stripe_subscription_id = remote_id
    db.commit()
    assert webhooks.process_waiting(get_sessionmaker()) == 1
    assert status_of(db, sub_id) == SubscriptionStatus.active


def test_events_of_other_kinds_are_kept_and_change_nothing(client: TestClient, s: Accounts, db: Session) -> None:
    code, _ = deliver(client, event("invoice.paid", {"id": "in_1", "object": "invoice"}, event_id="evt_invoice"))
    assert code == 200
    stored = db.get(StripeEvent, "evt_invoice")
    assert stored is not None and stored.processed_at is not None
    assert db.scalar(select(func.count()).select_from(Subscription)) == 0
