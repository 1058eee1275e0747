"""Tour embeddings in the database (`tour_embeddings`, the source of truth for vectors) and in the
index: `embed_tours` computes the missing or stale ones with the encoder of indexer/embeddings.py,
stores them and pushes them to the index; `stored_vectors` feeds a reindex; `vectors_of` answers
discovery's taste and similar-tour vectors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session, sessionmaker

from app.classifications.models import Tag
from app.core.db import utcnow
from app.search.documents import listable_tours
from app.search.registry import get_index
from app.tours.models import Tour, TourEmbedding, TourTag
from indexer.embeddings import MODEL_NAME, encode, text_hash, tour_text
from indexer.port import SearchIndex

# The task that computes missing tour embeddings (app/search/tasks.py); services submit it by this name.
EMBED_TOURS_TASK = "embeddings.tours"
STORED_VECTOR_BATCH = 2000

Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class _TourText:
    tour_id: int
    text: str
    digest: str


def embed_tours(
    session_factory: sessionmaker[Session],
    *,
    ids: Sequence[int] | None = None,
    batch: int = 256,
    progress: Progress | None = None,
    index: SearchIndex | None = None,
) -> int:
    """Compute the embeddings of listable tours whose stored one is missing, of another model or of
    an older text; store them and push them to the index. Returns how many were computed.

    With `ids` (tours just indexed), the unchanged stored vectors of those tours are pushed too: the
    index drops a tour's vector when the tour leaves it (draft, moderation), and the text has not
    changed when it comes back. Without `ids`, every listable tour is checked.
    """
    index = index or get_index()
    report = progress or (lambda _message: None)
    computed = checked = 0
    for chunk in _listable_texts(session_factory, ids, batch):
        written, vectors = _embed_chunk(session_factory, chunk, push_unchanged=ids is not None)
        if vectors:
            index.set_vectors(vectors)
        computed += written
        checked += len(chunk)
        report(f"embeddings: {computed:,} computed, {checked:,} tours checked")
    return computed


def _embed_chunk(
    session_factory: sessionmaker[Session], chunk: list[_TourText], *, push_unchanged: bool
) -> tuple[int, dict[int, list[float]]]:
    """Encode and store the stale texts of a chunk: (how many were written, the vectors to push)."""
    with session_factory() as session:
        stored = _stored_embeddings(session, [item.tour_id for item in chunk])
    stale = [item for item in chunk if item.tour_id not in stored or stored[item.tour_id][0] != item.digest]
    stale_ids = {item.tour_id for item in stale}
    vectors: dict[int, list[float]] = {}
    if push_unchanged:
        vectors = {tour_id: _as_list(vector) for tour_id, (_, vector) in stored.items() if tour_id not in stale_ids}
    if not stale:
        return 0, vectors
    # Encoding takes a while: no transaction is open during it.
    matrix = encode([item.text for item in stale])
    with session_factory.begin() as session:
        written = _store_embeddings(session, stale, matrix)
    for item, row in zip(stale, matrix, strict=True):
        if item.tour_id in written:
            vectors[item.tour_id] = row.tolist()
    return len(written), vectors


def _listable_texts(
    session_factory: sessionmaker[Session], ids: Sequence[int] | None, batch: int
) -> Iterator[list[_TourText]]:
    """Listable tours in chunks of `batch`, each read in its own short session (encoding happens
    between chunks, and must not hold a database transaction open)."""
    columns = listable_tours().with_only_columns(Tour.id, Tour.title, Tour.description)
    if ids is not None:
        wanted = sorted(set(ids))
        for start in range(0, len(wanted), batch):
            with session_factory() as session:
                rows = session.execute(columns.where(Tour.id.in_(wanted[start : start + batch]))).all()
                yield _texts(session, rows)
        return
    last_id = 0
    while True:
        with session_factory() as session:
            rows = session.execute(columns.where(Tour.id > last_id).order_by(Tour.id).limit(batch)).all()
            if not rows:
                return
            last_id = rows[-1][0]
            yield _texts(session, rows)


def _texts(session: Session, rows: Sequence[Any]) -> list[_TourText]:
    tag_names = _tag_names(session, [row[0] for row in rows])
    items = []
    for tour_id, title, description in rows:
        text = tour_text(title, description, tag_names.get(tour_id, []))
        items.append(_TourText(tour_id=tour_id, text=text, digest=text_hash(text)))
    return items


def _tag_names(session: Session, tour_ids: Sequence[int]) -> dict[int, list[str]]:
    names: dict[int, list[str]] = {}
    rows = session.execute(
        select(TourTag.tour_id, Tag.name)
        .join(Tag, Tag.id == TourTag.tag_id)
        .where(TourTag.tour_id.in_(tour_ids))
        .order_by(TourTag.tour_id, TourTag.position, Tag.id)
    )
    for tour_id, name in rows:
        names.setdefault(tour_id, []).append(name)
    return names


def _stored_embeddings(session: Session, tour_ids: Sequence[int]) -> dict[int, tuple[str, bytes]]:
    """tour id → (text hash, vector) of the embeddings this model made; other models' count as missing."""
    rows = session.execute(
        select(TourEmbedding.tour_id, TourEmbedding.text_hash, TourEmbedding.vector)
        .where(TourEmbedding.tour_id.in_(tour_ids))
        .where(TourEmbedding.model == MODEL_NAME)
    )
    return {tour_id: (digest, vector) for tour_id, digest, vector in rows}


def _store_embeddings(session: Session, items: Sequence[_TourText], matrix: np.ndarray) -> set[int]:
    """Insert or update the rows; returns the tour ids written (a tour deleted meanwhile is skipped)."""
    still_there = set(session.scalars(select(Tour.id).where(Tour.id.in_([item.tour_id for item in items]))))
    existing = {
        row.tour_id: row
        for row in session.scalars(select(TourEmbedding).where(TourEmbedding.tour_id.in_(sorted(still_there))))
    }
    for item, vector in zip(items, matrix, strict=True):
        if item.tour_id not in still_there:
            continue
        row = existing.get(item.tour_id)
        if row is None:
            row = TourEmbedding(tour_id=item.tour_id)
            session.add(row)
        row.model = MODEL_NAME
        row.vector = vector.astype("<f4").tobytes()
        row.text_hash = item.digest
        row.updated_at = utcnow()
    return still_there


def stored_vectors(session: Session, *, batch: int = STORED_VECTOR_BATCH) -> Iterator[dict[int, list[float]]]:
    """Every stored embedding of this model for a listable tour, `batch` at a time (keyset by id)."""
    listable_ids = listable_tours().with_only_columns(Tour.id)
    last_id = 0
    while True:
        rows = session.execute(
            select(TourEmbedding.tour_id, TourEmbedding.vector)
            .where(TourEmbedding.model == MODEL_NAME)
            .where(TourEmbedding.tour_id > last_id)
            .where(TourEmbedding.tour_id.in_(listable_ids))
            .order_by(TourEmbedding.tour_id)
            .limit(batch)
        ).all()
        if not rows:
            return
        last_id = rows[-1][0]
        yield {tour_id: _as_list(vector) for tour_id, vector in rows}


def _as_list(vector: bytes) -> list[float]:
    values: list[float] = np.frombuffer(vector, dtype="<f4").tolist()
    return values


def vectors_of(session: Session, tour_ids: Iterable[int]) -> dict[int, list[float]]:
    """The stored embeddings (of this model) of these tours; tours without one are absent.

    Discovery's taste vector (For You) and similar tours read their query vectors here rather than
    from the index: the database is the source of truth for vectors (the index holds a copy only to
    rank by them), so the answer means the same whichever adapter the settings chose, costs no
    round trip to Elasticsearch and needs no second "vector by id" on the index port."""
    wanted = sorted(set(tour_ids))
    if not wanted:
        return {}
    rows = session.execute(_VECTORS_OF, {"ids": wanted, "model": MODEL_NAME})
    return {tour_id: _as_list(vector) for tour_id, vector in rows}


# Built once, of the table's columns (not the model's attributes, which add the ORM's steps): every
# signed-in feed page asks it for the taste vector.
_embeddings = TourEmbedding.__table__.c
_VECTORS_OF = select(_embeddings.tour_id, _embeddings.vector).where(
    _embeddings.tour_id.in_(bindparam("ids", expanding=True)), _embeddings.model == bindparam("model")
)
