"""Issue 14 part 3 in Chromium: the admin's Classifications screen. The admin opens it from the menu,
adds a category (with an uploaded icon), and uploads a CSV with one bad row: the dry run reports the
row and nothing is applied (checked through the API); the fixed file is checked and applied. A
non-admin gets the admins-only page; screenshots at 390 and 1440 px (and one in Russian)."""

from __future__ import annotations

import io
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from tests.e2e.test_live import ADMIN, LOAD_TIMEOUT, api, new_member, open_context, sign_in_token

SHOTS = Path(os.environ.get("CLASSIFICATIONS_SHOTS_DIR", "/tmp/shots/classifications"))


@pytest.fixture
def pages() -> Iterator[list[Page]]:
    opened: list[Page] = []
    yield opened
    for page in opened:
        page.context.close()


@pytest.fixture(scope="module")
def admin_token(server: str) -> str:
    return sign_in_token(server, *ADMIN)


def settled(page: Page) -> None:
    """Dialogs done sliding in and the tables drawn (for the screenshots only)."""
    page.wait_for_function("() => document.getAnimations().every((animation) => animation.playState !== 'running')")


def categories_named(server: str, token: str, name: str) -> list[dict[str, Any]]:
    answer = api(server, "GET", f"/v2/categories/admin-categories?search={quote(name)}", token)
    return [row for row in answer["data"] if row["name"] == name]


def subcategories_named(server: str, token: str, name: str) -> list[dict[str, Any]]:
    answer = api(server, "GET", f"/v2/categories/admin-subcategories?search={quote(name)}", token)
    return [row for row in answer["data"] if row["name"] == name]


def png_icon() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (300, 200), (20, 110, 160)).save(buffer, format="PNG")
    return buffer.getvalue()


def csv_file(rows: list[list[str]]) -> dict[str, Any]:
    lines = ["kind,name,name_ru,category,is_active", *(",".join(row) for row in rows)]
    return {"name": "classifications.csv", "mimeType": "text/csv", "buffer": ("\n".join(lines) + "\n").encode("utf-8")}


def open_classifications(page: Page, query: str = "") -> None:
    page.goto(f"/admin/classifications{query}")
    expect(page.get_by_test_id("classifications-page")).to_be_visible(timeout=LOAD_TIMEOUT)


def test_an_admin_adds_a_category_and_a_batch_with_a_bad_row_changes_nothing(
    browser: Any, server: str, admin_token: str, pages: list[Page]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    suffix = uuid.uuid4().hex[:6]
    admin = open_context(browser, server, admin_token)
    pages.append(admin)

    # The admin menu's Classifications entry is enabled and opens the screen.
    admin.goto("/feed")
    admin.get_by_test_id("profile-menu").click()
    entry = admin.get_by_role("menuitem", name="Classifications")
    expect(entry).to_be_enabled()
    entry.click()
    expect(admin).to_have_url(f"{server}/admin/classifications")
    expect(admin.get_by_test_id("classifications-page")).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(admin.get_by_test_id("category-row").first).to_be_visible(timeout=LOAD_TIMEOUT)

    # A new category with its Russian name and an uploaded icon.
    name = f"Lighthouses {suffix}"
    admin.get_by_test_id("categories-add").click()
    form = admin.get_by_test_id("category-form")
    expect(form).to_be_visible()
    form.get_by_test_id("form-name").fill(name)
    form.get_by_test_id("form-name-ru").fill(f"Маяки {suffix}")
    with admin.expect_response(lambda response: "/v2/categories/category-icon" in response.url) as uploaded:
        form.locator("input[type=file]").set_input_files(
            {"name": "lighthouse.png", "mimeType": "image/png", "buffer": png_icon()}
        )
    assert uploaded.value.ok, uploaded.value.text()
    expect(form.get_by_test_id("icon-preview")).to_be_visible()
    settled(admin)
    admin.screenshot(path=str(SHOTS / "category-form-1440.png"))
    form.get_by_test_id("form-save").click()
    expect(form).to_have_count(0)
    admin.get_by_test_id("categories-search").fill(name)
    row = admin.get_by_test_id("category-row").filter(has_text=name)
    expect(row).to_have_count(1, timeout=LOAD_TIMEOUT)
    expect(row.get_by_test_id("category-icon")).to_be_visible()
    [created] = categories_named(server, admin_token, name)
    assert created["translations"] == {"ru": f"Маяки {suffix}"}
    assert created["source_image_search"] == "cloud" and created["icon_path"]

    # The same name again: the server's refusal shows on the name field.
    admin.get_by_test_id("categories-add").click()
    form.get_by_test_id("form-name").fill(name)
    form.get_by_test_id("form-save").click()
    expect(form.get_by_test_id("form-name")).to_have_attribute("aria-invalid", "true")
    expect(form).to_contain_text(name)
    admin.keyboard.press("Escape")
    expect(form).to_have_count(0)

    # A batch of categories with one bad row (an unknown category): the dry run reports it.
    harbours = f"Harbours {suffix}"
    piers = f"Piers {suffix}"
    admin.get_by_test_id("tab-batch").click()
    bad = csv_file(
        [
            ["category", harbours, f"Гавани {suffix}", "", "yes"],
            ["subcategory", piers, f"Пирсы {suffix}", f"Nowhere {suffix}", "yes"],
        ]
    )
    admin.locator("input[type=file]").set_input_files(bad)
    expect(admin.get_by_test_id("batch-apply")).to_be_disabled()
    admin.get_by_test_id("batch-check").click()
    report = admin.get_by_test_id("batch-report")
    expect(report).to_have_attribute("data-phase", "refused", timeout=LOAD_TIMEOUT)
    bad_row = admin.locator("[data-testid=batch-row][data-status=error]")
    expect(bad_row).to_have_count(1)
    expect(bad_row).to_contain_text(f"Nowhere {suffix}")
    expect(bad_row).to_contain_text("Row 3")
    expect(admin.get_by_test_id("batch-apply")).to_be_disabled()
    admin.screenshot(path=str(SHOTS / "batch-refused-1440.png"), full_page=True)
    # Nothing of the file was applied, not even its good row.
    assert categories_named(server, admin_token, harbours) == []
    assert subcategories_named(server, admin_token, piers) == []

    # The fixed file: checked, then applied.
    fixed = csv_file(
        [
            ["category", harbours, f"Гавани {suffix}", "", "yes"],
            ["subcategory", piers, f"Пирсы {suffix}", harbours, "yes"],
        ]
    )
    admin.locator("input[type=file]").set_input_files(fixed)
    expect(report).to_have_count(0)
    admin.get_by_test_id("batch-check").click()
    expect(report).to_have_attribute("data-phase", "checked", timeout=LOAD_TIMEOUT)
    assert categories_named(server, admin_token, harbours) == []
    admin.get_by_test_id("batch-apply").click()
    expect(report).to_have_attribute("data-phase", "applied", timeout=LOAD_TIMEOUT)
    expect(admin.locator("[data-testid=batch-row][data-status=created]")).to_have_count(2)
    [category] = categories_named(server, admin_token, harbours)
    [subcategory] = subcategories_named(server, admin_token, piers)
    assert subcategory["category_id"] == category["id"]
    assert category["translations"] == {"ru": f"Гавани {suffix}"}
    admin.screenshot(path=str(SHOTS / "batch-applied-1440.png"), full_page=True)


def test_a_non_admin_gets_the_admins_only_page(browser: Any, server: str, pages: list[Page]) -> None:
    member = open_context(browser, server, new_member(server))
    pages.append(member)
    member.goto("/admin/classifications")
    expect(member.get_by_test_id("classifications-admins-only")).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(member.get_by_test_id("classifications-page")).to_have_count(0)


def test_screenshots_at_390_and_1440(browser: Any, server: str, admin_token: str, pages: list[Page]) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    bad = csv_file([["category", "Quays", "Причалы", "", "maybe"], ["subcategory", "Slipways", "", "", "yes"]])
    for width, height in ((1440, 900), (390, 844)):
        page = open_context(browser, server, admin_token, width=width, height=height)
        pages.append(page)
        open_classifications(page)
        expect(page.get_by_test_id("category-row").first).to_be_visible(timeout=LOAD_TIMEOUT)
        page.screenshot(path=str(SHOTS / f"categories-{width}.png"), full_page=width == 390)
        for tab in ("subcategories", "tags", "vendors"):
            open_classifications(page, f"?tab={tab}")
            row_id = {"subcategories": "subcategory-row", "tags": "tag-row", "vendors": "vendor-row"}[tab]
            expect(page.get_by_test_id(row_id).first).to_be_visible(timeout=LOAD_TIMEOUT)
            page.screenshot(path=str(SHOTS / f"{tab}-{width}.png"))
        open_classifications(page, "?tab=batch")
        # The chosen tab is scrolled into the strip's view on a phone.
        page.wait_for_function(
            "() => { const box = document.querySelector('[data-testid=tab-batch]').getBoundingClientRect();"
            " return box.left >= 0 && box.right <= window.innerWidth; }"
        )
        page.locator("input[type=file]").set_input_files(bad)
        page.get_by_test_id("batch-check").click()
        expect(page.get_by_test_id("batch-report")).to_have_attribute("data-phase", "refused", timeout=LOAD_TIMEOUT)
        expect(page.locator("[data-testid=batch-row][data-status=error]")).to_have_count(2)
        page.screenshot(path=str(SHOTS / f"batch-{width}.png"), full_page=True)
        if width == 390:
            open_classifications(page)
            page.get_by_test_id("categories-add").click()
            expect(page.get_by_test_id("category-form")).to_be_visible()
            settled(page)
            page.screenshot(path=str(SHOTS / "category-form-390.png"))
    # Russian, on a phone.
    page = open_context(browser, server, admin_token, width=390, height=844)
    pages.append(page)
    page.context.add_init_script("localStorage.setItem('localise', 'ru');")
    open_classifications(page, "?tab=tags")
    expect(page.get_by_test_id("tag-row").first).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.get_by_role("heading", name="Классификаторы")).to_be_visible()
    page.screenshot(path=str(SHOTS / "tags-390-ru.png"))
