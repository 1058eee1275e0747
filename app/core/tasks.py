"""The task port: background work runs in Celery workers when REDIS_URL is set, otherwise in a
worker thread of this process. Either way a task only starts after the transaction that asked for
it has committed (the outbox guarantees the work itself is never lost).

Periodic tasks are declared once, with the task (`@task(name, every=seconds)`): Celery beat runs
them in the distributed stack, and `PeriodicScheduler` runs the same schedule inside the API
process when there is no Redis.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from sqlalchemy import event
from sqlalchemy.orm import Session

from app.core.settings import get_settings

logger = logging.getLogger("touratlas.tasks")

TaskFunction = Callable[..., Any]
_TASKS: dict[str, TaskFunction] = {}
_SCHEDULE: dict[str, float] = {}

# An argument-less task already waiting in the Celery queue is not queued again for this long: a
# burst of commits that each ask for "outbox.dispatch" then costs one run, not one per commit.
QUEUED_MARKER_SECONDS = 30
QUEUED_MARKER_PREFIX = "touratlas:queued:"


def task(name: str, *, every: float | None = None) -> Callable[[TaskFunction], TaskFunction]:
    """Register a domain function as a background task under a stable name; `every` (seconds) also
    runs it periodically (beat, or the in-process scheduler)."""

    def register(function: TaskFunction) -> TaskFunction:
        _TASKS[name] = function
        if every is not None:
            _SCHEDULE[name] = every
        return function

    return register


def registered_tasks() -> dict[str, TaskFunction]:
    import app.tasks  # noqa: F401 - importing registers every domain's tasks

    return dict(_TASKS)


def periodic_schedule() -> dict[str, float]:
    """Task name → interval in seconds, for every periodic task."""
    registered_tasks()
    return dict(_SCHEDULE)


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
    """Sends tasks to the Celery workers through Redis; routes and retries live in workers/."""

    def __init__(self, redis_url: str) -> None:
        import redis

        self._redis = redis.Redis.from_url(redis_url, socket_timeout=5, socket_connect_timeout=5)

    def submit(self, name: str, **kwargs: Any) -> None:
        from workers.celery_app import celery_app

        if not kwargs and not self._mark_queued(name):
            return
        celery_app.send_task(name, kwargs=kwargs)

    def _mark_queued(self, name: str) -> bool:
        """True when no run of this argument-less task is waiting yet (the worker clears the mark
        as the run starts, so a commit made during the run queues another)."""
        try:
            return bool(self._redis.set(queued_marker(name), 1, nx=True, ex=QUEUED_MARKER_SECONDS))
        except Exception:
            logger.warning("could not check the queue mark of %s; queueing it anyway", name, exc_info=True)
            return True


def queued_marker(name: str) -> str:
    return QUEUED_MARKER_PREFIX + name


@lru_cache
def get_task_runner() -> TaskRunner:
    settings = get_settings()
    if settings.redis_url and not settings.tasks_in_process:
        return CeleryRunner(settings.redis_url)
    return InProcessRunner(eager=settings.tasks_eager)


@dataclass
class _Due:
    name: str
    every: float
    next_run: float


class PeriodicScheduler:
    """Beat for the embedded mode: submits each periodic task to the in-process runner on its
    interval. Every task runs once shortly after start-up, so a process that was down for a day
    does not serve a day-old ranking for another hour."""

    def __init__(self, runner: TaskRunner, schedule: dict[str, float], *, first_run_delay: float = 5.0) -> None:
        start = time.monotonic() + first_run_delay
        self._runner = runner
        self._due = [_Due(name, every, start) for name, every in sorted(schedule.items())]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="touratlas-beat", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _loop(self) -> None:
        while not self._stop.is_set():
            now = time.monotonic()
            for due in self._due:
                if due.next_run <= now:
                    due.next_run = now + due.every
                    self._submit(due.name)
            wake_at = min((due.next_run for due in self._due), default=now + 60)
            self._stop.wait(max(0.05, wake_at - time.monotonic()))

    def _submit(self, name: str) -> None:
        try:
            self._runner.submit(name)
        except Exception:
            logger.exception("could not run periodic task %s", name)


def start_periodic_tasks() -> PeriodicScheduler | None:
    """Start the in-process beat when this process runs the tasks itself (no Redis); with Redis,
    Celery beat owns the schedule and this returns None. PERIODIC_TASKS=false keeps a process that
    should only serve (the HTTP benchmark's) free of the start-up runs over the whole corpus."""
    runner = get_task_runner()
    if not isinstance(runner, InProcessRunner) or runner.eager or not get_settings().periodic_tasks:
        return None
    scheduler = PeriodicScheduler(runner, periodic_schedule())
    scheduler.start()
    return scheduler


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
    if not queued:
        return
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
