"""The map as vector tiles (issue 18 part 3), over HTTP on a small corpus that goes through the outbox:
each tile is decoded here and its features compared with what the corpus holds."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import mapbox_vector_tile
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.core import vector_tiles
from app.creators.models import Follow
from app.discovery import tiles
from app.engagement.models import TourSave
from app.tours.models import Tour, TourStatus
from app.users.models import User
from tests import factories

PLACES = [("Paris", "FR", 48.8566, 2.3522), ("Berlin", "DE", 52.52, 13.405), ("Tokyo", "JP", 35.68, 139.65)]
TILES = "/v2/locations/tiles"


@dataclass
class Corpus:
    tours: list[Tour]
    viewer: User
    museums: int
    draft_guid: str


@pytest.fixture
def corpus(db: Session) -> Corpus:
    museums = factories.category(db, "Museums")
    nature = factories.category(db, "Nature")
    panorama = factories.media_type(db, "360 Panorama")
    kuula = factories.vendor(db, "Kuula")
    owners = [factories.user(db) for _ in range(3)]
    creators = [factories.creator(db, owner, creator_name=f"Creator {i}") for i, owner in enumerate(owners)]
    tours = []
    for number in range(30):
        city, country, lat, lng = PLACES[number % 3]
        tours.append(
            factories.tour(
                db,
                owners[number % 3],
                category_row=museums if number % 2 else nature,
                media_type_row=panorama,
                vendor_row=kuula,
                title=f"Walk {number:02d} in {city}",
                address_city=city,
                address_country=country,
                lat=lat + number * 0.001,
                lng=lng + number * 0.001,
            )
        )
    draft = factories.tour(
        db,
        owners[0],
        category_row=nature,
        media_type_row=panorama,
        vendor_row=kuula,
        title="Hidden draft",
        lat=48.85,
        lng=2.35,
        status=TourStatus.draft,
    )
    viewer = factories.user(db)
    db.add(TourSave(user_id=viewer.id, tour_id=tours[0].id))
    db.add(Follow(user_id=viewer.id, creator_id=creators[1].id))
    db.commit()
    return Corpus(tours=tours, viewer=viewer, museums=museums.id, draft_guid=draft.guid)


def tile_of(lat: float, lng: float, z: int) -> tuple[int, int]:
    n = 1 << z
    sin_lat = math.sin(math.radians(lat))
    return int((lng + 180) / 360 * n), int((0.5 - math.log((1 + sin_lat) / (1 - sin_lat)) / (4 * math.pi)) * n)


def features(client: TestClient, z: int, x: int, y: int, **params: Any) -> list[dict[str, Any]]:
    response = client.get(f"{TILES}/{z}/{x}/{y}.mvt", params=params)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == vector_tiles.MVT_MEDIA_TYPE
    if not response.content:
        return []
    decoded = mapbox_vector_tile.decode(response.content, default_options={"y_coord_down": True})
    assert set(decoded) == {"tours"} and decoded["tours"]["extent"] == vector_tiles.TILE_EXTENT
    return decoded["tours"]["features"]  # type: ignore[no-any-return]


def guids(found: list[dict[str, Any]]) -> set[str]:
    return {feature["properties"]["guid"] for feature in found if "guid" in feature["properties"]}


def test_the_world_tile_holds_every_listed_tour_as_a_point(client: TestClient, corpus: Corpus) -> None:
    found = features(client, 0, 0, 0)
    assert guids(found) == {tour.guid for tour in corpus.tours}  # the draft is not listed
    paris = next(feature for feature in found if feature["properties"]["guid"] == corpus.tours[0].guid)
    assert paris["properties"] == {"tours": 1, "guid": corpus.tours[0].guid, "title": "Walk 00 in Paris"}
    assert paris["id"] == corpus.tours[0].id
    # Paris in tile units of the world tile: x = (lng + 180) / 360, y from the Mercator formula.
    x, y = paris["geometry"]["coordinates"]
    expected = vector_tiles.tile_pixel(vector_tiles.TileAddress(0, 0, 0), 2.3522, 48.8566)
    assert (x, y) == expected and abs(x - 2075) <= 1 and abs(y - 1409) <= 1


def test_a_crowded_tile_is_clustered_by_the_index(
    client: TestClient, corpus: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tiles, "TILE_MAX_POINTS", 5)
    found = features(client, 0, 0, 0)
    clusters = [feature for feature in found if "server_cluster" in feature["properties"]]
    # Cells of a quarter of the world at zoom 0: Paris and Berlin share one, Tokyo has its own.
    assert sorted(cluster["properties"]["tours"] for cluster in clusters) == [10, 20]
    assert {cluster["properties"]["expansion_zoom"] for cluster in clusters} == {2}
    assert all(cluster["properties"]["server_cluster"].startswith("2/") for cluster in clusters)
    # Deeper, Paris's ten tours (one tile at zoom 11) spread over cells of their own.
    x, y = tile_of(48.8566, 2.3522, 11)
    deep = features(client, 11, x, y)
    assert sum(feature["properties"]["tours"] for feature in deep) == 10 and len(deep) > 1
    assert {feature["properties"].get("expansion_zoom") for feature in deep} <= {13, None}


def test_tiles_split_the_world_without_repeating_a_tour(client: TestClient, corpus: Corpus) -> None:
    seen: list[str] = []
    for x in range(2):
        for y in range(2):
            seen += [feature["properties"]["guid"] for feature in features(client, 1, x, y)]
    assert sorted(seen) == sorted(tour.guid for tour in corpus.tours)
    x, y = tile_of(48.8566, 2.3522, 10)
    paris = features(client, 10, x, y)
    assert guids(paris) == {tour.guid for tour in corpus.tours[0::3]}
    for feature in paris:  # every point inside its tile
        px, py = feature["geometry"]["coordinates"]
        assert 0 <= px <= vector_tiles.TILE_EXTENT and 0 <= py <= vector_tiles.TILE_EXTENT
    empty = client.get(f"{TILES}/10/{x + 3}/{y}.mvt")
    assert empty.status_code == 200 and empty.content == b""


def test_the_feed_filters_narrow_the_tiles(client: TestClient, corpus: Corpus, db: Session) -> None:
    assert guids(features(client, 0, 0, 0, countries="JP")) == {tour.guid for tour in corpus.tours[2::3]}
    museums = features(client, 0, 0, 0, categories=str(corpus.museums))
    assert guids(museums) == {tour.guid for tour in corpus.tours[1::2]}
    # A searched place's bounds do not narrow the map: the tile is the area.
    assert len(features(client, 0, 0, 0, leftX=0, leftY=40, rightX=5, rightY=50)) == 30
    bad = client.get(f"{TILES}/0/0/0.mvt", params={"categories": "x"})
    assert bad.status_code == 400 and "categories" in bad.json()["fields"]


def test_tiles_are_shared_with_etag_and_cache_control(client: TestClient, corpus: Corpus) -> None:
    first = client.get(f"{TILES}/1/1/0.mvt")
    assert first.status_code == 200 and first.content
    etag = first.headers["etag"]
    assert etag.startswith('W/"') and first.headers["cache-control"] == f"public, max-age={tiles.TILE_MAX_AGE_SECONDS}"
    again = client.get(f"{TILES}/1/1/0.mvt", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    listed = client.get(f"{TILES}/1/1/0.mvt", headers={"If-None-Match": f'"other", {etag.removeprefix("W/")}'})
    assert listed.status_code == 304
    other = client.get(f"{TILES}/1/1/0.mvt", params={"countries": "DE"}, headers={"If-None-Match": etag})
    assert other.status_code == 200 and other.headers["etag"] != etag
    # A signed-in visitor with an ordinary filter gets the same, shareable tile.
    signed_in = client.get(f"{TILES}/1/1/0.mvt", headers=factories.bearer(corpus.viewer))
    assert signed_in.headers["etag"] == etag and signed_in.headers["cache-control"].startswith("public")


def test_a_personal_feed_is_never_shared(client: TestClient, corpus: Corpus) -> None:
    response = client.get(f"{TILES}/0/0/0.mvt", params={"savesFollow": "true"}, headers=factories.bearer(corpus.viewer))
    assert response.headers["cache-control"].startswith("private") and "Authorization" in response.headers["vary"]
    decoded = mapbox_vector_tile.decode(response.content)["tours"]["features"]
    # The saved tour, and every tour of the followed creator (the second owner's).
    assert guids(decoded) == {corpus.tours[0].guid} | {tour.guid for tour in corpus.tours[1::3]}


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("23/0/0", "z"),
        ("-1/0/0", "z"),
        ("1/2/0", "x"),
        ("1/-1/0", "x"),
        ("1/0/2", "y"),
        ("3/0/8", "y"),
        ("a/0/0", "z"),
        ("1/b/0", "x"),
        ("1/0/1.5", "y"),
    ],
)
def test_a_tile_that_does_not_exist_is_a_400_naming_the_field(
    client: TestClient, corpus: Corpus, path: str, field: str
) -> None:
    response = client.get(f"{TILES}/{path}.mvt")
    assert response.status_code == 400, response.text
    assert field in response.json()["fields"]
