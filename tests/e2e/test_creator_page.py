"""Issue 13 in Chromium: the public creator page. Opened from a creator card, it shows the short view
and the creator's tours in grid, list and map; a category set on the page is kept in its link and
survives a reload (and leaves the feed's own filters alone); a signed-in member follows the creator
while a visitor's open copy of the page sees the follower count move; unknown creators get their own
page; the page opens by name too. Screenshots at 390 and 1440 px."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_live import QUIET_FIRST_VISIT, api, connected, in_room, new_member, open_context, value

SHOTS = Path(os.environ.get("CREATOR_SHOTS_DIR", "/tmp/shots/creator"))
LOAD_TIMEOUT = 20_000
PUSH_TIMEOUT = 10_000
WORLD = {"leftX": -180, "leftY": -85, "rightX": 180, "rightY": 85}


def a_creator(server: str) -> dict[str, Any]:
    """A creator with tours in several categories, as the creators grid shows it."""
    grid = api(server, "GET", "/v2/user-recomendations/filtered-grid", params={"mode": "creators", "limit": 24})
    cards = [card for card in grid["data"] if card["type"] == "creator" and card["vt_count"] >= 4]
    assert cards, "the demo has no creator with tours"
    return dict(cards[0])


def tours_of(server: str, userid: int) -> dict[str, dict[str, Any]]:
    """Every listed tour of the creator with its properties, by guid (zoom 24: no clusters)."""
    body = api(server, "GET", "/v2/user-recomendations/filtered-map", params={**WORLD, "zoom": 24, "userid": userid})
    return {feature["properties"]["guid"]: feature["properties"] for feature in body["features"]}


def shown_guids(page: Page) -> list[str]:
    guids: list[str] = page.locator("[data-testid=media-card]").evaluate_all("cards => cards.map(c => c.dataset.guid)")
    return guids


def link_params(page: Page) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlparse(page.url).query).items()}


def choose_view(page: Page, label: str) -> None:
    # The radio's label, as a visitor clicks it (the radio itself is hidden; its name comes from the label).
    page.get_by_test_id("creator-view-switch").locator("label", has_text=label).click()


@pytest.fixture
def pages() -> Iterator[list[Page]]:
    opened: list[Page] = []
    yield opened
    for page in opened:
        page.context.close()


def test_a_creator_card_opens_the_page_with_its_tours_in_grid_list_and_map_and_a_filter_survives_a_reload(
    browser: Any, server: str, pages: list[Page]
) -> None:
    creator = a_creator(server)
    tours = tours_of(server, creator["userid"])
    page = open_context(browser, server)
    pages.append(page)

    page.goto("/feed?mode=creators")
    card = page.locator(f"[data-testid=creator-card][data-grid-item='{creator['id']}']")
    expect(card).to_be_visible(timeout=LOAD_TIMEOUT)
    card.click()
    expect(page).to_have_url(re.compile(rf"/creator/{creator['id']}(/|$)"))
    expect(page.get_by_test_id("creator-name")).to_have_text(creator["creator_name"], timeout=LOAD_TIMEOUT)
    expect(page.get_by_test_id("creator-count-tours")).to_have_attribute("data-value", str(creator["vt_count"]))
    # A guest is asked to sign in rather than shown a follow toggle.
    expect(page.get_by_test_id("creator-follow")).to_have_text("Sign in to follow")

    choose_view(page, "Grid")
    expect(page.get_by_test_id("media-card").first).to_be_visible(timeout=LOAD_TIMEOUT)
    assert set(shown_guids(page)) <= set(tours)
    assert link_params(page)["view"] == "grid"

    choose_view(page, "List")
    expect(page.locator("[data-testid=card-grid][data-layout=list]")).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.get_by_test_id("media-card").first).to_be_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "creator-1440-list.png"))

    choose_view(page, "Map")
    expect(page.locator("[data-testid=map-canvas] canvas").first).to_be_visible(timeout=LOAD_TIMEOUT)
    page.wait_for_function(
        "() => { const s = document.querySelector('[data-testid=map-status]');"
        " return s && s.dataset.ready && !s.dataset.loading"
        " && Number(s.dataset.points || 0) + Number(s.dataset.clusters || 0) > 0; }",
        timeout=30_000,
    )
    page.screenshot(path=str(SHOTS / "creator-1440-map.png"))

    # A category of one of the creator's tours, chosen on the page: kept in the link, and a reload keeps it.
    choose_view(page, "Grid")
    category = str(next(iter(tours.values()))["category_id"])
    chip = page.get_by_test_id("creator-full-profile").locator(f"[data-category-id='{category}']")
    chip.click()
    expect(chip).to_have_attribute("aria-pressed", "true")
    page.wait_for_function(
        "category => new URL(location.href).searchParams.get('categories') === category", arg=category
    )
    expect(page.get_by_test_id("card-grid-loading")).to_have_count(0, timeout=LOAD_TIMEOUT)
    expect(page.get_by_test_id("media-card").first).to_be_visible(timeout=LOAD_TIMEOUT)
    in_category = {guid for guid, tour in tours.items() if str(tour["category_id"]) == category}
    page.wait_for_function(
        "wanted => [...document.querySelectorAll('[data-testid=media-card]')]"
        "  .every(card => wanted.includes(card.dataset.guid))",
        arg=sorted(in_category),
        timeout=LOAD_TIMEOUT,
    )

    page.reload()
    expect(page.get_by_test_id("creator-name")).to_have_text(creator["creator_name"], timeout=LOAD_TIMEOUT)
    assert link_params(page)["categories"] == category and link_params(page)["view"] == "grid"
    chip = page.get_by_test_id("creator-full-profile").locator(f"[data-category-id='{category}']")
    expect(chip).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("creator-clear-filters")).to_be_visible()
    expect(page.get_by_test_id("media-card").first).to_be_visible(timeout=LOAD_TIMEOUT)
    assert set(shown_guids(page)) <= in_category
    page.set_viewport_size({"width": 1440, "height": 900})
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "creator-1440.png"))

    # The page's filters are its own: the feed comes back as the visitor left it (creators only).
    page.goto("/feed")
    expect(page.get_by_test_id("creator-card").first).to_be_visible(timeout=LOAD_TIMEOUT)
    strip = page.get_by_test_id("category-strip").locator(f"[data-category-id='{category}']")
    expect(strip).to_have_attribute("aria-pressed", "false")


def test_a_member_follows_and_an_open_copy_of_the_page_sees_the_count_move(
    browser: Any, server: str, pages: list[Page]
) -> None:
    creator = a_creator(server)
    token = new_member(server)
    path = f"/creator/{creator['id']}"

    watcher = open_context(browser, server)
    pages.append(watcher)
    watcher.goto(path)
    expect(watcher.get_by_test_id("creator-name")).to_be_visible(timeout=LOAD_TIMEOUT)
    connected(watcher)
    in_room(watcher, f"creator:{creator['id']}")

    member = open_context(browser, server, token)
    pages.append(member)
    member.goto(path)
    follow = member.get_by_test_id("creator-follow")
    expect(follow).to_have_attribute("aria-pressed", "false", timeout=LOAD_TIMEOUT)
    before = value(member, "creator-count-followers")

    follow.focus()
    member.keyboard.press("Enter")
    expect(follow).to_have_attribute("aria-pressed", "true")
    expect(follow).to_have_attribute("aria-busy", "false")  # the server answered
    expect(member.get_by_test_id("creator-count-followers")).to_have_attribute("data-value", str(before + 1))
    expect(watcher.get_by_test_id("creator-count-followers")).to_have_attribute(
        "data-value", str(before + 1), timeout=PUSH_TIMEOUT
    )
    followed = api(server, "GET", "/v2/creators/is-follow", token, params={"creator_id": creator["id"]})
    assert followed["isFollow"] is True

    member.reload()  # the server remembers it
    expect(member.get_by_test_id("creator-follow")).to_have_attribute("aria-pressed", "true", timeout=LOAD_TIMEOUT)


def test_phones_get_the_tours_and_the_profile_as_tabs_and_the_page_opens_by_name(
    browser: Any, server: str, pages: list[Page]
) -> None:
    creator = a_creator(server)
    page = open_context(browser, server, width=390, height=844)
    pages.append(page)
    page.goto(f"/creator/{creator['platform_username']}")
    expect(page.get_by_test_id("creator-name")).to_have_text(creator["creator_name"], timeout=LOAD_TIMEOUT)
    choose_view(page, "Grid")
    expect(page.get_by_test_id("media-card").first).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.get_by_test_id("creator-about")).to_have_count(0)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "creator-390-tours.png"))

    page.get_by_test_id("creator-tab-profile").click()
    expect(page.get_by_test_id("creator-about")).to_be_visible()
    expect(page.get_by_test_id("media-card")).to_have_count(0)
    page.screenshot(path=str(SHOTS / "creator-390-profile.png"))


def test_an_unknown_creator_gets_a_page_that_says_so(browser: Any, server: str, pages: list[Page]) -> None:
    page = open_context(browser, server)
    pages.append(page)
    page.add_init_script(QUIET_FIRST_VISIT)
    page.goto("/creator/987654321")
    expect(page.get_by_test_id("creator-not-found")).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.get_by_role("heading", level=1)).to_have_text("Creator not found")
