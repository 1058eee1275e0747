"""Discovery in a browser (issue 3, part 6): the endless grid, category and country filters, the map's
clusters and popups, and '#' / '@' search suggestions, against the real server and its demo tours."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import Page, Response, expect

GRID_CALL = "/v2/user-recomendations/filtered-grid"
WORLD = {"leftX": -180, "leftY": -85, "rightX": 180, "rightY": 85}
LOAD_TIMEOUT = 20_000


def new_page(browser: Any, server: str, width: int = 1440, height: int = 900) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=server)
    page: Page = context.new_page()
    return page


def grid_query(response: Response) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlparse(response.url).query).items()}


def is_grid_call(response: Response) -> bool:
    return GRID_CALL in response.url and response.request.method == "GET"


def card_guids(page: Page) -> list[str]:
    guids: list[str] = page.locator("[data-testid=media-card]").evaluate_all("cards => cards.map(c => c.dataset.guid)")
    return guids


def tours_on_map(page: Page, **filters: str) -> dict[str, dict[str, Any]]:
    """Every tour the server has for these filters, with its properties, by guid (zoom 24: no clusters)."""
    answer = page.request.get("/v2/user-recomendations/filtered-map", params={**WORLD, "zoom": 24, **filters})
    assert answer.ok, answer.text()
    body = answer.json()
    assert body["clusters"] == []
    return {feature["properties"]["guid"]: feature["properties"] for feature in body["features"]}


def wait_for_grid_with(page: Page, name: str, value: str) -> None:
    """Wait until the grid shows the answer to a call filtered by `name=value`."""
    page.wait_for_function(
        "([name, value]) => performance.getEntriesByType('resource').some(entry => {"
        "  const url = new URL(entry.name);"
        "  return url.pathname.endsWith('/filtered-grid') && url.searchParams.get(name) === value; })",
        arg=[name, value],
        timeout=LOAD_TIMEOUT,
    )
    expect(page.get_by_test_id("card-grid-loading")).to_have_count(0, timeout=LOAD_TIMEOUT)
    expect(page.get_by_test_id("media-card").first).to_be_visible(timeout=LOAD_TIMEOUT)


def test_the_grid_scrolls_to_its_third_page_without_repeating_a_card(browser: Any, server: str) -> None:
    page = new_page(browser, server)
    pages: list[dict[str, Any]] = []
    page.on("response", lambda response: pages.append(response.json()) if is_grid_call(response) else None)
    offsets: list[str] = []
    page.on(
        "request",
        lambda request: (
            offsets.append(parse_qs(urlparse(request.url).query)["offset"][0]) if GRID_CALL in request.url else None
        ),
    )
    page.goto("/feed")
    expect(page.get_by_test_id("media-card").first).to_be_visible(timeout=LOAD_TIMEOUT)

    for _ in range(20):
        if "96" in offsets and len(pages) >= 3:
            break
        page.mouse.wheel(0, 6000)
        page.wait_for_timeout(400)
    assert offsets[:3] == ["0", "48", "96"], offsets

    def served_keys() -> list[str]:
        return [card.get("guid") or f"{card['type']}-{card['id']}" for body in pages for card in body["data"]]

    # Let every requested page arrive and be drawn: the grid may ask for a fourth page while the third
    # draws, so compare with what was served once no request is in flight (not at a fixed moment).
    grid_items = page.locator("[data-grid-item]")
    for _ in range(LOAD_TIMEOUT // 250):
        if len(pages) == len(offsets) and grid_items.count() == len(set(served_keys())):
            break
        page.wait_for_timeout(250)

    served = served_keys()
    tours_and_creators = [key for key in served if not key.startswith("ad-")]
    assert len(tours_and_creators) >= 3 * 48
    assert len(tours_and_creators) == len(set(tours_and_creators)), "the server repeated a tour or creator across pages"
    # Sponsored cards may come again on a later page; the grid still shows every card once.
    expect(grid_items).to_have_count(len(set(served)), timeout=LOAD_TIMEOUT)
    shown = page.locator("[data-grid-item]").evaluate_all(
        "cards => cards.map(c => c.dataset.testid + ':' + c.dataset.gridItem)"
    )
    assert len(shown) == len(set(shown)), "the grid shows a card twice"


def test_back_from_a_tour_returns_to_the_card_that_was_opened(browser: Any, server: str) -> None:
    page = new_page(browser, server)
    page.goto("/feed")
    cards = page.get_by_test_id("media-card")
    expect(cards.first).to_be_visible(timeout=LOAD_TIMEOUT)
    for _ in range(10):
        if cards.count() > 60:
            break
        page.mouse.wheel(0, 4000)
        page.wait_for_timeout(400)
    card = cards.nth(60)  # on the second page
    card.scroll_into_view_if_needed()
    guid = card.get_attribute("data-guid")
    card.click()
    expect(page).to_have_url(re.compile(rf"/virtualtours/{guid}$"))
    assert page.evaluate("() => localStorage.getItem('gridItemId')") == guid

    page.go_back()
    returned = page.locator(f"[data-testid=media-card][data-guid='{guid}']")
    expect(returned).to_be_in_viewport(timeout=LOAD_TIMEOUT)
    assert page.evaluate("() => window.scrollY") > 1000


def test_a_category_narrows_the_grid_to_its_tours(browser: Any, server: str) -> None:
    page = new_page(browser, server)
    page.goto("/feed")
    expect(page.get_by_test_id("media-card").first).to_be_visible(timeout=LOAD_TIMEOUT)
    before = card_guids(page)

    chip = page.get_by_test_id("category-strip").get_by_role("button", name="Museums & Galleries")
    category_id = chip.get_attribute("data-category-id")
    assert category_id
    chip.click()
    expect(chip).to_have_attribute("aria-pressed", "true")
    wait_for_grid_with(page, "categories", category_id)

    after = card_guids(page)
    assert after and after != before
    in_category = tours_on_map(page, categories=category_id)
    for guid in after:
        assert guid in in_category, f"{guid} is not a tour of category {category_id}"
        assert in_category[guid]["category_id"] == int(category_id)

    chip.click()  # a second click shows every category again
    expect(chip).to_have_attribute("aria-pressed", "false")


def test_a_country_from_the_filters_narrows_the_grid_and_counts_in_the_badge(browser: Any, server: str) -> None:
    page = new_page(browser, server)
    page.goto("/feed")
    expect(page.get_by_test_id("media-card").first).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.get_by_test_id("filters-count")).not_to_contain_text(re.compile(r"\d"))

    page.get_by_test_id("filters-button").click()
    countries = page.get_by_test_id("filters-countries")
    countries.click()
    countries.fill("France")
    page.get_by_role("option", name="France", exact=True).click()
    page.keyboard.press("Escape")
    wait_for_grid_with(page, "countries", "FR")
    expect(page.get_by_test_id("filters-count")).to_contain_text("1")

    french = tours_on_map(page, countries="FR")
    shown = card_guids(page)
    assert shown
    for guid in shown:
        assert guid in french, f"{guid} is not a tour in France"
        assert str(french[guid]["address"]).endswith("France"), french[guid]["address"]


def map_status(page: Page) -> dict[str, str]:
    status: dict[str, str] = page.get_by_test_id("map-status").evaluate("element => ({ ...element.dataset })")
    return status


def wait_for_settled_map(page: Page) -> dict[str, str]:
    # Settled means an answer is drawn, not only "not loading": on a loaded machine the first fetch
    # may not have started yet when the map reports ready.
    page.wait_for_function(
        "() => { const s = document.querySelector('[data-testid=map-status]');"
        " return s && s.dataset.ready && !s.dataset.loading"
        " && Number(s.dataset.points || 0) + Number(s.dataset.clusters || 0) > 0; }",
        timeout=30_000,
    )
    page.wait_for_timeout(500)  # the last answer drawn and the map idle again
    return map_status(page)


def open_map_at(page: Page, center: tuple[float, float], zoom: float) -> dict[str, str]:
    page.goto("/health")  # same origin, so the map's stored camera can be set before it opens
    page.evaluate(
        "([center, zoom]) => { localStorage.setItem('mapCenter', JSON.stringify(center));"
        " localStorage.setItem('mapZoom', String(zoom)); }",
        [list(center), zoom],
    )
    page.goto("/map")
    expect(page.locator("[data-testid=map-canvas] canvas").first).to_be_visible(timeout=LOAD_TIMEOUT)
    return wait_for_settled_map(page)


def test_clicking_a_cluster_zooms_in_to_where_it_splits(browser: Any, server: str) -> None:
    page = new_page(browser, server)
    status = open_map_at(page, (10, 30), 1.6)
    assert int(status["clusters"]) > 0, status
    zoom_before = float(status["zoom"])

    canvas = page.get_by_test_id("map-canvas").bounding_box()
    assert canvas is not None
    page.mouse.click(canvas["x"] + int(status["clusterX"]), canvas["y"] + int(status["clusterY"]))
    page.wait_for_function(
        "zoom => Number(document.querySelector('[data-testid=map-status]').dataset.zoom) > zoom + 0.1",
        arg=zoom_before,
        timeout=LOAD_TIMEOUT,
    )
    after = wait_for_settled_map(page)
    assert float(after["zoom"]) > zoom_before
    assert page.evaluate("() => Number(localStorage.getItem('mapZoom'))") > zoom_before  # the zoom is remembered


def test_a_point_opens_its_popup_card(browser: Any, server: str) -> None:
    page = new_page(browser, server)
    status = open_map_at(page, (2.35, 48.86), 11)
    assert int(status["points"]) > 0, status
    canvas = page.get_by_test_id("map-canvas").bounding_box()
    assert canvas is not None
    page.mouse.click(canvas["x"] + int(status["pointX"]), canvas["y"] + int(status["pointY"]))
    popup = page.get_by_test_id("map-popup")
    expect(popup).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(popup.get_by_role("link", name="Open tour")).to_have_attribute("href", re.compile(r"^/virtualtours/\w+$"))


def test_hash_and_at_searches_suggest_tags_and_creators(browser: Any, server: str) -> None:
    page = new_page(browser, server)
    page.goto("/feed")
    search = page.get_by_test_id("search-input")
    search.click()

    search.fill("#a")
    expect(page.get_by_test_id("search-prefix")).to_have_text("Tags")
    expect(page.get_by_test_id("suggestion-tag").first).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.get_by_test_id("suggestion-creator")).to_have_count(0)
    expect(page.get_by_test_id("suggestion-tour")).to_have_count(0)

    search.fill("@a")
    expect(page.get_by_test_id("search-prefix")).to_have_text("Creators")
    expect(page.get_by_test_id("suggestion-creator").first).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.get_by_test_id("suggestion-tag")).to_have_count(0)
    expect(page.get_by_test_id("suggestion-creator").first).to_contain_text("@")

    # Choosing a tag turns it into a tag filter, counted in the filters badge.
    search.fill("#a")
    tag = page.get_by_test_id("suggestion-tag").first
    expect(tag).to_be_visible(timeout=LOAD_TIMEOUT)
    tag.click()
    expect(page.get_by_test_id("filters-count")).to_contain_text("1")


def test_on_a_phone_the_filters_open_in_a_sheet_and_the_map_fills_the_screen(browser: Any, server: str) -> None:
    page = new_page(browser, server, width=390, height=844)
    page.goto("/feed")
    expect(page.get_by_test_id("media-card").first).to_be_visible(timeout=LOAD_TIMEOUT)
    page.get_by_test_id("filters-button").click()
    sheet = page.get_by_test_id("filters-form")
    expect(sheet).to_be_visible()
    box = sheet.bounding_box()
    assert box is not None and box["width"] > 300
    page.get_by_test_id("filters-done").click()
    expect(sheet).to_be_hidden()

    # The radio's label, as a visitor clicks it (the radio itself is hidden; its name comes from the label).
    page.get_by_test_id("view-toggle").locator("label", has_text="Map").click()
    expect(page).to_have_url(re.compile(r"/map$"))
    canvas = page.locator("[data-testid=map-canvas] canvas").first
    expect(canvas).to_be_visible(timeout=LOAD_TIMEOUT)
    map_box = canvas.bounding_box()
    bar_box = page.get_by_test_id("top-bar").bounding_box()
    assert map_box is not None and bar_box is not None
    assert map_box["width"] >= 389 and map_box["y"] >= bar_box["y"] + bar_box["height"] - 1
    assert map_box["y"] + map_box["height"] >= 843
