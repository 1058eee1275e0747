"""Stripe's webhooks: verified by the route (the SDK checks the signature), stored once in the inbox
(`stripe_events`, keyed by Stripe's event id: insert, do nothing on conflict), processed by a task.

Replays and duplicates change nothing: a second delivery of an event finds its row and is not queued
again, and a processed row is never processed twice (the task locks it and checks `processed_at`).
Out-of-order deliveries change nothing either: a subscription remembers the `created` time of the
newest event applied to it, an older event is skipped, and of two events of the same second the one
further along (incomplete, then trialing or active, then ended) wins. An ended subscription never
comes back from a webhook.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any, cast

from sqlalchemy import Table, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, sessionmaker

from app.billing import service
from app.billing.models import StripeEvent, Subscription, SubscriptionStatus, Trial
from app.billing.stripe_gateway import read_subscription
from app.core.db import utcnow
from app.core.tasks import submit_after_commit
from app.realtime.events import TRIAL_ENDED, emit_after_commit, user_room

logger = logging.getLogger("touratlas.billing")

PROCESS_EVENT_TASK = "billing.process_event"
SUBSCRIPTION_EVENTS = (
    "customer.subscription.created",
    "customer.subscription.updated",
    "customer.subscription.deleted",
    "customer.subscription.paused",
    "customer.subscription.resumed",
    "customer.subscription.trial_will_end",
)
# An event about a subscription we do not know yet may have overtaken the request that creates it;
# it waits this long for it before it is set aside as not ours.
UNKNOWN_SUBSCRIPTION_GRACE = timedelta(hours=1)

# How far along a subscription is: of two events of the same second, the further one wins.
_PROGRESS = {
    SubscriptionStatus.incomplete: 0,
    SubscriptionStatus.trialing: 1,
    SubscriptionStatus.active: 2,
    SubscriptionStatus.inactive: 2,
    SubscriptionStatus.error: 2,
    SubscriptionStatus.ended: 3,
}


def record_event(db: Session, event: dict[str, Any]) -> bool:
    """Store a verified event once; True when it is new (and then queued for processing after commit)."""
    values = {"id": str(event["id"]), "type": str(event["type"])[:100], "payload": event}
    table = cast(Table, StripeEvent.__table__)
    dialect = db.get_bind().dialect.name
    if dialect == "postgresql":
        statement: Any = postgresql.insert(table).values(values).on_conflict_do_nothing(index_elements=["id"])
    elif dialect == "sqlite":
        statement = sqlite.insert(table).values(values).on_conflict_do_nothing(index_elements=["id"])
    else:  # pragma: no cover - the two databases we run on are above
        if db.get(StripeEvent, values["id"]) is not None:
            return False
        statement = insert(table).values(values)
    # RETURNING names the row only when it was inserted (a conflict returns none), on both databases.
    inserted = db.execute(statement.returning(table.c.id)).first() is not None
    if inserted:
        submit_after_commit(db, PROCESS_EVENT_TASK, event_id=values["id"])
    return inserted


def process_event(session_factory: sessionmaker[Session], event_id: str) -> bool:
    """Apply one stored event, once; True when it was applied now."""
    with session_factory.begin() as db:
        stored = db.scalar(select(StripeEvent).where(StripeEvent.id == event_id).with_for_update())
        if stored is None or stored.processed_at is not None:
            return False
        if not apply_event(db, stored.payload, received_at=stored.received_at):
            return False
        stored.processed_at = utcnow()
    return True


def process_waiting(session_factory: sessionmaker[Session], *, limit: int = 200) -> int:
    """Process every stored event still waiting (one whose task was lost, or that waits for its
    subscription to be created); returns how many were applied."""
    with session_factory() as db:
        waiting = list(
            db.scalars(
                select(StripeEvent.id)
                .where(StripeEvent.processed_at.is_(None))
                .order_by(StripeEvent.received_at, StripeEvent.id)
                .limit(limit)
            )
        )
    return sum(1 for event_id in waiting if process_event(session_factory, event_id))


def apply_event(db: Session, event: dict[str, Any], *, received_at: Any = None) -> bool:
    """False when the event must wait (its subscription is not known yet, within the grace time)."""
    if event.get("type") not in SUBSCRIPTION_EVENTS:
        return True  # other events are kept in the inbox for the record; nothing follows from them
    data = ((event.get("data") or {}).get("object")) or {}
    if data.get("object") != "subscription" or not data.get("id"):
        return True
    remote = read_subscription(data)
    subscription = db.scalar(
        select(Subscription).where(Subscription.stripe_subscription_id == remote.id).with_for_update()
    )
    if subscription is None:
        received = service.aware(received_at)
        return received is not None and utcnow() - received > UNKNOWN_SUBSCRIPTION_GRACE
    created = int(event.get("created") or 0)
    new_status = service.status_of(remote.status)
    if not _newer(subscription, created, new_status):
        logger.info("stripe event %s is older than subscription %s's state: skipped", event.get("id"), subscription.id)
        return True
    was = subscription.status
    secret = subscription.client_secret
    service.copy_remote(subscription, remote)
    if remote.client_secret is None and subscription.status == SubscriptionStatus.incomplete:
        subscription.client_secret = secret  # a webhook's object is not expanded: keep what we had
    subscription.last_event_created = max(created, subscription.last_event_created or 0)
    db.flush()
    if (
        subscription.is_trial
        and was == SubscriptionStatus.trialing
        and subscription.status
        in (
            SubscriptionStatus.ended,
            SubscriptionStatus.inactive,
        )
    ):
        _trial_ended(db, subscription, remote.trial_end)
    if subscription.status != was:
        service.announce(db, subscription)
    return True


def _newer(subscription: Subscription, created: int, status: SubscriptionStatus) -> bool:
    if subscription.status == SubscriptionStatus.ended and subscription.cancelled_at is not None:
        return False  # cancelled here: Stripe cannot bring it back
    last = subscription.last_event_created
    if last is None or created > last:
        return True
    if created < last:
        return False
    return _PROGRESS[status] >= _PROGRESS[subscription.status]


def _trial_ended(db: Session, subscription: Subscription, trial_end: Any) -> None:
    history = db.scalar(select(Trial).where(Trial.user_id == subscription.user_id))
    if history is None:
        history = Trial(user_id=subscription.user_id, count=1, dismiss_count=0)
        db.add(history)
    history.last_trial_end = trial_end or subscription.end_time
    emit_after_commit(
        db,
        TRIAL_ENDED,
        {
            "subscription_id": subscription.id,
            "plan_name": subscription.plan.plan_name,
            "end_time": service.moment_json(history.last_trial_end),
        },
        room=user_room(subscription.user_id),
    )
