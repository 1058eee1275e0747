"""The basemap (issue 18 part 7): the offline vector tiles made from packaged data, the styles on offer,
and a deployer's PMTiles archive served in their place. Tiles are decoded and their features checked
against what is known to be there (the sea, a lake, a border, a river, a city's name)."""

from __future__ import annotations

import gzip
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import mapbox_vector_tile
import pytest
from fastapi.testclient import TestClient
from pmtiles.tile import Compression, TileType, zxy_to_tileid
from pmtiles.writer import Writer

from app.core import vector_tiles
from app.core.settings import get_settings
from app.locations import basemap

BASEMAP = "/v2/locations/basemap"


@pytest.fixture
def settings_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """Settings read anew after the test sets its variables, and as they were afterwards."""
    get_settings.cache_clear()
    yield monkeypatch
    monkeypatch.undo()
    get_settings.cache_clear()


def tile_of(lat: float, lng: float, z: int) -> tuple[int, int]:
    n = 1 << z
    sin_lat = math.sin(math.radians(lat))
    return int((lng + 180) / 360 * n), int((0.5 - math.log((1 + sin_lat) / (1 - sin_lat)) / (4 * math.pi)) * n)


def layers(client: TestClient, z: int, x: int, y: int) -> dict[str, list[dict[str, Any]]]:
    response = client.get(f"{BASEMAP}/{z}/{x}/{y}.mvt")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == vector_tiles.MVT_MEDIA_TYPE
    decoded = mapbox_vector_tile.decode(response.content, default_options={"y_coord_down": True})
    return {name: layer["features"] for name, layer in decoded.items()}


def kinds(features: list[dict[str, Any]]) -> set[str]:
    return {feature["properties"]["kind"] for feature in features}


def test_the_offline_basemap_is_described_without_a_style_it_cannot_draw(client: TestClient) -> None:
    info = client.get(BASEMAP).json()
    assert info["tile_schema"] == "touratlas" and info["min_zoom"] == 0 and info["max_zoom"] == basemap.BASEMAP_MAX_ZOOM
    assert info["tiles"].startswith(f"{BASEMAP}/{{z}}/{{x}}/{{y}}.mvt?v=")
    # Satellite has no offline imagery: it is not offered rather than faked.
    assert info["styles"] == [{"name": "streets", "url": None}, {"name": "dark", "url": None}]
    assert "GSHHG" in info["attribution"] and "GeoNames" in info["attribution"]


def test_hosted_styles_are_offered_as_configured(client: TestClient, settings_env: pytest.MonkeyPatch) -> None:
    settings_env.setenv("MAP_STYLE_SATELLITE_URL", "https://maps.example.com/satellite.json")
    settings_env.setenv("MAP_STYLE_DARK_URL", "https://maps.example.com/dark.json")
    get_settings.cache_clear()
    styles = client.get(BASEMAP).json()["styles"]
    assert styles == [
        {"name": "streets", "url": None},
        {"name": "dark", "url": "https://maps.example.com/dark.json"},
        {"name": "satellite", "url": "https://maps.example.com/satellite.json"},
    ]


def test_the_world_tile_has_land_borders_and_country_names(client: TestClient) -> None:
    world = layers(client, 0, 0, 0)
    assert {"earth", "boundaries", "places"} <= set(world) and "rivers" not in world
    assert {"land", "lake", "ice"} <= kinds(world["earth"])
    assert kinds(world["boundaries"]) >= {"country"}
    names = {feature["properties"]["name"]: feature["properties"] for feature in world["places"]}
    assert names["France"]["kind"] == "country" and names["Japan"]["kind"] == "country"
    assert all(place["kind"] == "country" for place in names.values())  # no city is named this far out


def test_at_city_zoom_the_basemap_is_not_blank(client: TestClient) -> None:
    # Geneva at zoom 9: the shore of Lake Geneva, the Swiss-French border, Geneva and the towns around it.
    x, y = tile_of(46.2044, 6.1432, 9)
    geneva = layers(client, 9, x, y)
    assert {"land", "lake"} <= kinds(geneva["earth"])
    assert "country" in kinds(geneva["boundaries"])
    assert "rivers" in geneva
    places = {feature["properties"]["name"]: feature["properties"] for feature in geneva["places"]}
    assert places["Geneva"]["kind"] == "city" and places["Geneva"]["rank"] >= 150_000
    assert "town" in {place["kind"] for place in places.values()}
    ranks = [feature["properties"]["rank"] for feature in geneva["places"]]
    assert ranks == sorted(ranks, reverse=True)  # the biggest first
    for feature in geneva["places"]:  # each name in its own tile only
        px, py = feature["geometry"]["coordinates"]
        assert 0 <= px <= vector_tiles.TILE_EXTENT and 0 <= py <= vector_tiles.TILE_EXTENT
    # First-level regions: their names everywhere, their borders where the data has them (the Americas).
    x, y = tile_of(39.0, -98.0, 5)
    kansas = layers(client, 5, x, y)
    assert "region" in kinds(kansas["boundaries"]) and "region" in kinds(kansas["places"])


def test_the_open_sea_is_an_empty_tile(client: TestClient) -> None:
    x, y = tile_of(-40.0, -130.0, 8)  # the South Pacific
    response = client.get(f"{BASEMAP}/8/{x}/{y}.mvt")
    assert response.status_code == 200 and response.content == b""


def test_basemap_tiles_are_cached_for_long(client: TestClient) -> None:
    first = client.get(f"{BASEMAP}/2/2/1.mvt")
    assert first.headers["cache-control"] == f"public, max-age={7 * 24 * 3600}"
    again = client.get(f"{BASEMAP}/2/2/1.mvt", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


@pytest.mark.parametrize(
    ("path", "field"),
    [(f"{basemap.BASEMAP_MAX_ZOOM + 1}/0/0", "z"), ("2/4/0", "x"), ("2/0/-1", "y"), ("x/0/0", "z")],
)
def test_a_basemap_tile_that_does_not_exist_is_a_400(client: TestClient, path: str, field: str) -> None:
    response = client.get(f"{BASEMAP}/{path}.mvt")
    assert response.status_code == 400 and field in response.json()["fields"]


def write_archive(path: Path, tiles: dict[tuple[int, int, int], bytes], *, compression: Compression) -> None:
    with path.open("wb") as handle:
        writer = Writer(handle)
        for (z, x, y), content in sorted(tiles.items(), key=lambda item: zxy_to_tileid(*item[0])):
            stored = gzip.compress(content) if compression == Compression.GZIP else content
            writer.write_tile(zxy_to_tileid(z, x, y), stored)
        writer.finalize(
            {
                "tile_type": TileType.MVT,
                "tile_compression": compression,
                "min_lon_e7": -1800000000,
                "min_lat_e7": -850000000,
                "max_lon_e7": 1800000000,
                "max_lat_e7": 850000000,
                "center_zoom": 0,
                "center_lon_e7": 0,
                "center_lat_e7": 0,
            },
            {"attribution": "© Test extract"},
        )


def protomaps_tile(name: str) -> bytes:
    return vector_tiles.encode_layers(
        [
            ("earth", [{"geometry": "POLYGON((0 0, 4096 0, 4096 4096, 0 4096, 0 0))", "properties": {}}]),
            ("places", [{"geometry": "POINT(2048 2048)", "properties": {"kind": "locality", "name": name}}]),
        ]
    )


def test_a_pmtiles_archive_is_served_in_place_of_the_offline_basemap(
    client: TestClient, settings_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    archive = tmp_path / "region.pmtiles"
    write_archive(
        archive,
        {(0, 0, 0): protomaps_tile("World"), (1, 1, 0): protomaps_tile("North-east")},
        compression=Compression.GZIP,
    )
    settings_env.setenv("BASEMAP_PMTILES", str(archive))
    get_settings.cache_clear()
    info = client.get(BASEMAP).json()
    assert (info["tile_schema"], info["min_zoom"], info["max_zoom"]) == ("protomaps", 0, 1)
    assert info["attribution"] == "© Test extract"
    gzipped = client.get(f"{BASEMAP}/1/1/0.mvt", headers={"Accept-Encoding": "gzip"})
    assert gzipped.status_code == 200 and gzipped.headers["content-encoding"] == "gzip"
    decoded = mapbox_vector_tile.decode(gzipped.content)  # the test client has undone the gzip
    assert decoded["places"]["features"][0]["properties"]["name"] == "North-east"
    plain = client.get(f"{BASEMAP}/0/0/0.mvt", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert mapbox_vector_tile.decode(plain.content)["places"]["features"][0]["properties"]["name"] == "World"
    missing = client.get(f"{BASEMAP}/1/0/1.mvt")
    assert missing.status_code == 200 and missing.content == b""
    assert client.get(f"{BASEMAP}/2/0/0.mvt").status_code == 400  # past the archive's deepest zoom


def test_an_archive_path_is_read_from_the_data_dir(
    client: TestClient, settings_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    write_archive(tmp_path / "plain.pmtiles", {(0, 0, 0): protomaps_tile("Plain")}, compression=Compression.NONE)
    settings_env.setenv("DATA_DIR", str(tmp_path))
    settings_env.setenv("BASEMAP_PMTILES", "plain.pmtiles")
    get_settings.cache_clear()
    assert client.get(BASEMAP).json()["tile_schema"] == "protomaps"
    response = client.get(f"{BASEMAP}/0/0/0.mvt", headers={"Accept-Encoding": "gzip"})
    assert mapbox_vector_tile.decode(response.content)["places"]["features"][0]["properties"]["name"] == "Plain"


def test_an_unreadable_archive_falls_back_to_the_offline_basemap(
    client: TestClient, settings_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "broken.pmtiles").write_bytes(b"not a pmtiles archive")
    for value in (str(tmp_path / "broken.pmtiles"), str(tmp_path / "missing.pmtiles")):
        settings_env.setenv("BASEMAP_PMTILES", value)
        get_settings.cache_clear()
        info = client.get(BASEMAP).json()
        assert info["tile_schema"] == "touratlas" and info["max_zoom"] == basemap.BASEMAP_MAX_ZOOM
