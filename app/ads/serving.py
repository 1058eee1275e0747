"""Which Sponsored cards a feed page shows (issue 15 part 2; README "How the feed behaves").

The feed asks for `slots` ads (one after every ADS_EVERY tour cards, app/discovery/service.py). The
candidates come from the search index (`SearchIndex.ads`: served ads only — active, approved, owner
in good standing — with their tags and rank), AD_CANDIDATES of them in an order rotated by the
browser session's seed and the page. For the viewer each candidate gets a score:

- tags: the share of the ad's tags among the viewer's (the tags of the tours they liked and saved
  lately, and the tags of their interest categories: app/discovery/signals.py), weight TAG_WEIGHT;
- similarity: the cosine between the ad's embedding (app/ads/embeddings.py) and the viewer's taste
  vector (the mean embedding of what they liked and saved, For You's), floored at 0, weight
  SIMILARITY_WEIGHT;
- rank: the sum of the ad's rank values, squashed into (-1, 1) by tanh(rank / 10), weight RANK_WEIGHT;
- a rotation term in [0, ROTATION) from a hash of (seed, page, ad), so equal ads take turns and the
  next page shows others.

Ads the viewer has already seen FREQUENCY_CAP times in the last 24 hours (impressions counted by
GET show/{ad_id}, once per page view) are left out; the highest scores fill the slots, each ad at
most once per page. A guest with nothing liked is scored by rank and rotation alone.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from sqlalchemy.orm import Session

from app.ads.embeddings import vectors_of
from app.ads.service import recent_impressions
from indexer.cards import Card
from indexer.port import SearchIndex

AD_CANDIDATES = 200
FREQUENCY_CAP = 3
TAG_WEIGHT = 2.0
SIMILARITY_WEIGHT = 2.0
RANK_WEIGHT = 1.0
ROTATION = 0.5


@dataclass(frozen=True, slots=True)
class ViewerTaste:
    """What the serving knows of the viewer: their tags and taste vector, and whom to cap."""

    viewer_key: str | None = None
    tag_ids: frozenset[int] = field(default_factory=frozenset)
    vector: Sequence[float] | None = None


def _rotation(seed: str, page: int, ad_id: int) -> float:
    digest = hashlib.blake2b(f"{seed}:{page}:{ad_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64 * ROTATION


def score(card: Mapping[str, Any], taste: ViewerTaste, ad_vector: np.ndarray | None) -> float:
    """The viewer's score of one candidate, without the rotation term."""
    tag_ids = [int(tag) for tag in card.get("tag_ids") or []]
    tags = sum(1 for tag in tag_ids if tag in taste.tag_ids) / len(tag_ids) if tag_ids else 0.0
    similarity = 0.0
    if taste.vector is not None and ad_vector is not None and len(ad_vector) == len(taste.vector):
        similarity = max(0.0, float(np.dot(ad_vector, np.asarray(taste.vector, dtype=np.float32))))
    rank = math.tanh(float(card.get("rank") or 0.0) / 10)
    return TAG_WEIGHT * tags + SIMILARITY_WEIGHT * similarity + RANK_WEIGHT * rank


def choose_ads(db: Session, index: SearchIndex, taste: ViewerTaste, *, slots: int, seed: str, page: int) -> list[Card]:
    """Up to `slots` different ads for one page, best first (see the module)."""
    if slots <= 0:
        return []
    candidates = [
        cast(Mapping[str, Any], card) for card in index.ads(limit=AD_CANDIDATES, seed=seed).docs if card["type"] == "ad"
    ]
    if not candidates:
        return []
    ids = [int(card["id"]) for card in candidates]
    seen = recent_impressions(db, taste.viewer_key, ids) if taste.viewer_key else {}
    eligible = [card for card in candidates if seen.get(int(card["id"]), 0) < FREQUENCY_CAP]
    vectors = vectors_of(db, [int(card["id"]) for card in eligible]) if taste.vector is not None else {}
    ranked = sorted(
        eligible,
        key=lambda card: -(score(card, taste, vectors.get(int(card["id"]))) + _rotation(seed, page, int(card["id"]))),
    )
    chosen: list[Card] = []
    taken: set[int] = set()
    for card in ranked:
        if int(card["id"]) not in taken:
            chosen.append(cast(Card, card))
            taken.add(int(card["id"]))
        if len(chosen) == slots:
            break
    return chosen
