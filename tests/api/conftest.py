from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from tests.conftest import TestDatabase


@pytest.fixture(autouse=True)
def clean_state(database: TestDatabase) -> Iterator[None]:
    """Every test starts with empty tables and an empty index."""
    yield
    import app.models  # noqa: F401 - every table registered
    from app.core.db import Base, get_engine
    from indexer.registry import get_index

    engine = get_engine()
    tables = [table.name for table in reversed(Base.metadata.sorted_tables)]
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(
                text("TRUNCATE " + ", ".join(f'"{name}"' for name in tables) + " RESTART IDENTITY CASCADE")
            )
        else:
            for name in tables:
                connection.execute(text(f'DELETE FROM "{name}"'))
    get_index().reset()


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
