"""Issue 17 (release notes and support) in Chromium: an admin publishes a release from the Updates
screen and the open page of another user offers the reload; a user reports a bug with a screenshot
from the help tool, and the report reaches the admins with its stored, re-encoded image.
Screenshots at 390 and 1440 px under /tmp/shots/support."""

from __future__ import annotations

import io
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from tests.e2e.test_live import (
    ADMIN,
    LOAD_TIMEOUT,
    PUSH_TIMEOUT,
    announce_version,
    api,
    connected,
    mark_page,
    new_member,
    not_reloaded,
    open_context,
    open_menu,
    sign_in_token,
)

SHOTS = Path(os.environ.get("SUPPORT_SHOTS_DIR", "/tmp/shots/support"))
WIDTHS = (390, 1440)


@pytest.fixture
def pages() -> Iterator[list[Page]]:
    opened: list[Page] = []
    yield opened
    for page in opened:
        page.context.close()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def screenshot_file(tmp_path: Path) -> Path:
    buffer = io.BytesIO()
    Image.new("RGB", (1280, 720), "teal").save(buffer, format="PNG")
    path = tmp_path / "grey-map.png"
    path.write_bytes(buffer.getvalue())
    return path


def open_from_menu(page: Page, key: str) -> None:
    open_menu(page)
    page.get_by_test_id(f"menu-{key}").click()


def test_an_admin_publishes_a_release_and_an_open_page_offers_the_reload(
    browser: Any, server: str, server_data_dir: Path, pages: list[Page]
) -> None:
    version = f"9.{uuid.uuid4().int % 900 + 100}.0"
    reader = open_context(browser, server, new_member(server))
    pages.append(reader)
    # The page's own timers (its 15-minute version check) stand still: only the push can bring the notice.
    reader.clock.install()
    reader.goto("/feed")
    connected(reader)
    assert reader.get_by_test_id("new-version-button").count() == 0
    mark_page(reader)

    admin = open_context(browser, server, sign_in_token(server, *ADMIN))
    pages.append(admin)
    admin.goto("/feed")
    expect(admin.get_by_test_id("top-bar")).to_be_visible(timeout=LOAD_TIMEOUT)
    try:
        open_from_menu(admin, "updates")
        admin.get_by_test_id("release-add").click()
        admin.get_by_test_id("release-name").fill("Live release")
        admin.get_by_test_id("release-version").fill(version)
        admin.get_by_test_id("add-listNewItems").click()
        admin.get_by_test_id("listNewItems-title-0").fill("Help & Feedback")
        admin.get_by_test_id("add-listFixedItems").click()
        admin.get_by_test_id("listFixedItems-title-0").fill("The report link on a missing tour")
        shot(admin, "release-form-1440")
        admin.get_by_test_id("release-save").click()
        notes = admin.get_by_test_id("release").filter(has_text=f"Version {version}")
        expect(notes).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(notes.get_by_role("region", name="Fixed")).to_contain_text("The report link on a missing tour")

        # The version notice is pushed at once (not left to the page's 15-minute check).
        button = reader.get_by_test_id("new-version-button")
        expect(button).to_be_visible(timeout=PUSH_TIMEOUT)
        expect(button).to_have_text("New version available")
        not_reloaded(reader)

        # Everybody reads the release: the reader's Updates screen in view mode, at both widths.
        for width in WIDTHS:
            reader.set_viewport_size({"width": width, "height": 844 if width == 390 else 900})
            open_from_menu(reader, "updates")
            reader_notes = reader.get_by_test_id("release").filter(has_text=f"Version {version}")
            expect(reader_notes).to_be_visible(timeout=LOAD_TIMEOUT)
            assert reader.get_by_test_id("release-add").count() == 0
            shot(reader, f"updates-{width}")
            reader.keyboard.press("Escape")
            expect(reader.get_by_role("dialog")).to_have_count(0)
    finally:
        announce_version(server_data_dir)  # this build's version again, for the other tests
        for release in api(server, "GET", "/v2/releases/release-notes")["data"]:
            if release["releaseVersion"] == f"Version {version}":
                token = sign_in_token(server, *ADMIN)
                api(server, "DELETE", "/v2/releases/release-notes", token, params={"release_id": release["id"]})


@pytest.mark.parametrize("width", WIDTHS)
def test_a_user_reports_a_bug_with_a_screenshot(
    browser: Any, server: str, pages: list[Page], tmp_path: Path, width: int
) -> None:
    token = new_member(server)
    page = open_context(browser, server, token, width=width, height=844 if width == 390 else 900)
    pages.append(page)
    page.goto("/feed")
    expect(page.get_by_test_id("top-bar")).to_be_visible(timeout=LOAD_TIMEOUT)
    open_from_menu(page, "helpFeedback")
    expect(page.get_by_test_id("help-support")).to_be_visible()
    shot(page, f"help-{width}")
    page.get_by_test_id("help-bugReport").click()

    expect(page.get_by_test_id("known-bugs-link")).to_be_visible()
    with page.expect_file_chooser() as chooser:
        page.get_by_test_id("bug-screenshot").click()
    chooser.value.set_files(str(screenshot_file(tmp_path)))
    expect(page.get_by_role("img", name="Screenshot 1")).to_be_visible(timeout=LOAD_TIMEOUT)
    title = f"Grey map {uuid.uuid4().hex[:6]}"
    page.get_by_test_id("bug-title").fill(title)
    page.get_by_test_id("bug-description").fill("The map stays grey after zooming in twice.")
    shot(page, f"bug-report-{width}")
    page.get_by_test_id("bug-send").click()
    expect(page.get_by_text("Thank you! Your bug report has been sent.")).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.get_by_role("dialog")).to_have_count(0)

    reports = api(server, "GET", "/v2/support/bug-report", sign_in_token(server, *ADMIN), params={"limit": 100})
    [report] = [row for row in reports["data"] if row["title"] == title]
    [image] = report["images"]
    assert image["content_type"] == "image/png" and image["path"].startswith("/uploads/bug-images/")
    assert report["page_url"].endswith("/feed")
    served = api_bytes(server, image["path"])
    assert Image.open(io.BytesIO(served)).size == (1280, 720)

    # The admins' moderation tab lists it with its screenshot and sets its status.
    admin = open_context(
        browser, server, sign_in_token(server, *ADMIN), width=width, height=844 if width == 390 else 900
    )
    pages.append(admin)
    admin.goto("/admin/moderation?tab=bugReports")
    row = admin.get_by_test_id("bug-report-row").filter(has_text=title)
    expect(row).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(row.get_by_role("img", name="Screenshot 1")).to_be_visible()
    row.get_by_test_id("bug-status").click()
    admin.get_by_role("option", name="In progress").click()
    expect(admin.get_by_text("The status has been saved")).to_be_visible(timeout=LOAD_TIMEOUT)
    shot(admin, f"moderation-bugs-{width}")
    status = next(
        r
        for r in api(server, "GET", "/v2/support/bug-report", sign_in_token(server, *ADMIN))["data"]
        if r["id"] == report["id"]
    )
    assert status["status"] == "in_progress"


def api_bytes(server: str, path: str) -> bytes:
    answer = httpx.get(f"{server}{path}", timeout=30)
    assert answer.status_code == 200
    return answer.content


def test_the_missing_tour_page_opens_the_bug_report(browser: Any, server: str, pages: list[Page]) -> None:
    page = open_context(browser, server, new_member(server))
    pages.append(page)
    page.goto("/virtualtours/no-such-tour-guid")
    expect(page.get_by_test_id("tour-not-found")).to_be_visible(timeout=LOAD_TIMEOUT)
    page.get_by_role("button", name="Report it").click()
    expect(page.get_by_test_id("bug-report-form")).to_be_visible(timeout=LOAD_TIMEOUT)
