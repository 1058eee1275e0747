"""The sentence encoder (indexer/embeddings.py) and `embed_tours` (app/search/embeddings.py): the real
all-MiniLM-L6-v2 model, loaded once for the module, and a migrated temporary database for the tour
embeddings."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.search import embeddings as tour_embeddings
from indexer import embeddings
from indexer.embedded.adapter import EmbeddedIndex
from tests.conftest import empty_database_and_index

if TYPE_CHECKING:
    from tests.conftest import TestDatabase


@pytest.fixture(scope="module")
def encoder() -> ModuleType:
    embeddings.get_model()  # the one slow load of this module (~6 s with the torch import)
    return embeddings


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b)


def test_encode_returns_unit_float32_rows(encoder: ModuleType) -> None:
    vectors = encoder.encode(["A castle on a hill", "Harbour at night", "Loft apartment"])
    assert vectors.shape == (3, encoder.DIMENSIONS)
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert encoder.encode([]).shape == (0, encoder.DIMENSIONS)


def test_similar_texts_are_closer_than_unrelated_ones(encoder: ModuleType) -> None:
    castle, fortress, kitchen, surf = encoder.encode(
        [
            "Medieval castle with stone towers and a moat, 360° panorama",
            "Virtual tour of an old fortress and its battlements",
            "Modern kitchen with an island in a renovated apartment for sale",
            "Surfing big waves at a tropical beach, 360 video",
        ]
    )
    assert cosine(castle, fortress) > cosine(castle, kitchen) + 0.1
    assert cosine(castle, fortress) > cosine(castle, surf) + 0.1


def test_the_model_is_loaded_once_even_under_concurrent_first_use(
    encoder: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    loads: list[object] = []

    def slow_load() -> object:
        time.sleep(0.05)  # widen the window in which a second thread could also load
        loads.append(object())
        return loads[-1]

    monkeypatch.setattr(embeddings, "_model", None)
    monkeypatch.setattr(embeddings, "_load_model", slow_load)
    seen: list[Any] = []
    threads = [threading.Thread(target=lambda: seen.append(embeddings.get_model())) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(loads) == 1
    assert all(model is loads[0] for model in seen)


def test_tour_text_puts_title_and_tags_before_a_clipped_description() -> None:
    composed = embeddings.tour_text("  Old  Town\n", "x" * 5000, ["Night", " ", "Drone"])
    assert composed.startswith("Old Town. Night, Drone. ")
    assert len(composed) == len("Old Town. Night, Drone. ") + embeddings.DESCRIPTION_CHARS
    assert embeddings.tour_text("Pier", None, []) == "Pier"
    assert embeddings.text_hash("Pier") == embeddings.text_hash("Pier") != embeddings.text_hash("pier")


# --------------------------------------------------------------------- embed_tours


@pytest.fixture
def db(database: TestDatabase) -> Iterator[Session]:
    """A session on the migrated test database; tables and index are emptied afterwards."""
    from app.core.db import get_sessionmaker

    with get_sessionmaker()() as session:
        yield session
    empty_database_and_index()


def make_tours(db: Session) -> dict[str, Any]:
    from app.tours.models import TourStatus
    from tests import factories

    owner = factories.user(db)
    landmarks = factories.category(db, "Landmarks")
    homes = factories.category(db, "Real Estate")
    panorama = factories.media_type(db, "360 Panorama")
    host = factories.vendor(db, "Kuula")
    castle_tag = factories.tag(db, "Castle", landmarks)
    common = {"media_type_row": panorama, "vendor_row": host}
    tours = {
        "castle": factories.tour(
            db, owner, category_row=landmarks, title="Medieval castle", description="Towers and a moat", **common
        ),
        "fortress": factories.tour(
            db,
            owner,
            category_row=landmarks,
            title="Old fortress walls",
            tags=(castle_tag,),
            description="Battlements above the river",
            **common,
        ),
        "loft": factories.tour(
            db, owner, category_row=homes, title="Loft for sale", description="Open-plan kitchen", **common
        ),
        "draft": factories.tour(db, owner, category_row=homes, title="Unfinished", status=TourStatus.draft, **common),
    }
    db.commit()  # eager tasks: the outbox is dispatched and the tours are indexed
    return tours


def test_embed_tours_stores_and_indexes_vectors_of_listable_tours(encoder: ModuleType, db: Session) -> None:
    from app.core.db import get_sessionmaker
    from app.tours.models import TourEmbedding
    from indexer.queries import SimilarQuery

    tours = make_tours(db)
    index = embedded_index()
    messages: list[str] = []

    assert tour_embeddings.embed_tours(get_sessionmaker(), batch=2, progress=messages.append) == 3
    rows = {row.tour_id: row for row in db.scalars(select(TourEmbedding))}
    assert set(rows) == {tours[name].id for name in ("castle", "fortress", "loft")}  # never the draft
    castle = rows[tours["castle"].id]
    assert castle.model == embeddings.MODEL_NAME
    assert castle.text_hash == embeddings.text_hash(embeddings.tour_text("Medieval castle", "Towers and a moat", []))
    assert np.frombuffer(castle.vector, dtype=np.float32).tolist() == index.vector_of(tours["castle"].id)
    assert messages[-1] == "embeddings: 3 computed, 3 tours checked"

    castle_vector = tour_embeddings.vectors_of(db, [tours["castle"].id])[tours["castle"].id]
    assert castle_vector == index.vector_of(tours["castle"].id)
    nearest = index.similar(SimilarQuery(vector=castle_vector, exclude_ids=(tours["castle"].id,)))
    assert nearest.ids[0] == tours["fortress"].id

    # Nothing changed: nothing is computed. A changed title is recomputed, and only that tour.
    assert tour_embeddings.embed_tours(get_sessionmaker()) == 0
    old_hash = rows[tours["loft"].id].text_hash
    tours["loft"].title = "Loft with a roof terrace"
    db.commit()
    assert tour_embeddings.embed_tours(get_sessionmaker()) == 1
    db.expire_all()
    assert db.get(TourEmbedding, tours["loft"].id).text_hash != old_hash  # type: ignore[union-attr]


def test_named_tours_get_their_stored_vectors_back_and_reindex_keeps_vectors(encoder: ModuleType, db: Session) -> None:
    from app.core.db import get_sessionmaker
    from app.search.sync import reindex

    tours = make_tours(db)
    index = embedded_index()
    tour_embeddings.embed_tours(get_sessionmaker())
    castle_id = tours["castle"].id
    stored = index.vector_of(castle_id)

    # A tour leaving the index loses its vector there; when it comes back, the unchanged text needs
    # no encoding, but naming the tour pushes its stored vector again.
    index.delete_tours([castle_id])
    index.upsert_tours([doc for doc in _documents(castle_id)])
    assert index.vector_of(castle_id) is None
    assert tour_embeddings.embed_tours(get_sessionmaker(), ids=[castle_id]) == 0
    assert index.vector_of(castle_id) == stored

    # A full reindex from the database (here after the index lost everything) restores the vectors.
    index.reset()
    counts = reindex(get_sessionmaker(), index=index)
    assert counts["vectors"] == 3
    assert index.vector_of(castle_id) == stored


def embedded_index() -> EmbeddedIndex:
    """The tests' index (the embedded adapter), typed as such: reading one tour's vector back is an
    inspection of that adapter's storage, not part of the SearchIndex port."""
    from app.search.registry import get_index

    index = get_index()
    assert isinstance(index, EmbeddedIndex)
    return index


def _documents(tour_id: int) -> list[Any]:
    from app.core.db import get_sessionmaker
    from app.search.documents import tour_documents

    with get_sessionmaker()() as session:
        return list(tour_documents(session, [tour_id]))
