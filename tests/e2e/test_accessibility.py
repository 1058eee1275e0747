"""Accessibility in a browser (issue 12, part 4; issue 13 added the creator page): axe-core's WCAG 2.0-2.2
A and AA rules on every main screen at 390 and 1440 px, signed out and signed in, with no serious or
critical violation; the keyboard path feed → tour page → like with a visible focus; the map's list of
the tours in view, by keyboard."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page, expect

LOAD_TIMEOUT = 20_000
PASSWORD = "Secret1!"
WIDTHS = [pytest.param(390, 844, id="390px"), pytest.param(1440, 900, id="1440px")]
# axe-core's rules for WCAG 2.0, 2.1 and 2.2, levels A and AA.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": WCAG_TAGS},
    # WCAG 2.5.3 (label in name): axe files it as experimental, so the tag filter alone leaves it out.
    "rules": {"label-content-name-mismatch": {"enabled": True}},
    "resultTypes": ["violations"],
}
BLOCKING_IMPACTS = {"serious", "critical"}
# What a returning visitor has already answered: the cookie banner, the language popup, the guest guide.
CONSENT = {"necessary": True, "preferences": True, "decidedAt": "2026-01-01T00:00:00.000Z"}
ANSWERED_FIRST_VISIT = f"""
  localStorage.setItem('cookieConsent', {json.dumps(json.dumps(CONSENT))});
  localStorage.setItem('localise', 'en');
  localStorage.setItem('previewGuideSeen', 'true');
"""
# The focus ring is visible when the focused element draws an outline or a box shadow.
FOCUS_RING = """element => {
  const style = getComputedStyle(element);
  const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
  return outline || style.boxShadow !== 'none';
}"""

AXE = Axe()


class Audit:
    """axe-core on one page after another; every screen's serious and critical violations, kept for one report."""

    def __init__(self, page: Page, width: int) -> None:
        self.page = page
        self.width = width
        self.findings: list[str] = []
        self.screens: list[str] = []

    def check(self, screen: str) -> None:
        name = f"{screen} @ {self.width}px"
        self.screens.append(name)
        results = AXE.run(self.page, options=AXE_OPTIONS).response
        for violation in results["violations"]:
            if violation["impact"] not in BLOCKING_IMPACTS:
                continue
            for node in violation["nodes"]:
                summary = " ".join(node["failureSummary"].split())[:300]
                self.findings.append(f"{name}: {violation['id']} ({violation['impact']}) {node['target']}: {summary}")

    def report(self) -> str:
        return f"{len(self.findings)} serious or critical nodes on {len(self.screens)} screens:\n" + "\n".join(
            self.findings[:60]
        )


def new_member(server: str) -> tuple[str, str]:
    """A fresh account through the API: its email and token (the getting-started guide still to come)."""
    suffix = uuid.uuid4().hex[:8]
    email = f"a11y.{suffix}@example.com"
    body = {
        "email": email,
        "password": PASSWORD,
        "repeat_password": PASSWORD,
        "first_name": "Alan",
        "last_name": "Turing",
        "platform_username": f"a11y_{suffix}",
    }
    answer = httpx.post(f"{server}/v2/users/sign-up", json=body, timeout=30)
    assert answer.status_code == 201, answer.text
    return email, str(answer.json()["user_jwt"])


def sign_in_with(page: Page, token: str) -> None:
    page.evaluate(f"localStorage.setItem('access_token', {json.dumps(token)})")


def a_listed_tour(server: str) -> str:
    answer = httpx.get(f"{server}/v2/user-recomendations/filtered-grid", params={"mode": "media"}, timeout=30)
    assert answer.status_code == 200, answer.text
    return str(next(card["guid"] for card in answer.json()["data"] if card["type"] == "vt"))


def a_creator_id(server: str) -> int:
    answer = httpx.get(f"{server}/v2/user-recomendations/filtered-grid", params={"mode": "creators"}, timeout=30)
    assert answer.status_code == 200, answer.text
    return int(next(card["id"] for card in answer.json()["data"] if card["type"] == "creator"))


def open_screen(page: Page, path: str, ready: Callable[[Page], Locator]) -> None:
    """Open a screen and wait for what shows it is drawn (not for the network to fall silent: it costs
    half a second a screen, and what arrives later are pictures, which axe does not judge)."""
    page.goto(path)
    expect(ready(page)).to_be_visible(timeout=LOAD_TIMEOUT)


def shown_in_full(element: Locator) -> None:
    """The element is visible and done fading in (axe measures contrast on what is drawn)."""
    expect(element).to_be_visible(timeout=LOAD_TIMEOUT)
    element.evaluate("e => Promise.all(e.getAnimations({subtree: true}).map(a => a.finished))")
    element.page.wait_for_function("e => getComputedStyle(e).opacity === '1'", arg=element.element_handle())


def check_the_feed_and_the_map(audit: Audit, page: Page, who: str) -> None:
    open_screen(page, "/feed", lambda page: page.get_by_test_id("media-card").first)
    audit.check(f"feed ({who})")
    page.get_by_test_id("feed-selector").click()
    shown_in_full(page.get_by_role("menu"))
    audit.check(f"feed menu ({who})")
    page.keyboard.press("Escape")
    open_screen(page, "/map", lambda page: page.get_by_test_id("map-list-toggle"))
    page.get_by_test_id("map-list-toggle").click()
    expect(page.get_by_test_id("map-view-list-item").first).to_be_visible(timeout=LOAD_TIMEOUT)
    audit.check(f"map with its list ({who})")


@pytest.mark.parametrize(("width", "height"), WIDTHS)
def test_the_main_screens_have_no_serious_accessibility_violations(
    browser: Any, server: str, width: int, height: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=server)
    page: Page = context.new_page()
    audit = Audit(page, width)
    guid = a_listed_tour(server)
    creator = a_creator_id(server)
    _, token = new_member(server)

    # A first visit: the feed under the cookie banner.
    open_screen(page, "/feed", lambda page: page.get_by_test_id("media-card").first)
    audit.check("feed, first visit")
    page.evaluate(ANSWERED_FIRST_VISIT)

    check_the_feed_and_the_map(audit, page, "signed out")
    open_screen(page, f"/virtualtours/{guid}", lambda page: page.get_by_test_id("like-button"))
    audit.check("tour page (signed out)")
    open_screen(page, f"/creator/{creator}?view=grid", lambda page: page.get_by_test_id("media-card").first)
    audit.check("creator page (signed out)")
    open_screen(page, "/registration", lambda page: page.get_by_test_id("sign-in-form"))
    audit.check("sign in")
    open_screen(page, "/registration?tab=signup", lambda page: page.get_by_test_id("sign-up-form"))
    audit.check("sign up")
    open_screen(page, "/create_account", lambda page: page.get_by_test_id("sign-up-form"))
    audit.check("account creation")
    open_screen(page, "/billing/plans", lambda page: page.get_by_role("heading", level=1))
    audit.check("billing plans (signed out)")

    sign_in_with(page, token)
    open_screen(page, "/feed", lambda page: page.get_by_test_id("guide-next"))
    audit.check("getting-started guide")
    page.get_by_test_id("guide-skip").click()
    check_the_feed_and_the_map(audit, page, "signed in")
    open_screen(page, f"/virtualtours/{guid}", lambda page: page.get_by_test_id("like-button"))
    audit.check("tour page (signed in)")
    open_screen(page, f"/creator/{creator}?view=list", lambda page: page.get_by_test_id("creator-follow"))
    expect(page.get_by_test_id("media-card").first).to_be_visible(timeout=LOAD_TIMEOUT)
    audit.check("creator page (signed in)")
    open_screen(page, "/billing/plans", lambda page: page.get_by_role("heading", level=1))
    audit.check("billing plans (signed in)")
    open_screen(page, "/feed", lambda page: page.get_by_test_id("profile-menu"))
    page.get_by_test_id("profile-menu").click()
    shown_in_full(page.get_by_test_id("navigation-menu"))
    audit.check("navigation menu")
    page.get_by_role("menuitem", name="Settings").click()
    expect(page.get_by_test_id("settings-modal").get_by_label("First name")).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.get_by_test_id("navigation-menu")).to_be_hidden()  # gone, not fading out under the dialog
    shown_in_full(page.get_by_role("dialog"))
    audit.check("settings dialog")
    context.close()

    assert not audit.findings, audit.report()


def tab_to(page: Page, test_id: str, presses: int = 80) -> Locator:
    """Press Tab until the element with this test id has the focus; that element."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement?.dataset?.testid ?? null") == test_id:
            return page.locator("*:focus")
    raise AssertionError(f"{presses} presses of Tab never reached [data-testid={test_id}]")


def assert_focus_visible(element: Locator) -> None:
    assert element.evaluate(FOCUS_RING), f"no visible focus on {element.evaluate('e => e.outerHTML.slice(0, 160)')}"


def test_the_keyboard_opens_a_tour_from_the_feed_and_likes_it_with_a_visible_focus(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=server)
    context.add_init_script(ANSWERED_FIRST_VISIT)
    page: Page = context.new_page()
    _, token = new_member(server)
    httpx.post(
        f"{server}/v2/users/user-guide-steps",
        headers={"Authorization": f"Bearer {token}"},
        json={"guide_steps": {"skipped": True, "completeGuide": True}},
        timeout=30,
    ).raise_for_status()
    page.goto("/feed")
    sign_in_with(page, token)
    open_screen(page, "/feed", lambda page: page.get_by_test_id("media-card").first)

    card = tab_to(page, "media-card")
    assert_focus_visible(card)
    guid = card.get_attribute("data-guid")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(rf"/virtualtours/{guid}$"))
    expect(page.get_by_test_id("like-button")).to_be_enabled(timeout=LOAD_TIMEOUT)
    likes = int(page.get_by_test_id("count-likes").get_attribute("data-value") or "-1")

    like = tab_to(page, "like-button")
    assert_focus_visible(like)
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("like-button")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("count-likes")).to_have_attribute("data-value", str(likes + 1))
    expect(page.get_by_test_id("like-button")).to_be_focused()
    expect(page.get_by_test_id("like-button")).to_have_attribute("aria-busy", "false")  # the server answered
    page.keyboard.press("Space")  # and back
    expect(page.get_by_test_id("like-button")).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_test_id("count-likes")).to_have_attribute("data-value", str(likes))
    context.close()


def test_the_map_lists_the_tours_in_view_for_the_keyboard(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=server)
    context.add_init_script(ANSWERED_FIRST_VISIT)
    page: Page = context.new_page()
    open_screen(page, "/map", lambda page: page.get_by_test_id("map-list-toggle"))

    toggle = tab_to(page, "map-list-toggle")
    assert_focus_visible(toggle)
    page.keyboard.press("Enter")
    panel = page.get_by_test_id("map-view-list")
    expect(panel.get_by_role("heading")).to_have_text(re.compile(r"^[\d,.K]+ tours? in view$"), timeout=LOAD_TIMEOUT)
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(panel.get_by_test_id("map-view-list-item").first).to_be_visible()

    item = tab_to(page, "map-view-list-item", presses=3)
    assert_focus_visible(item)
    href = item.get_attribute("href") or ""
    page.keyboard.press("Escape")  # closes the list and gives the focus back to its toggle
    expect(panel).to_have_count(0)
    expect(page.get_by_test_id("map-list-toggle")).to_be_focused()

    page.keyboard.press("Enter")
    tab_to(page, "map-view-list-item", presses=3)
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(rf"{re.escape(href)}$"))
    expect(page.get_by_test_id("like-button")).to_be_visible(timeout=LOAD_TIMEOUT)
    context.close()
