"""The Celery entry point with slow index writes, for the heartbeat test: every batch the index sync
applies first sleeps SLOW_BATCH_SECONDS, so the test can kill the worker while it holds a claim.

    celery -A tests.realtime.slow_worker worker
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable

from sqlalchemy.orm import Session

from app.core.outbox import OutboxEntry
from app.search import sync
from indexer.port import SearchIndex
from workers.celery_app import celery_app

__all__ = ["celery_app"]

_apply_entries = sync.apply_entries


def _slow_apply_entries(session: Session, index: SearchIndex, entries: Iterable[OutboxEntry]) -> None:
    time.sleep(float(os.environ.get("SLOW_BATCH_SECONDS", "600")))
    _apply_entries(session, index, entries)


# dispatch_index_outbox looks the function up in its module on every batch.
sync.apply_entries = _slow_apply_entries
