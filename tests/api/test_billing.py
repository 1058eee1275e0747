"""Spec §7 Billing, §4 billing flow and the cancellation cascade, §9 plan display data: every call,
with payments off (the embedded default) and on against a local fake Stripe speaking its wire format."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.billing.models import Subscription, SubscriptionStatus, Trial
from app.billing.stripe_gateway import PAYMENTS_OFF, STRIPE_API_VERSION
from app.billing.trials import end_expired_trials
from app.core.db import get_sessionmaker, utcnow
from app.creators.models import Creator
from app.tours.models import Tour
from app.vendors.models import Vendor, VendorStatus
from tests import factories
from tests.api.billing_setup import (
    CONFIG,
    DISMISSALS,
    MONTHLY,
    PAYMENT_INTENT,
    PLANS,
    PUBLISHABLE_KEY,
    SUBSCRIPTIONS,
    TRIALS,
    Accounts,
    accounts,
    payments_on,
)
from tests.fakes.stripe import FakeStripe, error, running_stripe


@pytest.fixture(scope="module")
def fake_stripe() -> Iterator[FakeStripe]:
    with running_stripe() as fake:
        yield fake


@pytest.fixture
def s(db: Session) -> Accounts:
    return accounts(db)


@pytest.fixture
def stripe_on(monkeypatch: pytest.MonkeyPatch, fake_stripe: FakeStripe) -> FakeStripe:
    fake_stripe.reset()
    payments_on(monkeypatch, fake_stripe)
    return fake_stripe


def subscribe(client: TestClient, s: Accounts, plan: str = MONTHLY, *, trial: bool = False, key: str | None = None):
    headers = dict(s.headers["user"])
    if key:
        headers["Idempotency-Key"] = key
    return client.post(SUBSCRIPTIONS, json={"plan_name": plan, "apprrove_needed": not trial}, headers=headers)


# ------------------------------------------------------------------------------------ plans, config


def test_plans_answer_what_the_plans_page_shows(client: TestClient, s: Accounts) -> None:
    response = client.get(PLANS)
    assert response.status_code == 200
    plans = {plan["plan_name"]: plan for plan in response.json()["data"]}
    assert list(plans) == ["Free", "Creator Monthly", "Creator Yearly"]
    free, monthly = plans["Free"], plans[MONTHLY]
    assert (free["is_free"], free["is_indefinite_trial"], float(free["discount_cost"])) == (True, True, 0.0)
    assert monthly["is_free"] is False
    assert (float(monthly["cost"]), float(monthly["discount_cost"])) == (19.0, 12.0)
    assert monthly["recurring"] == {"interval": "month", "trial_period_days": 14}
    assert plans["Creator Yearly"]["recurring"]["interval"] == "year"
    assert {"name": "Team accounts", "coming_soon": True} in monthly["features"]


def test_an_inactive_plan_is_listed_last_and_cannot_be_chosen(client: TestClient, s: Accounts, db: Session) -> None:
    yearly = db.get(type(s.plans["Creator Yearly"]), s.plans["Creator Yearly"].id)
    assert yearly is not None
    yearly.active = False
    db.commit()
    names = [plan["plan_name"] for plan in client.get(PLANS).json()["data"]]
    assert names[-1] == "Creator Yearly"
    response = subscribe(client, s, "Creator Yearly", trial=True)
    assert response.status_code == 400 and response.json()["fields"] == {"plan_name": "This plan is coming soon"}


def test_config_with_payments_off_and_on(client: TestClient, s: Accounts, monkeypatch, fake_stripe) -> None:
    assert client.get(CONFIG).json() == {"publishable_key": "", "manage_payments_url": "", "payments_enabled": False}
    payments_on(monkeypatch, fake_stripe)
    assert client.get(CONFIG).json() == {
        "publishable_key": PUBLISHABLE_KEY,
        "manage_payments_url": "https://billing.stripe.com/p/login/test_touratlas",
        "payments_enabled": True,
    }


# ------------------------------------------------------------------------------------ payments off


def test_payments_off_a_paid_plan_says_so(client: TestClient, s: Accounts, db: Session) -> None:
    response = subscribe(client, s)
    assert response.status_code == 400
    assert response.json()["message"] == PAYMENTS_OFF and response.json()["fields"] == {"plan_name": PAYMENTS_OFF}
    assert db.scalar(select(func.count()).select_from(Subscription)) == 0
    assert client.get(PAYMENT_INTENT, headers=s.headers["user"]).status_code == 400


def test_payments_off_the_free_plan_works(client: TestClient, s: Accounts) -> None:
    response = subscribe(client, s, "Free")
    assert response.status_code == 201
    sub = response.json()["data"]["subscription"]
    assert (sub["plan_name"], sub["status"], sub["is_trial"], sub["client_secret"]) == ("Free", "active", False, None)
    again = subscribe(client, s, "Free")
    assert again.status_code == 200 and again.json()["data"]["subscription"]["id"] == sub["id"]


def test_payments_off_a_platform_run_trial_starts_once_and_ends(client: TestClient, s: Accounts, db: Session) -> None:
    response = subscribe(client, s, trial=True)
    assert response.status_code == 201, response.text
    sub = response.json()["data"]["subscription"]
    assert (sub["status"], sub["is_trial"], sub["client_secret"]) == ("trialing", True, None)
    trials = client.get(TRIALS, headers=s.headers["user"]).json()
    assert (trials["count"], trials["trial_ended"], len(trials["data"])) == (1, False, 1)
    # A second trial of the same plan is the same one; of another plan, refused while one is in force.
    assert subscribe(client, s, trial=True).status_code == 200
    assert subscribe(client, s, "Creator Yearly", trial=True).status_code == 409
    # The trial's time is up: the periodic check ends it, and the dialog is due.
    row = db.get(Subscription, sub["id"])
    assert row is not None
    row.end_time = utcnow() - timedelta(minutes=1)
    db.commit()
    assert end_expired_trials(get_sessionmaker()) == 1
    db.expire_all()
    assert db.get(Subscription, sub["id"]).status == SubscriptionStatus.ended  # type: ignore[union-attr]
    trials = client.get(TRIALS, headers=s.headers["user"]).json()
    assert (trials["trial_ended"], trials["ended_subscription"]["id"], trials["closable"]) == (True, sub["id"], True)
    # A trial is had once: the next try says so.
    again = subscribe(client, s, trial=True)
    assert again.status_code == 400 and again.json()["fields"]["plan_name"].startswith("You have already had")


def test_the_end_of_trial_dialog_is_closable_three_times(client: TestClient, s: Accounts, db: Session) -> None:
    assert client.post(DISMISSALS, headers=s.headers["user"]).status_code == 409  # no trial has ended
    sub_id = subscribe(client, s, trial=True).json()["data"]["subscription"]["id"]
    row = db.get(Subscription, sub_id)
    assert row is not None
    row.end_time = utcnow() - timedelta(seconds=1)
    db.commit()
    # Even before the periodic check ran, a trial past its end is due.
    assert client.get(TRIALS, headers=s.headers["user"]).json()["trial_ended"] is True
    answers = [client.post(DISMISSALS, headers=s.headers["user"]) for _ in range(4)]
    assert [answer.status_code for answer in answers] == [200, 200, 200, 409]
    assert [answer.json()["dismiss_count"] for answer in answers[:3]] == [1, 2, 3]
    assert answers[2].json()["closable"] is False and answers[2].json()["trial_ended"] is True
    history = db.scalar(select(Trial).where(Trial.user_id == s.user.id))
    db.refresh(history)
    assert history is not None and (history.count, history.dismiss_count) == (1, 3)


# ------------------------------------------------------------------------------------ payments on


def test_subscribing_creates_a_customer_price_and_incomplete_subscription(
    client: TestClient, s: Accounts, stripe_on: FakeStripe, db: Session
) -> None:
    response = subscribe(client, s)
    assert response.status_code == 201, response.text
    sub = response.json()["data"]["subscription"]
    assert (sub["status"], sub["is_trial"], sub["intent_type"]) == ("incomplete", False, "payment")
    assert sub["client_secret"].startswith("pi_") and "_secret_" in sub["client_secret"]
    assert stripe_on.created == {"customer": 1, "product": 1, "price": 1, "subscription": 1}
    assert set(stripe_on.versions) == {STRIPE_API_VERSION}
    (remote,) = stripe_on.subscriptions.values()
    price = stripe_on.prices[remote["items"]["data"][0]["price"]["id"]]
    assert (price["unit_amount"], price["currency"], price["recurring"]["interval"]) == (1200, "usd", "month")
    assert stripe_on.customers[remote["customer"]]["email"] == s.user.email
    row = db.get(Subscription, sub["id"])
    assert row is not None and (row.stripe_subscription_id, row.stripe_customer_id) == (
        remote["id"],
        remote["customer"],
    )
    # The payment form asks for the intent again: the same secret, read back from Stripe.
    intent = client.get(PAYMENT_INTENT, headers=s.headers["user"])
    assert intent.status_code == 200
    assert intent.json() == {
        "subscription_id": sub["id"],
        "status": "incomplete",
        "client_secret": sub["client_secret"],
        "intent_type": "payment",
        "publishable_key": PUBLISHABLE_KEY,
    }
    assert client.get(PAYMENT_INTENT, headers=s.headers["other"]).status_code == 404


def test_a_stripe_trial_needs_no_card_and_answers_a_setup_intent(
    client: TestClient, s: Accounts, stripe_on: FakeStripe
) -> None:
    response = subscribe(client, s, trial=True)
    assert response.status_code == 201, response.text
    sub = response.json()["data"]["subscription"]
    assert (sub["status"], sub["is_trial"], sub["intent_type"]) == ("trialing", True, "setup")
    assert sub["client_secret"].startswith("seti_")
    (remote,) = stripe_on.subscriptions.values()
    assert remote["trial_end"] is not None and remote["status"] == "trialing"
    assert client.get(TRIALS, headers=s.headers["user"]).json()["count"] == 1


def test_a_retried_request_never_subscribes_twice(
    client: TestClient, s: Accounts, stripe_on: FakeStripe, db: Session
) -> None:
    key = str(uuid.uuid4())
    first = subscribe(client, s, key=key)
    second = subscribe(client, s, key=key)
    assert (first.status_code, second.status_code) == (201, 200)
    assert first.json()["data"]["subscription"]["id"] == second.json()["data"]["subscription"]["id"]
    # Without a key too: the plan waiting for its payment is answered again.
    third = subscribe(client, s)
    assert third.json()["data"]["subscription"]["id"] == first.json()["data"]["subscription"]["id"]
    assert stripe_on.created["subscription"] == 1
    assert db.scalar(select(func.count()).select_from(Subscription)) == 1


def test_a_commit_lost_after_stripe_answered_is_retried_without_a_second_subscription(
    client: TestClient, s: Accounts, stripe_on: FakeStripe, db: Session
) -> None:
    """Stripe made the subscription but our row was lost (the request failed after Stripe answered):
    the retry carries the same Stripe idempotency key, so Stripe answers its first subscription."""
    key = str(uuid.uuid4())
    first = subscribe(client, s, key=key).json()["data"]["subscription"]
    db.execute(Subscription.__table__.delete())
    db.commit()
    again = subscribe(client, s, key=key)
    assert again.status_code == 201
    assert stripe_on.created["subscription"] == 1
    assert again.json()["data"]["subscription"]["client_secret"] == first["client_secret"]


def test_stripe_errors_are_shown_as_spec_8_says(client: TestClient, s: Accounts, stripe_on: FakeStripe) -> None:
    stripe_on.fail_next["/v1/customers"] = error(
        402, "card_error", "Your card was declined.", code="card_declined", param="payment_method"
    )
    declined = subscribe(client, s)
    assert declined.status_code == 400 and declined.json()["message"] == "Your card was declined."
    stripe_on.fail_next["/v1/customers"] = error(401, "invalid_request_error", "Invalid API Key provided: sk_****")
    broken = subscribe(client, s)
    assert broken.status_code == 503 and broken.json()["message"].startswith("The payment service")


def test_a_wrong_key_is_a_503_not_a_subscription(
    client: TestClient, s: Accounts, stripe_on: FakeStripe, monkeypatch, db: Session
) -> None:
    from app.core.settings import get_settings

    monkeypatch.setattr(get_settings(), "stripe_secret_key", "sk_test_wrong")
    assert subscribe(client, s).status_code == 503
    assert db.scalar(select(func.count()).select_from(Subscription)) == 0


def test_one_paid_plan_at_a_time_and_free_after_cancelling(
    client: TestClient, s: Accounts, stripe_on: FakeStripe
) -> None:
    assert subscribe(client, s).status_code == 201
    conflict = subscribe(client, s, "Creator Yearly")
    assert conflict.status_code == 409 and "cancel it first" in conflict.json()["message"]
    assert subscribe(client, s, "Free").status_code == 409
    deleted = client.request("DELETE", SUBSCRIPTIONS, json={"plan_name": MONTHLY}, headers=s.headers["user"])
    assert deleted.status_code == 200 and deleted.json()["data"]["status"] == "ended"
    assert subscribe(client, s, "Free").status_code == 201


# ------------------------------------------------------------------------------------ reading, roles


def test_reading_subscriptions_own_or_as_admin(client: TestClient, s: Accounts) -> None:
    subscribe(client, s, "Free")
    own = client.get(SUBSCRIPTIONS, headers=s.headers["user"])
    assert [row["plan_name"] for row in own.json()["data"]] == ["Free"]
    as_admin = client.get(SUBSCRIPTIONS, params={"userid": s.user.id}, headers=s.headers["admin"])
    assert as_admin.json() == own.json()
    assert client.get(SUBSCRIPTIONS, params={"userid": s.user.id}, headers=s.headers["other"]).status_code == 403
    assert client.get(TRIALS, params={"user_id": s.user.id}, headers=s.headers["other"]).status_code == 403
    assert client.get(TRIALS, params={"user_id": s.user.id}, headers=s.headers["admin"]).json()["count"] == 0
    assert client.get(SUBSCRIPTIONS).status_code == 401


def test_a_user_acts_only_on_their_own_subscription(client: TestClient, s: Accounts) -> None:
    for body in ({"userid": s.user.id}, {"user_email": s.user.email}):
        others = client.post(SUBSCRIPTIONS, json={"plan_name": "Free", **body}, headers=s.headers["other"])
        assert others.status_code == 403
    admin = client.post(SUBSCRIPTIONS, json={"plan_name": "Free", "userid": s.user.id}, headers=s.headers["admin"])
    assert admin.status_code == 403
    subscribe(client, s, "Free")
    for who in ("other", "admin"):
        response = client.request(
            "DELETE", SUBSCRIPTIONS, json={"plan_name": "Free", "userid": s.user.id}, headers=s.headers[who]
        )
        assert response.status_code == 403
    mine = client.post(
        SUBSCRIPTIONS,
        json={"plan_name": "Free", "userid": s.user.id, "user_email": s.user.email.upper()},
        headers=s.headers["user"],
    )
    assert mine.status_code == 200


def test_bad_input_is_a_400_with_the_field(client: TestClient, s: Accounts) -> None:
    missing = client.post(SUBSCRIPTIONS, json={}, headers=s.headers["user"])
    assert missing.status_code == 400 and "plan_name" in missing.json()["fields"]
    unknown = client.post(SUBSCRIPTIONS, json={"plan_name": "Gold"}, headers=s.headers["user"])
    assert unknown.status_code == 400 and unknown.json()["fields"] == {"plan_name": "There is no such plan"}
    nothing = client.request("DELETE", SUBSCRIPTIONS, json={"plan_name": MONTHLY}, headers=s.headers["user"])
    assert nothing.status_code == 404


# ------------------------------------------------------------------------------------ the cascade


def test_cancelling_a_paid_plan_removes_the_creator_profile_custom_hosts_and_their_tours(
    client: TestClient, s: Accounts, stripe_on: FakeStripe, db: Session
) -> None:
    catalog = factories.catalog(db)
    profile = factories.creator(db, s.user)
    custom = factories.vendor(db, "My Host")
    custom.is_custom, custom.owner_user_id = True, s.user.id
    version = factories.vendor(db, "My Host White")
    version.is_custom, version.owner_user_id, version.parent_vendor_id = True, s.user.id, custom.id
    on_custom = factories.tour(
        db, s.user, category_row=catalog.category, media_type_row=catalog.media_type, vendor_row=custom
    )
    on_public = catalog.tour(db, s.user)
    others_profile = factories.creator(db, s.other)
    others_tour = catalog.tour(db, s.other)
    db.commit()
    profile_id, custom_id, version_id = profile.id, custom.id, version.id
    on_custom_id, on_public_id, others_tour_id = on_custom.id, on_public.id, others_tour.id
    sub = subscribe(client, s, trial=True).json()["data"]["subscription"]
    remote_id = db.get(Subscription, sub["id"]).stripe_subscription_id  # type: ignore[union-attr]

    response = client.request(
        "DELETE",
        SUBSCRIPTIONS,
        json={"plan_name": MONTHLY, "userid": s.user.id, "user_email": s.user.email},
        headers=s.headers["user"],
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["creator_deleted"], body["hosts_deleted"], body["tours_deleted"]) == (True, 2, 1)
    assert (body["data"]["status"], body["data"]["cancelled_at"] is not None) == ("ended", True)
    assert stripe_on.subscriptions[remote_id]["status"] == "canceled"
    db.expire_all()
    assert db.get(Creator, profile_id) is None
    assert db.get(Vendor, custom_id) is None and db.get(Vendor, version_id) is None
    assert db.get(Tour, on_custom_id) is None
    # What is not on a custom host, and what is someone else's, stays.
    assert db.get(Tour, on_public_id) is not None
    assert db.get(Creator, others_profile.id) is not None and db.get(Tour, others_tour_id) is not None
    assert db.get(Vendor, catalog.vendor.id).status == VendorStatus.approved  # type: ignore[union-attr]
    # Cancelling again finds nothing to cancel.
    again = client.request("DELETE", SUBSCRIPTIONS, json={"plan_name": MONTHLY}, headers=s.headers["user"])
    assert again.status_code == 404


def test_cancelling_the_free_plan_keeps_the_creator_profile(client: TestClient, s: Accounts, db: Session) -> None:
    profile = factories.creator(db, s.user)
    db.commit()
    subscribe(client, s, "Free")
    response = client.request("DELETE", SUBSCRIPTIONS, json={"plan_name": "Free"}, headers=s.headers["user"])
    assert response.status_code == 200 and response.json()["creator_deleted"] is False
    db.expire_all()
    assert db.get(Creator, profile.id) is not None


def test_a_failed_cascade_leaves_everything_as_it_was(
    client: TestClient, s: Accounts, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One transaction: when a step of the cascade fails, the subscription and the profile stay."""
    from app.vendors import service as vendors

    profile = factories.creator(db, s.user)
    db.commit()
    sub_id = subscribe(client, s, trial=True).json()["data"]["subscription"]["id"]

    def broken(*_args: object, **_kwargs: object) -> int:
        raise RuntimeError("disk full")

    monkeypatch.setattr(vendors, "delete_custom_hosts", broken)
    with TestClient(client.app, raise_server_exceptions=False) as other_client:
        response = other_client.request("DELETE", SUBSCRIPTIONS, json={"plan_name": MONTHLY}, headers=s.headers["user"])
    assert response.status_code == 500
    db.expire_all()
    assert db.get(Creator, profile.id) is not None
    row = db.get(Subscription, sub_id)
    assert row is not None and (row.status, row.cancelled_at) == (SubscriptionStatus.trialing, None)
