"""The task port: background work runs in Celery workers when REDIS_URL is set, otherwise in a
worker thread of this process. Either way a task only starts after the transaction that asked for
it has committed (app/core/after_commit.py; the outbox guarantees the work itself is never lost).

Each domain declares its tasks in its own `tasks.py` with `@task(name, every=seconds, queue=...)`;
`every` makes it periodic (Celery beat runs the schedule in the distributed stack,
`PeriodicScheduler` inside the API process when there is no Redis). Core knows no domain: the entry
points (app/main.py, workers/celery_app.py, app/cli.py) import the domains' task modules through
app/task_modules.py, which fills this registry before any task is submitted.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import event
from sqlalchemy.orm import Session

from app.core.after_commit import after_commit
from app.core.outbox import OutboxEntry
from app.core.settings import get_settings

if TYPE_CHECKING:
    from celery import Celery

logger = logging.getLogger("touratlas.tasks")

TaskFunction = Callable[..., Any]

# Queues the Celery workers consume (docker-compose.yml starts a worker per group of them). A task
# names its queue when it is declared; most want the default one.
DEFAULT_QUEUE = "default"

# Every commit that writes the outbox asks for this task (registered by the search package, which
# owns the index side of the outbox).
OUTBOX_DISPATCH_TASK = "outbox.dispatch"

# An argument-less task already waiting in the Celery queue is not queued again for this long: a
# burst of commits that each ask for "outbox.dispatch" then costs one run, not one per commit.
QUEUED_MARKER_SECONDS = 30
QUEUED_MARKER_PREFIX = "touratlas:queued:"


@dataclass(frozen=True, slots=True)
class TaskSpec:
    name: str
    function: TaskFunction
    queue: str
    every: float | None


_TASKS: dict[str, TaskSpec] = {}


class UnknownTask(KeyError):
    """A task name nothing in this process registered: its entry point did not load the task
    modules (app.task_modules.load_task_modules), or the name is misspelt."""


def task(
    name: str, *, every: float | None = None, queue: str = DEFAULT_QUEUE
) -> Callable[[TaskFunction], TaskFunction]:
    """Register a domain function as a background task under a stable name; `every` (seconds) also
    runs it periodically (beat, or the in-process scheduler); `queue` is the Celery queue it goes to."""

    def register(function: TaskFunction) -> TaskFunction:
        known = _TASKS.get(name)
        if known is not None and _qualified_name(known.function) != _qualified_name(function):
            raise ValueError(f"task {name!r} is already registered by {_qualified_name(known.function)}")
        _TASKS[name] = TaskSpec(name, function, queue, every)
        return function

    return register


def _qualified_name(function: TaskFunction) -> str:
    return f"{function.__module__}.{function.__qualname__}"


def task_spec(name: str) -> TaskSpec:
    spec = _TASKS.get(name)
    if spec is None:
        raise UnknownTask(f"no task {name!r} is registered in this process (were the task modules loaded?)")
    return spec


def registered_tasks() -> dict[str, TaskFunction]:
    return {name: spec.function for name, spec in _TASKS.items()}


def task_queues() -> dict[str, str]:
    """Task name → the Celery queue it is sent to."""
    return {name: spec.queue for name, spec in _TASKS.items()}


def periodic_schedule() -> dict[str, float]:
    """Task name → interval in seconds, for every periodic task."""
    return {name: spec.every for name, spec in _TASKS.items() if spec.every is not None}


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
        function = task_spec(name).function
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
    """Sends tasks by name to the Celery workers through Redis, on the queue each task declared.

    The sender is a bare Celery app of its own rather than workers.celery_app: sending by name needs
    no task code, so any process (API, CLI, a worker queueing a follow-up) can send without importing
    the worker entry point, and core stays free of it. Retries and the beat live in workers/."""

    def __init__(self, redis_url: str) -> None:
        import redis

        self._redis = redis.Redis.from_url(redis_url, socket_timeout=5, socket_connect_timeout=5)
        self._celery = celery_sender(redis_url)

    def submit(self, name: str, **kwargs: Any) -> None:
        queue = task_spec(name).queue
        if not kwargs and not self._mark_queued(name):
            return
        self._celery.send_task(name, kwargs=kwargs, queue=queue)

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


def celery_sender(broker_url: str) -> Celery:
    """A publish-only Celery app: `send_task` with an explicit queue goes straight to that queue
    (direct, by name), exactly where the workers' consumers of that queue listen."""
    from celery import Celery

    return Celery("touratlas", broker=broker_url, set_as_current=False)


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
    after_commit(session, partial(_submit, name, kwargs), description=f"task {name}")


def request_outbox_dispatch(session: Session) -> None:
    """Ask for one outbox dispatch after this transaction commits, however many writes asked.
    Writes through the ORM ask by themselves; bulk inserts (Core `insert`) must ask here."""
    after_commit(
        session, partial(_submit, OUTBOX_DISPATCH_TASK, {}), key=OUTBOX_DISPATCH_TASK, description=OUTBOX_DISPATCH_TASK
    )


def _submit(name: str, kwargs: dict[str, Any]) -> None:
    get_task_runner().submit(name, **kwargs)


@event.listens_for(Session, "after_flush")
def _dispatch_outbox_writes(session: Session, _flush_context: Any) -> None:
    if any(isinstance(instance, OutboxEntry) for instance in session.new):
        request_outbox_dispatch(session)
