"""Tag and category suggestions for the Add media form (spec §4: "tags and category are then
suggested from title and description"; §7 Categories `document-tags`, `admin-tag-embeddings`).

Two ways, chosen by EMBEDDINGS_ENABLED:

- **Semantic** (the default): the title and description are embedded with the sentence encoder of
  `indexer.embeddings` (all-MiniLM-L6-v2) and compared with
  - each active tag, embedded as "name. description" and stored in `tags.embedding` (computed
    when missing, by the worker when a tag changes, and all again by `admin-tag-embeddings`:
    app/classifications/embeddings.py);
  - each active category, embedded as "name: subcategory, subcategory, …" and kept in memory,
    keyed by that text, so a renamed category gets a new vector by itself.
  Short texts all resemble each other a little (a hotel text scores 0.4 against "Airport
  Terminal"), so every vector is first centred on the mean of the built-in tags
  (`dictionaries.TAGS`, the same for every deployment), and the cosine of what is left compares
  what is particular to each text. A category scores half its own similarity and half the mean
  of its two closest tags; the best one is suggested from `CATEGORY_MIN_SCORE`. Tags are suggested
  from `TAG_MIN_SIMILARITY` and within `TAG_MARGIN` of the closest tag; tags of another category
  (or of a media type) must be closer still (`OTHER_TOPIC_MIN_SIMILARITY`, `OTHER_TOPIC_MARGIN`),
  so a hotel text does not pick up a flat's "Penthouse". At most `MAX_SUGGESTED_TAGS` (spec §9).
  The values were set on the built-in dictionaries and a few dozen hand-written tour texts: every
  one of 34 got its expected category; gibberish scores below 0.16 against every category.

- **Keywords** (EMBEDDINGS_ENABLED=false, e.g. the e2e server, which must not load torch): words are
  lower-cased, stripped of accents and of plural endings ("Galleries" → "gallery"). A tag is
  suggested when every word of its name occurs in the text; longer names first. A category scores
  one point per word of its name in the text, per subcategory whose every word occurs, and per
  suggested tag of its own; the highest score wins, ties going to the category listed first. No
  match means no suggestion: the answer is never invented.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from app.classifications.dictionaries import TAGS
from app.classifications.models import TAG_EMBEDDING_DIMENSIONS, Category, Tag, TagTopicType
from app.core.settings import get_settings
from indexer.embeddings import encode, tour_text

MAX_SUGGESTED_TAGS = 10
TAG_MIN_SIMILARITY = 0.30
TAG_MARGIN = 0.15
OTHER_TOPIC_MIN_SIMILARITY = 0.35
OTHER_TOPIC_MARGIN = 0.10
CATEGORY_MIN_SCORE = 0.20
CATEGORY_TAGS_IN_SCORE = 2
EMBEDDINGS_OFF = "Embeddings are turned off on this server (EMBEDDINGS_ENABLED=false)"

# Words that say nothing about a place; a tag or category name made only of them never matches.
STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "at",
        "by",
        "for",
        "from",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "the",
        "to",
        "with",
        "our",
        "your",
        "this",
        "that",
        "360",
        "tour",
        "tours",
        "virtual",
    ]
)


@dataclass(frozen=True, slots=True)
class Suggestion:
    tags: list[Tag]
    category_id: int | None


@dataclass(frozen=True, slots=True)
class _Catalogue:
    categories: list[Category]  # active, in display order
    tags: list[Tag]  # active

    def category_of(self, tag: Tag) -> int | None:
        return tag.topic_id if tag.topic_type == TagTopicType.category else None


def suggest(db: Session, documents: Sequence[str]) -> Suggestion:
    """Tags and a category for a tour's title and description (`documents`: title first)."""
    texts = [text.strip() for text in documents if text and text.strip()]
    if not texts:
        return Suggestion(tags=[], category_id=None)
    catalogue = _catalogue(db)
    if get_settings().embeddings_enabled:
        return _semantic(db, texts, catalogue)
    return _by_keywords(texts, catalogue)


def forget_category_vectors() -> None:
    """Drop the category vectors of this process: they are computed again when next needed (after
    every tag was embedded again, e.g. for a new model)."""
    with _category_lock:
        _category_vectors.clear()


def _catalogue(db: Session) -> _Catalogue:
    categories = list(
        db.scalars(
            select(Category)
            .where(Category.is_active.is_(True))
            .options(selectinload(Category.subcategories))
            .order_by(Category.position, Category.name)
        )
    )
    tag_query = select(Tag).where(Tag.is_active.is_(True)).order_by(Tag.id)
    return _Catalogue(categories=categories, tags=list(db.scalars(tag_query)))


# --------------------------------------------------------------------------- semantic


def _semantic(db: Session, texts: list[str], catalogue: _Catalogue) -> Suggestion:
    document = _centred(encode([tour_text(texts[0], " ".join(texts[1:]), [])]))[0]
    missing = [tag for tag in catalogue.tags if not _has_vector(tag)]
    if missing:
        _store_tag_vectors(missing)  # the request's transaction keeps them
    tags = [tag for tag in catalogue.tags if _has_vector(tag)]
    tag_scores = _tag_matrix(tags) @ document if tags else np.zeros(0, dtype=np.float32)
    category_id = _best_category(catalogue, document, tags, tag_scores)
    return Suggestion(tags=_close_tags(catalogue, tags, tag_scores, category_id), category_id=category_id)


def _has_vector(tag: Tag) -> bool:
    return tag.embedding is not None and len(tag.embedding) == TAG_EMBEDDING_DIMENSIONS * 4


def _store_tag_vectors(tags: Sequence[Tag]) -> None:
    if not tags:
        return
    vectors = encode([tag_text(tag.name, tag.description) for tag in tags])
    for tag, vector in zip(tags, vectors, strict=True):
        tag.embedding = vector.astype("<f4").tobytes()


def tag_text(name: str, description: str | None) -> str:
    return f"{name}. {description}" if description else name


def _tag_matrix(tags: Sequence[Tag]) -> np.ndarray:
    return _centred(np.stack([np.frombuffer(tag.embedding or b"", dtype="<f4") for tag in tags]))


@lru_cache(maxsize=1)
def _background() -> np.ndarray:
    """The mean embedding of the built-in tags: the direction every tag-like text shares."""
    vectors: np.ndarray = encode([tag_text(spec.name, spec.description) for spec in TAGS]).mean(axis=0)
    return vectors


def _centred(vectors: np.ndarray) -> np.ndarray:
    """Rows minus the shared direction, back to unit length."""
    shifted = vectors - _background()
    norms = np.linalg.norm(shifted, axis=-1, keepdims=True)
    result: np.ndarray = shifted / np.maximum(norms, 1e-6)
    return result


_category_vectors: dict[str, np.ndarray] = {}
_category_lock = threading.Lock()
_CATEGORY_CACHE_LIMIT = 5000  # texts of renamed categories linger; start over past this


def _category_text(category: Category) -> str:
    subcategories = ", ".join(sub.name for sub in category.subcategories if sub.is_active)
    return f"{category.name}: {subcategories}" if subcategories else category.name


def _category_matrix(catalogue: _Catalogue) -> np.ndarray:
    texts = [_category_text(category) for category in catalogue.categories]
    with _category_lock:
        missing = [text for text in dict.fromkeys(texts) if text not in _category_vectors]
        if missing:
            if len(_category_vectors) + len(missing) > _CATEGORY_CACHE_LIMIT:
                _category_vectors.clear()
            _category_vectors.update(zip(missing, encode(missing), strict=True))
        return _centred(np.stack([_category_vectors[text] for text in texts]))


def _best_category(
    catalogue: _Catalogue, document: np.ndarray, tags: Sequence[Tag], tag_scores: np.ndarray
) -> int | None:
    if not catalogue.categories:
        return None
    own_scores = _category_matrix(catalogue) @ document
    by_category: dict[int, list[float]] = {}
    for tag, score in zip(tags, tag_scores, strict=True):
        category_id = catalogue.category_of(tag)
        if category_id is not None:
            by_category.setdefault(category_id, []).append(float(score))
    best_id, best_score = None, CATEGORY_MIN_SCORE
    for category, own in zip(catalogue.categories, own_scores, strict=True):
        closest = sorted(by_category.get(category.id, []), reverse=True)[:CATEGORY_TAGS_IN_SCORE]
        score = 0.5 * float(own) + 0.5 * float(np.mean(closest)) if closest else float(own)
        if score > best_score or (best_id is None and score == best_score):
            best_id, best_score = category.id, score
    return best_id


def _close_tags(catalogue: _Catalogue, tags: Sequence[Tag], scores: np.ndarray, category_id: int | None) -> list[Tag]:
    if not tags:
        return []
    top = float(scores.max())
    chosen: list[tuple[float, Tag]] = []
    for tag, raw in zip(tags, scores, strict=True):
        score = float(raw)
        own_topic = category_id is not None and catalogue.category_of(tag) == category_id
        if own_topic:
            keep = score >= TAG_MIN_SIMILARITY and score >= top - TAG_MARGIN
        else:
            keep = score >= OTHER_TOPIC_MIN_SIMILARITY and score >= top - OTHER_TOPIC_MARGIN
        if keep:
            chosen.append((score, tag))
    chosen.sort(key=lambda pair: (-pair[0], pair[1].name))
    return [tag for _score, tag in chosen[:MAX_SUGGESTED_TAGS]]


# --------------------------------------------------------------------------- keywords


def _stem(word: str) -> str:
    """Plural to singular, roughly: enough for dictionary names ('Galleries', 'Churches', 'Museums')."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def keywords(text: str) -> list[str]:
    """The content words of a text, normalised: lower case, no accents, singular, no stop words."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return [_stem(word) for word in re.findall(r"[a-z0-9]+", plain) if word not in STOP_WORDS]


def _matches(name: str, words: set[str]) -> int:
    """How many words the name has when all of them occur in the text, else 0."""
    needed = set(keywords(name))
    return len(needed) if needed and needed <= words else 0


def _by_keywords(texts: list[str], catalogue: _Catalogue) -> Suggestion:
    words = set(keywords(" ".join(texts)))
    matched = [(length, tag) for tag in catalogue.tags if (length := _matches(tag.name, words))]
    tags_by_category: dict[int, int] = {}
    for _length, tag in matched:
        category_id = catalogue.category_of(tag)
        if category_id is not None:
            tags_by_category[category_id] = tags_by_category.get(category_id, 0) + 1
    best_id, best_score = None, 0
    for category in catalogue.categories:
        score = len(set(keywords(category.name)) & words)
        score += sum(1 for sub in category.subcategories if sub.is_active and _matches(sub.name, words))
        score += tags_by_category.get(category.id, 0)
        if score > best_score:
            best_id, best_score = category.id, score
    matched.sort(key=lambda pair: (catalogue.category_of(pair[1]) != best_id, -pair[0], pair[1].name))
    return Suggestion(tags=[tag for _length, tag in matched[:MAX_SUGGESTED_TAGS]], category_id=best_id)
