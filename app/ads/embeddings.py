"""Ads' embeddings (POST /v2/ads/embeddings; every ad change with embeddings on): the sentence
embedding of an ad's title, tags and description, computed by the embedding worker with the tours'
encoder (indexer/embeddings.py) and stored in `ad_embeddings` (the text hash says when to compute
again). The serving (app/ads/serving.py) compares them with the viewer's taste vector. Encoding takes
a while: no transaction is open while the model runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.ads.models import Ad, AdEmbedding, AdTag
from app.ads.queries import served_clause
from app.ads.service import EMBED_ADS_TASK
from app.classifications.models import Tag
from app.classifications.suggestions import EMBEDDINGS_OFF
from app.core.db import utcnow
from app.core.errors import BadRequest, field_error
from app.core.settings import get_settings
from app.core.tasks import submit_after_commit
from indexer.embeddings import MODEL_NAME, encode, text_hash, tour_text

BATCH = 128
UNKNOWN_ADS = "Unknown ads"
EMBEDDINGS_QUEUED = "The ad embeddings are being computed"


def ad_texts(session: Session, ids: Sequence[int] | None) -> dict[int, str]:
    """The text of each served ad (of `ids`, or all): title, tags, description."""
    statement = select(Ad.id, Ad.title, Ad.description).where(served_clause())
    if ids is not None:
        statement = statement.where(Ad.id.in_(list(ids)))
    rows = session.execute(statement.order_by(Ad.id)).all()
    names: dict[int, list[str]] = {}
    for ad_id, name in session.execute(
        select(AdTag.ad_id, Tag.name)
        .join(Tag, Tag.id == AdTag.tag_id)
        .where(AdTag.ad_id.in_([row[0] for row in rows]))
        .order_by(AdTag.ad_id, AdTag.position)
    ):
        names.setdefault(ad_id, []).append(name)
    return {ad_id: tour_text(title, description, names.get(ad_id, [])) for ad_id, title, description in rows}


def embed_ads(session_factory: sessionmaker[Session], ids: Sequence[int] | None = None) -> int:
    """Compute the embeddings of served ads whose stored one is missing, of another model or of an
    older text; returns how many were computed."""
    with session_factory() as session:
        texts = ad_texts(session, ids)
        stored = {
            ad_id: digest
            for ad_id, digest in session.execute(
                select(AdEmbedding.ad_id, AdEmbedding.text_hash).where(
                    AdEmbedding.ad_id.in_(list(texts)), AdEmbedding.model == MODEL_NAME
                )
            )
        }
    stale = [(ad_id, text) for ad_id, text in texts.items() if stored.get(ad_id) != text_hash(text)]
    computed = 0
    for start in range(0, len(stale), BATCH):
        chunk = stale[start : start + BATCH]
        matrix = encode([text for _ad_id, text in chunk])
        with session_factory.begin() as session:
            computed += _store(session, chunk, matrix)
    return computed


def _store(session: Session, chunk: Sequence[tuple[int, str]], matrix: np.ndarray) -> int:
    still_there = set(session.scalars(select(Ad.id).where(Ad.id.in_([ad_id for ad_id, _text in chunk]))))
    existing = {
        row.ad_id: row for row in session.scalars(select(AdEmbedding).where(AdEmbedding.ad_id.in_(still_there)))
    }
    for (ad_id, text), vector in zip(chunk, matrix, strict=True):
        if ad_id not in still_there:
            continue
        row = existing.get(ad_id)
        if row is None:
            row = AdEmbedding(ad_id=ad_id)
            session.add(row)
        row.model = MODEL_NAME
        row.vector = np.asarray(vector, dtype="<f4").tobytes()
        row.text_hash = text_hash(text)
        row.updated_at = utcnow()
    return len(still_there)


def vectors_of(session: Session, ad_ids: Iterable[int]) -> dict[int, np.ndarray]:
    """The stored embeddings (of this model) of these ads; ads without one are absent."""
    wanted = sorted(set(ad_ids))
    if not wanted:
        return {}
    rows = session.execute(
        select(AdEmbedding.ad_id, AdEmbedding.vector).where(
            AdEmbedding.ad_id.in_(wanted), AdEmbedding.model == MODEL_NAME
        )
    )
    return {ad_id: np.frombuffer(vector, dtype="<f4") for ad_id, vector in rows}


def request_embeddings(db: Session, ids: Sequence[int] | None) -> None:
    """POST embeddings: the named ads' (or every served ad's missing or stale) embeddings, computed
    by the worker after the commit."""
    if not get_settings().embeddings_enabled:
        raise BadRequest(EMBEDDINGS_OFF)
    if ids is None:
        submit_after_commit(db, EMBED_ADS_TASK)
        return
    wanted = sorted(set(ids))
    found = sorted(db.scalars(select(Ad.id).where(Ad.id.in_(wanted))))
    if found != wanted:
        raise field_error("ads", UNKNOWN_ADS)
    if found:
        submit_after_commit(db, EMBED_ADS_TASK, ids=found)
