"""The contract for totals, on every adapter like tests/index/test_contract.py: a page's `total` is the
number of listed tours passing its filter, counted here by brute force from the documents, after a
rebuild, after every kind of write that moves a tour between totals (added, removed, unlisted and
listed again, given another category, country or media type, a position lost or gained), and after a
rebuild of the written corpus. The embedded index answers the totals of categories, countries and
media types from counts it keeps on each write (indexer/embedded/counts.py), a tag's from its key,
and A-Z / Z-A in one category and country from a key of its own: the pages are checked here too."""

from __future__ import annotations

from dataclasses import replace

import pytest

from indexer.documents import TourDocument
from indexer.port import SearchIndex
from indexer.queries import FeedQuery, Sort, TourFilter
from tests.index.test_contract import ADS, PLACES, SORT_KEYS, TAGS, expected_ids, make_creators, make_tours

PARIS = (48.85, 2.35)

# (name, filter): the filters the kept counts answer, and their neighbours that are counted live.
TOTAL_CASES: list[tuple[str, TourFilter]] = [
    ("no filter", TourFilter()),
    ("a category", TourFilter(categories=(2,))),
    ("two categories", TourFilter(categories=(2, 4))),
    ("a category twice", TourFilter(categories=(3, 3))),
    ("an unknown category", TourFilter(categories=(99,))),
    ("a country", TourFilter(countries=("FR",))),
    ("two countries", TourFilter(countries=("FR", "JP"))),
    ("a category and a country", TourFilter(categories=(4,), countries=("US",))),
    ("a category and a country with no tour", TourFilter(categories=(1,), countries=("US",))),
    ("categories and countries", TourFilter(categories=(1, 3), countries=("FR", "DE", "US"))),
    ("a media type", TourFilter(media_types=(2,))),
    ("360 only", TourFilter(only_media_types=(1,))),
    ("360 only, two types", TourFilter(only_media_types=(1, 3))),
    ("a category and 360 only", TourFilter(categories=(3,), only_media_types=(1, 3))),
    ("a country and 360 only", TourFilter(countries=("DE",), only_media_types=(1,))),
    ("media types narrowed by 360 only", TourFilter(media_types=(1, 2), only_media_types=(2, 3))),
    ("media types outside 360 only", TourFilter(media_types=(2,), only_media_types=(1,))),
    ("360 only with nothing 360", TourFilter(only_media_types=())),
    ("a tag", TourFilter(tags=(1,))),
    ("a tag in a country", TourFilter(countries=("FR",), tags=(1,))),
    ("a tag in countries", TourFilter(countries=("FR", "US"), tags=(2,))),
    ("a tag in a category and a country", TourFilter(categories=(2,), countries=("FR",), tags=(1,))),
    ("two tags in a country", TourFilter(countries=("JP",), tags=(1, 4))),
    ("a subcategory", TourFilter(subcategories=(11,))),
    ("a category and a vendor", TourFilter(categories=(2,), vendors=(3,))),
]


def passes(doc: TourDocument, tour_filter: TourFilter) -> bool:
    """A listed tour against the filter kinds of TOTAL_CASES, by the port's rules."""
    checks = (
        (tour_filter.categories, doc.category_id),
        (tour_filter.subcategories, doc.subcategory_id),
        (tour_filter.countries, doc.country),
        (tour_filter.vendors, doc.vendor_id),
        (tour_filter.media_types, doc.media_type_id),
    )
    if any(values and value not in values for values, value in checks):
        return False
    if tour_filter.only_media_types is not None and doc.media_type_id not in tour_filter.only_media_types:
        return False
    if tour_filter.tags and not set(tour_filter.tags) & set(doc.tag_ids):
        return False
    return not doc.unlisted


def assert_totals(index: SearchIndex, docs: list[TourDocument]) -> None:
    for name, tour_filter in TOTAL_CASES:
        expected = sum(1 for doc in docs if passes(doc, tour_filter))
        assert index.feed(FeedQuery(filter=tour_filter, limit=5)).total == expected, name
        near = index.feed(FeedQuery(filter=tour_filter, sort=Sort.NEAR_ME, near=PARIS, limit=5))
        located = sum(1 for doc in docs if passes(doc, tour_filter) and doc.lat is not None)
        assert near.total == located, f"near me, {name}"


def assert_pair_and_tag_pages(index: SearchIndex, docs: list[TourDocument]) -> None:
    """A-Z / Z-A in one category and country, and a tag in a country: whole pages, deep ones too."""
    cases = [
        (TourFilter(categories=(4,), countries=("US",)), Sort.AZ),
        (TourFilter(categories=(4,), countries=("US",)), Sort.ZA),
        (TourFilter(categories=(1,), countries=("FR",), only_media_types=(1,)), Sort.AZ),
        (TourFilter(countries=("FR",), tags=(1,)), Sort.NEWEST),
        (TourFilter(countries=("FR",), tags=(1,)), Sort.ZA),
    ]
    for tour_filter, sort in cases:
        matching = [doc for doc in docs if passes(doc, tour_filter)]
        expected = expected_ids(matching, lambda d: True, SORT_KEYS[Sort.AZ if sort is Sort.ZA else sort])
        if sort is Sort.ZA:  # title descending, then id descending: A-Z reversed
            expected.reverse()
        assert len(expected) > 6, "the case must hold a few pages"
        for offset in (0, 3, len(expected) - 2):
            page = index.feed(FeedQuery(filter=tour_filter, sort=sort, limit=3, offset=offset))
            assert page.ids == expected[offset : offset + 3], (tour_filter, sort, offset)
            assert page.total == len(expected)


def rebuild(index: SearchIndex, docs: list[TourDocument]) -> None:
    index.rebuild(
        tours=sorted(docs, key=lambda d: (-d.views, -d.id)), creators=make_creators(), ads=ADS, tags=TAGS, places=PLACES
    )


@pytest.fixture
def corpus(index: SearchIndex) -> list[TourDocument]:
    docs = [replace(doc, unlisted=doc.id % 9 == 0) for doc in make_tours()]
    rebuild(index, docs)
    return docs


def test_totals_after_a_rebuild(index: SearchIndex, corpus: list[TourDocument]) -> None:
    assert_totals(index, corpus)
    assert_pair_and_tag_pages(index, corpus)


def test_totals_follow_every_write_and_a_rebuild(index: SearchIndex, corpus: list[TourDocument]) -> None:
    docs = {doc.id: doc for doc in corpus}
    listed = [doc for doc in corpus if not doc.unlisted]
    unlisted = [doc for doc in corpus if doc.unlisted]
    changed = [
        replace(listed[0], category_id=4),
        replace(listed[1], country="JP", city="Tokyo", lat=35.6, lng=139.7),
        replace(listed[2], media_type_id=3),
        replace(listed[3], lat=None, lng=None),  # lost its position: out of every Near Me total
        replace(listed[4], unlisted=True),
        replace(unlisted[0], unlisted=False),
        replace(unlisted[1], category_id=1, country="US"),  # moved while unlisted: still in no total
        replace(listed[5], tag_ids=(1, 4), tag_names=("Sunset", "Night"), country="FR"),
        replace(listed[6], category_id=4, country="US", media_type_id=1, title="Aardvark Alley"),
        replace(listed[7], views=listed[7].views + 5),  # an edit that moves no total
        replace(listed[8], country=None, city=None, address=None, lat=None, lng=None),
    ]
    added = [
        replace(listed[10], id=50_000, guid="n0", category_id=4, country="US", media_type_id=3, title="Zebra Zone"),
        replace(listed[11], id=50_001, guid="n1", country="FR", tag_ids=(1,), tag_names=("Sunset",)),
        replace(listed[12], id=50_002, guid="n2", unlisted=True),
        replace(listed[13], id=50_003, guid="n3", country=None, city=None, address=None, lat=None, lng=None),
    ]
    index.upsert_tours([*changed, *added])
    docs.update({doc.id: doc for doc in (*changed, *added)})
    removed = [listed[20].id, unlisted[2].id, 50_001, 987_654]  # listed, unlisted, just added, never held
    index.delete_tours(removed)
    for tour_id in removed:
        docs.pop(tour_id, None)
    index.upsert_tours([replace(listed[0], category_id=4, media_type_id=2)])  # the same tour again
    docs[listed[0].id] = replace(listed[0], category_id=4, media_type_id=2)

    written = list(docs.values())
    assert_totals(index, written)
    assert_pair_and_tag_pages(index, written)
    rebuild(index, written)
    assert_totals(index, written)
    assert_pair_and_tag_pages(index, written)
    index.reset()
    assert index.feed(FeedQuery(filter=TourFilter(categories=(1,)))).total == 0
    assert index.feed(FeedQuery()).total == 0
