"""The platform in a browser: the feed with demo tours, the map, and Russian."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect


def new_page(browser: Any, server: str, width: int = 1440, height: int = 900) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=server)
    return context.new_page()


def test_feed_shows_demo_tours(browser: Any, server: str) -> None:
    page = new_page(browser, server)
    page.goto("/")
    expect(page).to_have_url(f"{server}/feed")
    expect(page.get_by_test_id("top-bar")).to_be_visible()
    cards = page.get_by_test_id("media-card")
    expect(cards.first).to_be_visible(timeout=20_000)
    assert cards.count() >= 12
    expect(page.get_by_test_id("category-strip")).to_contain_text("Museums & Galleries")


def test_map_draws_the_world(browser: Any, server: str) -> None:
    page = new_page(browser, server)
    page.goto("/map")
    canvas = page.locator("[data-testid=map-canvas] canvas")
    expect(canvas.first).to_be_visible(timeout=20_000)
    box = canvas.first.bounding_box()
    assert box is not None and box["width"] > 1000 and box["height"] > 500
    # The offline basemap's attribution (its tiles: GSHHG and WDBII shapes, GeoNames places).
    expect(page.get_by_text(re.compile("GSHHG.*GeoNames"))).to_be_visible(timeout=20_000)


def test_language_switches_to_russian(browser: Any, server: str) -> None:
    page = new_page(browser, server)
    page.goto("/feed")
    expect(page.get_by_test_id("media-card").first).to_be_visible(timeout=20_000)
    page.get_by_test_id("language-picker").click()
    page.get_by_test_id("language-option-ru").click()
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    assert page.evaluate("() => localStorage.getItem('localise')") == "ru"
    placeholder = page.get_by_test_id("search-input").get_attribute("placeholder") or ""
    assert re.search("[\\u0400-\\u04ff]", placeholder), placeholder
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "ru")
