"""Adapters the contract suite runs on: the embedded index always, Elasticsearch when
ELASTICSEARCH_URL points at a server (skipped with the reason otherwise)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from indexer.port import SearchIndex

ADAPTERS = ["embedded", "elasticsearch"]


@pytest.fixture(params=ADAPTERS)
def index(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SearchIndex]:
    if request.param == "embedded":
        from indexer.embedded.adapter import EmbeddedIndex

        yield EmbeddedIndex(tmp_path / "index")
        return
    url = os.environ.get("ELASTICSEARCH_URL")
    if not url:
        pytest.skip("Elasticsearch contract cases skipped: ELASTICSEARCH_URL is not set (no server on this machine)")
    from indexer.elasticsearch.adapter import ElasticsearchIndex

    adapter = ElasticsearchIndex(url, prefix=f"test-{uuid.uuid4().hex[:8]}")
    try:
        yield adapter
    finally:
        drop = getattr(adapter, "drop_all", None)
        if drop is not None:
            drop()
