"""The Celery app: Redis broker, queues and routes, and the beat schedule. Tasks are the domain
functions registered in app.tasks (with their intervals), wrapped here with retries.

    celery -A workers.celery_app worker            # every queue; or -Q index for index sync only
    celery -A workers.celery_app beat              # exactly one beat per deployment

Queues: `index` (outbox dispatch, reindex), `embeddings` (slow: a model on the CPU), `mail`, and
`default` for the rest (ranks, trials, housekeeping), so a long embedding run never delays the
index or the mail.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Any

import redis
from celery import Celery
from kombu.entity import Queue

from app.core.settings import get_settings
from app.core.tasks import periodic_schedule, queued_marker, registered_tasks

logger = logging.getLogger("touratlas.workers")

QUEUES = ("default", "index", "embeddings", "mail")
ROUTES = {
    "outbox.*": {"queue": "index"},
    "index.*": {"queue": "index"},
    "embeddings.*": {"queue": "embeddings"},
    "mail.*": {"queue": "mail"},
}
MAX_RETRIES = 5
MAX_RETRY_DELAY_SECONDS = 300

settings = get_settings()
broker_url = settings.redis_url or "redis://127.0.0.1:6379/0"
celery_app = Celery("touratlas", broker=broker_url)
celery_app.conf.update(
    task_ignore_result=True,
    # A worker that dies mid-task leaves the message for another worker (the outbox lease covers the
    # work itself either way).
    task_acks_late=True,
    worker_prefetch_multiplier=1,
    task_default_queue="default",
    task_queues=[Queue(name) for name in QUEUES],  # type: ignore[no-untyped-call]
    task_routes=ROUTES,
    # Beat's periodic runs are worthless once the next one is due: never let them pile up.
    beat_schedule={
        name: {"task": name, "schedule": every, "options": {"expires": every}}
        for name, every in periodic_schedule().items()
    },
    broker_connection_retry_on_startup=True,
)


def retry_delay(retries: int) -> int:
    """2, 4, 8 … seconds, at most MAX_RETRY_DELAY_SECONDS."""
    return int(min(MAX_RETRY_DELAY_SECONDS, 2 ** (retries + 1)))


@lru_cache
def _redis() -> redis.Redis:
    return redis.Redis.from_url(broker_url, socket_timeout=5, socket_connect_timeout=5)


def _clear_queued_marker(name: str) -> None:
    """The run starts: a commit from now on must queue another run (app.core.tasks.CeleryRunner)."""
    try:
        _redis().delete(queued_marker(name))
    except Exception:
        logger.warning("could not clear the queue mark of %s", name, exc_info=True)


def _register(name: str, function: Any) -> None:
    @celery_app.task(name=name, bind=True, max_retries=MAX_RETRIES)  # type: ignore[untyped-decorator]
    def run(self: Any, **kwargs: Any) -> Any:
        if not kwargs:
            _clear_queued_marker(name)
        try:
            return function(**kwargs)
        except Exception as exc:
            raise self.retry(exc=exc, countdown=retry_delay(self.request.retries)) from exc


for task_name, task_function in registered_tasks().items():
    _register(task_name, task_function)
