"""The task port: background work runs in Celery workers when REDIS_URL is set, otherwise in a
worker thread of this process. Either way a task only starts after the transaction that asked for
it has committed (the outbox guarantees the work itself is never lost)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any, Protocol

from sqlalchemy import event
from sqlalchemy.orm import Session

from app.core.settings import get_settings

logger = logging.getLogger("touratlas.tasks")

TaskFunction = Callable[..., Any]
_TASKS: dict[str, TaskFunction] = {}


def task(name: str) -> Callable[[TaskFunction], TaskFunction]:
    """Register a domain function as a background task under a stable name."""

    def register(function: TaskFunction) -> TaskFunction:
        _TASKS[name] = function
        return function

    return register


def registered_tasks() -> dict[str, TaskFunction]:
    import app.tasks  # noqa: F401 - importing registers every domain's tasks

    return dict(_TASKS)


class TaskRunner(Protocol):
    def submit(self, name: str, **kwargs: Any) -> None: ...


class InProcessRunner:
    """One background thread, so tasks run in order and never race each other on SQLite.
    `eager=True` (tests) runs them in the caller's thread."""

    def __init__(self, *, eager: bool = False) -> None:
        self.eager = eager
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="touratlas-task")
        self._pending: set[str] = set()
        self._lock = threading.Lock()

    def submit(self, name: str, **kwargs: Any) -> None:
        function = registered_tasks()[name]
        if self.eager:
            function(**kwargs)
            return
        key = name if not kwargs else ""
        with self._lock:
            if key and key in self._pending:
                return  # the same argument-less task is already queued: one run will do
            if key:
                self._pending.add(key)
        self._executor.submit(self._run, name, key, function, kwargs)

    def _run(self, name: str, key: str, function: TaskFunction, kwargs: dict[str, Any]) -> None:
        with self._lock:
            self._pending.discard(key)
        try:
            function(**kwargs)
        except Exception:
            logger.exception("background task %s failed", name)

    def wait_idle(self, timeout: float = 30.0) -> None:
        self._executor.submit(lambda: None).result(timeout=timeout)


class CeleryRunner:
    def submit(self, name: str, **kwargs: Any) -> None:
        from workers.celery_app import celery_app

        celery_app.send_task(name, kwargs=kwargs)


@lru_cache
def get_task_runner() -> TaskRunner:
    settings = get_settings()
    if settings.redis_url and not settings.tasks_in_process:
        return CeleryRunner()
    return InProcessRunner(eager=settings.tasks_eager)


def submit_after_commit(session: Session, name: str, **kwargs: Any) -> None:
    """Queue a task to start once this session's transaction commits (dropped on rollback)."""
    session.info.setdefault("after_commit_tasks", []).append((name, kwargs))


@event.listens_for(Session, "after_flush")
def _note_outbox_writes(session: Session, _flush_context: Any) -> None:
    from app.core.outbox import OutboxEntry

    if any(isinstance(instance, OutboxEntry) for instance in session.new):
        session.info["outbox_written"] = True


@event.listens_for(Session, "after_commit")
def _run_after_commit(session: Session) -> None:
    queued = session.info.pop("after_commit_tasks", [])
    if session.info.pop("outbox_written", False):
        queued.append(("outbox.dispatch", {}))
    runner = get_task_runner()
    for name, kwargs in queued:
        try:
            runner.submit(name, **kwargs)
        except Exception:
            logger.exception("could not queue task %s", name)


@event.listens_for(Session, "after_rollback")
def _drop_after_rollback(session: Session) -> None:
    session.info.pop("after_commit_tasks", None)
    session.info.pop("outbox_written", None)
