"""Adapters the contract suite runs on: the embedded index always, Elasticsearch whenever
ELASTICSEARCH_URL answers (otherwise its cases skip, and `-ra` prints why in the summary).

An adapter's known gaps are expected failures, not skips: mark a case
`@pytest.mark.known_gap("elasticsearch", reason="...")` and it runs on that adapter as
`xfail(strict=True)`, so the gap shows in every run and the case turns red the day the gap closes.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from indexer.port import SearchIndex

ADAPTERS = ["embedded", "elasticsearch"]
PROBE_TIMEOUT_SECONDS = 3


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "known_gap(adapter, reason): the case is an expected failure (strict xfail) on that adapter"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        callspec = getattr(item, "callspec", None)
        adapter = callspec.params.get("index") if callspec is not None else None
        for marker in item.iter_markers("known_gap"):
            if marker.args[0] == adapter:
                reason = f"known {adapter} gap: {marker.kwargs['reason']}"
                item.add_marker(pytest.mark.xfail(strict=True, reason=reason))


@cache
def elasticsearch_unavailable(url: str) -> str | None:
    """Why the Elasticsearch cases cannot run against `url`, or None when a server answers there.
    Asked once per URL and run: a server that is down costs one short timeout, not one per case."""
    if not url:
        return "ELASTICSEARCH_URL is not set (no server on this machine)"
    from elasticsearch import ApiError, Elasticsearch, TransportError

    client = Elasticsearch(url, request_timeout=PROBE_TIMEOUT_SECONDS, max_retries=0)
    try:
        client.info()
    except (ApiError, TransportError) as exc:  # refused, timed out, or not Elasticsearch answering
        return f"ELASTICSEARCH_URL={url} does not answer: {exc.__class__.__name__}: {exc}"
    finally:
        client.close()
    return None


@pytest.fixture(params=ADAPTERS)
def index(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SearchIndex]:
    if request.param == "embedded":
        from indexer.embedded.adapter import EmbeddedIndex

        yield EmbeddedIndex(tmp_path / "index")
        return
    url = os.environ.get("ELASTICSEARCH_URL", "")
    reason = elasticsearch_unavailable(url)
    if reason is not None:
        pytest.skip(f"Elasticsearch contract cases skipped: {reason}")
    from indexer.elasticsearch.adapter import ElasticsearchIndex

    # A prefix of its own per case, and its indices deleted after it: runs leak nothing into the cluster.
    adapter = ElasticsearchIndex(url, prefix=f"test-{uuid.uuid4().hex[:8]}")
    try:
        yield adapter
    finally:
        adapter.drop_all()
        adapter.close()
