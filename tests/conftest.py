"""Test environment: a migrated database (SQLite by default, a throw-away PostgreSQL database with
TOURATLAS_TEST_DB=postgresql), a private data directory, the embedded index and eager in-process
tasks. Settings are read from the environment, so the fixtures set it and clear the caches."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

TEST_DB = os.environ.get("TOURATLAS_TEST_DB", "sqlite")
POSTGRES_ADMIN_URL = os.environ.get("TOURATLAS_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")


def clear_caches() -> None:
    from app.core.db import get_engine, get_sessionmaker
    from app.core.settings import get_settings
    from app.core.tasks import get_task_runner
    from app.search.registry import get_index

    for cached in (get_settings, get_engine, get_sessionmaker, get_index, get_task_runner):
        cached.cache_clear()


@dataclass
class TestDatabase:
    url: str
    data_dir: Path


def postgres_available() -> str | None:
    """None when a server answers, else the reason it does not."""
    try:
        import psycopg

        with psycopg.connect(POSTGRES_ADMIN_URL.replace("+psycopg", ""), connect_timeout=3):
            return None
    except Exception as exc:  # noqa: BLE001 - any failure means "not available"
        return f"{exc.__class__.__name__}: {exc}".strip()


def create_postgres_database() -> tuple[str, str]:
    import psycopg

    name = f"touratlas_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(POSTGRES_ADMIN_URL.replace("+psycopg", ""), autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return name, POSTGRES_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"


def drop_postgres_database(name: str) -> None:
    import psycopg

    with psycopg.connect(POSTGRES_ADMIN_URL.replace("+psycopg", ""), autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def point_settings_at(url: str, data_dir: Path) -> None:
    os.environ.update(
        {
            "DATABASE_URL": url,
            "DATA_DIR": str(data_dir),
            "TASKS_EAGER": "true",
            "EMBEDDINGS_ENABLED": "false",
            "SEED_DEMO": "false",
            "ELASTICSEARCH_URL": "",
            "REDIS_URL": "",
            "SMTP_URL": "",
            "GEOCODER_URL": "",
            "STRIPE_SECRET_KEY": "",
        }
    )
    clear_caches()


def empty_database_and_index() -> None:
    """Delete every row (TRUNCATE on PostgreSQL) and every index document: the next test starts clean."""
    from sqlalchemy import text

    import app.models  # noqa: F401 - every table registered
    from app.core.db import Base, get_engine
    from app.search.registry import get_index

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


@pytest.fixture(scope="session")
def database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestDatabase]:
    from app.core.migrate import upgrade_database

    data_dir = tmp_path_factory.mktemp("data")
    pg_name: str | None = None
    if TEST_DB == "postgresql":
        reason = postgres_available()
        if reason:
            pytest.skip(f"PostgreSQL tests skipped: no server at {POSTGRES_ADMIN_URL} ({reason})")
        pg_name, url = create_postgres_database()
    else:
        url = f"sqlite:///{data_dir / 'test.db'}"
    point_settings_at(url, data_dir)
    upgrade_database(url)
    # As every entry point does: tests that call services without create_app submit tasks too.
    from app.task_modules import load_task_modules

    load_task_modules()
    try:
        yield TestDatabase(url=url, data_dir=data_dir)
    finally:
        from app.core.db import get_engine

        get_engine().dispose()
        if pg_name:
            drop_postgres_database(pg_name)
