"""Database engine, the declarative base and the one-transaction-per-request session."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import BindParameter, DateTime, MetaData, Select, bindparam, create_engine, event
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from app.core.settings import get_settings

# Stable constraint names, so Alembic migrations are identical on SQLite and PostgreSQL.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {datetime: DateTime(timezone=True)}


class TimestampMixin:
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


def make_engine(url: str) -> Engine:
    # Room for every admitted request (core/concurrency) plus background work in this process.
    overflow = max(20, get_settings().max_requests_in_flight + 6 - 10)
    if url.startswith("sqlite"):
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": 30}, pool_size=10, max_overflow=overflow
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=overflow)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


@lru_cache
def get_engine() -> Engine:
    settings = get_settings()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return make_engine(settings.sqlalchemy_url)


@lru_cache
def get_sessionmaker() -> sessionmaker[Session]:
    import app.models  # noqa: F401 - domains name each other's classes: every mapper must be known first

    return sessionmaker(bind=get_engine(), expire_on_commit=False)


def get_db() -> Iterator[Session]:
    """FastAPI dependency: one session and one transaction per request, committed once at the end.

    Services never commit. Work that must follow the commit (index sync, realtime events) is
    recorded in the outbox inside this transaction and dispatched by `after_commit` hooks.
    """
    session = get_sessionmaker()()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


# get_db's one transaction as a `with` block, for a call that does all its blocking work in a single
# worker-thread trip (the feed) rather than FastAPI's separate trips to open, run and commit.
request_session = contextmanager(get_db)


class DirectRead:
    """A Core SELECT built once and run straight on the DBAPI cursor of the session's connection, in
    its transaction, for the feed's few reads of a page (the caller's account, the ads' frequency cap,
    the saved flags). Through `Session.execute` one such read cost 20 to 55 µs of CPU, nearly all of it
    SQLAlchemy's steps around the driver (the compiled cache's lookup, the parameters' construction,
    the result's setup and its Row objects), for statements that never change. Here the statement is
    compiled once per dialect, with the converters of its types (SQLite's datetimes as text, booleans,
    JSON, enums by name) taken from that dialect, and rows come back as plain tuples."""

    def __init__(self, statement: Select[Any]) -> None:
        self._statement = statement
        self._compiled: dict[str, _DialectRead] = {}

    def rows(self, db: Session, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        connection = db.connection()
        dialect = connection.dialect
        compiled = self._compiled.get(dialect.name)
        if compiled is None:
            compiled = self._compiled[dialect.name] = _DialectRead(self._statement, dialect)
        return compiled.run(connection.connection, params)


class _DialectRead:
    """One dialect's SQL of a DirectRead, its parameters' order and the converters of both ways."""

    def __init__(self, statement: Select[Any], dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql = compiled.string
        self.positional = dialect.positional
        binds = compiled.binds
        self.names: list[str] = list(compiled.positiontup or []) if dialect.positional else list(binds)
        self.escaped = {name: compiled.escaped_bind_names.get(name, name) for name in self.names}
        self.bind_processors: dict[str, Callable[[Any], Any]] = {}
        for name in self.names:
            processor = binds[name].type.dialect_impl(dialect).bind_processor(dialect)
            if processor is not None:
                self.bind_processors[name] = processor
        # Values written into the statement itself (an enum compared with a constant), converted once.
        self.constants = {name: self._bound(name, bind.value) for name, bind in binds.items() if not bind.required}
        processors: list[Callable[[Any], Any] | None] = [
            column.type.dialect_impl(dialect).result_processor(dialect, None) for column in statement.selected_columns
        ]
        self.result_processors: list[Callable[[Any], Any] | None] | None = (
            processors if any(processor is not None for processor in processors) else None
        )
        # Nothing to convert (ids, counts): the parameters go to the driver as given.
        self.plain = not self.constants and not self.bind_processors

    def _bound(self, name: str, value: Any) -> Any:
        processor = self.bind_processors.get(name)
        return value if processor is None else processor(value)

    def run(self, dbapi_connection: Any, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        if self.plain:
            values = [params[name] for name in self.names]
        else:
            constants, bound = self.constants, self._bound
            values = [constants[name] if name in constants else bound(name, params[name]) for name in self.names]
        arguments: Sequence[Any] | dict[str, Any] = (
            values
            if self.positional
            else {self.escaped[name]: value for name, value in zip(self.names, values, strict=True)}
        )
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(self.sql, arguments)
            rows: list[tuple[Any, ...]] = cursor.fetchall()
        finally:
            cursor.close()
        processors = self.result_processors
        if processors is None:
            return rows
        return [
            tuple(
                value if processor is None else processor(value)
                for processor, value in zip(processors, row, strict=True)
            )
            for row in rows
        ]


IN_LIST_SIZES = (8, 16, 32, 64, 128)


class FixedInList:
    """`column IN (…)` with a fixed number of placeholders, for the hottest reads of a page's ids.

    An expanding bindparam renders the statement's SQL again on every call (SQLAlchemy's
    post-compile step): on the feed, more than running it. Here a statement is built and compiled
    once per size in IN_LIST_SIZES and the ids are padded to that size with their first value
    (repeats change nothing in an IN); longer lists go in chunks of the largest size. The statements
    run as DirectRead."""

    def __init__(self, build: Callable[[list[BindParameter[Any]]], Select[Any]]) -> None:
        self._names = {size: [f"in_{n}" for n in range(size)] for size in IN_LIST_SIZES}
        self._statements = {
            size: DirectRead(build([bindparam(name) for name in self._names[size]])) for size in IN_LIST_SIZES
        }

    def rows(self, db: Session, values: Sequence[Any], params: dict[str, Any]) -> list[tuple[Any, ...]]:
        found: list[tuple[Any, ...]] = []
        largest = IN_LIST_SIZES[-1]
        for start in range(0, len(values), largest):
            chunk = list(values[start : start + largest])
            size = next(size for size in IN_LIST_SIZES if size >= len(chunk))
            padded = chunk + [chunk[0]] * (size - len(chunk))
            bound = dict(params)
            bound.update(zip(self._names[size], padded, strict=True))
            found.extend(self._statements[size].rows(db, bound))
        return found
