"""The Elasticsearch adapter's popular tags (issue 18 part 6) against the local fake server of
test_es_adapter.py: the request it sends and the page it reads back."""

from __future__ import annotations

import json

from indexer.elasticsearch import queries as q
from indexer.elasticsearch.adapter import ElasticsearchIndex
from indexer.elasticsearch.sources import tag_source
from indexer.queries import MAX_RESULT_WINDOW, TagCount, TagQuery
from tests.unit.test_es_adapter import FakeElasticsearch, es, fake, hit, search_response, server, tag

__all__ = ["es", "fake", "server"]  # the fixtures, used by name


def test_popular_tags_sends_the_body_and_reads_the_page(es: ElasticsearchIndex, server: FakeElasticsearch) -> None:
    query = TagQuery(limit=2, offset=2, category_id=7, media_type_id=3)
    docs = [tag(4), tag(9)]
    server.queue(
        "/touratlas-tags/_search",
        search_response([hit("touratlas-tags-v1-initial", str(d.id), tag_source(d)) for d in docs], total=17),
    )
    page = es.popular_tags(query)
    (sent,) = server.calls("POST", "/touratlas-tags/_search")
    assert sent.json() == json.loads(json.dumps(q.popular_tags_body(query)))
    assert page.total == 17
    assert page.tags == [TagCount(d.id, d.name, d.vt_count, d.topic_type, int(d.topic_id)) for d in docs]


def test_popular_tags_body_counts_used_tags_most_first() -> None:
    body = q.popular_tags_body(TagQuery(limit=48, offset=96, category_id=5))
    assert body["sort"] == [{"vt_count": "desc"}, {"id": "asc"}]
    assert body["track_total_hits"] is True
    assert (body["from"], body["size"]) == (96, 48)
    filters = body["query"]["bool"]["filter"]
    assert {"range": {"vt_count": {"gte": 1}}} in filters
    topics = filters[1]["bool"]["should"]
    assert topics == [{"bool": {"filter": [{"term": {"topic_type": "category"}}, {"term": {"topic_id": 5}}]}}]
    beyond = q.popular_tags_body(TagQuery(offset=MAX_RESULT_WINDOW))
    assert beyond["size"] == 0
