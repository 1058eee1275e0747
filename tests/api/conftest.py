from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.conftest import TestDatabase, empty_database_and_index


@pytest.fixture(autouse=True)
def clean_state(database: TestDatabase) -> Iterator[None]:
    """Every test starts with empty tables and an empty index (and no analytics push waiting)."""
    yield
    from app.analytics.live import get_pusher

    get_pusher().reset()
    empty_database_and_index()


@pytest.fixture
def client(database: TestDatabase) -> Iterator[TestClient]:
    from app.main import create_app

    with TestClient(create_app()) as test_client:
        yield test_client


@pytest.fixture
def db(database: TestDatabase) -> Iterator[Session]:
    """A session whose commit also runs the after-commit tasks (eager in tests)."""
    from app.core.db import get_sessionmaker

    with get_sessionmaker()() as session:
        yield session
