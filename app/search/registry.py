"""Picks the index adapter the settings ask for: Elasticsearch when ELASTICSEARCH_URL is set,
otherwise the embedded index under data/. One adapter per process (cached)."""

from __future__ import annotations

from functools import lru_cache

from app.core.settings import get_settings
from indexer.port import SearchIndex
from indexer.registry import open_index


@lru_cache
def get_index() -> SearchIndex:
    settings = get_settings()
    return open_index(
        elasticsearch_url=settings.elasticsearch_url,
        elasticsearch_prefix=settings.elasticsearch_index_prefix,
        directory=settings.data_dir / "index",
        requests_in_flight=settings.max_requests_in_flight,
    )
