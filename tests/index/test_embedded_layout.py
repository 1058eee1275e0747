"""The embedded index's layout versions (schema.LAYOUT_VERSIONS, the counterpart of the mapping
versions in mappings/): a file written by an older layout says so, keeps answering, and a rebuild
brings it up to date."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from indexer.embedded.adapter import EmbeddedIndex
from indexer.queries import CreatorQuery
from tests.index.test_contract import make_creators


def downgrade_to_creators_layout_1(index: EmbeddedIndex) -> None:
    """What a file from before creator documents looks like: no `document` column, no layout noted."""
    connection = sqlite3.connect(index.path)
    connection.execute("ALTER TABLE creators DROP COLUMN document")
    connection.execute("DELETE FROM meta WHERE key = 'layout.creators'")
    connection.commit()
    connection.close()


def test_a_new_file_follows_the_current_layout(tmp_path: Path) -> None:
    index = EmbeddedIndex(tmp_path / "index")
    assert index.outdated() == []
    assert index.health() == "ok (embedded, 0 tours)"
    index.reset()
    assert index.outdated() == []


def test_a_layout_1_file_reports_creators_outdated_until_a_rebuild(tmp_path: Path) -> None:
    creators = make_creators()
    index = EmbeddedIndex(tmp_path / "index")
    index.rebuild(tours=[], creators=creators, ads=[], tags=[], places=[])
    downgrade_to_creators_layout_1(index)

    reopened = EmbeddedIndex(tmp_path / "index")  # a process started after the upgrade
    assert reopened.outdated() == ["creators"]
    assert reopened.health() == "layout changed for creators: run a reindex"
    # Still answers: the cards are there, the documents are not (until the rows are written again).
    assert reopened.creators(CreatorQuery(limit=10)).ids == [1, 2, 3, 4, 5]
    assert reopened.creator_document(2) is None
    reopened.upsert_creators([creators[1]])
    assert reopened.creator_document(2) == creators[1]
    assert reopened.outdated() == ["creators"]  # the other rows still lack theirs

    reopened.rebuild(tours=[], creators=creators, ads=[], tags=[], places=[])
    assert reopened.outdated() == []
    assert reopened.creator_document(4) == creators[3]
    assert reopened.health() == "ok (embedded, 0 tours)"


def test_a_file_from_before_ads_carried_tags_and_rank_reports_ads_outdated(tmp_path: Path) -> None:
    index = EmbeddedIndex(tmp_path / "index")
    connection = sqlite3.connect(index.path)
    connection.execute("DELETE FROM meta WHERE key = 'layout.ads'")
    connection.commit()
    connection.close()
    reopened = EmbeddedIndex(tmp_path / "index")
    assert reopened.outdated() == ["ads"]
    reopened.rebuild(tours=[], creators=[], ads=[], tags=[], places=[])
    assert reopened.outdated() == []


def test_a_file_from_before_the_near_me_category_key_reports_tours_outdated_and_gets_the_key(tmp_path: Path) -> None:
    """Tours layout 2 added ix_tours_country_cat_cell: an older file is given the key on opening (Near Me
    names it), and asks for a rebuild, which brings the planner statistics with it."""
    index = EmbeddedIndex(tmp_path / "index")
    connection = sqlite3.connect(index.path)
    connection.execute("DROP INDEX ix_tours_country_cat_cell")
    connection.execute("DELETE FROM meta WHERE key = 'layout.tours'")
    connection.commit()
    connection.close()
    reopened = EmbeddedIndex(tmp_path / "index")
    assert reopened.outdated() == ["tours"]
    named = "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'ix_tours_country_cat_cell'"
    assert sqlite3.connect(reopened.path).execute(named).fetchone()[0] == 1
    reopened.rebuild(tours=[], creators=[], ads=[], tags=[], places=[])
    assert reopened.outdated() == []
