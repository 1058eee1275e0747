"""The task port's moving parts: the in-process beat, the Celery runner's one-queued-run rule and the
worker's retry delays."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from app.core import tasks
from app.core.tasks import CeleryRunner, InProcessRunner, PeriodicScheduler, queued_marker, start_periodic_tasks


class RecordingRunner:
    def __init__(self) -> None:
        self.submitted: list[str] = []
        self.lock = threading.Lock()

    def submit(self, name: str, **kwargs: Any) -> None:
        with self.lock:
            self.submitted.append(name)


def test_the_in_process_beat_runs_each_task_soon_after_start_then_on_its_interval() -> None:
    runner = RecordingRunner()
    scheduler = PeriodicScheduler(runner, {"often": 0.2, "rarely": 60.0}, first_run_delay=0.05)
    scheduler.start()
    time.sleep(0.7)
    scheduler.stop()
    assert runner.submitted.count("rarely") == 1
    assert 2 <= runner.submitted.count("often") <= 4  # at 0.05, 0.25, 0.45, 0.65 s; fewer on a busy machine
    stopped_with = len(runner.submitted)
    time.sleep(0.3)
    assert len(runner.submitted) == stopped_with  # stopped means stopped


def test_the_in_process_beat_starts_only_where_this_process_runs_the_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tasks, "get_task_runner", lambda: InProcessRunner(eager=True))
    assert start_periodic_tasks() is None  # tests run tasks eagerly, when asked
    monkeypatch.setattr(tasks, "get_task_runner", lambda: CeleryRunner.__new__(CeleryRunner))
    assert start_periodic_tasks() is None  # Celery beat owns the schedule
    monkeypatch.setattr(tasks, "get_task_runner", lambda: InProcessRunner())
    scheduler = start_periodic_tasks()
    assert scheduler is not None
    scheduler.stop()


class FakeRedis:
    """SET NX EX and DELETE, as the queued marker uses them."""

    def __init__(self) -> None:
        self.keys: dict[str, object] = {}

    def set(self, key: str, value: object, *, nx: bool = False, ex: int | None = None) -> bool:
        assert ex == tasks.QUEUED_MARKER_SECONDS
        if nx and key in self.keys:
            return False
        self.keys[key] = value
        return True

    def delete(self, key: str) -> int:
        return 1 if self.keys.pop(key, None) is not None else 0


class RecordingSender:
    """Celery's send_task, as the Celery runner calls it."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any], str]] = []

    def send_task(self, name: str, *, kwargs: dict[str, Any], queue: str) -> None:
        self.sent.append((name, kwargs, queue))


def celery_runner(fake: FakeRedis, sender: RecordingSender) -> CeleryRunner:
    runner = CeleryRunner.__new__(CeleryRunner)
    runner._redis = fake  # type: ignore[assignment]
    runner._celery = sender  # type: ignore[assignment]
    return runner


def test_an_argument_less_task_waits_in_the_queue_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from workers import celery_app as worker_module

    sender, fake = RecordingSender(), FakeRedis()
    runner = celery_runner(fake, sender)

    for _ in range(3):  # three commits in a row, each asking for a dispatch
        runner.submit("outbox.dispatch")
    runner.submit("mail.send", mail_id=1)
    runner.submit("mail.send", mail_id=2)
    assert sender.sent == [
        ("outbox.dispatch", {}, "index"),
        ("mail.send", {"mail_id": 1}, "mail"),
        ("mail.send", {"mail_id": 2}, "mail"),
    ]

    # The worker clears the mark as the run starts: a commit from then on queues another run.
    monkeypatch.setattr(worker_module, "_redis", lambda: fake)
    worker_module._clear_queued_marker("outbox.dispatch")
    assert queued_marker("outbox.dispatch") not in fake.keys
    runner.submit("outbox.dispatch")
    assert sender.sent[-1] == ("outbox.dispatch", {}, "index")


def test_a_task_nobody_registered_is_refused_by_both_runners() -> None:
    with pytest.raises(tasks.UnknownTask):
        InProcessRunner(eager=True).submit("no.such_task")
    with pytest.raises(tasks.UnknownTask):
        celery_runner(FakeRedis(), RecordingSender()).submit("no.such_task", key=1)


def test_the_api_sender_publishes_where_the_workers_route() -> None:
    """The API sends with a bare Celery app (core cannot import workers/): it must put each task on
    the queue the worker app routes it to."""
    from workers.celery_app import celery_app

    sender, fake = RecordingSender(), FakeRedis()
    runner = celery_runner(fake, sender)
    for name in tasks.registered_tasks():
        runner.submit(name, probe=1)
    for name, _kwargs, queue in sender.sent:
        routed = celery_app.amqp.router.route({}, name, (), {})
        assert routed["queue"].name == queue, name


def test_worker_retries_back_off() -> None:
    from workers.celery_app import MAX_RETRY_DELAY_SECONDS, QUEUES, ROUTES, celery_app, retry_delay

    assert [retry_delay(retries) for retries in range(4)] == [2, 4, 8, 16]
    assert retry_delay(20) == MAX_RETRY_DELAY_SECONDS
    # Every queue a route names is consumed by a worker started without -Q.
    assert {route["queue"] for route in ROUTES.values()} <= set(QUEUES)
    assert {queue.name for queue in celery_app.conf.task_queues} == set(QUEUES)
    assert celery_app.conf.beat_schedule["ranks.calc"]["schedule"] == 3600
