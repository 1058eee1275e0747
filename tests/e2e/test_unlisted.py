"""Issue 18 parts 4 and 5 in Debian's Chromium: an unlisted tour opens by its link and on its creator's
page but never in the feed; Manage Media makes a tour unlisted; the added-date filter narrows the grid.
Screenshots at 390 and 1440 px, in English and Russian, in /tmp/shots/unlisted/."""

from __future__ import annotations

import os
import time
import uuid
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.test_live import ADMIN, api, open_context, sign_in_token

SHOTS = Path(os.environ.get("UNLISTED_SHOTS_DIR", "/tmp/shots/unlisted"))
LOAD_TIMEOUT = 20_000
GRID = "/v2/user-recomendations/filtered-grid"


def _suffix() -> str:
    return uuid.uuid4().hex[:6]


def add_tour(server: str, token: str, title: str, *, visibility: str, userid: int | None = None) -> str:
    """A tour through the API: the admin's own, or on behalf of `userid` (staff: approved at once)."""
    vendors = api(server, "GET", "/v2/vendors/")["data"]
    kuula = next(vendor for vendor in vendors if vendor["vendor_name"] == "Kuula")
    category = api(server, "GET", "/v2/categories/")["data"][0]
    media_type = api(server, "GET", "/v2/categories/media-types")["data"][0]
    body: dict[str, Any] = {
        "vendor": kuula["vendor_id"],
        "link": f"https://kuula.co/share/{uuid.uuid4().hex[:5]}",
        "title": title,
        "description": "The cove below the cliffs, at low tide.",
        "media_type_id": media_type["id"],
        "category_id": category["id"],
        "subcategory_id": category["subcategories"][0]["id"],
        "coordinate": "43.2965,5.3698",
        "approve_needed": True,
        "visibility": visibility,
    }
    path = "/v2/virtualtours/"
    if userid is not None:
        body["userid"], path = userid, "/v2/virtualtours/on-behalf-of"
    answer = api(server, "POST", path, token, json=body)
    assert answer["pending"] is False and answer["data"]["visibility"] == visibility
    return str(answer["data"]["guid"])


def newest_guids(server: str, **params: Any) -> list[str]:
    grid = api(server, "GET", GRID, params={"mode": "media", "sorting": "newest", "limit": 48, **params})
    return [card["guid"] for card in grid["data"] if card["type"] == "vt"]


def in_newest_once_indexed(server: str, guid: str, *, expected: bool) -> bool:
    """Whether the newest feed holds `guid`, waiting until it does as `expected` or LOAD_TIMEOUT passes:
    a tour's index write runs after its commit, on the server's task thread, so the first feed request
    after the POST may be answered before it."""
    deadline = time.monotonic() + LOAD_TIMEOUT / 1000
    while True:
        present = guid in newest_guids(server)
        if present is expected or time.monotonic() > deadline:
            return present
        time.sleep(0.1)


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(400)  # transitions settle
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def russian(page: Page) -> None:
    page.context.add_init_script("localStorage.setItem('localise', 'ru')")


def test_an_unlisted_tour_opens_by_link_and_on_its_creators_page_but_not_in_the_feed(browser: Any, server: str) -> None:
    admin = sign_in_token(server, *ADMIN)
    creator = next(
        card
        for card in api(server, "GET", GRID, params={"mode": "creators", "limit": 5})["data"]
        if card["type"] == "creator"
    )
    suffix = _suffix()
    public = add_tour(server, admin, f"Public pier {suffix}", visibility="public", userid=creator["userid"])
    secret_title = f"Unlisted cove {suffix}"
    secret = add_tour(server, admin, secret_title, visibility="unlisted", userid=creator["userid"])

    # The feed, newest first: the public tour added just before it is there, the unlisted one is not.
    page = open_context(browser, server)
    page.goto("/feed?sorting=newest&mode=media")
    expect(page.locator(f"[data-testid=media-card][data-guid='{public}']")).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.locator(f"[data-testid=media-card][data-guid='{secret}']")).to_have_count(0)
    assert public in newest_guids(server) and secret not in newest_guids(server)
    assert secret not in newest_guids(server, searchPattern=secret_title)

    # Its link opens it, for a guest, and says it is unlisted.
    for width, height in ((1440, 900), (390, 844)):
        for language in ("en", "ru"):
            tour = open_context(browser, server, width=width, height=height)
            if language == "ru":
                russian(tour)
            tour.goto(f"/virtualtours/{secret}")
            expect(tour.get_by_test_id("tour-title")).to_have_text(secret_title, timeout=LOAD_TIMEOUT)
            note = tour.get_by_test_id("tour-unlisted")
            expect(note).to_be_visible()
            expect(note).to_contain_text("Unlisted" if language == "en" else "По ссылке")
            shoot(tour, f"tour-{width}-{language}")
            tour.context.close()

    # Its creator's page lists it to every visitor, with the added-date filter in the page's link.
    since = (date.today() - timedelta(days=1)).isoformat()
    page.goto(f"/creator/{creator['id']}?view=grid&added_from={since}")
    card = page.locator(f"[data-testid=media-card][data-guid='{secret}']")
    expect(card).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.locator(f"[data-testid=media-card][data-guid='{public}']")).to_be_visible()
    shown = page.locator("[data-testid=media-card]").evaluate_all("cards => cards.map(c => c.dataset.guid)")
    older = api(server, "GET", f"/v2/virtualtours/creator/{creator['userid']}", params={"added_to": since})
    assert not set(shown) & {card["guid"] for card in older["data"]}, "the date filter let older tours in"
    assert "added_from=" in page.url
    shoot(page, "creator-1440-en")
    page.context.close()


def test_manage_media_makes_a_tour_unlisted(browser: Any, server: str) -> None:
    admin_token = sign_in_token(server, *ADMIN)
    title = f"Harbour steps {_suffix()}"
    guid = add_tour(server, admin_token, title, visibility="public")
    assert in_newest_once_indexed(server, guid, expected=True)
    for language in ("en", "ru"):
        page = open_context(browser, server, admin_token)
        if language == "ru":
            russian(page)
        page.goto("/feed")
        page.get_by_test_id("profile-menu").click()
        page.get_by_role("menuitem", name="Manage Media" if language == "en" else "Управление медиа").click()
        row = page.get_by_test_id("manage-row").filter(has_text=title)
        expect(row).to_be_visible(timeout=LOAD_TIMEOUT)
        if language == "en":
            expect(row.get_by_test_id("manage-unlisted")).to_have_count(0)
            row.get_by_role("button", name="More actions").click()
            page.get_by_test_id("manage-make-unlisted").click()
            expect(row.get_by_test_id("manage-unlisted")).to_be_visible(timeout=LOAD_TIMEOUT)
        else:
            expect(row.get_by_test_id("manage-unlisted")).to_have_text("По ссылке")
        shoot(page, f"manage-1440-{language}")
        page.set_viewport_size({"width": 390, "height": 844})
        shoot(page, f"manage-390-{language}")
        # The media form opens the tour as it is: unlisted, with what that means.
        row.get_by_test_id("manage-edit").click()
        visibility = page.get_by_test_id("media-form-visibility")
        expect(visibility).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(visibility.locator("input[value=unlisted]")).to_be_checked()
        expect(page.get_by_test_id("media-form-visibility-hint")).to_contain_text(
            "link" if language == "en" else "ссылк"
        )
        visibility.scroll_into_view_if_needed()
        shoot(page, f"form-390-{language}")
        page.set_viewport_size({"width": 1440, "height": 900})
        visibility.scroll_into_view_if_needed()
        shoot(page, f"form-1440-{language}")
        page.context.close()
    assert not in_newest_once_indexed(server, guid, expected=False)
    assert api(server, "GET", f"/v2/virtualtours/{guid}")["visibility"] == "unlisted"


def test_the_added_date_filter_narrows_the_grid(browser: Any, server: str) -> None:
    month_ago = (date.today() - timedelta(days=30)).isoformat()
    everything = api(server, "GET", GRID, params={"mode": "media", "limit": 1})["total_items"]
    recent = api(server, "GET", GRID, params={"mode": "media", "limit": 48, "added_from": month_ago})
    assert 0 < recent["total_items"] < everything
    recent_guids = {card["guid"] for card in recent["data"] if card["type"] == "vt"}

    for width, height in ((1440, 900), (390, 844)):
        for language in ("en", "ru"):
            page = open_context(browser, server, width=width, height=height)
            if language == "ru":
                russian(page)
            page.goto("/feed?mode=media&sorting=newest")
            expect(page.get_by_test_id("media-card").first).to_be_visible(timeout=LOAD_TIMEOUT)
            page.wait_for_function(
                "(n) => (document.querySelector('[data-testid=grid-total]')?.textContent || '')"
                ".replace(/\\D/g, '') === String(n)",
                arg=everything,
                timeout=LOAD_TIMEOUT,
            )
            page.get_by_test_id("filters-button").click()
            chip = page.locator("[data-testid=filters-added-month] + label")  # the chip's input is hidden
            expect(chip).to_be_visible(timeout=LOAD_TIMEOUT)
            chip.click()
            page.wait_for_function(
                "(day) => performance.getEntriesByType('resource').some(entry => {"
                "  const url = new URL(entry.name);"
                "  return url.pathname.endsWith('/filtered-grid') && url.searchParams.get('added_from') === day; })",
                arg=month_ago,
                timeout=LOAD_TIMEOUT,
            )
            expect(page.get_by_test_id("filters-count")).to_contain_text("3")  # the link's order and mode, and the date
            shoot(page, f"filters-{width}-{language}")
            if width == 390:
                page.get_by_test_id("filters-done").click()
            else:
                page.keyboard.press("Escape")
                expect(page.get_by_test_id("filters-panel")).to_be_hidden()
            page.wait_for_function(
                "(n) => (document.querySelector('[data-testid=grid-total]')?.textContent || '')"
                ".replace(/\\D/g, '') === String(n)",
                arg=recent["total_items"],
                timeout=LOAD_TIMEOUT,
            )
            expect(page.get_by_test_id("card-grid-loading")).to_have_count(0, timeout=LOAD_TIMEOUT)
            shown = page.locator("[data-testid=media-card]").evaluate_all("cards => cards.map(c => c.dataset.guid)")
            assert shown and set(shown) <= recent_guids
            shoot(page, f"feed-{width}-{language}")
            page.context.close()
