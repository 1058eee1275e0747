"""Billing's background tasks: ending the trials the platform runs itself."""

from __future__ import annotations

from app.billing.trials import end_expired_trials
from app.core.db import get_sessionmaker
from app.core.tasks import task


@task("billing.end_trials", every=15 * 60.0)
def end_trials_task() -> int:
    return end_expired_trials(get_sessionmaker())
