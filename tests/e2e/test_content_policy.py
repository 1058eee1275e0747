"""The built front end works under its Content-Security-Policy (issue 12 part 5): the feed, the map
(MapLibre's workers), a tour page with its player started, and the registration page, in Chromium,
without one refused script, style, image, frame, worker or connection (Socket.IO)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import ConsoleMessage, Page, expect

LOAD_TIMEOUT = 20_000

# Runs before any page script (Playwright injects it outside the page's policy).
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.__cspViolations.push(`${event.violatedDirective} refused ${event.blockedURI || 'inline'}`);
});
"""


def watched_page(browser: Any, server: str) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=server)
    context.add_init_script(RECORD_VIOLATIONS)
    page: Page = context.new_page()
    refusals: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Refused to" in message.text:
            refusals.append(message.text)

    page.on("console", on_console)
    return page, refusals


def violations(page: Page, refusals: list[str]) -> list[str]:
    recorded: list[str] = page.evaluate("window.__cspViolations")
    return refusals + recorded


def test_the_feed_the_map_and_a_tour_page_run_under_the_policy(browser: Any, server: str) -> None:
    page, refusals = watched_page(browser, server)
    answer = page.goto("/feed")
    assert answer is not None and "script-src 'self'" in (answer.headers.get("content-security-policy") or "")
    cards = page.get_by_test_id("media-card")
    expect(cards.first).to_be_visible(timeout=LOAD_TIMEOUT)
    page.wait_for_load_state("networkidle")
    assert violations(page, refusals) == []

    guid = cards.first.get_attribute("data-guid")
    page.goto(f"/virtualtours/{guid}")
    start = page.get_by_test_id("start-tour")
    expect(page.get_by_test_id("tour-player")).to_be_visible(timeout=LOAD_TIMEOUT)
    if start.count():
        start.click()
        expect(page.get_by_test_id("tour-player").locator("iframe, video")).to_have_count(1)
    page.wait_for_load_state("networkidle")
    assert violations(page, refusals) == []

    page.goto("/map")
    canvas = page.locator("[data-testid=map-canvas] canvas")
    expect(canvas.first).to_be_visible(timeout=LOAD_TIMEOUT)
    box = canvas.first.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -600)  # zoom in: MapLibre's workers cut new tiles
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1000)
    assert violations(page, refusals) == []

    page.goto("/registration")
    page.wait_for_load_state("networkidle")
    assert violations(page, refusals) == []
