"""The realtime client in Debian's Chromium, against the distributed stack: a page open on one API
process offers 'New version available' the moment an admin announces a version from the command line
(through Redis), without waiting for its 15-minute check."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.realtime.conftest import World
from tests.realtime.stack import ROOT, Stack

pytestmark = pytest.mark.distributed

PUSH_WITHIN_MS = 10_000


def test_an_open_page_offers_a_new_version_as_soon_as_it_is_announced(stack: Stack, world: World) -> None:
    dist = Path(os.environ.get("FRONTEND_DIST", ROOT / "frontend" / "dist"))
    if not (dist / "index.html").exists():
        pytest.fail("The front end is not built: run `make test` (it builds it) or `npm --prefix frontend run build`.")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Debian's Chromium is missing at {CHROMIUM}: `make test` installs it (apt-get install chromium).")
    from playwright.sync_api import expect, sync_playwright

    (api,) = stack.apis("b")
    stack.run_cli("announce-version")  # the platform runs this build's version again

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page()
            page.goto(f"{api}/feed")
            expect(page.get_by_test_id("top-bar")).to_be_visible(timeout=30_000)
            expect(page.locator("html")).to_have_attribute("data-realtime", "connected", timeout=PUSH_WITHIN_MS)
            assert page.get_by_test_id("new-version-button").count() == 0

            stack.run_cli("announce-version", "9.10.0")
            button = page.get_by_test_id("new-version-button")
            expect(button).to_be_visible(timeout=PUSH_WITHIN_MS)
            expect(button).to_have_text("New version available")
            with page.expect_event("load"):
                button.click()  # reloads the page
        finally:
            browser.close()
