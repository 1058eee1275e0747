"""The embedded index's HNSW search against exact search, on a few thousand clustered unit vectors
shaped like sentence embeddings (topics, plus the common direction all MiniLM vectors share). The
graph threshold is lowered so that size already takes the HNSW path."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from indexer.documents import TourDocument
from indexer.embedded import similar, vectors
from indexer.embedded.adapter import EmbeddedIndex
from indexer.queries import SimilarQuery, TourFilter
from tests.index.test_contract import make_tours

COUNT = 3000
TOPICS = 40


def embedding_like(count: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    shared = rng.normal(size=vectors.DIMENSIONS)
    topics = rng.normal(size=(TOPICS, vectors.DIMENSIONS))
    rows = 0.5 * shared + topics[rng.integers(0, TOPICS, count)] + rng.normal(size=(count, vectors.DIMENSIONS))
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


@pytest.fixture(scope="module")
def corpus() -> list[TourDocument]:
    return make_tours(COUNT)


@pytest.fixture(scope="module")
def matrix() -> np.ndarray:
    return embedding_like(COUNT)


@pytest.fixture(scope="module")
def graph_threshold() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vectors, "HNSW_MIN_VECTORS", 500)
        yield


@pytest.fixture(scope="module")
def built(
    tmp_path_factory: pytest.TempPathFactory, corpus: list[TourDocument], matrix: np.ndarray, graph_threshold: None
) -> Path:
    """One index with every vector and its saved graph; each test works on a copy."""
    directory = tmp_path_factory.mktemp("vectors") / "index"
    index = EmbeddedIndex(directory)
    index.rebuild(tours=corpus, creators=[], ads=[], tags=[], places=[])
    index.set_vectors({doc.id: matrix[doc.id - 1].tolist() for doc in corpus})
    assert Path(f"{index.path}.hnsw").exists()
    return directory


@pytest.fixture
def index(built: Path, tmp_path: Path) -> EmbeddedIndex:
    shutil.copytree(built, tmp_path / "index")
    return EmbeddedIndex(tmp_path / "index")


def exact(matrix: np.ndarray, query: SimilarQuery, allowed: set[int] | None = None) -> list[int]:
    scores = matrix @ np.asarray(query.vector, dtype=np.float32)
    order = [int(i) + 1 for i in np.argsort(-scores, kind="stable")]
    return [
        tour_id for tour_id in order if tour_id not in query.exclude_ids and (allowed is None or tour_id in allowed)
    ][: query.limit]


def recall(expected: list[list[int]], found: list[list[int]]) -> float:
    return sum(len(set(a) & set(b)) for a, b in zip(expected, found, strict=True)) / sum(map(len, expected))


def queries(matrix: np.ndarray, count: int = 100) -> list[SimilarQuery]:
    picks = np.random.default_rng(1).choice(COUNT, count, replace=False)
    return [SimilarQuery(vector=matrix[i].tolist(), limit=10, exclude_ids=(int(i) + 1,)) for i in picks]


def test_hnsw_agrees_with_exact_search(index: EmbeddedIndex, matrix: np.ndarray) -> None:
    graph = index._vector_graph(index._connection())
    assert graph is not None and len(graph) == COUNT
    asked = queries(matrix)
    found = [index.similar(query).ids for query in asked]
    assert recall([exact(matrix, query) for query in asked], found) >= 0.95
    page = index.similar(asked[0])
    assert len(page.docs) == 10 and page.docs[0]["guid"].startswith("g")
    assert asked[0].exclude_ids[0] not in page.ids


def test_filters_exact_for_few_allowed_and_post_filtered_for_many(
    index: EmbeddedIndex, corpus: list[TourDocument], matrix: np.ndarray, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = queries(matrix, 40)
    french = TourFilter(countries=("FR",))
    allowed = {doc.id for doc in corpus if doc.country == "FR"}
    expected = [exact(matrix, query, allowed) for query in asked]
    # 750 French tours are a quarter of the graph: HNSW, widened by that share, then filtered.
    broad = [index.similar(replace(query, filter=french)).ids for query in asked]
    assert all(len(ids) == 10 and set(ids) <= allowed for ids in broad)
    assert recall(expected, broad) >= 0.95

    # Allowed to be a larger share, the same filter is ranked exactly over the stored vectors.
    monkeypatch.setattr(similar, "FILTER_EXACT_MAX_SHARE", 1.0)
    narrow = [index.similar(replace(query, filter=french)).ids for query in asked]
    assert recall(expected, narrow) >= 0.99
    assert index.similar(replace(asked[0], filter=TourFilter(countries=("XX",)))).ids == []


def test_set_vectors_and_tour_deletes_update_the_graph_in_place(index: EmbeddedIndex, matrix: np.ndarray) -> None:
    graph = index._vector_graph(index._connection())
    assert graph is not None
    built = graph._graph
    moved = embedding_like(1, seed=99)[0]
    index.set_vectors({7: moved.tolist()})
    assert index.similar(SimilarQuery(vector=moved.tolist(), limit=1)).ids == [7]
    index.delete_tours([7])
    assert 7 not in index.similar(SimilarQuery(vector=moved.tolist(), limit=5)).ids
    assert index._vector_graph(index._connection()) is graph and graph._graph is built  # caught up, not rebuilt
    assert len(graph) == COUNT - 1


def test_the_persisted_graph_reloads_and_catches_up(
    index: EmbeddedIndex, tmp_path: Path, matrix: np.ndarray, monkeypatch: pytest.MonkeyPatch
) -> None:
    index._vector_graph(index._connection())
    assert Path(f"{index.path}.hnsw").exists()
    # A change after the save is only in the change log; a new process state must pick it up.
    moved = embedding_like(1, seed=42)[0]
    index.set_vectors({11: moved.tolist()})

    def no_build(self: vectors.HnswVectors, connection: object) -> int:
        raise AssertionError("the persisted graph should have been loaded, not rebuilt")

    monkeypatch.setattr(vectors.HnswVectors, "_build", no_build)
    reopened = EmbeddedIndex(tmp_path / "index")
    asked = queries(matrix, 20)
    assert [reopened.similar(query).ids for query in asked] == [index.similar(query).ids for query in asked]
    assert reopened.similar(SimilarQuery(vector=moved.tolist(), limit=1)).ids == [11]


def test_a_graph_behind_a_trimmed_log_is_rebuilt(index: EmbeddedIndex, tmp_path: Path) -> None:
    index._vector_graph(index._connection())
    stale = EmbeddedIndex(tmp_path / "index")
    assert stale._vector_graph(stale._connection()) is not None
    moved = embedding_like(1, seed=7)[0]
    index.set_vectors({5: moved.tolist()})
    connection = index._connection()
    vectors.trim_change_log(connection, vectors.change_seq(connection))  # as a save in another process would
    assert stale.similar(SimilarQuery(vector=moved.tolist(), limit=1)).ids == [5]


def test_small_indexes_use_no_graph_and_keep_no_log(
    tmp_path: Path, corpus: list[TourDocument], graph_threshold: None
) -> None:
    small = EmbeddedIndex(tmp_path / "small")
    small.rebuild(tours=corpus[:100], creators=[], ads=[], tags=[], places=[])
    small.set_vectors({doc.id: row.tolist() for doc, row in zip(corpus[:100], embedding_like(100), strict=True)})
    connection = small._connection()
    assert small._vector_graph(connection) is None
    assert connection.execute("SELECT count(*) FROM vector_log").fetchone()[0] == 0
    assert not list((tmp_path / "small").glob("*.hnsw*"))


def test_a_full_rebuild_gets_a_new_graph_and_drops_the_old_file(
    index: EmbeddedIndex, corpus: list[TourDocument], matrix: np.ndarray
) -> None:
    index._vector_graph(index._connection())
    old_graph_file = Path(f"{index.path}.hnsw")
    index.rebuild(tours=corpus, creators=[], ads=[], tags=[], places=[])
    asked = queries(matrix, 20)
    assert recall([exact(matrix, query) for query in asked], [index.similar(query).ids for query in asked]) >= 0.95
    assert Path(f"{index.path}.hnsw").exists() and not old_graph_file.exists()


def test_set_vectors_rejects_a_wrong_dimension(index: EmbeddedIndex) -> None:
    with pytest.raises(ValueError, match="384"):
        index.set_vectors({1: [0.1, 0.2]})


def test_unchanged_vectors_are_not_rewritten(index: EmbeddedIndex, matrix: np.ndarray) -> None:
    connection = index._connection()
    before = vectors.change_seq(connection)
    index.set_vectors({1: matrix[0].tolist(), 2: matrix[1].tolist()})
    assert vectors.change_seq(connection) == before
