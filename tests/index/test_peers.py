"""bench_peers' translations of the query set must answer as the embedded index does: on a small
corpus (the contract suite's tours, a few unlisted, lone tours around the globe), every call of
bench/query_set.py is asked of PostgreSQL (when the local server answers) and tantivy (when it is
installed) and checked with bench/peers/answers.py, the check the benchmark itself runs."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bench.peers import postgres, tantivy_side
from bench.peers.answers import compare, compare_ranked
from bench.peers.corpus import index_file, open_read_only, read_suggest_items, read_tours
from bench.query_set import CorpusFacts, ask, query_set
from indexer.embedded.adapter import EmbeddedIndex
from tests.conftest import postgres_available
from tests.index.test_contract import ADS, PLACES, TAGS, make_creators
from tests.index.test_map_pyramid import scattered_tours

FACTS = CorpusFacts(category=1, owner=101, only_360=(1,), year_ago=1_700_000_000 + 5 * 86_400)


@pytest.fixture(scope="module")
def ours(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIndex:
    docs = [replace(doc, unlisted=doc.id % 25 == 0) for doc in scattered_tours()]
    index = EmbeddedIndex(tmp_path_factory.mktemp("peers") / "index")
    index.rebuild(
        tours=sorted(docs, key=lambda d: (-d.views, -d.id)), creators=make_creators(), ads=ADS, tags=TAGS, places=PLACES
    )
    return index


@pytest.fixture(scope="module")
def reference(ours: EmbeddedIndex) -> Iterator[sqlite3.Connection]:
    connection = open_read_only(index_file(ours.directory))
    yield connection
    connection.close()


def assert_same_answers(ours: EmbeddedIndex, peer: Any, reference: sqlite3.Connection) -> None:
    differences = []
    for name, query in query_set(FACTS):
        check = compare(reference, query, ask(ours, query), ask(peer, query))
        if check.startswith("MISMATCH"):
            differences.append(f"{name}: {check}")
    assert not differences, "\n".join(differences)


def test_postgres_answers_as_ours(ours: EmbeddedIndex, reference: sqlite3.Connection) -> None:
    reason = postgres_available()
    if reason is not None:
        pytest.skip(f"PostgreSQL peer skipped: no server at 127.0.0.1:5432 ({reason})")
    database = f"touratlas_peers_test_{uuid.uuid4().hex[:8]}"
    postgres.load(read_tours(reference), read_suggest_items(reference), database=database, progress=lambda _: None)
    peer = postgres.PostgresPeer(database)
    try:
        assert_same_answers(ours, peer, reference)
    finally:
        peer.close()
        postgres.drop(database)


def test_tantivy_answers_as_ours(ours: EmbeddedIndex, reference: sqlite3.Connection, tmp_path: Path) -> None:
    reason = tantivy_side.available()
    if reason is not None:
        pytest.skip(f"tantivy peer skipped: {reason}")
    tantivy_side.load(read_tours(reference), read_suggest_items(reference), tmp_path / "tantivy", progress=print)
    peer = tantivy_side.TantivyPeer(tmp_path / "tantivy", index_file(ours.directory))
    try:
        assert_same_answers(ours, peer, reference)
    finally:
        peer.close()


def test_ties_may_swap_but_nothing_else() -> None:
    ours = [(1, 9), (2, 8), (3, 8), (4, 7), (5, 6)]
    assert compare_ranked(ours, ours) == "same"
    assert compare_ranked(ours, [(1, 9), (3, 8), (2, 8), (4, 7), (5, 6)]) == "same bar ties (2)"
    # The last row's key continues past the page: another tour of that key may stand there.
    assert compare_ranked(ours, [(1, 9), (2, 8), (3, 8), (4, 7), (6, 6)]) == "same bar ties (1)"
    assert compare_ranked(ours, [(1, 9), (2, 8), (4, 7), (3, 8), (5, 6)]).startswith("MISMATCH at row 2")
    assert compare_ranked(ours, [(1, 9), (2, 8), (7, 8), (4, 7), (5, 6)]).startswith("MISMATCH in the tie group")
    assert compare_ranked(ours, ours[:4]).startswith("MISMATCH: 4 rows")
