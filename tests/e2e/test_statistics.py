"""Issue 14 part 6 in Chromium: the admins' statistics. An admin opens Analytics from the menu and
reads the five totals the admin-stats calls give for the same days, picks a preset, and a reload keeps
it (the range is in the link); anybody else opening the page is told it is for admins. Screenshots at
390 and 1440 px, and one in Russian."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_live import ADMIN, LOAD_TIMEOUT, api, new_member, open_context, sign_in_token

SHOTS = Path(os.environ.get("STATISTICS_SHOTS_DIR", "/tmp/shots/statistics"))
CALLS = {
    "users": "/v2/users/admin-stats",
    "tours": "/v2/virtualtours/admin-stats",
    "creators": "/v2/creators/admin-stats",
    "vendors": "/v2/vendors/admin-stats",
    "ads": "/v2/ads/admin-stats",
}


@pytest.fixture
def pages() -> Iterator[list[Page]]:
    opened: list[Page] = []
    yield opened
    for page in opened:
        page.context.close()


@pytest.fixture(scope="module")
def admin_token(server: str) -> str:
    return sign_in_token(server, *ADMIN)


def api_totals(server: str, token: str, date_from: str, date_to: str) -> dict[str, tuple[int, int]]:
    """Each domain's (created in the range, in all), as the API answers for those days."""
    totals = {}
    for domain, path in CALLS.items():
        answer = api(server, "GET", path, token, params={"date_from": date_from, "date_to": date_to})
        data = answer.get("data", answer)
        totals[domain] = (data["daily"]["total"], data["total"])
    return totals


def shown_range(page: Page) -> tuple[str, str]:
    summary = page.get_by_test_id("range-summary")
    return summary.get_attribute("data-from") or "", summary.get_attribute("data-to") or ""


def loaded(page: Page) -> None:
    content = page.get_by_test_id("statistics-content")
    expect(content).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(content).to_have_attribute("data-updating", "false", timeout=LOAD_TIMEOUT)


def expect_totals(page: Page, totals: dict[str, tuple[int, int]]) -> None:
    for domain, (in_range, in_all) in totals.items():
        expect(page.get_by_test_id(f"stat-{domain}")).to_have_attribute("data-value", str(in_range))
        expect(page.get_by_test_id(f"stat-{domain}-all")).to_have_attribute("data-value", str(in_all))


def settled(page: Page) -> None:
    """The charts done drawing in (for the screenshots only)."""
    page.wait_for_function("() => document.getAnimations().every((animation) => animation.playState !== 'running')")
    page.wait_for_timeout(1600)  # Recharts animates its areas with JavaScript, not CSS: 1.5 s


def test_an_admin_reads_the_totals_of_a_range_and_a_reload_keeps_it(
    browser: Any, server: str, admin_token: str, pages: list[Page]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    new_member(server)  # someone joined today: the last days are not all zero
    admin = open_context(browser, server, admin_token)
    pages.append(admin)

    # Analytics in the admin's menu opens the statistics, over the last 30 days by default.
    admin.goto("/feed")
    admin.get_by_test_id("profile-menu").click()
    entry = admin.get_by_role("menuitem", name="Analytics", exact=True)
    expect(entry).to_be_enabled()
    entry.click()
    expect(admin).to_have_url(f"{server}/admin/statistics")
    expect(admin.get_by_test_id("statistics-page")).to_be_visible(timeout=LOAD_TIMEOUT)
    loaded(admin)
    today = datetime.now(UTC).date()
    assert shown_range(admin) == ((today - timedelta(days=29)).isoformat(), today.isoformat())
    expect(admin.get_by_test_id("range-preset-30")).to_have_attribute("aria-pressed", "true")
    expect_totals(admin, api_totals(server, admin_token, *shown_range(admin)))
    assert int(admin.get_by_test_id("stat-users").get_attribute("data-value") or "0") >= 1
    for domain in CALLS:
        # Each chart is drawn (a line of zeros is a flat path: drawn, though it has no height).
        chart = admin.get_by_test_id(f"chart-{domain}")
        expect(chart.locator(".recharts-surface").first).to_be_visible()
        expect(chart.locator(".recharts-area-curve")).to_have_count(1)
    settled(admin)
    admin.screenshot(path=str(SHOTS / "statistics-1440.png"), full_page=True)

    # The 7-day preset: the link says so, the totals are the API's for those days.
    admin.get_by_test_id("range-preset-7").click()
    expect(admin).to_have_url(f"{server}/admin/statistics?days=7")
    week_start = (today - timedelta(days=6)).isoformat()
    expect(admin.get_by_test_id("range-summary")).to_have_attribute("data-from", week_start)
    loaded(admin)
    week = api_totals(server, admin_token, *shown_range(admin))
    expect_totals(admin, week)

    # A reload keeps the range.
    admin.reload()
    expect(admin.get_by_test_id("statistics-page")).to_be_visible(timeout=LOAD_TIMEOUT)
    loaded(admin)
    expect(admin).to_have_url(f"{server}/admin/statistics?days=7")
    expect(admin.get_by_test_id("range-preset-7")).to_have_attribute("aria-pressed", "true")
    assert shown_range(admin) == ((today - timedelta(days=6)).isoformat(), today.isoformat())
    expect_totals(admin, week)

    # Days picked on the calendar are in the link too, and a reload shows the same days.
    first, last = (today - timedelta(days=45)).isoformat(), (today - timedelta(days=3)).isoformat()
    admin.goto(f"/admin/statistics?from={first}&to={last}")
    loaded(admin)
    assert shown_range(admin) == (first, last)
    expect(admin.get_by_test_id("range-preset-7")).to_have_attribute("aria-pressed", "false")
    expect_totals(admin, api_totals(server, admin_token, first, last))


def test_the_calendar_picks_a_range(browser: Any, server: str, admin_token: str, pages: list[Page]) -> None:
    admin = open_context(browser, server, admin_token)
    pages.append(admin)
    today = datetime.now(UTC).date()
    admin.goto(f"/admin/statistics?from={today.isoformat()}&to={today.isoformat()}")
    loaded(admin)
    expect(admin.get_by_test_id("range-summary")).to_contain_text("1 day")
    # The calendar opens on this month: two clicks, its 1st and today (the same day on the 1st of a month).
    admin.get_by_test_id("range-picker").click()
    start = today.replace(day=1)
    for day in (start, today):
        admin.get_by_role("button", name=day.strftime("%-d %B %Y"), exact=True).click()
    expected = f"from={start.isoformat()}&to={today.isoformat()}"
    if (today - start).days + 1 in (7, 30):  # a preset's days: the link says the preset
        expected = f"days={(today - start).days + 1}"
    expect(admin).to_have_url(f"{server}/admin/statistics?{expected}")
    loaded(admin)
    assert shown_range(admin) == (start.isoformat(), today.isoformat())
    expect_totals(admin, api_totals(server, admin_token, start.isoformat(), today.isoformat()))


def test_anybody_but_an_admin_is_told_the_page_is_for_admins(browser: Any, server: str, pages: list[Page]) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    member = open_context(browser, server, new_member(server))
    pages.append(member)
    with member.expect_response(lambda response: "/v2/users/" in response.url):
        member.goto("/admin/statistics")
    expect(member.get_by_test_id("statistics-admins-only")).to_contain_text(
        "Statistics are for administrators.", timeout=LOAD_TIMEOUT
    )
    expect(member.get_by_test_id("statistics-page")).to_have_count(0)
    member.screenshot(path=str(SHOTS / "admins-only-1440.png"))
    # The server refuses them too.
    token = member.evaluate("localStorage.getItem('access_token')")
    for path in CALLS.values():
        answer = member.request.get(path, headers={"Authorization": f"Bearer {token}"})
        assert answer.status == 403, (path, answer.status)


def test_screenshots_on_a_phone_and_in_russian(browser: Any, server: str, admin_token: str, pages: list[Page]) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone = open_context(browser, server, admin_token, width=390, height=844)
    pages.append(phone)
    phone.goto("/admin/statistics")
    loaded(phone)
    # On a phone the charts are stacked, each the width of the screen.
    boxes = [phone.get_by_test_id(f"chart-{domain}").bounding_box() for domain in CALLS]
    assert all(box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390 for box in boxes), boxes
    tops = [box["y"] for box in boxes if box is not None]
    assert tops == sorted(tops) and len(set(tops)) == len(CALLS), tops
    settled(phone)
    phone.screenshot(path=str(SHOTS / "statistics-390.png"), full_page=True)

    russian = open_context(browser, server, admin_token, width=390, height=844)
    pages.append(russian)
    russian.add_init_script("localStorage.setItem('localise', 'ru')")
    russian.goto("/admin/statistics?days=90")
    loaded(russian)
    expect(russian.get_by_role("heading", level=1)).to_have_text("Статистика")
    expect(russian.get_by_test_id("range-summary")).to_contain_text("90 дней")
    settled(russian)
    russian.screenshot(path=str(SHOTS / "statistics-ru-390.png"), full_page=True)
    russian.set_viewport_size({"width": 1440, "height": 900})
    settled(russian)
    russian.screenshot(path=str(SHOTS / "statistics-ru-1440.png"), full_page=True)
