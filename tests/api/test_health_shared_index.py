"""/health and the embedded index other processes write (app/search/shared_index.py), against a
real Redis database of its own: a fresh note from a writer of another folder makes the process
degraded with a warning; its own folder's note, or a stale one, does not. The same with real
processes: tests/realtime/test_shared_index.py."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from fastapi.testclient import TestClient

from app.search import shared_index
from app.search.registry import get_index
from app.search.shared_index import WRITERS_KEY, note_index_writer
from indexer.embedded.adapter import EmbeddedIndex
from tests.realtime.stack import REDIS_HOST, REDIS_PORT, claim_redis_database, redis_unavailable


@pytest.fixture
def notes(monkeypatch: pytest.MonkeyPatch) -> Iterator[redis.Redis]:
    """REDIS_URL set (tasks still in this process), on an empty Redis database of this test's."""
    if reason := redis_unavailable():
        pytest.skip(f"no Redis at {REDIS_HOST}:{REDIS_PORT} ({reason})")
    from app.core.settings import get_settings

    number = claim_redis_database()
    client = redis.Redis(host=REDIS_HOST, port=REDIS_PORT, db=number)
    monkeypatch.setenv("REDIS_URL", f"redis://{REDIS_HOST}:{REDIS_PORT}/{number}")
    monkeypatch.setenv("TASKS_IN_PROCESS", "true")
    monkeypatch.setattr(shared_index, "_noted_at", {})
    get_settings.cache_clear()
    try:
        yield client
    finally:
        client.flushdb()
        monkeypatch.undo()
        get_settings.cache_clear()


def note(client: redis.Redis, identity: str, directory: str, *, age: float = 0.0) -> None:
    client.hset(
        WRITERS_KEY, identity, json.dumps({"host": "worker-7", "directory": directory, "at": time.time() - age})
    )


def own_index() -> EmbeddedIndex:
    index = get_index()
    assert isinstance(index, EmbeddedIndex)
    return index


def test_a_writer_of_another_folder_makes_health_degraded(client: TestClient, notes: redis.Redis) -> None:
    note(notes, own_index().identity, str(own_index().directory))
    assert client.get("/health").json()["status"] == "ok"

    note(notes, "another-folder", "/srv/worker/data/index")
    body = client.get("/health").json()
    assert body["status"] == "degraded" and body["redis"] == "ok"
    (warning,) = body["warnings"]
    assert "/srv/worker/data/index on worker-7" in warning and str(own_index().directory) in warning


def test_a_stale_note_is_not_reported_and_is_dropped(client: TestClient, notes: redis.Redis) -> None:
    note(notes, "gone-folder", "/srv/old/data/index", age=shared_index.WRITER_FRESH_SECONDS + 60)
    body = client.get("/health").json()
    assert body["status"] == "ok" and body["warnings"] == []
    assert notes.hlen(WRITERS_KEY) == 0


def test_a_writer_notes_its_folder_at_most_every_30_seconds(notes: redis.Redis) -> None:
    index = own_index()
    note_index_writer(index)
    first = json.loads(notes.hget(WRITERS_KEY, index.identity) or b"{}")
    assert first["directory"] == str(index.directory)
    note_index_writer(index)
    assert json.loads(notes.hget(WRITERS_KEY, index.identity) or b"{}")["at"] == first["at"]


def test_every_process_opening_a_folder_gets_its_identity(tmp_path: Path) -> None:
    folder = tmp_path / "index"
    first, second = EmbeddedIndex(folder), EmbeddedIndex(folder)
    assert first.identity == second.identity and len(first.identity) == 32
    assert EmbeddedIndex(tmp_path / "other").identity != first.identity
