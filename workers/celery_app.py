"""The Celery app: Redis broker, queues and routes, and the beat schedule. Tasks are the domain
functions each domain's tasks.py registers (with their queue and interval; app/task_modules.py lists
the modules), wrapped here with retries.

    celery -A workers.celery_app worker            # every queue; or -Q index for index sync only
    celery -A workers.celery_app beat              # exactly one beat per deployment

Queues: `index` (outbox dispatch, reindex), `embeddings` (slow: a model on the CPU), `mail`, and
`default` for the rest (ranks, trials, housekeeping). A worker started without -Q takes them all,
as docker-compose.yml's `worker` does; workers of their own per queue (-Q embeddings) keep a long
embedding run from delaying the index or the mail.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Any

import redis
from celery import Celery
from kombu.entity import Queue

from app.core.settings import get_settings
from app.core.tasks import DEFAULT_QUEUE, periodic_schedule, queued_marker, registered_tasks, task_queues
from app.task_modules import load_task_modules

logger = logging.getLogger("touratlas.workers")

load_task_modules()

# The queues workers consume: all of them without -Q (docker-compose.yml's `worker`), or a split.
QUEUES = (DEFAULT_QUEUE, "index", "embeddings", "mail")
# Each task goes to the queue it declared (the API's sender, app.core.tasks.CeleryRunner, names the
# same queue explicitly).
ROUTES = {name: {"queue": queue} for name, queue in sorted(task_queues().items())}
_UNCONSUMED = {queue for queue in task_queues().values() if queue not in QUEUES}
if _UNCONSUMED:
    raise RuntimeError(f"tasks declare queues no worker consumes: {sorted(_UNCONSUMED)}")
MAX_RETRIES = 5
MAX_RETRY_DELAY_SECONDS = 300

settings = get_settings()
broker_url = settings.redis_url or "redis://127.0.0.1:6379/0"
# Beat keeps its schedule file (the last run of each periodic task) under DATA_DIR, not in whatever
# directory it was started from; the folder must exist before beat opens the file.
BEAT_SCHEDULE_FILE = settings.data_dir / "celerybeat-schedule"
settings.data_dir.mkdir(parents=True, exist_ok=True)
celery_app = Celery("touratlas", broker=broker_url)
celery_app.conf.update(
    task_ignore_result=True,
    # A worker that dies mid-task leaves the message for another worker (the outbox lease covers the
    # work itself either way).
    task_acks_late=True,
    worker_prefetch_multiplier=1,
    task_default_queue=DEFAULT_QUEUE,
    task_queues=[Queue(name) for name in QUEUES],  # type: ignore[no-untyped-call]
    task_routes=ROUTES,
    # Beat's periodic runs are worthless once the next one is due: never let them pile up.
    beat_schedule={
        name: {"task": name, "schedule": every, "options": {"expires": every}}
        for name, every in periodic_schedule().items()
    },
    # `celery beat` without --schedule reads this (shelve may add a suffix such as .db).
    beat_schedule_filename=str(BEAT_SCHEDULE_FILE),
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
