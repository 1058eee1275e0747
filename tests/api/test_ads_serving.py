"""Issue 15 part 2, the Sponsored cards of the feed (app/ads/serving.py, README "How the feed behaves"):
served ads only, one after every 24 cards, never the same ad twice in a page, a per-viewer frequency
cap, and the choice by the viewer's tags and interests, embedding similarity and rank."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.ads import embeddings as ad_embeddings
from app.ads.models import Ad, AdApprovalState, AdEmbedding, AdStatus, AdTag
from app.ads.serving import FREQUENCY_CAP
from app.classifications.models import Rank, RankEntityType, RankSource, Tag
from app.core.db import get_sessionmaker
from app.core.outbox import add_outbox
from app.engagement.models import TourLike
from app.tours.models import Tour, TourEmbedding
from app.users.models import User, UserInterest
from indexer.embeddings import MODEL_NAME
from tests import factories
from tests.api.test_engagement import cheap_passwords, guest_headers

GRID = "/v2/user-recomendations/filtered-grid"
SEEDS = [f"seed{number}" for number in range(6)]


@pytest.fixture(autouse=True)
def _cheap(monkeypatch: pytest.MonkeyPatch) -> None:
    cheap_passwords(monkeypatch)


class Shop:
    def __init__(self, db: Session) -> None:
        self.db = db
        self.owner = factories.user(db)
        self.catalog = factories.catalog(db)
        self.topic = factories.category(db, "Ad topics")
        self.tours: list[Tour] = [self.catalog.tour(db, self.owner) for _ in range(48)]
        db.commit()

    def tag(self, name: str) -> Tag:
        return factories.tag(self.db, name, self.topic)

    def ad(self, title: str, *, tags: tuple[Tag, ...] = (), **fields: Any) -> Ad:
        row = Ad(
            user_id=self.owner.id,
            title=title,
            link=f"https://ads.example.com/{title.replace(' ', '-')}",
            preview_picture="https://img.example.com/ad.jpg",
            status=fields.pop("status", AdStatus.active),
            approval_state=fields.pop("approval_state", AdApprovalState.approved),
            **fields,
        )
        self.db.add(row)
        self.db.flush()
        for position, tag in enumerate(tags):
            self.db.add(AdTag(ad_id=row.id, tag_id=tag.id, position=position))
        add_outbox(self.db, "index.ad", row.id, {})
        return row


@pytest.fixture
def shop(db: Session) -> Shop:
    return Shop(db)


def sponsored(client: TestClient, headers: dict[str, str] | None = None, **params: Any) -> list[int]:
    query = {"mode": "media", "limit": 48, "seed": "s1", **params}
    response = client.get(GRID, params=query, headers=headers or {})
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    positions = [number for number, card in enumerate(data) if card["type"] == "ad"]
    assert all((position + 1) % 25 == 0 for position in positions)  # after every 24 cards
    return [card["id"] for card in data if card["type"] == "ad"]


def test_one_ad_per_24_cards_never_twice_in_a_page_and_only_served_ones(client: TestClient, shop: Shop) -> None:
    ads = [shop.ad(f"ad {number}") for number in range(3)]
    shop.ad("a draft", status=AdStatus.draft)
    shop.ad("waiting", approval_state=AdApprovalState.pending)
    shop.ad("refused", approval_state=AdApprovalState.rejected)
    shop.db.commit()
    served = {ad.id for ad in ads}
    for seed in SEEDS:
        page = sponsored(client, seed=seed)
        assert len(page) == 2 and len(set(page)) == 2 and set(page) <= served
    assert sponsored(client, limit=23) == []  # fewer than 24 cards: no slot


def test_a_single_ad_shows_once_per_page(client: TestClient, shop: Shop) -> None:
    only = shop.ad("the only ad")
    shop.db.commit()
    assert sponsored(client) == [only.id]


def test_pages_rotate_the_ads(client: TestClient, shop: Shop) -> None:
    ads = [shop.ad(f"ad {number}") for number in range(6)]
    shop.db.commit()
    shown = {ad_id for seed in SEEDS for offset in (0, 24) for ad_id in sponsored(client, seed=seed, offset=offset)}
    assert len(shown) >= 4 and shown <= {ad.id for ad in ads}


def test_the_frequency_cap_is_per_viewer(client: TestClient, shop: Shop, db: Session) -> None:
    only = shop.ad("the only ad")
    viewer, other = factories.user(db), factories.user(db)
    db.commit()
    mine = factories.bearer(viewer)
    for number in range(FREQUENCY_CAP):
        assert sponsored(client, mine, seed=f"s{number}") == [only.id]
        shown = client.get(f"/v2/ads/show/{only.id}", params={"page_view": f"pv{number}"}, headers=mine)
        assert shown.json()["counted"] is True
    assert sponsored(client, mine) == []  # seen FREQUENCY_CAP times today
    assert sponsored(client, factories.bearer(other)) == [only.id]
    guest = guest_headers("capped-guest")
    for number in range(FREQUENCY_CAP):
        client.get(f"/v2/ads/show/{only.id}", params={"page_view": f"g{number}"}, headers=guest)
    assert sponsored(client, guest) == []
    assert sponsored(client, guest_headers("fresh-guest")) == [only.id]


def _liker(db: Session, shop: Shop, tour: Tour) -> User:
    user = factories.user(db)
    db.add(TourLike(user_id=user.id, tour_id=tour.id))
    return user


def test_ads_tagged_like_what_the_viewer_liked_come_first(client: TestClient, shop: Shop, db: Session) -> None:
    hiking = shop.tag("hiking")
    tagged_tour = shop.catalog.tour(db, shop.owner, tags=(hiking,))
    fitting = shop.ad("boots", tags=(hiking,))
    others = [shop.ad(f"other {number}", tags=(shop.tag(f"t{number}"),)) for number in range(4)]
    user = _liker(db, shop, tagged_tour)
    db.commit()
    headers = factories.bearer(user)
    assert all(sponsored(client, headers, seed=seed, limit=24) == [fitting.id] for seed in SEEDS)
    # A guest with no taste gets the ads in turns.
    shown = {ad_id for seed in SEEDS for ad_id in sponsored(client, seed=seed, limit=24)}
    assert len(shown) > 1 and shown <= {fitting.id, *(ad.id for ad in others)}


def test_ads_tagged_with_the_viewers_interests_come_first(client: TestClient, shop: Shop, db: Session) -> None:
    museums = factories.category(db, "Galleries")
    art = factories.tag(db, "art", museums)
    fitting = shop.ad("gallery", tags=(art,))
    for number in range(4):
        shop.ad(f"other {number}", tags=(shop.tag(f"x{number}"),))
    user = factories.user(db)
    db.add(UserInterest(user_id=user.id, category_id=museums.id, position=0))
    db.commit()
    assert all(sponsored(client, factories.bearer(user), seed=seed, limit=24) == [fitting.id] for seed in SEEDS)


def _unit(vector: list[float]) -> bytes:
    array = np.asarray(vector, dtype="<f4")
    return (array / np.linalg.norm(array)).astype("<f4").tobytes()


def test_ads_near_the_viewers_taste_come_first(client: TestClient, shop: Shop, db: Session) -> None:
    liked = shop.tours[0]
    near = [1.0, 0.0, 0.0] + [0.0] * 381
    far = [0.0, 1.0, 0.0] + [0.0] * 381
    db.add(TourEmbedding(tour_id=liked.id, model=MODEL_NAME, vector=_unit(near), text_hash="x"))
    close = shop.ad("close")
    distant = [shop.ad(f"distant {number}") for number in range(4)]
    db.add(AdEmbedding(ad_id=close.id, model=MODEL_NAME, vector=_unit(near), text_hash="x"))
    for ad in distant:
        db.add(AdEmbedding(ad_id=ad.id, model=MODEL_NAME, vector=_unit(far), text_hash="x"))
    user = _liker(db, shop, liked)
    db.commit()
    assert all(sponsored(client, factories.bearer(user), seed=seed, limit=24) == [close.id] for seed in SEEDS)


def test_a_high_rank_wins_the_slot(client: TestClient, shop: Shop, db: Session) -> None:
    ranked = shop.ad("ranked")
    for number in range(4):
        shop.ad(f"plain {number}")
    source = RankSource(name="Sponsor level")
    db.add(source)
    db.flush()
    db.add(Rank(rank_source_id=source.id, entity_type=RankEntityType.ad, entity_id=ranked.id, value=30))
    add_outbox(db, "index.ad", ranked.id, {})
    db.commit()
    assert all(sponsored(client, seed=seed, limit=24) == [ranked.id] for seed in SEEDS)


def test_embed_ads_stores_vectors_of_served_ads_and_skips_unchanged_text(
    shop: Shop, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    encoded: list[str] = []

    def fake_encode(texts: list[str]) -> np.ndarray:
        encoded.extend(texts)
        return np.ones((len(texts), 384), dtype=np.float32) / np.sqrt(384)

    monkeypatch.setattr(ad_embeddings, "encode", fake_encode)
    hiking = shop.tag("hiking")
    served = shop.ad("Mountain boots", tags=(hiking,), description="For long walks")
    shop.ad("a draft", status=AdStatus.draft)
    db.commit()
    factory: sessionmaker[Session] = get_sessionmaker()
    assert ad_embeddings.embed_ads(factory) == 1
    assert encoded == ["Mountain boots. hiking. For long walks"]
    assert ad_embeddings.embed_ads(factory) == 0  # unchanged text: nothing to do
    db.expire_all()
    row = db.scalar(select(AdEmbedding).where(AdEmbedding.ad_id == served.id))
    assert row is not None and row.model == MODEL_NAME and len(row.vector) == 384 * 4
    served.title = "Mountain boots, new"
    db.commit()
    assert ad_embeddings.embed_ads(factory, [served.id]) == 1
