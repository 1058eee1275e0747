"""Picks the index adapter the settings ask for: Elasticsearch when ELASTICSEARCH_URL is set,
otherwise the embedded index under data/."""

from __future__ import annotations

from functools import lru_cache

from indexer.port import SearchIndex


@lru_cache
def get_index() -> SearchIndex:
    from app.core.settings import get_settings

    settings = get_settings()
    if settings.elasticsearch_url:
        from indexer.elasticsearch.adapter import SPARE_CONNECTIONS, ElasticsearchIndex

        return ElasticsearchIndex(
            settings.elasticsearch_url,
            prefix=settings.elasticsearch_index_prefix,
            connections_per_node=settings.max_requests_in_flight + SPARE_CONNECTIONS,
        )
    from indexer.embedded.adapter import EmbeddedIndex

    return EmbeddedIndex(settings.data_dir / "index")
