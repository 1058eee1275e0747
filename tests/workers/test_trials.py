"""The end-of-trial check (`billing.end_trials`): platform-run trials end when their time is up, the
user's trial history records it and the user's pages hear it; Stripe-run and indefinite trials are
left alone."""

from __future__ import annotations

from datetime import UTC, timedelta
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.billing.models import BillingPlan, Subscription, SubscriptionStatus, Trial
from app.billing.trials import end_expired_trials
from app.core.db import get_sessionmaker, utcnow
from app.realtime import events
from tests import factories


class RecordingEmitter:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any], str]] = []

    def emit(self, event: str, data: dict[str, Any], *, room: str) -> None:
        self.sent.append((event, data, room))


@pytest.fixture
def emitted(monkeypatch: pytest.MonkeyPatch) -> RecordingEmitter:
    recorder = RecordingEmitter()
    monkeypatch.setattr(events, "get_emitter", lambda: recorder)
    return recorder


def trial(db: Session, plan: BillingPlan, *, ends_in: timedelta, **fields: Any) -> Subscription:
    row = Subscription(
        user_id=factories.user(db).id,
        plan_id=plan.id,
        status=SubscriptionStatus.trialing,
        is_trial=True,
        end_time=utcnow() + ends_in,
        **fields,
    )
    db.add(row)
    db.flush()
    return row


def test_ended_trials_are_closed_once_and_announced(db: Session, emitted: RecordingEmitter) -> None:
    creator_plan = BillingPlan(plan_name="Creator", trial_period_days=14)
    forever = BillingPlan(plan_name="Founders", is_indefinite_trial=True)
    db.add_all([creator_plan, forever])
    db.flush()
    ended = trial(db, creator_plan, ends_in=-timedelta(minutes=1))
    running = trial(db, creator_plan, ends_in=timedelta(days=3))
    stripe_run = trial(db, creator_plan, ends_in=-timedelta(days=1), stripe_subscription_id="sub_123")
    indefinite = trial(db, forever, ends_in=-timedelta(days=1))
    db.commit()

    assert end_expired_trials(get_sessionmaker()) == 1
    db.expire_all()
    statuses = {row.id: row.status for row in db.scalars(select(Subscription))}
    assert statuses == {
        ended.id: SubscriptionStatus.ended,
        running.id: SubscriptionStatus.trialing,
        stripe_run.id: SubscriptionStatus.trialing,
        indefinite.id: SubscriptionStatus.trialing,
    }
    history = db.scalars(select(Trial).where(Trial.user_id == ended.user_id)).one()
    assert history.last_trial_end is not None
    end_time = ended.end_time if ended.end_time.tzinfo else ended.end_time.replace(tzinfo=UTC)
    assert emitted.sent == [
        (
            events.TRIAL_ENDED,
            {"subscription_id": ended.id, "plan_name": "Creator", "end_time": end_time.isoformat()},
            events.user_room(ended.user_id),
        )
    ]
    assert end_time.isoformat().endswith("+00:00")
    assert end_expired_trials(get_sessionmaker()) == 0  # already ended: nothing twice
    assert len(emitted.sent) == 1
