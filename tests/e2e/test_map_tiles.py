"""The map from vector tiles in Chromium (issue 18 parts 3 and 7): the tours come as tiles that the map
draws (tile requests seen, clusters and points rendered), a cluster click zooms in and asks for the
deeper tiles, a point opens its popup, the basemap is drawn from the server's offline tiles with place
names at city zoom, and Satellite, which has no source here, is not offered. Screenshots at 390 and
1440 px, at world and city zoom, in English and Russian, go to /tmp/shots/tiles."""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path
from typing import Any

from PIL import Image, ImageStat
from playwright.sync_api import Page, Request, expect

from tests.e2e.test_discovery import LOAD_TIMEOUT, map_status, wait_for_settled_map

SHOTS = Path(os.environ.get("TILES_SHOTS_DIR", "/tmp/shots/tiles"))
TOUR_TILE = re.compile(r"/v2/locations/tiles/(\d+)/(\d+)/(\d+)\.mvt")
BASEMAP_TILE = re.compile(r"/v2/locations/basemap/(\d+)/(\d+)/(\d+)\.mvt")


class Requests:
    """The requests a page made, by kind."""

    def __init__(self, page: Page) -> None:
        self.urls: list[str] = []
        page.on("request", self._seen)

    def _seen(self, request: Request) -> None:
        self.urls.append(request.url)

    def tour_tiles(self) -> list[tuple[int, int, int]]:
        return [tuple(map(int, found.groups())) for url in self.urls if (found := TOUR_TILE.search(url))]  # type: ignore[misc]

    def basemap_tiles(self) -> list[str]:
        return [url for url in self.urls if BASEMAP_TILE.search(url)]

    def map_area_calls(self) -> list[str]:
        return [url for url in self.urls if "/filtered-map" in url or "/map-area" in url]


def open_map(
    browser: Any,
    server: str,
    center: tuple[float, float],
    zoom: float,
    *,
    width: int = 1440,
    height: int = 900,
    stored: dict[str, str] | None = None,
) -> tuple[Page, Requests]:
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=server)
    page: Page = context.new_page()
    page.goto("/health")  # same origin: the map's stored camera (and what else `stored` says) is set first
    page.evaluate(
        "([center, zoom, stored]) => { localStorage.setItem('mapCenter', JSON.stringify(center));"
        " localStorage.setItem('mapZoom', String(zoom));"
        " for (const [key, value] of Object.entries(stored)) localStorage.setItem(key, value); }",
        [list(center), zoom, stored or {}],
    )
    requests = Requests(page)
    page.goto("/map")
    expect(page.locator("[data-testid=map-canvas] canvas").first).to_be_visible(timeout=LOAD_TIMEOUT)
    wait_for_settled_map(page)
    return page, requests


def test_the_map_draws_the_tours_from_vector_tiles(browser: Any, server: str) -> None:
    page, requests = open_map(browser, server, (10, 30), 1.6)
    status = map_status(page)
    assert int(status["clusters"]) > 0, status
    tiles = requests.tour_tiles()
    assert tiles and {z for z, _x, _y in tiles} == {1}, tiles  # the map's zoom, floored
    assert requests.map_area_calls() == []  # the per-viewport JSON is no longer asked for
    answer = page.request.get(f"/v2/locations/tiles/{tiles[0][0]}/{tiles[0][1]}/{tiles[0][2]}.mvt")
    assert answer.headers["content-type"] == "application/vnd.mapbox-vector-tile"
    assert answer.headers["cache-control"].startswith("public")
    # The basemap is the server's offline vector tiles.
    assert requests.basemap_tiles()
    expect(page.get_by_test_id("map-canvas")).to_have_attribute("data-basemap", "touratlas")


def test_a_cluster_click_zooms_in_and_asks_for_the_deeper_tiles(browser: Any, server: str) -> None:
    page, requests = open_map(browser, server, (10, 30), 1.6)
    status = map_status(page)
    zoom_before = float(status["zoom"])
    canvas = page.get_by_test_id("map-canvas").bounding_box()
    assert canvas is not None
    page.mouse.click(canvas["x"] + int(status["clusterX"]), canvas["y"] + int(status["clusterY"]))
    page.wait_for_function(
        "zoom => Number(document.querySelector('[data-testid=map-status]').dataset.zoom) > zoom + 0.5",
        arg=zoom_before,
        timeout=LOAD_TIMEOUT,
    )
    after = wait_for_settled_map(page)
    zoom_after = float(after["zoom"])
    assert zoom_after >= zoom_before + 1
    assert int(after["clusters"]) + int(after["points"]) > 0
    assert any(z == int(zoom_after) for z, _x, _y in requests.tour_tiles()), requests.tour_tiles()


def test_a_point_from_a_tile_opens_its_popup(browser: Any, server: str) -> None:
    page, _requests = open_map(browser, server, (2.35, 48.86), 11)
    status = map_status(page)
    assert int(status["points"]) > 0, status
    canvas = page.get_by_test_id("map-canvas").bounding_box()
    assert canvas is not None
    page.mouse.click(canvas["x"] + int(status["pointX"]), canvas["y"] + int(status["pointY"]))
    popup = page.get_by_test_id("map-popup")
    expect(popup).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(popup.get_by_role("link", name="Open tour")).to_have_attribute("href", re.compile(r"^/virtualtours/\w+$"))


def test_a_style_without_a_source_is_not_offered(browser: Any, server: str) -> None:
    page, _requests = open_map(browser, server, (2.35, 48.86), 5)
    switcher = page.get_by_test_id("map-style-switcher")
    expect(switcher.get_by_text("Streets")).to_be_visible()
    expect(switcher.get_by_text("Dark")).to_be_visible()
    expect(switcher.get_by_text("Satellite")).to_have_count(0)
    assert map_brightness(page) > 180  # Streets: a light land
    switcher.get_by_text("Dark").click()
    wait_for_settled_map(page)  # the tours come back on the new style
    assert page.evaluate("() => localStorage.getItem('mapStyle')") == "dark"
    page.wait_for_timeout(1000)
    assert map_brightness(page) < 90
    # Opened again, the map starts in the style it was left in.
    page.reload()
    wait_for_settled_map(page)
    page.wait_for_timeout(1000)
    assert map_brightness(page) < 90


def map_brightness(page: Page) -> float:
    """The mean brightness (0-255) of the middle of the map, where the basemap fills most pixels."""
    box = page.get_by_test_id("map-canvas").bounding_box()
    assert box is not None
    clip = {"x": box["x"] + box["width"] * 0.3, "y": box["y"] + box["height"] * 0.3, "width": 200, "height": 120}
    picture = Image.open(io.BytesIO(page.screenshot(clip=clip))).convert("L")
    return float(ImageStat.Stat(picture).mean[0])


def test_screenshots_at_world_and_city_zoom(browser: Any, server: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    consent = json.dumps({"necessary": True, "preferences": True, "decidedAt": "2026-01-01T00:00:00.000Z"})
    views = {"world": ((10.0, 30.0), 1.6), "city": ((2.35, 48.86), 12.5)}
    shots = [
        (name, language, width, height, "streets")
        for language in ("en", "ru")
        for width, height in ((1440, 900), (390, 844))
        for name in views
    ] + [("city", "en", 1440, 900, "dark"), ("city", "ru", 390, 844, "dark")]
    for name, language, width, height, style in shots:
        center, zoom = views[name]
        stored = {"cookieConsent": consent, "localise": language, "previewGuideSeen": "true", "mapStyle": style}
        page, requests = open_map(browser, server, center, zoom, width=width, height=height, stored=stored)
        expect(page.locator("html")).to_have_attribute("lang", language)
        page.wait_for_timeout(1500)  # the basemap's names drawn
        assert requests.basemap_tiles()
        page.screenshot(path=str(SHOTS / f"map-{name}-{style}-{width}-{language}.png"))
        page.context.close()
