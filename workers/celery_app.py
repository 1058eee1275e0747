"""The Celery app: Redis broker, task routes and the beat schedule. Tasks are the domain
functions registered in app.tasks, wrapped here with retries."""

from __future__ import annotations

from typing import Any

from celery import Celery

from app.core.settings import get_settings
from app.core.tasks import registered_tasks

settings = get_settings()
celery_app = Celery("touratlas", broker=settings.redis_url or "redis://127.0.0.1:6379/0")
celery_app.conf.update(
    task_ignore_result=True,
    task_acks_late=True,  # a worker that dies mid-task leaves the message for another worker
    worker_prefetch_multiplier=1,
    task_default_queue="default",
    task_routes={"outbox.*": {"queue": "index"}, "index.*": {"queue": "index"}, "mail.*": {"queue": "mail"}},
    beat_schedule={
        # A safety net: after-commit dispatch is immediate, this picks up retries and anything missed.
        "outbox-dispatch": {"task": "outbox.dispatch", "schedule": 10.0},
    },
    broker_connection_retry_on_startup=True,
)


def _register(name: str, function: Any) -> None:
    @celery_app.task(name=name, bind=True, max_retries=5, default_retry_delay=5)  # type: ignore[untyped-decorator]
    def run(self: Any, **kwargs: Any) -> Any:
        try:
            return function(**kwargs)
        except Exception as exc:
            raise self.retry(exc=exc, countdown=min(300, 2 ** (self.request.retries + 1))) from exc


for task_name, task_function in registered_tasks().items():
    _register(task_name, task_function)
