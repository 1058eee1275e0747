"""The domain modules that declare background tasks: the one list every entry point loads
(create_app in app/main.py, the Celery app in workers/celery_app.py, the CLI in app/cli.py) before
it submits or runs a task. A domain that gets a `tasks.py` adds it here."""

from __future__ import annotations

import importlib

TASK_MODULES = (
    "app.search.tasks",
    "app.discovery.tasks",
    "app.notifications.tasks",
    "app.billing.tasks",
    "app.classifications.tasks",
    "app.analytics.tasks",
    "app.ads.tasks",
    "app.mailing.tasks",
    "app.crawler.tasks",
)


def load_task_modules() -> None:
    """Import every task module, which registers its tasks with app.core.tasks (idempotent)."""
    for module in TASK_MODULES:
        importlib.import_module(module)
