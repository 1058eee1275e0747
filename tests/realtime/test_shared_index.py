"""Redis but no Elasticsearch (issue 12 part 9c): the workers write the embedded index under their
DATA_DIR. An API process that shares the folder is healthy; one with a DATA_DIR of its own sees none
of the workers' writes, and its /health says so (degraded, with the folders in a warning)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import redis

from app.search.shared_index import WRITERS_KEY
from tests.realtime.stack import Stack, wait_for

pytestmark = pytest.mark.distributed


def health(base: str) -> dict[str, Any]:
    answer = httpx.get(f"{base}/health", timeout=10)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_health_reports_an_embedded_index_the_api_process_cannot_see(stack: Stack) -> None:
    (shared,), _ = stack.up(apis=("a",), workers=("w1",))
    # The worker's index sync notes the folder it writes (every run; at most every 30 s in Redis).
    stack.send_task("outbox.dispatch", queue="index")
    notes = redis.Redis.from_url(stack.redis_url)
    wait_for(lambda: notes.hlen(WRITERS_KEY) > 0, what="the worker's note of its index folder")

    assert health(shared)["status"] == "ok" and health(shared)["warnings"] == []

    elsewhere = stack.directory / "elsewhere"
    lonely = stack.start_api("elsewhere", env={"DATA_DIR": str(elsewhere)})
    body = health(lonely)
    assert body["status"] == "degraded", body
    assert body["database"] == "ok" and body["redis"] == "ok" and body["index"].startswith("ok (embedded")
    (warning,) = body["warnings"]
    assert str(stack.directory / "data" / "index") in warning and str(elsewhere / "index") in warning
    assert "DATA_DIR" in warning and "ELASTICSEARCH_URL" in warning
