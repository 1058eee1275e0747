from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session
from starlette.datastructures import State

from tests.conftest import TestDatabase, empty_database_and_index


@pytest.fixture(autouse=True)
def clean_state(database: TestDatabase) -> Iterator[None]:
    """Every test starts with empty tables and an empty index (and no analytics push waiting)."""
    yield
    from app.analytics.live import get_pusher

    get_pusher().reset()
    empty_database_and_index()


class AppPerProcess:
    """One application for every test of a worker process that wants the ordinary one.

    create_app() itself is cheap, but an app's first requests compile its ~250 routes (about 0.4 s
    of CPU), which per test added up to minutes. Each test still gets an app as fresh as a new one
    where it matters: fresh `state` (the per-app caches, app/core/app_state.py), no dependency
    overrides left by another test, and its middleware built again at its first request (a
    middleware's objects belong to the event loop of the TestClient that started them, and read
    settings as they are then). A test whose settings differ from the ones the shared app was made
    with (a monkeypatched FRONTEND_DIST, say) gets an app of its own, made now, as before."""

    def __init__(self) -> None:
        from app.main import create_app

        self._made_with = _settings_now()
        self._app = create_app()

    def for_this_test(self) -> FastAPI:
        from app.main import create_app

        if _settings_now() != self._made_with:
            return create_app()
        return _as_new(self._app)


def _settings_now() -> dict[str, Any]:
    from app.core.settings import get_settings

    return get_settings().model_dump()


def _as_new(app: FastAPI) -> FastAPI:
    app.state = State()
    app.dependency_overrides.clear()
    app.middleware_stack = None
    return app


@pytest.fixture(scope="session")
def app_per_process(database: TestDatabase) -> AppPerProcess:
    return AppPerProcess()


@pytest.fixture
def client(database: TestDatabase, app_per_process: AppPerProcess) -> Iterator[TestClient]:
    with TestClient(app_per_process.for_this_test()) as test_client:
        yield test_client


@pytest.fixture
def db(database: TestDatabase) -> Iterator[Session]:
    """A session whose commit also runs the after-commit tasks (eager in tests)."""
    from app.core.db import get_sessionmaker

    with get_sessionmaker()() as session:
        yield session
