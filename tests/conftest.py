"""Test environment: a migrated database (SQLite by default, a throw-away PostgreSQL database with
TOURATLAS_TEST_DB=postgresql), a private data directory, the embedded index and eager in-process
tasks. Settings are read from the environment, so the fixtures set it and clear the caches."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from sqlalchemy import Engine

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
        # A throw-away database need not survive a crash: a commit does not wait for its WAL to reach
        # the disk (tests commit thousands of times, and the disk is shared). Visibility is unchanged.
        connection.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
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
    """Delete every row and every index document, and restart the id sequences: the next test starts
    as on a fresh database.

    Only the tables holding rows are emptied (one probe finds them): a test touches a handful of the
    ~60 tables. On PostgreSQL that replaces TRUNCATE … RESTART IDENTITY, which recreates every
    table's files and cost about 2 s a test: children are deleted before their parents (the tables
    have no foreign-key cycle), and the sequences a test drew from are set back to their start, as
    RESTART IDENTITY did — all in one round trip."""
    from app.search.registry import get_index

    engine = _engine_with_tables()
    tables = _tables_children_first()
    with engine.begin() as connection:
        holding_rows = {row[0] for row in connection.exec_driver_sql(_rows_probe(tables))}
        deletes = [f'DELETE FROM "{name}"' for name in tables if name in holding_rows]
        if engine.dialect.name == "postgresql":
            connection.exec_driver_sql(";".join([*deletes, _RESTART_USED_SEQUENCES]))
        else:
            for delete in deletes:
                connection.exec_driver_sql(delete)
    get_index().reset()


# pg_sequences shows last_value NULL for a sequence not drawn from since it was created or reset.
_RESTART_USED_SEQUENCES = (
    "SELECT setval((quote_ident(schemaname) || '.' || quote_ident(sequencename))::regclass, start_value, false)"
    " FROM pg_sequences WHERE last_value IS NOT NULL"
)


def _engine_with_tables() -> Engine:
    import app.models  # noqa: F401 - every table registered
    from app.core.db import get_engine

    return get_engine()


@cache
def _tables_children_first() -> tuple[str, ...]:
    from app.core.db import Base

    return tuple(table.name for table in reversed(Base.metadata.sorted_tables))


@cache
def _rows_probe(tables: tuple[str, ...]) -> str:
    """One query naming the tables that hold at least one row."""
    return " UNION ALL ".join(f"SELECT '{name}' WHERE EXISTS (SELECT 1 FROM \"{name}\")" for name in tables)


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
