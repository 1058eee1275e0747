"""Builds an index adapter from plain arguments: Elasticsearch when a URL is given, otherwise the
embedded index in `directory`. The application decides the arguments (app/search/registry.py)."""

from __future__ import annotations

from pathlib import Path

from indexer.port import SearchIndex


def open_index(
    *, elasticsearch_url: str | None, elasticsearch_prefix: str, directory: Path, requests_in_flight: int
) -> SearchIndex:
    """`requests_in_flight`: how many requests one process serves at once; the Elasticsearch client
    keeps a connection for each, plus spares for the writes of tasks run in the process."""
    if elasticsearch_url:
        from indexer.elasticsearch.adapter import SPARE_CONNECTIONS, ElasticsearchIndex

        return ElasticsearchIndex(
            elasticsearch_url,
            prefix=elasticsearch_prefix,
            connections_per_node=requests_in_flight + SPARE_CONNECTIONS,
        )
    from indexer.embedded.adapter import EmbeddedIndex

    return EmbeddedIndex(directory)
