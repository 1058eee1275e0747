"""The feed, map and search calls over HTTP, on a small known corpus that goes through the outbox."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.ads.models import Ad
from app.core.outbox import add_outbox
from app.creators.models import Follow
from app.engagement.models import TourSave
from app.tours.models import ApprovalState, Tour, TourStatus
from app.users.models import User
from tests import factories

PLACES = [("Paris", "FR", 48.8566, 2.3522), ("Berlin", "DE", 52.52, 13.405), ("Tokyo", "JP", 35.68, 139.65)]


@dataclass
class Corpus:
    tours: list[Tour]
    owners: list[User]
    viewer: User
    headers: dict[str, str]
    ids: dict[str, int]


@pytest.fixture
def corpus(db: Session) -> Corpus:
    museums = factories.category(db, "Museums", ("Art", "History"))
    nature = factories.category(db, "Nature")
    panorama, video = factories.media_type(db, "360 Panorama"), factories.media_type(db, "360 Video")
    kuula, youtube = factories.vendor(db, "Kuula"), factories.vendor(db, "YouTube")
    sunset, drone = factories.tag(db, "Sunset", museums), factories.tag(db, "Drone", nature)
    owners = [factories.user(db) for _ in range(3)]
    creators = [
        factories.creator(db, owner, creator_name=name, area_served=[PLACES[i][0]], views=100 - i)
        for i, (owner, name) in enumerate(zip(owners, ["Alpine Lens", "Blue Dome", "City Scans"], strict=True))
    ]
    viewer = factories.user(db)
    tours: list[Tour] = []
    for number in range(30):
        city, country, lat, lng = PLACES[number % 3]
        tours.append(
            factories.tour(
                db,
                owners[number % 3],
                category_row=museums if number % 2 else nature,
                media_type_row=panorama if number % 3 else video,
                vendor_row=kuula if number % 4 else youtube,
                tags=(sunset,) if number % 5 == 0 else (drone,) if number % 7 == 0 else (),
                age_days=number,
                title=f"{'Gallery' if number % 2 else 'Forest'} walk {number:02d} in {city}",
                address_city=city,
                address_country=country,
                lat=lat + number * 0.001,
                lng=lng,
                views=number * 10,
                likes=30 - number,
                saves=number % 4,
                shared=number % 6,
                is_featured=number in (3, 4),
                featured_order={3: 2, 4: 1}.get(number),
                subcategory_id=museums.subcategories[0].id if number % 2 else None,
            )
        )
    hidden_draft = factories.tour(
        db,
        owners[0],
        category_row=nature,
        media_type_row=panorama,
        vendor_row=kuula,
        title="Hidden draft",
        status=TourStatus.draft,
    )
    hidden_pending = factories.tour(
        db,
        owners[0],
        category_row=nature,
        media_type_row=panorama,
        vendor_row=kuula,
        title="Hidden pending",
        approval_state=ApprovalState.pending,
    )
    db.add(TourSave(user_id=viewer.id, tour_id=tours[1].id))
    db.add(Follow(user_id=viewer.id, creator_id=creators[2].id))
    ad = Ad(
        user_id=owners[0].id,
        title="Visit our studio",
        link="https://example.com/ad",
        preview_picture=None,
        status=TourStatus.active,
        approval_state=ApprovalState.approved,
    )
    db.add(ad)
    db.flush()
    add_outbox(db, "index.ad", ad.id, {})
    db.commit()
    return Corpus(
        tours=tours,
        owners=owners,
        viewer=viewer,
        headers={"Authorization": f"Bearer {factories.token_for(viewer)}"},
        ids={
            "museums": museums.id,
            "nature": nature.id,
            "video": video.id,
            "youtube": youtube.id,
            "sunset": sunset.id,
            "drone": drone.id,
            "art": museums.subcategories[0].id,
            "draft": hidden_draft.id,
            "pending": hidden_pending.id,
        },
    )


def grid(client: TestClient, headers: dict[str, str] | None = None, **params: Any) -> dict[str, Any]:
    params.setdefault("mode", "media")
    response = client.get("/v2/user-recomendations/filtered-grid", params=params, headers=headers or {})
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def titles(page: dict[str, Any]) -> list[str]:
    return [card["title"] for card in page["data"] if card["type"] == "vt"]


def test_only_active_approved_tours_are_listed(client: TestClient, corpus: Corpus) -> None:
    page = grid(client, limit=100)
    assert page["total_items"] == 30
    assert "Hidden draft" not in titles(page) and "Hidden pending" not in titles(page)


def test_cards_carry_exactly_the_spec_fields(client: TestClient, corpus: Corpus) -> None:
    page = grid(client, limit=30, mode="both")["data"]
    by_type = {card["type"]: set(card) for card in page}
    assert by_type["vt"] == {
        "guid",
        "title",
        "preview_picture",
        "views",
        "saves",
        "is_save",
        "is_owned",
        "created_ago",
        "media_type_id",
        "userid",
        "type",
    }
    assert by_type["creator"] == {
        "id",
        "creator_name",
        "platform_username",
        "logo",
        "img_settings",
        "followers",
        "vt_count",
        "views",
        "is_follow",
        "locations",
        "userid",
        "type",
    }
    assert by_type["ad"] == {"id", "title", "preview_picture", "link", "user_id", "type"}


def test_created_ago_speaks_the_callers_language(client: TestClient, corpus: Corpus) -> None:
    newest = {"sorting": "newest", "limit": 3, "offset": 2}
    english = grid(client, **newest)["data"][0]["created_ago"]
    russian = grid(client, {"Accept-Language": "ru-RU,ru;q=0.9"}, **newest)["data"][0]["created_ago"]
    assert english == "2 days ago" and russian == "2 дня назад"


@pytest.mark.parametrize(
    ("sorting", "key"),
    [
        ("views", lambda t: (-t.views, -t.id)),
        ("likes", lambda t: (-t.likes, -t.id)),
        ("saves", lambda t: (-t.saves, -t.id)),
        ("shares", lambda t: (-t.shared, -t.id)),
        ("newest", lambda t: (-t.created_at.timestamp(), -t.id)),
        ("az", lambda t: (t.title.lower(), t.id)),
    ],
)
def test_sort_orders(client: TestClient, corpus: Corpus, sorting: str, key: Any) -> None:
    assert titles(grid(client, sorting=sorting, limit=100)) == [t.title for t in sorted(corpus.tours, key=key)]
    za = titles(grid(client, sorting="za", limit=100))
    assert za == sorted(za, key=str.lower, reverse=True)


def test_random_is_stable_per_seed_and_pages_do_not_repeat(client: TestClient, corpus: Corpus) -> None:
    first = [c["guid"] for c in grid(client, sorting="random", seed="s1", limit=10)["data"] if c["type"] == "vt"]
    again = [c["guid"] for c in grid(client, sorting="random", seed="s1", limit=10)["data"] if c["type"] == "vt"]
    assert first == again
    seen: list[str] = []
    for offset in (0, 10, 20):
        seen += [
            c["guid"]
            for c in grid(client, sorting="random", seed="s1", limit=10, offset=offset)["data"]
            if c["type"] == "vt"
        ]
    assert len(seen) == len(set(seen)) == 30


def test_near_me_puts_the_closest_first(client: TestClient, corpus: Corpus) -> None:
    page = grid(client, sorting="near_me", lat=35.6, lng=139.7, limit=10)
    assert all(title.endswith("in Tokyo") for title in titles(page))


@pytest.mark.parametrize(
    ("params", "keep"),
    [
        ({"categories": "museums"}, lambda t, ids: t.category_id == ids["museums"]),
        ({"subcategories": "art"}, lambda t, ids: t.subcategory_id == ids["art"]),
        ({"countries": "FR,jp"}, lambda t, ids: t.address_country in ("FR", "JP")),
        ({"vendors": "youtube"}, lambda t, ids: t.vendor_id == ids["youtube"]),
        ({"media_types": "video"}, lambda t, ids: t.media_type_id == ids["video"]),
        ({"tags": "sunset"}, lambda t, ids: t.title.split()[2] in {f"{n:02d}" for n in range(0, 30, 5)}),
        ({"searchPattern": "gallery berl"}, lambda t, ids: t.title.startswith("Gallery") and "Berlin" in t.title),
        ({"leftX": 0, "leftY": 45, "rightX": 20, "rightY": 55}, lambda t, ids: t.address_country in ("FR", "DE")),
    ],
)
def test_filters(client: TestClient, corpus: Corpus, params: dict[str, Any], keep: Any) -> None:
    resolved = {
        key: ",".join(str(corpus.ids.get(part, part)) for part in str(value).split(","))
        for key, value in params.items()
    }
    page = grid(client, limit=100, **resolved)
    expected = sorted(t.title for t in corpus.tours if keep(t, corpus.ids))
    assert sorted(titles(page)) == expected and page["total_items"] == len(expected)


def test_feeds(client: TestClient, corpus: Corpus) -> None:
    assert titles(grid(client, feed="featured")) == [corpus.tours[4].title, corpus.tours[3].title]
    assert titles(grid(client, feed="new", limit=1)) == [corpus.tours[0].title]
    favorite = max(corpus.tours, key=lambda t: (t.likes + t.saves, t.id))
    assert titles(grid(client, feed="user_favorite", limit=1)) == [favorite.title]
    assert grid(client, feed="trending")["total_items"] == 30
    assert grid(client, feed="popular")["total_items"] == 30


def test_saves_and_follows_feed_is_personal(client: TestClient, corpus: Corpus) -> None:
    page = grid(client, corpus.headers, feed="saves_follows", limit=100)
    followed_owner = corpus.owners[2].id
    expected = {t.title for t in corpus.tours if t.user_id == followed_owner} | {corpus.tours[1].title}
    assert set(titles(page)) == expected
    assert grid(client, feed="saves_follows")["total_items"] == 0  # a guest has none


def test_per_user_flags_come_from_the_database(client: TestClient, corpus: Corpus) -> None:
    cards = {c["guid"]: c for c in grid(client, corpus.headers, limit=100)["data"] if c["type"] == "vt"}
    assert cards[corpus.tours[1].guid]["is_save"] is True
    assert cards[corpus.tours[2].guid]["is_save"] is False
    owner_headers = {"Authorization": f"Bearer {factories.token_for(corpus.owners[0])}"}
    owned = {c["guid"]: c["is_owned"] for c in grid(client, owner_headers, limit=100)["data"] if c["type"] == "vt"}
    assert owned[corpus.tours[0].guid] is True and owned[corpus.tours[1].guid] is False
    creators = grid(client, corpus.headers, mode="creators")["data"]
    assert {c["creator_name"]: c["is_follow"] for c in creators} == {
        "Alpine Lens": False,
        "Blue Dome": False,
        "City Scans": True,
    }


def test_modes_and_mixing(client: TestClient, corpus: Corpus) -> None:
    creators = grid(client, mode="creators")
    assert creators["total_items"] == 3 and {c["type"] for c in creators["data"]} == {"creator"}
    both = grid(client, mode="both", limit=48)
    kinds = [c["type"] for c in both["data"] if c["type"] != "ad"]
    assert both["total_items"] == 33 and kinds.count("creator") == 3 and kinds.count("vt") == 30
    assert kinds[5] == "creator"


def test_ads_are_sponsored_cards_between_tours(client: TestClient, corpus: Corpus) -> None:
    page = grid(client, limit=30)
    kinds = [card["type"] for card in page["data"]]
    assert kinds.count("ad") == 1 and kinds.index("ad") == 24


def test_page_size_and_pagination_without_duplicates(client: TestClient, corpus: Corpus) -> None:
    assert len([c for c in grid(client)["data"] if c["type"] == "vt"]) == 30  # default page size 48
    guids = []
    for offset in (0, 12, 24):
        guids += [c["guid"] for c in grid(client, limit=12, offset=offset)["data"] if c["type"] == "vt"]
    assert len(guids) == len(set(guids)) == 30


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"categories": "a,b"}, "categories"),
        ({"countries": "France"}, "countries"),
        ({"sorting": "best"}, "sorting"),
        ({"leftX": 1}, "leftX"),
        ({"offset": -1}, "offset"),
        ({"lat": 1}, "lat"),
    ],
)
def test_bad_filters_are_400_naming_the_field(
    client: TestClient, corpus: Corpus, params: dict[str, Any], field: str
) -> None:
    response = client.get("/v2/user-recomendations/filtered-grid", params=params)
    assert response.status_code == 400
    assert field in response.json()["fields"]


def test_outbox_keeps_the_index_in_step(client: TestClient, corpus: Corpus, db: Session) -> None:
    tour = db.get(Tour, corpus.tours[0].id)
    assert tour is not None
    tour.status = TourStatus.draft
    add_outbox(db, "index.tour", tour.id, {})
    draft = db.get(Tour, corpus.ids["draft"])
    assert draft is not None
    draft.status = TourStatus.active
    add_outbox(db, "index.tour", draft.id, {})
    db.commit()
    listed = titles(grid(client, limit=100))
    assert corpus.tours[0].title not in listed and "Hidden draft" in listed


def test_map_area_points_and_clusters(client: TestClient, corpus: Corpus) -> None:
    world = client.get(
        "/v2/locations/map-area", params={"leftX": -180, "leftY": -85, "rightX": 180, "rightY": 85, "zoom": 2}
    ).json()
    assert world["total_items"] == 30
    assert len(world["features"]) == 30 and world["clusters"] == []  # fewer than a page: the points themselves
    feature = world["features"][0]
    assert feature["geometry"]["type"] == "Point" and {"guid", "title", "is_save", "created_ago"} <= set(
        feature["properties"]
    )
    filtered = client.get(
        "/v2/locations/filtered-area",
        params={"leftX": -180, "leftY": -85, "rightX": 180, "rightY": 85, "zoom": 2, "countries": "JP"},
    ).json()
    assert filtered["total_items"] == 10
    missing = client.get("/v2/locations/filtered-area", params={"zoom": 2})
    assert missing.status_code == 400 and "leftX" in missing.json()["fields"]


def test_search_as_you_type(client: TestClient, corpus: Corpus) -> None:
    def search(text: str) -> list[dict[str, Any]]:
        response = client.get("/v2/user-recomendations/search", params={"searchData": text})
        assert response.status_code == 200
        return response.json()["data"]  # type: ignore[no-any-return]

    assert [(r["type"], r["text"]) for r in search("#suns")] == [("tag", "Sunset")]
    assert [r["type"] for r in search("@blue")] == ["creator"]
    assert all(r["type"] == "tour" and "Forest" in r["text"] for r in search("fores"))
    empty = client.get("/v2/user-recomendations/search", params={"searchData": "#nothing-like-this"}).json()
    assert empty == {"data": [], "message": "No data found"}


def test_similar_and_creator_media(client: TestClient, corpus: Corpus) -> None:
    similar = client.get(f"/v2/user-recomendations/similar-media/{corpus.tours[5].guid}").json()
    assert similar and corpus.tours[5].guid not in {card["guid"] for card in similar}
    assert all(card["type"] == "vt" for card in similar)
    assert client.get("/v2/user-recomendations/similar-media/nope").status_code == 404
    owner = corpus.owners[1]
    page = client.get(f"/v2/user-recomendations/creator-media/{owner.id}").json()
    assert page["total_items"] == 10 and all(card["userid"] == owner.id for card in page["data"])


def test_creator_scoped_map_and_mixed_mode_under_tour_only_filters(client: TestClient, corpus: Corpus) -> None:
    owner = corpus.owners[0]
    scoped = client.get("/v2/user-recomendations/filtered-map", params={"userid": owner.id, "zoom": 3}).json()
    assert scoped["total_items"] == 10 and {f["properties"]["userid"] for f in scoped["features"]} == {owner.id}
    paris = {"leftX": 2, "leftY": 48, "rightX": 3, "rightY": 49.5}
    mixed = grid(client, mode="both", **paris)
    assert mixed["total_items"] == 10 and {card["type"] for card in mixed["data"]} == {"vt"}


def store_city_vectors(db: Session, corpus: Corpus) -> None:
    """Stored embeddings that group the tours by city (not by category, as the no-vector fallback
    does), given to the index as a reindex would: the database holds the vectors, the index a copy."""
    from app.core.db import get_sessionmaker
    from app.search.registry import get_index
    from app.search.sync import load_stored_vectors
    from app.tours.models import TourEmbedding
    from indexer.embeddings import DIMENSIONS, MODEL_NAME

    for number, tour in enumerate(corpus.tours):
        vector = np.zeros(DIMENSIONS, dtype="<f4")
        vector[number % 3] = 1.0  # the city
        vector[10 + number] = 0.05  # each tour a little apart
        db.add(TourEmbedding(tour_id=tour.id, model=MODEL_NAME, vector=vector.tobytes(), text_hash=f"h{number}"))
    db.commit()
    assert load_stored_vectors(get_sessionmaker(), get_index()) == len(corpus.tours)


def test_for_you_and_similar_media_rank_by_stored_embeddings(client: TestClient, corpus: Corpus, db: Session) -> None:
    store_city_vectors(db, corpus)
    berlin = {tour.guid for number, tour in enumerate(corpus.tours) if number % 3 == 1}
    # The viewer saved tours[1], in Berlin: their taste is Berlin's.
    for_you = grid(client, corpus.headers, feed="for_you", limit=len(berlin))
    assert {card["guid"] for card in for_you["data"]} == berlin

    tokyo = {tour.guid for number, tour in enumerate(corpus.tours) if number % 3 == 2}
    similar = client.get(f"/v2/user-recomendations/similar-media/{corpus.tours[5].guid}", params={"limit": 9}).json()
    assert {card["guid"] for card in similar} == tokyo - {corpus.tours[5].guid}
