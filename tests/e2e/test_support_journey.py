"""Issue 17 (release notes and support) in Chromium: an admin publishes a release from the Updates
screen and the open page of another user offers the reload; a user reports a bug with a screenshot
from the help tool, and the report reaches the admins with its stored, re-encoded image; a user
answers the beta-tester questionnaire and the admins' beta testers tab lists them.
Screenshots at 390 and 1440 px under /tmp/shots/support (the questionnaire's, in English and
Russian, under /tmp/shots/beta)."""

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
BETA_SHOTS = Path(os.environ.get("BETA_SHOTS_DIR", "/tmp/shots/beta"))
WIDTHS = (390, 1440)


@pytest.fixture
def pages() -> Iterator[list[Page]]:
    opened: list[Page] = []
    yield opened
    for page in opened:
        page.context.close()


def shot(page: Page, name: str, folder: Path = SHOTS) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"))


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


def beta_shot(page: Page, name: str) -> None:
    """The whole questionnaire: a viewport tall enough for the dialog to hold it all, then the real one again."""
    viewport = page.viewport_size
    assert viewport is not None
    page.set_viewport_size({"width": viewport["width"], "height": 2000})
    page.wait_for_timeout(300)  # the modal's size follows the viewport; let it settle
    shot(page, name, BETA_SHOTS)
    page.set_viewport_size(viewport)
    page.wait_for_timeout(300)


def open_questionnaire(page: Page) -> None:
    open_from_menu(page, "helpFeedback")
    page.get_by_test_id("help-beta").click()
    expect(page.get_by_test_id("beta-form")).to_be_visible(timeout=LOAD_TIMEOUT)


def test_a_user_answers_the_beta_questionnaire_and_the_admins_list_them(
    browser: Any, server: str, pages: list[Page]
) -> None:
    token = new_member(server)
    me = api(server, "GET", "/v2/users/", token)
    page = open_context(browser, server, token, width=390, height=844)
    pages.append(page)
    page.goto("/feed")
    expect(page.get_by_test_id("top-bar")).to_be_visible(timeout=LOAD_TIMEOUT)
    open_questionnaire(page)
    expect(page.get_by_test_id("beta-answered")).to_have_count(0)

    # Sending it empty marks the 8 required questions (not the camera) and sends nothing.
    page.get_by_test_id("beta-send").click()
    expect(page.get_by_text("Please answer this question")).to_have_count(8)
    expect(page.get_by_role("radio", name="Yes", exact=True)).to_be_focused()
    beta_shot(page, "required-390-en")
    assert api(server, "GET", "/v2/users/beta-tester", token)["data"] is None

    industry = f"Heritage {uuid.uuid4().hex[:6]}"
    eleven_to_fifty = "11\N{EN DASH}50"  # the label the form and the admins' tab show for "11-50"
    page.get_by_role("radio", name="Not yet, but I plan to").check()
    page.get_by_role("radio", name=eleven_to_fifty).check()
    page.get_by_test_id("beta-industry").fill(industry)
    page.get_by_test_id("beta-hosting_platforms").fill("Kuula and my own website")
    page.get_by_test_id("beta-use_case").fill("Walks through old towns, on a map")
    page.get_by_test_id("beta-country").fill("Valparaíso, Chile")
    page.get_by_test_id("beta-heard_from").fill("A podcast")
    page.get_by_test_id("beta-feedback_frequency").fill("Twice")
    page.get_by_role("option", name="Twice a month").click()
    expect(page.get_by_text("Please answer this question")).to_have_count(0)
    page.get_by_test_id("beta-send").click()
    expect(page.get_by_test_id("beta-thanks")).to_be_visible(timeout=LOAD_TIMEOUT)
    beta_shot(page, "thanks-390-en")
    saved = api(server, "GET", "/v2/users/beta-tester", token)["data"]["answers"]
    assert saved == {
        "creates_tours": "planning",
        "camera": None,
        "industry": industry,
        "tour_count": "11-50",
        "hosting_platforms": "Kuula and my own website",
        "use_case": "Walks through old towns, on a map",
        "country": "Valparaíso, Chile",
        "heard_from": "A podcast",
        "feedback_frequency": "Twice a month",
    }
    page.get_by_test_id("beta-close").click()
    expect(page.get_by_role("dialog")).to_have_count(0)

    # Opened again on a wide screen, the form holds the answers given.
    page.set_viewport_size({"width": 1440, "height": 900})
    open_questionnaire(page)
    expect(page.get_by_test_id("beta-answered")).to_be_visible()
    expect(page.get_by_test_id("beta-industry")).to_have_value(industry)
    expect(page.get_by_role("radio", name=eleven_to_fifty)).to_be_checked()
    beta_shot(page, "answered-1440-en")

    # In Russian, at both widths.
    page.context.add_init_script("localStorage.setItem('localise', 'ru');")
    for width, height in ((390, 844), (1440, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto("/feed")
        expect(page.get_by_test_id("top-bar")).to_be_visible(timeout=LOAD_TIMEOUT)
        open_questionnaire(page)
        expect(page.get_by_test_id("beta-send")).to_have_text("Обновить ответы")
        beta_shot(page, f"answered-{width}-ru")
        page.get_by_test_id("beta-industry").fill("")
        page.get_by_test_id("beta-send").click()
        expect(page.get_by_text("Ответьте на этот вопрос")).to_have_count(1)
        beta_shot(page, f"required-{width}-ru")
    page.get_by_test_id("beta-industry").fill(industry)
    page.get_by_test_id("beta-send").click()
    expect(page.get_by_test_id("beta-thanks")).to_be_visible(timeout=LOAD_TIMEOUT)
    beta_shot(page, "thanks-1440-ru")

    # The admins' beta testers tab lists the account with its answers.
    admin = open_context(browser, server, sign_in_token(server, *ADMIN))
    pages.append(admin)
    admin.goto("/admin/users?tab=beta")
    admin.get_by_test_id("beta-search").fill(me["platform_username"])
    card = admin.get_by_test_id("beta-tester").filter(has_text=me["email"])
    expect(card).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(card).to_contain_text(industry)
    expect(card).to_contain_text("Planning to")
    expect(card).to_contain_text(eleven_to_fifty)
    expect(card).to_contain_text("No answer")  # the camera question, left out
    shot(admin, "admin-beta-testers-1440", BETA_SHOTS)
