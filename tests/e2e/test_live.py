"""Issue 6 in Chromium: what changes while a page is open reaches it without a reload. Two browser
contexts on one tour page (one likes, the other sees the count move), a feed card whose saves move
when somebody saves its tour, an admin's moderation badge growing when a user submits a tour, and the
'New version available' notice after a deploy. Screenshots of the badge at 390 and 1440 px."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.e2e.conftest import ROOT

SHOTS = Path(os.environ.get("LIVE_SHOTS_DIR", "/tmp/shots/live"))
LOAD_TIMEOUT = 20_000
# A push lands in well under a second; the margin is for a loaded CI machine.
PUSH_TIMEOUT = 10_000
ADMIN = ("admin@touratlas.local", "Admin123!")
CONSENT = {"necessary": True, "preferences": True, "decidedAt": "2026-01-01T00:00:00.000Z"}
# First-visit screens of other features (cookie banner, language popup, guides) stay out of the way.
QUIET_FIRST_VISIT = f"""
  localStorage.setItem('cookieConsent', {json.dumps(json.dumps(CONSENT))});
  localStorage.setItem('localise', 'en');
  localStorage.setItem('previewGuideSeen', 'true');
"""
NO_RELOAD_MARK = "window.__stillTheSamePage = true"


# ------------------------------------------------------------------------------------------ helpers


def api(server: str, method: str, path: str, token: str | None = None, **kwargs: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = httpx.request(method, f"{server}{path}", headers=headers, timeout=30, **kwargs)
    assert answer.status_code < 300, f"{method} {path}: {answer.status_code} {answer.text}"
    return answer.json()


def sign_in_token(server: str, email: str, password: str) -> str:
    body = {"email": email, "password": password, "auth_system": "Email", "user_system_id": "e2e"}
    return str(api(server, "POST", "/v2/users/sign-in", json=body)["user_jwt"])


def new_member(server: str) -> str:
    """A fresh account (it owns nothing, so it may like and save anything); its token."""
    suffix = uuid.uuid4().hex[:8]
    body = {
        "email": f"live.{suffix}@example.com",
        "password": "Secret1!",
        "first_name": "Live",
        "last_name": "Member",
        "platform_username": f"live_{suffix}",
    }
    token = str(api(server, "POST", "/v2/users/sign-up", json=body)["user_jwt"])
    # The getting-started guide greets new accounts; these tests look at counters, not at the guide.
    api(
        server,
        "POST",
        "/v2/users/user-guide-steps",
        token,
        json={"guide_steps": {"skipped": True, "completeGuide": True}},
    )
    return token


def open_context(browser: Any, server: str, token: str | None = None, width: int = 1440, height: int = 900) -> Page:
    """A browser context of its own (its own storage, its own socket), signed in with `token`."""
    context: BrowserContext = browser.new_context(viewport={"width": width, "height": height}, base_url=server)
    script = QUIET_FIRST_VISIT
    if token:
        script += f"localStorage.setItem('access_token', {json.dumps(token)});"
    context.add_init_script(script)
    return context.new_page()


def connected(page: Page) -> None:
    expect(page.locator("html")).to_have_attribute("data-realtime", "connected", timeout=LOAD_TIMEOUT)


def in_room(page: Page, room: str) -> None:
    """The server has confirmed the page's join: pushes to the room reach it from now on."""
    rooms = re.compile(rf"(?:^| ){re.escape(room)}(?: |$)")
    expect(page.locator("html")).to_have_attribute("data-realtime-rooms", rooms, timeout=LOAD_TIMEOUT)


def open_menu(page: Page) -> None:
    """The profile menu, opened and done fading in (for the screenshots)."""
    page.get_by_test_id("profile-menu").click()
    expect(page.get_by_test_id("navigation-menu")).to_be_visible()
    # A function, not an expression: Playwright evaluates a bare expression with eval() in the page,
    # which the Content-Security-Policy forbids.
    page.wait_for_function(
        "() => getComputedStyle(document.querySelector('[data-testid=navigation-menu]')).opacity === '1'"
    )


def mark_page(page: Page) -> None:
    page.evaluate(NO_RELOAD_MARK)


def not_reloaded(page: Page) -> None:
    assert page.evaluate("window.__stillTheSamePage === true"), "the page was reloaded"


def value(page: Page, test_id: str) -> int:
    return int(page.get_by_test_id(test_id).first.get_attribute("data-value") or "-1")


def listed_tour(server: str) -> str:
    grid = api(server, "GET", "/v2/user-recomendations/filtered-grid", params={"mode": "media", "limit": 5})
    return str(next(card["guid"] for card in grid["data"] if card["type"] == "vt"))


def submit_tour(server: str, token: str) -> str:
    """A member's new tour, through the API: it waits for an administrator."""
    vendors = api(server, "GET", "/v2/vendors/")["data"]
    kuula = next(vendor for vendor in vendors if vendor["vendor_name"] == "Kuula")
    category = api(server, "GET", "/v2/categories/")["data"][0]
    media_type = api(server, "GET", "/v2/categories/media-types")["data"][0]
    body = {
        "vendor": kuula["vendor_id"],
        "link": f"https://kuula.co/share/{uuid.uuid4().hex[:5]}",
        "title": "A live lighthouse",
        "description": "The old lighthouse by the harbour, seen from the pier at dawn.",
        "media_type_id": media_type["id"],
        "category_id": category["id"],
        "subcategory_id": category["subcategories"][0]["id"],
        "coordinate": "48.8584,2.2945",
        "approve_needed": True,
    }
    answer = api(server, "POST", "/v2/virtualtours/", token, json=body)
    assert answer["pending"] is True
    return str(answer["data"]["guid"])


@pytest.fixture
def pages() -> Iterator[list[Page]]:
    """Every page a test opens, closed with its context at the end."""
    opened: list[Page] = []
    yield opened
    for page in opened:
        page.context.close()


# -------------------------------------------------------------------------------------------- tests


def test_a_like_moves_the_counter_on_every_open_copy_of_the_tour_page(
    browser: Any, server: str, pages: list[Page]
) -> None:
    guid = listed_tour(server)
    watcher = open_context(browser, server)  # a guest, looking
    liker = open_context(browser, server, new_member(server))
    pages.extend([watcher, liker])
    for page in (watcher, liker):
        page.goto(f"/virtualtours/{guid}")
        expect(page.get_by_test_id("count-likes")).to_be_visible(timeout=LOAD_TIMEOUT)
    in_room(watcher, f"tour:{guid}")
    mark_page(watcher)
    likes = value(watcher, "count-likes")

    liker.get_by_test_id("like-button").click()
    expect(liker.get_by_test_id("count-likes")).to_have_attribute("data-value", str(likes + 1))
    expect(watcher.get_by_test_id("count-likes")).to_have_attribute("data-value", str(likes + 1), timeout=PUSH_TIMEOUT)
    not_reloaded(watcher)

    liker.get_by_test_id("like-button").click()  # and back
    expect(watcher.get_by_test_id("count-likes")).to_have_attribute("data-value", str(likes), timeout=PUSH_TIMEOUT)


def test_a_feed_card_counts_the_saves_of_other_visitors(browser: Any, server: str, pages: list[Page]) -> None:
    watcher = open_context(browser, server)
    pages.append(watcher)
    watcher.goto("/feed")
    card = watcher.get_by_test_id("media-card").first
    expect(card).to_be_visible(timeout=LOAD_TIMEOUT)
    guid = card.get_attribute("data-guid")
    assert guid
    in_room(watcher, f"tour:{guid}")
    mark_page(watcher)
    saves = int(card.get_by_test_id("card-saves").get_attribute("data-value") or "-1")
    views = int(card.get_by_test_id("card-views").get_attribute("data-value") or "-1")

    saver = new_member(server)
    api(server, "POST", "/v2/virtualtours/post_saves", saver, json={"id": guid, "saves": saves + 1, "isSave": True})
    expect(card.get_by_test_id("card-saves")).to_have_attribute("data-value", str(saves + 1), timeout=PUSH_TIMEOUT)
    api(server, "POST", "/v2/virtualtours/post_view", saver, json={"id": guid})
    expect(card.get_by_test_id("card-views")).to_have_attribute("data-value", str(views + 1), timeout=PUSH_TIMEOUT)
    not_reloaded(watcher)


def test_the_admins_moderation_badge_grows_when_a_tour_is_submitted(
    browser: Any, server: str, pages: list[Page]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    submitter = new_member(server)  # signing up files a 'new user' item: before the count is read
    admin_token = sign_in_token(server, *ADMIN)
    admin = open_context(browser, server, admin_token)
    pages.append(admin)
    with admin.expect_response(lambda response: "/v2/pending/approval-items" in response.url) as counted:
        admin.goto("/feed")
    assert counted.value.ok
    connected(admin)
    waiting = sum(api(server, "GET", "/v2/pending/approval-items?limit=0", admin_token)["pending"].values())
    indicator = admin.get_by_test_id("moderation-indicator")
    if waiting:
        expect(indicator).to_have_text(str(waiting))
    mark_page(admin)

    submit_tour(server, submitter)
    expect(indicator).to_have_text(str(waiting + 1), timeout=PUSH_TIMEOUT)
    open_menu(admin)
    badge = admin.get_by_role("menuitem", name=re.compile("Moderation")).get_by_test_id("moderation-count")
    expect(badge).to_have_text(str(waiting + 1))
    not_reloaded(admin)
    admin.screenshot(path=str(SHOTS / "badge-1440.png"))

    phone = open_context(browser, server, admin_token, width=390, height=844)
    pages.append(phone)
    phone.goto("/feed")
    expect(phone.get_by_test_id("moderation-indicator")).to_have_text(str(waiting + 1), timeout=LOAD_TIMEOUT)
    open_menu(phone)
    expect(phone.get_by_test_id("moderation-count")).to_have_text(str(waiting + 1))
    phone.screenshot(path=str(SHOTS / "badge-390.png"))


def announce_version(server_data_dir: Path, version: str | None = None) -> None:
    """`python -m app.cli announce-version` on the e2e server's database, as an admin after a deploy."""
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
    env["DATA_DIR"] = str(server_data_dir)
    command = [sys.executable, "-m", "app.cli", "announce-version", *([version] if version else [])]
    subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True, timeout=60)


def test_a_deploy_offers_the_new_version_to_an_open_page(
    browser: Any, server: str, server_data_dir: Path, pages: list[Page]
) -> None:
    """The embedded server has no Redis: a version announced from the command line reaches open
    pages at their 15-minute check (the page's clock is moved on here), still without a reload. The
    immediate push through Redis is tests/realtime/test_browser_realtime.py."""
    page = open_context(browser, server)
    pages.append(page)
    page.clock.install()
    page.goto("/feed")
    connected(page)
    expect(page.get_by_test_id("top-bar")).to_be_visible()
    assert page.get_by_test_id("new-version-button").count() == 0
    mark_page(page)
    try:
        announce_version(server_data_dir, "9.10.0-live")
        page.clock.fast_forward("15:01")
        button = page.get_by_test_id("new-version-button")
        expect(button).to_have_text("New version available", timeout=PUSH_TIMEOUT)
        not_reloaded(page)
    finally:
        announce_version(server_data_dir)  # this build's version again, for the other tests
