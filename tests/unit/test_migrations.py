"""The migrations build exactly the schema the models describe, on SQLite and on PostgreSQL, and
vendor credentials are stored encrypted."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool

from app.core.crypto import SecretDecryptionError, decrypt_secret, encrypt_secret
from app.core.db import make_engine
from app.core.migrate import downgrade_database, upgrade_database
from app.core.settings import get_settings
from app.models import metadata

POSTGRES_ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def schema_differences(engine: Engine) -> list[Any]:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, metadata))


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'migrations.db'}"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh database with a random name, dropped afterwards."""
    admin = create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    name = f"touratlas_migrations_{uuid.uuid4().hex[:12]}"
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    except OperationalError as exc:
        reason = f"PostgreSQL at {POSTGRES_ADMIN_URL} is not reachable: {exc.orig}"
        print(reason)
        pytest.skip(reason)
    try:
        yield POSTGRES_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def test_sqlite_migrations_match_models(sqlite_url: str) -> None:
    upgrade_database(sqlite_url)
    engine = create_engine(sqlite_url, poolclass=NullPool)
    assert schema_differences(engine) == []
    assert set(inspect(engine).get_table_names()) == set(metadata.tables) | {"alembic_version"}


@pytest.mark.postgres
def test_postgres_migrations_match_models(postgres_url: str) -> None:
    upgrade_database(postgres_url)
    engine = create_engine(postgres_url, poolclass=NullPool)
    try:
        assert schema_differences(engine) == []
        # PostgreSQL silently truncates identifiers above 63 bytes; a truncated name would drift from the models.
        with engine.connect() as connection:
            names = connection.execute(
                text(
                    "SELECT conname FROM pg_constraint JOIN pg_namespace n ON n.oid = connamespace "
                    "WHERE n.nspname = 'public' UNION SELECT indexname FROM pg_indexes WHERE schemaname = 'public'"
                )
            ).scalars()
            assert all(len(name) < 63 for name in names)
    finally:
        engine.dispose()


def test_sqlite_downgrade_to_base_and_upgrade_again(sqlite_url: str) -> None:
    upgrade_database(sqlite_url)
    downgrade_database(sqlite_url, "base")
    engine = create_engine(sqlite_url, poolclass=NullPool)
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}

    upgrade_database(sqlite_url)
    assert schema_differences(engine) == []


def test_secret_round_trip() -> None:
    ciphertext = encrypt_secret("api-secret-ключ")
    assert isinstance(ciphertext, bytes)
    assert b"api-secret" not in ciphertext
    assert decrypt_secret(ciphertext) == "api-secret-ключ"


def test_tampered_secret_is_rejected() -> None:
    ciphertext = bytearray(encrypt_secret("api-secret"))
    ciphertext[-5] ^= 0x01
    with pytest.raises(SecretDecryptionError):
        decrypt_secret(bytes(ciphertext))


def test_vendor_credential_stores_no_plaintext(sqlite_url: str) -> None:
    from app.users.models import User
    from app.vendors.models import Vendor, VendorCredential

    upgrade_database(sqlite_url)
    engine = make_engine(sqlite_url)
    with Session(engine) as session:
        user = User(email="Creator@Example.com", first_name="Ada", last_name="Lovelace")
        vendor = Vendor(name="Capture Co", slug="capture-co")
        session.add_all([user, vendor])
        session.flush()
        credential = VendorCredential(user_id=user.id, vendor_id=vendor.id)
        credential.set_key("key-PLAINTEXT-123")
        credential.set_secret("secret-PLAINTEXT-456")
        session.add(credential)
        session.commit()
        assert user.email == "creator@example.com"

    with engine.connect() as connection:
        stored = connection.execute(text("SELECT key_encrypted, secret_encrypted FROM vendor_credentials")).one()
    assert all(b"PLAINTEXT" not in bytes(value) for value in stored)

    with Session(engine) as session:
        loaded = session.scalars(select(VendorCredential)).one()
        assert loaded.key() == "key-PLAINTEXT-123"
        assert loaded.secret() == "secret-PLAINTEXT-456"
    engine.dispose()


@pytest.fixture(autouse=True)
def _isolated_encryption_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Keys generated by these tests go to a temporary data dir, never the developer's data/."""
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("ENCRYPTION_KEY", "")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()
