"""Every background task, its queue and its interval, pinned: moving tasks between modules must not
lose one, rename one or change when it runs. The values are the ones the single app/tasks.py
registered before the tasks moved into their domains."""

from __future__ import annotations

from app.core import tasks
from app.task_modules import TASK_MODULES, load_task_modules

MINUTE = 60.0
HOUR = 60 * MINUTE
DAY = 24 * HOUR

# name → (queue, interval in seconds or None)
EXPECTED_TASKS: dict[str, tuple[str, float | None]] = {
    "outbox.dispatch": ("index", 10.0),
    "outbox.purge": ("index", DAY),
    "index.reindex": ("index", None),
    "embeddings.tours": ("embeddings", None),
    "ranks.calc": ("default", HOUR),
    "ranks.refresh_scores": ("default", DAY),
    "mail.send": ("mail", None),
    "mail.retry": ("mail", 5 * MINUTE),
    "billing.end_trials": ("default", 15 * MINUTE),
    "billing.process_event": ("default", None),
    "billing.process_waiting_events": ("default", 5 * MINUTE),
    "classifications.embed_tags": ("embeddings", None),
    "classifications.embed_all_tags": ("embeddings", None),
    "analytics.rollup": ("default", MINUTE),
    "embeddings.ads": ("embeddings", None),
    "crawler.run_session": ("default", None),
    "crawler.resume_stale": ("default", MINUTE),
    "crawler.schedule": ("default", MINUTE),
    "mailing.sync": ("default", None),
}


def test_the_entry_points_register_every_task_on_its_queue_and_interval() -> None:
    load_task_modules()
    assert set(tasks.registered_tasks()) == set(EXPECTED_TASKS)
    assert tasks.task_queues() == {name: queue for name, (queue, _every) in EXPECTED_TASKS.items()}
    assert tasks.periodic_schedule() == {name: every for name, (_queue, every) in EXPECTED_TASKS.items() if every}


def test_each_task_lives_in_its_domain() -> None:
    load_task_modules()
    owners = {name: function.__module__ for name, function in tasks.registered_tasks().items()}
    assert set(owners.values()) == set(TASK_MODULES)
    assert owners["mail.send"] == "app.notifications.tasks"
    assert owners["ranks.calc"] == "app.discovery.tasks"
    assert owners["billing.end_trials"] == "app.billing.tasks"
    assert owners["classifications.embed_tags"] == owners["classifications.embed_all_tags"]
    assert owners["classifications.embed_tags"] == "app.classifications.tasks"
    assert owners["outbox.dispatch"] == owners["embeddings.tours"] == "app.search.tasks"
    assert owners["analytics.rollup"] == "app.analytics.tasks"
    assert owners["crawler.run_session"] == owners["crawler.resume_stale"] == "app.crawler.tasks"
    assert owners["crawler.schedule"] == "app.crawler.tasks"
    assert owners["mailing.sync"] == "app.mailing.tasks"


def test_celery_beat_and_routes_follow_the_registry() -> None:
    from workers.celery_app import QUEUES, celery_app

    assert celery_app.conf.beat_schedule == {
        name: {"task": name, "schedule": every, "options": {"expires": every}}
        for name, (_queue, every) in EXPECTED_TASKS.items()
        if every
    }
    for name, (queue, _every) in EXPECTED_TASKS.items():
        assert celery_app.amqp.router.route({}, name, (), {})["queue"].name == queue
        assert name in celery_app.tasks
    assert {queue for queue, _every in EXPECTED_TASKS.values()} <= set(QUEUES)
