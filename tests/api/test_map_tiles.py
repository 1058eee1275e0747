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


def tours_in(found: list[dict[str, Any]]) -> int:
    return sum(feature["properties"]["tours"] for feature in found)


def test_below_zoom_18_a_tile_groups_its_tours_into_cells(client: TestClient, corpus: Corpus) -> None:
    world = features(client, 0, 0, 0)
    # Cells of a quarter of the world at zoom 0: Paris and Berlin share one, Tokyo has its own.
    assert sorted(feature["properties"]["tours"] for feature in world) == [10, 20]
    assert all(set(feature["properties"]) == {"tours", "server_cluster", "expansion_zoom"} for feature in world)
    assert {feature["properties"]["expansion_zoom"] for feature in world} == {2}
    assert all(feature["properties"]["server_cluster"].startswith("2/") for feature in world)
    # Paris's ten tours (one tile at zoom 11) share a few cells there.
    x, y = tile_of(48.8566, 2.3522, 11)
    paris = features(client, 11, x, y)
    assert tours_in(paris) == 10 and 1 < len(paris) < 10
    assert {feature["properties"].get("expansion_zoom") for feature in paris} <= {13, None}
    # At zoom 15 (cells of 0.0027°) the tours, 0.003° apart, each have a cell: ten points, no draft.
    (west, north), (east, south) = tile_of(48.8566, 2.3522, 15), tile_of(48.8566 + 0.027, 2.3522 + 0.027, 15)
    deep = [
        feature
        for x in range(west, east + 1)
        for y in range(south, north + 1)
        for feature in features(client, 15, x, y)
    ]
    assert guids(deep) == {tour.guid for tour in corpus.tours[0::3]} and tours_in(deep) == 10


def test_from_zoom_18_a_tile_holds_its_tours_as_points(client: TestClient, corpus: Corpus) -> None:
    tour = corpus.tours[0]
    x, y = tile_of(48.8566, 2.3522, 18)
    found = features(client, 18, x, y)
    assert len(found) == 1
    point = found[0]
    assert point["properties"] == {"tours": 1, "guid": tour.guid, "title": "Walk 00 in Paris"}
    assert point["id"] == tour.id
    assert tuple(point["geometry"]["coordinates"]) == vector_tiles.tile_pixel(
        vector_tiles.TileAddress(18, x, y), 2.3522, 48.8566
    )
    # The pixel maths itself: Paris in the world tile's 4096 units.
    assert vector_tiles.tile_pixel(vector_tiles.TileAddress(0, 0, 0), 2.3522, 48.8566) == (2075, 1409)
    assert client.get(f"{TILES}/22/{x << 4}/{y << 4}.mvt").status_code == 200


def test_tiles_split_the_world_without_repeating_a_tour(client: TestClient, corpus: Corpus) -> None:
    assert sum(tours_in(features(client, 1, x, y)) for x in range(2) for y in range(2)) == 30
    x, y = tile_of(48.8566, 2.3522, 10)
    paris = features(client, 10, x, y)
    assert tours_in(paris) == 10
    for feature in paris:  # everything inside its tile
        px, py = feature["geometry"]["coordinates"]
        assert 0 <= px <= vector_tiles.TILE_EXTENT and 0 <= py <= vector_tiles.TILE_EXTENT
    empty = client.get(f"{TILES}/10/{x + 3}/{y}.mvt")
    assert empty.status_code == 200 and empty.content == b""


def test_the_feed_filters_narrow_the_tiles(client: TestClient, corpus: Corpus) -> None:
    japan = features(client, 0, 0, 0, countries="JP")
    assert tours_in(japan) == 10 and len(japan) == 1
    assert tours_in(features(client, 0, 0, 0, categories=str(corpus.museums))) == 15
    x, y = tile_of(48.8566, 2.3522, 18)
    assert features(client, 18, x, y, countries="JP") == []
    assert guids(features(client, 18, x, y, categories=str(corpus.museums))) == set()  # tour 0 is Nature
    # A searched place's bounds do not narrow the map: the tile is the area.
    assert tours_in(features(client, 0, 0, 0, leftX=0, leftY=40, rightX=5, rightY=50)) == 30
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
    assert tours_in(decoded) == 1 + len(corpus.tours[1::3])
    x, y = tile_of(48.8566, 2.3522, 18)
    saved = client.get(
        f"{TILES}/18/{x}/{y}.mvt", params={"savesFollow": "true"}, headers=factories.bearer(corpus.viewer)
    )
    assert guids(mapbox_vector_tile.decode(saved.content)["tours"]["features"]) == {corpus.tours[0].guid}


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
