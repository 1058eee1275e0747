"""Issue 14 in Chromium: the admin's Moderation screen. Two browser contexts: a member submits a tour,
the admin's open moderation screen shows it without a reload, the admin approves it with the keyboard
(j, a), and the member finds it in the feed. A rejection with a reason, the detail's diff, a decision
another admin already took, and screenshots at 390 and 1440 px (list, detail, reject dialog)."""

from __future__ import annotations

import os
import re
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_live import (
    ADMIN,
    LOAD_TIMEOUT,
    PUSH_TIMEOUT,
    api,
    connected,
    mark_page,
    new_member,
    not_reloaded,
    open_context,
    sign_in_token,
)

SHOTS = Path(os.environ.get("MODERATION_SHOTS_DIR", "/tmp/shots/moderation"))


def submit_tour(server: str, token: str, title: str) -> str:
    """A member's new tour, through the API: it waits for an administrator. Its guid."""
    vendors = api(server, "GET", "/v2/vendors/")["data"]
    kuula = next(vendor for vendor in vendors if vendor["vendor_name"] == "Kuula")
    category = api(server, "GET", "/v2/categories/")["data"][0]
    media_type = api(server, "GET", "/v2/categories/media-types")["data"][0]
    body = {
        "vendor": kuula["vendor_id"],
        "link": f"https://kuula.co/share/{uuid.uuid4().hex[:5]}",
        "title": title,
        "description": "The tide mill by the estuary, its wheel and the old granary, seen at low water.",
        "media_type_id": media_type["id"],
        "category_id": category["id"],
        "subcategory_id": category["subcategories"][0]["id"],
        "coordinate": "47.2184,-1.5536",
        "approve_needed": True,
    }
    answer = api(server, "POST", "/v2/virtualtours/", token, json=body)
    assert answer["pending"] is True
    return str(answer["data"]["guid"])


def unique_title(what: str) -> str:
    return f"{what} {uuid.uuid4().hex[:6]}"


def open_moderation(page: Page, query: str = "") -> None:
    page.goto(f"/admin/moderation{query}")
    expect(page.get_by_test_id("moderation-page")).to_be_visible(timeout=LOAD_TIMEOUT)
    connected(page)
    expect(page.get_by_test_id("moderation-live")).to_have_attribute("data-live", "true", timeout=LOAD_TIMEOUT)
    expect(page.get_by_test_id("queue-loading")).to_have_count(0, timeout=LOAD_TIMEOUT)


def settled(page: Page) -> None:
    """Dialogs and drawers done sliding in (for the screenshots only)."""
    # getAnimations() lists running CSS transitions too (Mantine's slide and fade).
    page.wait_for_function("() => document.getAnimations().every((animation) => animation.playState !== 'running')")


def row(page: Page, title: str) -> Any:
    return page.get_by_test_id("queue-row").filter(has_text=title)


@pytest.fixture
def pages() -> Iterator[list[Page]]:
    opened: list[Page] = []
    yield opened
    for page in opened:
        page.context.close()


@pytest.fixture(scope="module")
def admin_token(server: str) -> str:
    return sign_in_token(server, *ADMIN)


def test_a_submitted_tour_appears_live_is_approved_with_the_keyboard_and_reaches_the_feed(
    browser: Any, server: str, admin_token: str, pages: list[Page]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    member_token = new_member(server)
    member = open_context(browser, server, member_token)
    admin = open_context(browser, server, admin_token)
    pages.extend([member, admin])
    title = unique_title("Tide mill")

    # The admin opens Moderation from the menu: the entry is enabled and keeps its badge.
    admin.goto("/feed")
    admin.get_by_test_id("profile-menu").click()
    entry = admin.get_by_role("menuitem", name="Moderation")
    expect(entry).to_be_enabled()
    entry.click()
    expect(admin).to_have_url(f"{server}/admin/moderation")
    expect(admin.get_by_test_id("moderation-page")).to_be_visible(timeout=LOAD_TIMEOUT)

    # The user-added tours tab, narrowed to the title that is about to arrive: nothing waits yet.
    open_moderation(admin, f"?tab=userTours&q={quote(title)}")
    expect(admin.get_by_test_id("queue-empty")).to_be_visible()
    expect(admin.get_by_test_id("shortcut-hint")).to_be_visible()
    before = int(admin.get_by_test_id("tab-count-userTours").inner_text())
    mark_page(admin)

    # The member submits a tour; the admin's screen shows it within a push, without reloading.
    member.goto("/feed")
    guid = submit_tour(server, member_token, title)
    expect(row(admin, title)).to_be_visible(timeout=PUSH_TIMEOUT)
    expect(admin.get_by_test_id("tab-count-userTours")).to_have_text(str(before + 1), timeout=PUSH_TIMEOUT)
    not_reloaded(admin)

    # Keys typed into the search box are text, not commands.
    admin.get_by_test_id("queue-search").focus()
    admin.keyboard.press("j")
    expect(row(admin, title)).not_to_have_attribute("data-cursor", "true")
    admin.get_by_test_id("queue-search").press("Backspace")
    admin.get_by_test_id("queue-search").blur()

    # j puts the cursor on it, a approves it: it leaves the list and the count.
    admin.keyboard.press("j")
    expect(row(admin, title)).to_have_attribute("data-cursor", "true")
    with admin.expect_response(lambda response: response.request.method == "PUT") as decided:
        admin.keyboard.press("a")
    assert decided.value.ok, decided.value.text()
    assert [outcome["status"] for outcome in decided.value.json()["data"]] == ["approved"], decided.value.text()
    expect(row(admin, title)).to_have_count(0, timeout=PUSH_TIMEOUT)
    expect(admin.get_by_test_id("queue-empty")).to_be_visible()
    expect(admin.get_by_test_id("tab-count-userTours")).to_have_text(str(before), timeout=PUSH_TIMEOUT)
    not_reloaded(admin)

    # The member finds it in the feed.
    search = member.get_by_test_id("search-input")
    search.fill(title)
    search.press("Enter")
    expect(member.locator(f"[data-testid=media-card][data-guid='{guid}']")).to_be_visible(timeout=LOAD_TIMEOUT)


def test_a_rejection_needs_a_reason_and_another_admins_decision_leaves_the_list(
    browser: Any, server: str, admin_token: str, pages: list[Page]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    member_token = new_member(server)
    first = unique_title("Salt marsh")
    second = unique_title("Salt marsh")
    submit_tour(server, member_token, first)
    submit_tour(server, member_token, second)
    admin = open_context(browser, server, admin_token)
    pages.append(admin)
    open_moderation(admin, "?tab=userTours&q=Salt%20marsh")
    expect(row(admin, first)).to_be_visible()
    expect(row(admin, second)).to_be_visible()
    mark_page(admin)

    # Another admin approves the second one: it leaves this admin's list without a reload.
    listed = api(server, "GET", f"/v2/pending/approval-items?kind=new_virtual_tour&search={quote(second)}", admin_token)
    second_id = next(item["id"] for item in listed["data"] if item["summary"]["title"] == second)
    api(
        server,
        "PUT",
        "/v2/pending/approval-items",
        admin_token,
        json={"ids": [second_id], "decision": "approve", "reason": None},
    )
    expect(row(admin, second)).to_have_count(0, timeout=PUSH_TIMEOUT)
    not_reloaded(admin)

    # The detail shows the proposed tour; r opens the rejection, which wants a reason.
    row(admin, first).click()
    admin.keyboard.press("Enter")
    detail = admin.get_by_test_id("item-detail")
    expect(detail).to_be_visible()
    expect(admin.get_by_test_id("item-diff")).to_contain_text(first)
    settled(admin)
    admin.screenshot(path=str(SHOTS / "detail-1440.png"))
    admin.keyboard.press("Escape")
    expect(detail).to_have_count(0)
    # Keys pressed inside a dialog are the dialog's: the drawer finishes closing first.
    expect(admin.get_by_role("dialog")).to_have_count(0)
    admin.keyboard.press("r")
    dialog = admin.get_by_test_id("reject-dialog")
    expect(dialog).to_be_visible()
    admin.get_by_test_id("reject-submit").click()
    expect(dialog).to_contain_text("at least 3 characters")
    admin.get_by_test_id("reject-reason").fill("The link shows a different place than the title says.")
    settled(admin)
    admin.screenshot(path=str(SHOTS / "reject-1440.png"))
    admin.get_by_test_id("reject-submit").click()
    expect(row(admin, first)).to_have_count(0, timeout=PUSH_TIMEOUT)
    rejected = api(
        server, "GET", f"/v2/pending/approval-items?kind=new_virtual_tour&search={quote(first)}", admin_token
    )
    assert rejected["data"] == []


def test_a_decision_already_taken_says_so(browser: Any, server: str, admin_token: str, pages: list[Page]) -> None:
    member_token = new_member(server)
    title = unique_title("Old quay")
    submit_tour(server, member_token, title)
    admin = open_context(browser, server, admin_token)
    pages.append(admin)
    open_moderation(admin, f"?tab=userTours&q={quote(title)}")
    expect(row(admin, title)).to_be_visible()
    listed = api(server, "GET", f"/v2/pending/approval-items?kind=new_virtual_tour&search={quote(title)}", admin_token)
    item_id = listed["data"][0]["id"]
    decision = {"ids": [item_id], "decision": "approve", "reason": None}

    def another_admin_first(route: Any) -> None:
        # Another admin decides it while this admin's click is on its way.
        api(server, "PUT", "/v2/pending/approval-items", admin_token, json=decision)
        route.continue_()

    admin.route(
        "**/v2/pending/approval-items",
        lambda route: another_admin_first(route) if route.request.method == "PUT" else route.continue_(),
    )
    row(admin, title).get_by_test_id("row-approve").click()
    outcome = admin.get_by_test_id("decision-outcome")
    expect(outcome).to_contain_text("Another admin already decided this item", timeout=PUSH_TIMEOUT)
    expect(outcome).to_have_attribute("data-status", "conflict")
    expect(row(admin, title)).to_have_count(0)


def test_screenshots_of_the_screen_at_390_and_1440(
    browser: Any, server: str, admin_token: str, pages: list[Page]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    member_token = new_member(server)
    for what in ("Harbour lights", "Granary loft", "Lock keeper's cottage"):
        submit_tour(server, member_token, unique_title(what))
    for width, height in ((1440, 900), (390, 844)):
        page = open_context(browser, server, admin_token, width=width, height=height)
        pages.append(page)
        open_moderation(page)
        expect(page.get_by_test_id("queue-row").first).to_be_visible()
        page.screenshot(path=str(SHOTS / f"list-{width}.png"), full_page=width == 390)
        first = page.get_by_test_id("queue-row").first
        # On a phone every action of a row is on screen, below its text.
        for action in ("row-open", "row-reject", "row-approve"):
            button = first.get_by_test_id(action)
            expect(button).to_be_visible()
            box = button.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        if width == 390:
            first.get_by_test_id("row-open").click()
            expect(page.get_by_test_id("item-detail")).to_be_visible()
            expect(page.get_by_test_id("item-diff")).to_be_visible(timeout=LOAD_TIMEOUT)
            settled(page)
            page.screenshot(path=str(SHOTS / "detail-390.png"))
            page.keyboard.press("Escape")
            expect(page.get_by_role("dialog")).to_have_count(0)
            first.get_by_test_id("row-reject").click()
            expect(page.get_by_test_id("reject-dialog")).to_be_visible()
            settled(page)
            page.screenshot(path=str(SHOTS / "reject-390.png"))


def test_the_owner_gets_an_e_mail_when_an_admin_deletes_their_tour(
    browser: Any, server: str, server_data_dir: Path, admin_token: str, pages: list[Page]
) -> None:
    """Spec §4: admin deleting or deactivating media opens an e-mail screen, which sends the mail."""
    member_token = new_member(server)
    me = api(server, "GET", "/v2/users/", member_token)
    member_name, member_email = me["platform_username"], me["email"]
    title = unique_title("Ferry slip")
    submit_tour(server, member_token, title)
    admin = open_context(browser, server, admin_token)
    pages.append(admin)
    admin.goto("/feed")
    admin.get_by_test_id("profile-menu").click()
    admin.get_by_role("menuitem", name="Manage Media").click()
    expect(admin.get_by_test_id("manage-media")).to_be_visible(timeout=LOAD_TIMEOUT)
    owner = admin.get_by_placeholder("Manage media of…")
    owner.fill(member_name)
    admin.get_by_role("option", name=member_name).click()
    tour_row = admin.get_by_test_id("manage-row").filter(has_text=title)
    expect(tour_row).to_be_visible(timeout=LOAD_TIMEOUT)
    tour_row.get_by_role("checkbox").check()
    admin.get_by_test_id("bulk-delete").click()
    admin.get_by_test_id("confirm-delete-tours").click()

    mail = admin.get_by_test_id("owner-mail")
    expect(mail).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(admin.get_by_test_id("owner-mail-subject")).to_have_value(f"Your tour “{title}” was removed from TourAtlas")
    expect(admin.get_by_test_id("owner-mail-text")).to_have_value(re.compile("Reason: The link does not work"))
    admin.get_by_test_id("owner-mail-reason").click()
    admin.get_by_role("option", name="A duplicate of another tour").click()
    expect(admin.get_by_test_id("owner-mail-text")).to_have_value(re.compile("Reason: A duplicate of another tour"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    admin.screenshot(path=str(SHOTS / "owner-mail-1440.png"))
    with admin.expect_response(lambda response: "/v2/users/send-mail" in response.url) as sent:
        admin.get_by_test_id("owner-mail-send").click()
    assert sent.value.ok
    expect(mail).to_have_count(0)
    with sqlite3.connect(server_data_dir / "touratlas.db") as database:
        stored = database.execute(
            "SELECT subject, body_text FROM outgoing_mail WHERE to_address = ? ORDER BY id DESC", (member_email,)
        ).fetchone()
    assert stored is not None, f"no mail to {member_email}"
    assert stored[0] == f"Your tour “{title}” was removed from TourAtlas"
    assert "Reason: A duplicate of another tour" in stored[1]
