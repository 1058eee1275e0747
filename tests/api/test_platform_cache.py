"""The route guard reads restrict_access through a short per-process cache: one database read per
TTL instead of one per request, and a committed PUT /v2/config/ takes effect at once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import event, update
from sqlalchemy.orm import Session

from app.core.db import get_engine
from app.platform.models import PlatformConfig
from app.platform.service import RESTRICT_ACCESS_TTL_SECONDS, RestrictAccessCache
from tests import factories

PUBLIC_CALL = "/v2/categories/"


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def app(clock: FakeClock) -> FastAPI:
    from app.main import create_app

    application = create_app()
    application.state.restrict_access_cache = RestrictAccessCache(clock=clock)
    return application


@pytest.fixture
def guarded(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def config_reads() -> Iterator[list[str]]:
    """Every SQL statement that reads the platform_config table."""
    reads: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "platform_config" in statement and statement.lstrip().upper().startswith("SELECT"):
            reads.append(statement)

    engine = get_engine()
    event.listen(engine, "before_cursor_execute", record)
    yield reads
    event.remove(engine, "before_cursor_execute", record)


def _restrict_directly(db: Session, value: bool) -> None:
    """Change the row behind the API's back, as another process would."""
    db.execute(update(PlatformConfig).values(restrict_access=value))
    db.commit()


def test_the_guard_reads_the_setting_once_per_ttl(
    guarded: TestClient, db: Session, clock: FakeClock, config_reads: list[str]
) -> None:
    db.add(PlatformConfig(id=1, restrict_access=False, images_approval=False))
    db.commit()
    for _ in range(5):
        assert guarded.get(PUBLIC_CALL).status_code == 200
    assert len(config_reads) == 1
    clock.now += RESTRICT_ACCESS_TTL_SECONDS
    assert guarded.get(PUBLIC_CALL).status_code == 200
    assert len(config_reads) == 2


def test_a_change_elsewhere_is_seen_within_the_ttl(guarded: TestClient, db: Session, clock: FakeClock) -> None:
    db.add(PlatformConfig(id=1, restrict_access=False, images_approval=False))
    db.commit()
    assert guarded.get(PUBLIC_CALL).status_code == 200
    _restrict_directly(db, True)
    clock.now += RESTRICT_ACCESS_TTL_SECONDS - 0.5
    assert guarded.get(PUBLIC_CALL).status_code == 200  # still the cached reading
    clock.now += 0.5
    refused = guarded.get(PUBLIC_CALL)
    assert refused.status_code == 403 and refused.json()["message"] == "Access is restricted: please sign in"


def test_put_config_takes_effect_at_once(guarded: TestClient, db: Session) -> None:
    admin = factories.user(db, admin=True)
    db.add(PlatformConfig(id=1, restrict_access=False, images_approval=False))
    db.commit()
    assert guarded.get(PUBLIC_CALL).status_code == 200
    switched = guarded.put("/v2/config/", json={"restrict_access": True}, headers=factories.bearer(admin))
    assert switched.status_code == 200
    assert guarded.get(PUBLIC_CALL).status_code == 403  # no waiting for the TTL
    assert guarded.get(PUBLIC_CALL, headers=factories.bearer(admin)).status_code == 200
    reopened = guarded.put("/v2/config/", json={"restrict_access": False}, headers=factories.bearer(admin))
    assert reopened.status_code == 200
    assert guarded.get(PUBLIC_CALL).status_code == 200


def test_a_rejected_config_change_leaves_the_cache_alone(
    guarded: TestClient, db: Session, config_reads: list[str]
) -> None:
    user = factories.user(db)
    db.add(PlatformConfig(id=1, restrict_access=False, images_approval=False))
    db.commit()
    assert guarded.get(PUBLIC_CALL).status_code == 200
    refused = guarded.put("/v2/config/", json={"restrict_access": True}, headers=factories.bearer(user))
    assert refused.status_code == 403
    reads_before = len(config_reads)
    assert guarded.get(PUBLIC_CALL).status_code == 200
    assert len(config_reads) == reads_before


def test_each_application_starts_with_its_own_reading(db: Session) -> None:
    from app.main import create_app

    db.add(PlatformConfig(id=1, restrict_access=False, images_approval=False))
    db.commit()
    with TestClient(create_app()) as first:
        assert first.get(PUBLIC_CALL).status_code == 200
    _restrict_directly(db, True)
    with TestClient(create_app()) as second:
        assert second.get(PUBLIC_CALL).status_code == 403
