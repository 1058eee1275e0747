"""Alembic environment: one set of revisions for SQLite and PostgreSQL.

The URL is the config's `sqlalchemy.url` when a caller set it (app.core.migrate, tests), otherwise
the application settings. SQLite cannot ALTER most things, so its migrations run in batch mode
(copy-and-move tables); PostgreSQL migrations hold an advisory lock so two processes starting at
once do not both migrate.
"""

from __future__ import annotations

from logging.config import fileConfig
from pathlib import Path

from alembic import context
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.pool import NullPool

from app.core.settings import get_settings
from app.models import metadata

# Any fixed 64-bit number works; it only has to be the same for every process migrating this database.
MIGRATION_LOCK_ID = 7_470_201_611

config = context.config

# Programmatic callers (app.core.migrate) keep their own logging; the CLI gets alembic.ini's.
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def database_url() -> str:
    return config.get_main_option("sqlalchemy.url") or get_settings().sqlalchemy_url


def _configure(connection: Connection | None = None, url: str | None = None) -> None:
    dialect_name = connection.dialect.name if connection is not None else make_url(url or "").get_backend_name()
    context.configure(
        connection=connection,
        url=url if connection is None else None,
        target_metadata=metadata,
        compare_type=True,
        render_as_batch=dialect_name == "sqlite",
        literal_binds=connection is None,
    )


def run_migrations_offline() -> None:
    """`alembic upgrade head --sql`: print the SQL instead of running it."""
    _configure(url=database_url())
    with context.begin_transaction():
        context.run_migrations()


def _ensure_sqlite_directory(url: str) -> None:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)


def run_migrations_online() -> None:
    url = database_url()
    _ensure_sqlite_directory(url)
    # A plain engine, without the app's SQLite pragmas: batch migrations copy tables, which must not
    # trip foreign-key enforcement half-way.
    engine = create_engine(url, poolclass=NullPool)
    with engine.connect() as connection:
        _configure(connection)
        with context.begin_transaction():
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:lock_id)"), {"lock_id": MIGRATION_LOCK_ID})
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
