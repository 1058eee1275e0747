"""The end-of-trial check (`billing.end_trials`, every 15 minutes in beat).

A trial that Stripe runs ends through Stripe's webhooks. A trial the platform runs itself (no Stripe
subscription behind it, e.g. with payments off) has nobody to end it but this check: when its end
time has passed it becomes `ended`, the user's trial history records the end, and the user's open
pages hear it at once (spec §4: the end-of-trial dialog appears when the trial end date has passed).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.billing.models import BillingPlan, Subscription, SubscriptionStatus, Trial
from app.core.db import utcnow
from app.realtime.events import TRIAL_ENDED, emit_after_commit, user_room


def end_expired_trials(session_factory: sessionmaker[Session], *, now: datetime | None = None) -> int:
    """End every platform-run trial whose end time has passed; returns how many ended."""
    moment = now or utcnow()
    with session_factory.begin() as session:
        expired = session.scalars(
            select(Subscription)
            .join(BillingPlan, BillingPlan.id == Subscription.plan_id)
            .where(
                Subscription.is_trial.is_(True),
                Subscription.status == SubscriptionStatus.trialing,
                Subscription.stripe_subscription_id.is_(None),
                Subscription.end_time <= moment,
                BillingPlan.is_indefinite_trial.is_(False),
            )
            .order_by(Subscription.id)
            # Two workers running the check at once end each trial once.
            .with_for_update(skip_locked=True, of=Subscription)
        ).all()
        for subscription in expired:
            _end_trial(session, subscription)
    return len(expired)


def _end_trial(session: Session, subscription: Subscription) -> None:
    subscription.status = SubscriptionStatus.ended
    trial = session.scalar(select(Trial).where(Trial.user_id == subscription.user_id))
    if trial is None:
        trial = Trial(user_id=subscription.user_id, count=1, dismiss_count=0)
        session.add(trial)
    trial.last_trial_end = subscription.end_time
    end_time = subscription.end_time
    if end_time is not None and end_time.tzinfo is None:  # SQLite hands back naive UTC
        end_time = end_time.replace(tzinfo=UTC)
    emit_after_commit(
        session,
        TRIAL_ENDED,
        {
            "subscription_id": subscription.id,
            "plan_name": subscription.plan.plan_name,
            "end_time": end_time.isoformat() if end_time else None,
        },
        room=user_room(subscription.user_id),
    )
