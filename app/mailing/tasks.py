"""The members-sync task (a Celery task in the distributed stack, the in-process runner embedded).

It works batch by batch and commits the run's cursor after each, so a failure or a killed worker
costs at most one batch, which the resumed run sends again (upserts are idempotent). Each commit
that moves the run pushes it to the admins (`mailing:sync`, at most every PUSH_EVERY_SECONDS
between batches), after the commit, so a page never shows progress that was rolled back.
"""

from __future__ import annotations

import logging
import time

from sqlalchemy.orm import Session

from app.core.db import get_sessionmaker, utcnow
from app.core.errors import AppError
from app.core.settings import get_settings
from app.core.tasks import task
from app.mailing.mailchimp import open_provider
from app.mailing.models import MailingSyncRun, SyncStatus
from app.mailing.port import MailingListError, MailingListProvider
from app.mailing.service import SYNC_TASK, announce, apply_batch, compute_diff, pending_changes

logger = logging.getLogger("touratlas.mailing")

# The admins' pages hear of a run's batches at most this often (its start and end always).
PUSH_EVERY_SECONDS = 0.25


@task(SYNC_TASK)
def sync_members(run_id: int) -> dict[str, int]:
    with get_sessionmaker()() as db:
        run = db.get(MailingSyncRun, run_id)
        if run is None or run.status != SyncStatus.running:
            return {"done": 0}
        try:
            provider = open_provider()
        except AppError as exc:
            _fail(db, run_id, exc.message)
            return {"done": run.done}
        try:
            _sync(db, run, provider)
        except MailingListError as exc:
            logger.warning("members-sync %s stopped: %s", run_id, exc)
            _fail(db, run_id, str(exc))
        finally:
            provider.close()
        return {"done": run.done}


def _sync(db: Session, run: MailingSyncRun, provider: MailingListProvider) -> None:
    changes = pending_changes(compute_diff(db, provider), run.cursor)
    run.total = run.done + len(changes)
    run.heartbeat_at = utcnow()
    announce(db, run)
    db.commit()
    pushed = time.monotonic()
    size = get_settings().mailing_sync_batch_size
    for start in range(0, len(changes), size):
        apply_batch(db, run, provider, changes[start : start + size])
        if time.monotonic() - pushed >= PUSH_EVERY_SECONDS:
            announce(db, run)
            pushed = time.monotonic()
        db.commit()
    run.status, run.finished_at = SyncStatus.completed, utcnow()
    announce(db, run)
    db.commit()


def _fail(db: Session, run_id: int, message: str) -> None:
    db.rollback()
    run = db.get(MailingSyncRun, run_id)
    if run is None:
        return
    run.status, run.error, run.finished_at = SyncStatus.failed, message[:500], utcnow()
    announce(db, run)
    db.commit()
