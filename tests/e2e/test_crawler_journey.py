"""Issue 17 part 1 in Chromium: an admin configures the crawler for a provider (a local fake site,
tests/fakes/crawl_site.py, reachable because the e2e server allows 127.0.0.1), starts a crawl and
watches the session's counters climb without a reload (crawler:status pushes), sees the crawled tours
in the crawler tours tab, publishes one with a media type and a category, and finds it as a tour.
Screenshots of both tabs at 390 and 1440 px, in English and Russian, under /tmp/shots/crawler."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from tests.e2e.test_live import (
    ADMIN,
    LOAD_TIMEOUT,
    PUSH_TIMEOUT,
    api,
    connected,
    mark_page,
    not_reloaded,
    open_context,
    sign_in_token,
)
from tests.e2e.test_moderation import settled
from tests.fakes.crawl_site import CrawlSite, running_crawl_site

SHOTS = Path(os.environ.get("CRAWLER_SHOTS_DIR", "/tmp/shots/crawler"))
HOST = "CrawlTours"
TOURS = 12
# Slow enough that the crawl's counters are seen on their way up (16 requests at 4 a second).
RATE = 4
CRAWL_TIMEOUT_SECONDS = 60


@pytest.fixture(scope="module")
def site(server_data_dir: Path, server: str) -> Iterator[CrawlSite]:
    """The fake provider, registered as a host of the e2e server with the link pattern of its tours."""
    with running_crawl_site(tours=TOURS, with_extras=False) as fake:
        _register_host(server_data_dir / "touratlas.db", fake.tour_pattern)
        yield fake


def _register_host(database: Path, link_pattern: str) -> None:
    import app.models  # noqa: F401 - every table, so the foreign keys resolve
    from app.vendors.models import Vendor

    engine = create_engine(f"sqlite:///{database}", connect_args={"timeout": 30})
    with Session(engine) as session:
        vendor = session.scalar(select(Vendor).where(Vendor.name == HOST))
        if vendor is None:
            vendor = Vendor(name=HOST, slug="crawltours", group_name="Panoramas", website="http://127.0.0.1/")
            session.add(vendor)
        # The fake site's port is new on every run: its pattern follows.
        vendor.link_pattern = link_pattern
        session.commit()
    engine.dispose()


@pytest.fixture
def pages() -> Iterator[list[Page]]:
    opened: list[Page] = []
    yield opened
    for page in opened:
        page.context.close()


def shot(page: Page, name: str, *, full_page: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    settled(page)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size
    assert viewport is not None and width <= viewport["width"], f"{name}: the page is {width} px wide"


def choose(page: Page, test_id: str, option: str | None = None) -> None:
    page.get_by_test_id(test_id).click()
    options = page.get_by_role("option")
    (options.filter(has_text=option) if option else options).first.click()


def counter(page: Page, name: str) -> int:
    card = page.get_by_test_id("crawler-configuration").filter(has_text="Fake provider")
    return int(card.get_by_test_id(f"crawl-{name}").get_attribute("data-value") or "-1")


def test_an_admin_crawls_a_provider_and_publishes_a_tour(
    browser: Any, server: str, site: CrawlSite, pages: list[Page]
) -> None:
    token = sign_in_token(server, *ADMIN)
    page = open_context(browser, server, token)
    pages.append(page)
    page.goto("/admin/moderation?tab=crawlerSettings")
    connected(page)
    expect(page.get_by_test_id("crawler-settings")).to_be_visible(timeout=LOAD_TIMEOUT)

    # Configure: the provider, its sitemap index, a polite rate; the tour links are the host's pattern.
    page.get_by_test_id("crawler-add").click()
    form = page.get_by_test_id("crawler-form")
    form.get_by_test_id("crawler-name").fill("Fake provider")
    choose(page, "crawler-provider", HOST)
    form.get_by_test_id("crawler-sitemaps").fill(site.url("/sitemap_index.xml"))
    form.get_by_test_id("crawler-rate").fill(str(RATE))
    form.get_by_test_id("crawler-save").click()
    card = page.get_by_test_id("crawler-configuration").filter(has_text="Fake provider")
    expect(card).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(card).to_contain_text(HOST)
    expect(card).to_contain_text("Not crawled yet.")

    # Start, and watch the counters climb as the pushes arrive (no reload, no polling by the page).
    mark_page(page)
    card.get_by_test_id("crawler-start").click()
    expect(card.get_by_test_id("crawl-status")).to_have_attribute("data-status", "running", timeout=PUSH_TIMEOUT)
    seen: list[int] = []
    deadline = time.monotonic() + CRAWL_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        seen.append(counter(page, "new"))
        if card.get_by_test_id("crawl-status").get_attribute("data-status") == "finished":
            break
        page.wait_for_timeout(150)
    expect(card.get_by_test_id("crawl-status")).to_have_attribute("data-status", "finished")
    assert counter(page, "new") == TOURS and counter(page, "total") == TOURS
    assert counter(page, "pages") >= TOURS + 3  # the index, its two sitemaps and every tour page
    climbing = sorted(set(seen))
    assert any(0 < value < TOURS for value in climbing), f"the counter jumped straight to its end: {climbing}"
    assert seen == sorted(seen), f"the counter went back: {seen}"
    # The crawler tours tab's badge followed too.
    badge = page.get_by_test_id("tab-count-crawlerTours")
    expect(badge).to_have_attribute("data-value", str(TOURS), timeout=PUSH_TIMEOUT)
    not_reloaded(page)
    expect(card.get_by_test_id("crawler-sign")).to_be_visible()
    shot(page, "settings-1440")

    # The crawled tours wait in their tab, with their source session.
    page.get_by_test_id("tab-crawlerTours").click()
    rows = page.get_by_test_id("crawled-row")
    expect(rows).to_have_count(TOURS, timeout=LOAD_TIMEOUT)
    expect(page.get_by_test_id("crawled-total")).to_have_attribute("data-value", str(TOURS))
    tour = rows.filter(has_text="Tour 2")
    expect(tour.get_by_test_id("crawled-source")).to_contain_text("Fake provider, session")
    shot(page, "tours-1440")

    # Publish it with a media type and a category.
    tour.get_by_test_id("crawled-approve").click()
    dialog = page.get_by_test_id("crawled-approve-form")
    expect(dialog).to_be_visible()
    choose(page, "crawled-media-type")
    choose(page, "crawled-category")
    shot(page, "approve-1440", full_page=False)
    with page.expect_response(lambda r: r.url.endswith("/v2/crawler/tours/approve")) as answered:
        dialog.get_by_test_id("crawled-approve-submit").click()
    outcome = answered.value.json()["data"][0]
    assert outcome["status"] == "approved", outcome
    expect(dialog).to_be_hidden()
    expect(rows).to_have_count(TOURS - 1, timeout=LOAD_TIMEOUT)
    expect(rows.filter(has_text="Tour 2")).to_have_count(0)

    # It is a tour now: its page shows it, with the picture stored from the provider.
    published = api(server, "GET", f"/v2/virtualtours/{outcome['guid']}", token)
    assert published["title"] == "Tour 2" and published["preview_picture"].startswith("/uploads/previews/")
    page.goto(f"/virtualtours/{outcome['guid']}")
    expect(page.get_by_role("heading", name="Tour 2").first).to_be_visible(timeout=LOAD_TIMEOUT)

    # The phone and the Russian screens of both tabs.
    for language in ("en", "ru"):
        if language == "ru":
            page.context.add_init_script("localStorage.setItem('localise', 'ru');")
        for width, height in ((390, 844), (1440, 900)):
            page.set_viewport_size({"width": width, "height": height})
            page.goto("/admin/moderation?tab=crawlerSettings")
            expect(page.get_by_test_id("crawler-configuration").first).to_be_visible(timeout=LOAD_TIMEOUT)
            if language == "ru":
                expect(page.get_by_test_id("crawler-settings")).to_contain_text("Конфигурации")
            if (language, width) != ("en", 1440):
                shot(page, f"settings-{width}{'-ru' if language == 'ru' else ''}")
                page.goto("/admin/moderation?tab=crawlerTours")
                expect(page.get_by_test_id("crawled-row").first).to_be_visible(timeout=LOAD_TIMEOUT)
                shot(page, f"tours-{width}{'-ru' if language == 'ru' else ''}")
            if width == 390:
                page.get_by_test_id("crawled-approve").first.click()
                expect(page.get_by_test_id("crawled-approve-form")).to_be_visible()
                shot(page, f"approve-390{'-ru' if language == 'ru' else ''}", full_page=False)
