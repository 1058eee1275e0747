"""Issue 18 parts 6 and 8 in Debian's Chromium: a hashtag of a tour's description is a link that opens
the #tag search; the Popular tags page lists the tag; a guest opening For You is asked to sign in.
Screenshots at 390 and 1440 px, in English and Russian, go to /tmp/shots/hashtags."""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.test_live import ADMIN, api, open_context, sign_in_token

SHOTS = Path(os.environ.get("HASHTAG_SHOTS_DIR", "/tmp/shots/hashtags"))
LOAD_TIMEOUT = 30_000
WIDTHS = (390, 1440)


def _add_tour_with_hashtags(server: str, token: str) -> tuple[str, dict[str, Any]]:
    """An administrator's tour (listed at once) whose description names two tags by hashtag, one
    with a spelling of its own, and carries a web address with a '#' fragment that is no hashtag."""
    vendors = api(server, "GET", "/v2/vendors/")["data"]
    kuula = next(vendor for vendor in vendors if vendor["vendor_name"] == "Kuula")
    categories = api(server, "GET", "/v2/categories/")["data"]
    historic = next(category for category in categories if category["name"] == "Historic Sites")
    media_type = api(server, "GET", "/v2/categories/media-types")["data"][0]
    castle = next(
        tag
        for tag in api(server, "GET", "/v2/categories/tags", params={"search": "castle"})["data"]
        if tag["name"] == "Castle"
    )
    body = {
        "vendor": kuula["vendor_id"],
        "link": f"https://kuula.co/share/{uuid.uuid4().hex[:5]}",
        "title": "Hashtag castle at dawn",
        "description": (
            "Morning light on the old walls (map: https://example.com/walls#castle).\n\n"
            "#castle #golden_hour #NoSuchTagHere"
        ),
        "media_type_id": media_type["id"],
        "category_id": historic["id"],
        "subcategory_id": historic["subcategories"][0]["id"],
        "coordinate": "50.0875,14.4213",
        "tags": [],
        "approve_needed": True,
    }
    answer = api(server, "POST", "/v2/virtualtours/", token, json=body)
    assert answer["pending"] is False
    tags = {tag["name"]: tag for tag in answer["data"]["tags"]}
    assert tags["Castle"]["id"] == castle["id"] and tags["Castle"]["hashtag"] == "castle"
    assert tags["Golden Hour"]["hashtag"] == "golden_hour"
    return str(answer["data"]["guid"]), tags


def _use_language(page: Page, language: str) -> None:
    page.context.add_init_script(f"localStorage.setItem('localise', '{language}');")


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(400)  # previews and fonts settle
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_a_hashtag_link_opens_the_tag_search_and_the_tag_is_popular(browser: Any, server: str) -> None:
    admin = sign_in_token(server, *ADMIN)
    guid, tags = _add_tour_with_hashtags(server, admin)
    castle_id = tags["Castle"]["id"]
    for language in ("en", "ru"):
        for width in WIDTHS:
            page = open_context(browser, server, width=width, height=900 if width > 500 else 844)
            _use_language(page, language)
            try:
                page.goto(f"/virtualtours/{guid}")
                description = page.get_by_test_id("tour-description")
                expect(description).to_contain_text("#NoSuchTagHere", timeout=LOAD_TIMEOUT)
                links = page.get_by_test_id("hashtag-link")
                expect(links).to_have_count(2)
                expect(links.first).to_have_text("#castle")
                expect(links.first).to_have_attribute("href", f"/feed?tag={castle_id}")
                description.scroll_into_view_if_needed()
                _shot(page, f"tour-page-{language}-{width}")

                links.first.click()
                expect(page).to_have_url(f"{server}/feed", timeout=LOAD_TIMEOUT)
                expect(page.get_by_test_id("media-card").first).to_be_visible(timeout=LOAD_TIMEOUT)
                expect(page.locator(f'[data-grid-item="{guid}"]')).to_be_visible(timeout=LOAD_TIMEOUT)
                grid = api(
                    server,
                    "GET",
                    "/v2/user-recomendations/filtered-grid",
                    params={"tags": str(castle_id), "mode": "both", "limit": 1},
                )
                expect(page.get_by_test_id("grid-total")).to_contain_text(str(grid["total_items"]))
                _shot(page, f"tag-search-{language}-{width}")

                page.goto("/tags")
                expect(page.get_by_test_id("popular-tag").first).to_be_visible(timeout=LOAD_TIMEOUT)
                # A new document in this tab may get the tour page's remembered scroll (the router's
                # restoration keys a first load alike): the page from its top.
                page.evaluate("() => window.scrollTo(0, 0)")
                _shot(page, f"popular-tags-{language}-{width}")
                # Castle is further down the list: "Show more" until it is there, with its count.
                row = page.locator(f'[data-testid="popular-tag"][data-tag-id="{castle_id}"]')
                for _ in range(10):
                    if row.count():
                        break
                    page.get_by_role("button", name="Show more" if language == "en" else "Показать ещё").click()
                    page.wait_for_timeout(300)
                expect(row).to_contain_text(str(grid["total_items"]))
            finally:
                page.context.close()


def test_a_guest_on_for_you_is_asked_to_sign_in(browser: Any, server: str) -> None:
    for language in ("en", "ru"):
        for width in WIDTHS:
            page = open_context(browser, server, width=width, height=900 if width > 500 else 844)
            _use_language(page, language)
            try:
                page.goto("/feed?feed=for_you")
                prompt = page.get_by_test_id("feed-sign-in")
                expect(prompt).to_be_visible(timeout=LOAD_TIMEOUT)
                expect(page.get_by_test_id("feed-empty")).to_have_count(0)
                expect(page.get_by_test_id("media-card")).to_have_count(0)
                _shot(page, f"for-you-guest-{language}-{width}")
                page.get_by_test_id("feed-sign-in-button").click()
                expect(page.get_by_role("dialog")).to_be_visible(timeout=LOAD_TIMEOUT)
            finally:
                page.context.close()


def test_each_feed_says_what_it_ranks_by(browser: Any, server: str) -> None:
    for language, popular_rule in (("en", "Popular: half the most viewed"), ("ru", "Популярное: наполовину")):
        for width in WIDTHS:
            page = open_context(browser, server, width=width, height=900 if width > 500 else 844)
            _use_language(page, language)
            try:
                page.goto("/feed?feed=popular")
                expect(page.get_by_test_id("feed-rule")).to_contain_text(popular_rule, timeout=LOAD_TIMEOUT)
                expect(page.get_by_test_id("media-card").first).to_be_visible(timeout=LOAD_TIMEOUT)
                _shot(page, f"popular-feed-{language}-{width}")
            finally:
                page.context.close()
