"""The embedded index answers `ads` from ads held decoded per index generation (pages.AdRotation):
the same candidates in the same order as the SQL it replaces, for every seed, and current after
writes and deletes, including those another process (another adapter on the same folder) makes."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.documents import AdDocument
from indexer.embedded import pages
from indexer.embedded.adapter import EmbeddedIndex
from indexer.embedded.feed import ads_page
from indexer.queries import Page

SEEDS = ["", "ads", "x", "session-1", "session-2", "ünïcode", *[f"seed{n}" for n in range(40)]]


def ad(number: int, *, title: str | None = None) -> AdDocument:
    return AdDocument(
        id=number,
        guid=f"ad{number}",
        user_id=100 + number % 3,
        title=title or f"Ad {number}",
        preview_picture=None,
        link=f"https://example.com/{number}",
        created_at=1_700_000_000 + number,
        tag_ids=(number % 5,),
        rank=float(number % 7),
    )


def by_sql(index: EmbeddedIndex, limit: int, seed: str) -> Page:
    return ads_page(index._connection(), limit, seed)


def assert_same_as_sql(index: EmbeddedIndex, limit: int) -> None:
    for seed in SEEDS:
        held, sql = index.ads(limit=limit, seed=seed), by_sql(index, limit, seed)
        assert held.ids == sql.ids, seed
        assert held.docs == sql.docs and held.total == sql.total


@pytest.mark.parametrize("limit", [1, 5, 200])
def test_every_seed_gets_the_sql_order(tmp_path: Path, limit: int) -> None:
    index = EmbeddedIndex(tmp_path / "index")
    index.upsert_ads([ad(number) for number in range(1, 61)])
    assert_same_as_sql(index, limit)
    assert len(index.ads(limit=limit, seed="x").ids) == min(limit, 60)


def test_no_ads_gives_an_empty_page(tmp_path: Path) -> None:
    index = EmbeddedIndex(tmp_path / "index")
    assert index.ads(limit=10, seed="x") == Page(ids=[], total=0, docs=[])


def test_writes_and_deletes_show_at_once(tmp_path: Path) -> None:
    index = EmbeddedIndex(tmp_path / "index")
    index.upsert_ads([ad(number) for number in range(1, 11)])
    assert sorted(index.ads(limit=200, seed="x").ids) == list(range(1, 11))
    index.upsert_ads([ad(11), ad(3, title="Ad three, renamed")])
    index.delete_ads([5])
    page = index.ads(limit=200, seed="x")
    assert sorted(page.ids) == [1, 2, 3, 4, 6, 7, 8, 9, 10, 11]
    assert next(doc for doc in page.docs if doc["id"] == 3)["title"] == "Ad three, renamed"
    assert_same_as_sql(index, 200)


def test_another_process_writes_are_seen(tmp_path: Path) -> None:
    reader, writer = EmbeddedIndex(tmp_path / "index"), EmbeddedIndex(tmp_path / "index")
    writer.upsert_ads([ad(number) for number in range(1, 6)])
    assert sorted(reader.ads(limit=200, seed="x").ids) == [1, 2, 3, 4, 5]
    writer.delete_ads([1, 2])
    writer.upsert_ads([ad(9)])
    assert sorted(reader.ads(limit=200, seed="x").ids) == [3, 4, 5, 9]
    assert_same_as_sql(reader, 200)


def test_past_the_limit_the_sql_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pages, "AD_ROTATION_LIMIT", 4)
    index = EmbeddedIndex(tmp_path / "index")
    index.upsert_ads([ad(number) for number in range(1, 11)])
    assert index._ads.page(index._connection(), 200, "x") is None
    assert_same_as_sql(index, 200)
    assert len(index.ads(limit=200, seed="x").ids) == 10


def test_the_seed_moves_the_start(tmp_path: Path) -> None:
    """Earlier SQL ordered by `(key - start + 1.0) % 1.0`, which SQLite computes on integers: every
    seed got the same candidates. Each seed now starts at its own place in the key order."""
    index = EmbeddedIndex(tmp_path / "index")
    index.upsert_ads([ad(number) for number in range(1, 61)])
    firsts = {by_sql(index, 1, seed).ids[0] for seed in SEEDS}
    assert len(firsts) > 20
    for seed in SEEDS:
        page = by_sql(index, 60, seed)
        assert sorted(page.ids) == list(range(1, 61))  # a rotation: every ad once
