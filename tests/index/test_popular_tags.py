"""The popular tags (issue 18 part 6) on every adapter: tags by their documents' vt_count, unused tags
left out, ties by id, the topic filter, paging with the true total, and counts that follow upserts."""

from __future__ import annotations

import pytest

from indexer.documents import TagDocument
from indexer.port import SearchIndex
from indexer.queries import MAX_RESULT_WINDOW, TagQuery

TAGS = [
    TagDocument(id=1, name="Castle", topic_type="category", topic_id=7, vt_count=12),
    TagDocument(id=2, name="Beach", topic_type="category", topic_id=3, vt_count=40),
    TagDocument(id=3, name="Замок", topic_type="category", topic_id=7, vt_count=12),
    TagDocument(id=4, name="Drone View", topic_type="media_type", topic_id=2, vt_count=3),
    TagDocument(id=5, name="Unused", topic_type="category", topic_id=3, vt_count=0),
    TagDocument(id=6, name="Golden Hour", topic_type="category", topic_id=3, vt_count=1),
]


@pytest.fixture
def tags(index: SearchIndex) -> list[TagDocument]:
    index.rebuild(tours=[], creators=[], ads=[], tags=TAGS, places=[])
    return TAGS


def _listed(index: SearchIndex, query: TagQuery) -> list[tuple[int, str, int]]:
    return [(tag.id, tag.name, tag.vt_count) for tag in index.popular_tags(query).tags]


def test_most_used_first_unused_left_out_ties_by_id(index: SearchIndex, tags: list[TagDocument]) -> None:
    page = index.popular_tags(TagQuery(limit=10))
    assert page.total == 5
    assert [(tag.id, tag.vt_count) for tag in page.tags] == [(2, 40), (1, 12), (3, 12), (4, 3), (6, 1)]
    castle = page.tags[1]
    assert (castle.name, castle.topic_type, castle.topic_id) == ("Castle", "category", 7)
    assert page.tags[2].name == "Замок"


def test_pages_cover_the_list_once_with_the_true_total(index: SearchIndex, tags: list[TagDocument]) -> None:
    first = index.popular_tags(TagQuery(limit=2))
    second = index.popular_tags(TagQuery(limit=2, offset=2))
    third = index.popular_tags(TagQuery(limit=2, offset=4))
    assert [tag.id for tag in (*first.tags, *second.tags, *third.tags)] == [2, 1, 3, 4, 6]
    assert first.total == second.total == third.total == 5
    beyond = index.popular_tags(TagQuery(limit=10, offset=MAX_RESULT_WINDOW))
    assert beyond.tags == [] and beyond.total == 5


def test_topic_filter(index: SearchIndex, tags: list[TagDocument]) -> None:
    assert [tag[0] for tag in _listed(index, TagQuery(category_id=7))] == [1, 3]
    assert [tag[0] for tag in _listed(index, TagQuery(category_id=3, media_type_id=2))] == [2, 4, 6]
    assert index.popular_tags(TagQuery(category_id=99)).total == 0


def test_counts_follow_upserts_and_deletes(index: SearchIndex, tags: list[TagDocument]) -> None:
    index.upsert_tags(
        [
            TagDocument(id=5, name="Unused", topic_type="category", topic_id=3, vt_count=50),
            TagDocument(id=2, name="Beach", topic_type="category", topic_id=3, vt_count=0),
        ]
    )
    index.delete_tags([4])
    assert _listed(index, TagQuery()) == [(5, "Unused", 50), (1, "Castle", 12), (3, "Замок", 12), (6, "Golden Hour", 1)]
    assert index.popular_tags(TagQuery()).total == 4
