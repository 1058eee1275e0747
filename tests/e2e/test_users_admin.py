"""Issue 14 part 4 in Chromium: the admins' Users & platform page (/admin/users), opened from
Moderation. An admin finds a member by platform username, deactivates them through the spec §4
cascade confirmation (the API then shows the account drafted and its tours in drafts), reactivates
them, sends them a message (their notifications list has it), and toggles images_approval (GET
/v2/config/ follows; restored afterwards). Screenshots at 390 and 1440 px, and one in Russian."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_live import ADMIN, LOAD_TIMEOUT, api, new_member, open_context, sign_in_token
from tests.e2e.test_moderation import settled, submit_tour

SHOTS = Path(os.environ.get("USERS_ADMIN_SHOTS_DIR", "/tmp/shots/users-admin"))
MEMBER_PASSWORD = "Secret1!"  # new_member's


@pytest.fixture
def pages() -> Iterator[list[Page]]:
    opened: list[Page] = []
    yield opened
    for page in opened:
        page.context.close()


@pytest.fixture(scope="module")
def admin_token(server: str) -> str:
    return sign_in_token(server, *ADMIN)


def member_with_a_published_tour(server: str, admin_token: str) -> tuple[dict[str, Any], str]:
    """A fresh member whose one tour an admin has approved: the account (GET /v2/users/) and the tour's guid."""
    token = new_member(server)
    me = api(server, "GET", "/v2/users/", token)
    title = f"Lighthouse keeper {uuid.uuid4().hex[:6]}"
    guid = submit_tour(server, token, title)
    listed = api(server, "GET", f"/v2/pending/approval-items?kind=new_virtual_tour&search={quote(title)}", admin_token)
    item_id = next(item["id"] for item in listed["data"] if item["summary"]["title"] == title)
    decided = api(
        server,
        "PUT",
        "/v2/pending/approval-items",
        admin_token,
        json={"ids": [item_id], "decision": "approve", "reason": None},
    )
    assert [outcome["status"] for outcome in decided["data"]] == ["approved"]
    return me, guid


def account(server: str, admin_token: str, username: str) -> dict[str, Any]:
    found = api(server, "GET", f"/v2/users/get-moderation-users?searchPattern={quote(username)}", admin_token)["data"]
    return next(item for item in found if item["platform_username"] == username)


def tour_statuses(server: str, admin_token: str, userid: int) -> dict[str, str]:
    """The account's tours (drafts included) by guid: their status."""
    return {
        tour["guid"]: tour["status"]
        for tour in api(server, "GET", f"/v2/virtualtours/user/{userid}", admin_token)["data"]
    }


def open_users(page: Page, username: str) -> Any:
    """Search the users tab for one platform username; its row."""
    search = page.get_by_test_id("users-search")
    search.fill(username)
    row = page.get_by_test_id("user-row").filter(has_text=username)
    expect(row).to_have_count(1, timeout=LOAD_TIMEOUT)
    expect(page.get_by_test_id("user-row")).to_have_count(1, timeout=LOAD_TIMEOUT)
    return row


def test_an_admin_drafts_and_reactivates_a_member_and_writes_to_them(
    browser: Any, server: str, admin_token: str, pages: list[Page]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    me, guid = member_with_a_published_tour(server, admin_token)
    username, userid = me["platform_username"], me["userid"]
    assert tour_statuses(server, admin_token, userid) == {guid: "active"}
    admin = open_context(browser, server, admin_token)
    pages.append(admin)

    # Moderation's header leads to the page.
    admin.goto("/admin/moderation")
    expect(admin.get_by_test_id("moderation-page")).to_be_visible(timeout=LOAD_TIMEOUT)
    admin.get_by_test_id("moderation-users-link").click()
    expect(admin).to_have_url(f"{server}/admin/users")
    expect(admin.get_by_test_id("users-admin-page")).to_be_visible(timeout=LOAD_TIMEOUT)

    row = open_users(admin, username)
    expect(row).to_have_attribute("data-state", "active")
    expect(row).to_contain_text("1 tour")

    # Deactivation asks first and spells out the cascade; cancelling changes nothing.
    row.get_by_test_id("user-deactivate").click()
    dialog = admin.get_by_test_id("active-dialog")
    expect(dialog).to_be_visible()
    steps = admin.get_by_test_id("cascade-steps")
    expect(steps).to_contain_text("The account is drafted: its owner cannot sign in.")
    expect(steps).to_contain_text("Its 1 tour is moved to drafts.")
    settled(admin)
    admin.screenshot(path=str(SHOTS / "deactivate-1440.png"))
    admin.keyboard.press("Escape")
    expect(admin.get_by_role("dialog")).to_have_count(0)
    assert account(server, admin_token, username)["is_active"] is True

    row.get_by_test_id("user-deactivate").click()
    with admin.expect_response(lambda response: "admin-user-activate-deactivate" in response.url) as answered:
        admin.get_by_test_id("active-confirm").click()
    assert answered.value.ok, answered.value.text()
    expect(row).to_have_attribute("data-state", "drafted", timeout=LOAD_TIMEOUT)
    drafted = account(server, admin_token, username)
    assert (drafted["is_active"], drafted["state"]) == (False, "drafted")
    assert tour_statuses(server, admin_token, userid) == {guid: "draft"}

    # Reactivation: the account is back, its tour waits in drafts.
    row.get_by_test_id("user-activate").click()
    expect(admin.get_by_test_id("cascade-steps")).to_contain_text("Its 1 tour waits in the owner")
    admin.get_by_test_id("active-confirm").click()
    expect(row).to_have_attribute("data-state", "active", timeout=LOAD_TIMEOUT)
    assert account(server, admin_token, username)["is_active"] is True
    assert tour_statuses(server, admin_token, userid) == {guid: "draft"}

    # A message: the title and text are required; sent, it is in the member's notifications.
    row.get_by_test_id("user-message").click()
    message = admin.get_by_test_id("message-dialog")
    expect(message).to_be_visible()
    admin.get_by_test_id("message-send").click()
    expect(message).to_contain_text("Required")
    title = f"Your account is back {uuid.uuid4().hex[:6]}"
    admin.get_by_test_id("message-title").fill(title)
    admin.get_by_test_id("message-text").fill("Your tours wait in your drafts: publish them again when you are ready.")
    with admin.expect_response(lambda response: "/v2/notifications/user-message" in response.url) as sent:
        admin.get_by_test_id("message-send").click()
    assert sent.value.ok, sent.value.text()
    expect(message).to_have_count(0)
    # Drafting ended the member's sessions: they sign in again.
    member_token = sign_in_token(server, me["email"], MEMBER_PASSWORD)
    notes = api(server, "GET", "/v2/notifications/", member_token)["data"]
    assert [(note["title"], note["kind"]) for note in notes if note["title"] == title] == [(title, "user_message")]


def test_images_approval_is_toggled_from_the_platform_tab(
    browser: Any, server: str, admin_token: str, pages: list[Page]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    before = api(server, "GET", "/v2/config/")
    admin = open_context(browser, server, admin_token)
    pages.append(admin)
    try:
        admin.goto("/admin/users?tab=platform")
        switch = admin.get_by_role("switch", name="Approve images")
        expect(switch).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(switch).to_be_checked(checked=before["images_approval"])
        with admin.expect_response(
            lambda response: response.request.method == "PUT" and "/v2/config/" in response.url
        ) as put:
            switch.click()
        assert put.value.ok, put.value.text()
        expect(switch).to_be_checked(checked=not before["images_approval"])
        assert api(server, "GET", "/v2/config/")["images_approval"] is (not before["images_approval"])
        assert api(server, "GET", "/v2/config/")["restrict_access"] is before["restrict_access"]

        # Restricting access asks first; cancelled, nothing is sent.
        restrict = admin.get_by_role("switch", name="Restrict access")
        if not before["restrict_access"]:
            restrict.click()
            expect(admin.get_by_test_id("restrict-dialog")).to_be_visible()
            settled(admin)
            admin.screenshot(path=str(SHOTS / "restrict-1440.png"))
            admin.keyboard.press("Escape")
            expect(admin.get_by_role("dialog")).to_have_count(0)
            expect(restrict).not_to_be_checked()
            assert api(server, "GET", "/v2/config/")["restrict_access"] is False
        admin.screenshot(path=str(SHOTS / "platform-1440.png"))

        # And back, from the page.
        switch.click()
        expect(switch).to_be_checked(checked=before["images_approval"])
    finally:
        api(
            server,
            "PUT",
            "/v2/config/",
            admin_token,
            json={"images_approval": before["images_approval"], "restrict_access": before["restrict_access"]},
        )
    assert api(server, "GET", "/v2/config/")["images_approval"] is before["images_approval"]


def test_screenshots_at_390_and_1440_and_in_russian(
    browser: Any, server: str, admin_token: str, pages: list[Page]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    me, _guid = member_with_a_published_tour(server, admin_token)
    username = me["platform_username"]
    for width, height in ((1440, 900), (390, 844)):
        page = open_context(browser, server, admin_token, width=width, height=height)
        pages.append(page)
        page.goto("/admin/users")
        expect(page.get_by_test_id("users-admin-page")).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(page.get_by_test_id("user-row").first).to_be_visible(timeout=LOAD_TIMEOUT)
        page.screenshot(path=str(SHOTS / f"users-{width}.png"), full_page=width == 390)
        row = open_users(page, username)
        # On a phone every action of a row is on screen.
        for action in ("user-deactivate", "user-settings", "user-message", "user-transfer"):
            box = row.get_by_test_id(action).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, action
        row.get_by_test_id("user-transfer").click()
        expect(page.get_by_test_id("transfer-dialog")).to_be_visible()
        settled(page)
        page.screenshot(path=str(SHOTS / f"transfer-{width}.png"))
        page.get_by_test_id("transfer-dialog").get_by_role("button", name="Cancel").click()
        expect(page.get_by_role("dialog")).to_have_count(0)
        row.get_by_test_id("user-settings").click()
        expect(page.get_by_test_id("settings-dialog").get_by_text("Trusted", exact=True)).to_be_visible(
            timeout=LOAD_TIMEOUT
        )
        settled(page)
        page.screenshot(path=str(SHOTS / f"settings-{width}.png"))
        page.keyboard.press("Escape")
        expect(page.get_by_role("dialog")).to_have_count(0)
        for tab in ("beta", "usage", "platform", "ranks"):
            page.get_by_test_id(f"users-admin-tab-{tab}").click()
            expect(page.get_by_test_id(f"users-admin-tab-{tab}")).to_have_attribute("aria-selected", "true")
            page.wait_for_load_state("networkidle")
            page.screenshot(path=str(SHOTS / f"{tab}-{width}.png"), full_page=width == 390)

    # Russian.
    page = open_context(browser, server, admin_token, width=390, height=844)
    pages.append(page)
    page.context.add_init_script("localStorage.setItem('localise', 'ru');")
    page.goto("/admin/users")
    heading = page.get_by_role("heading", name="Пользователи и платформа")
    expect(heading).to_be_visible(timeout=LOAD_TIMEOUT)
    row = open_users(page, username)
    row.get_by_test_id("user-deactivate").click()
    expect(page.get_by_test_id("cascade-steps")).to_contain_text("Его 1 тур переходит в черновики.")  # noqa: RUF001
    settled(page)
    page.screenshot(path=str(SHOTS / "deactivate-390-ru.png"))


def test_a_member_reads_that_the_page_is_for_admins(browser: Any, server: str, pages: list[Page]) -> None:
    page = open_context(browser, server, new_member(server))
    pages.append(page)
    page.goto("/admin/users")
    expect(page.get_by_test_id("users-admin-denied")).to_contain_text(
        "Only administrators can open this page.", timeout=LOAD_TIMEOUT
    )
