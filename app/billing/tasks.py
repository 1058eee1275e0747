"""Billing's background tasks: ending the trials the platform runs itself, and processing Stripe's
webhook events from the inbox (each as it arrives, and a sweep for any still waiting)."""

from __future__ import annotations

from app.billing.trials import end_expired_trials
from app.billing.webhooks import PROCESS_EVENT_TASK, process_event, process_waiting
from app.core.db import get_sessionmaker
from app.core.tasks import task


@task("billing.end_trials", every=15 * 60.0)
def end_trials_task() -> int:
    return end_expired_trials(get_sessionmaker())


@task(PROCESS_EVENT_TASK)
def process_event_task(event_id: str) -> bool:
    return process_event(get_sessionmaker(), event_id)


@task("billing.process_waiting_events", every=5 * 60.0)
def process_waiting_events_task() -> int:
    return process_waiting(get_sessionmaker())
