"""Issue 15 in Chromium. The ads journey: a creator adds an ad in Manage Ads (link checked as typed,
picture uploaded, a tag picked), it waits for approval, an administrator approves it through the API;
another member, whose likes share the ad's tag, finds it Sponsored in the feed and clicks it; the
creator's open Ads Analytics counts the impression and the click as they happen, without a reload,
and exports the range as CSV. Screenshots of Manage Ads, the form and Ads Analytics at 1440 and 390
px, and Ads Analytics in Russian. And a creator's Analytics: a like of one of their tours moves the
range's total and the tour's row while the page is open."""

from __future__ import annotations

import csv
import io
import os
import sqlite3
import uuid
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import Locator, Page, expect

from demo.corpus import DEMO_PASSWORD
from tests.e2e.test_live import (
    ADMIN,
    LOAD_TIMEOUT,
    PUSH_TIMEOUT,
    api,
    connected,
    listed_tour,
    mark_page,
    new_member,
    not_reloaded,
    open_context,
    sign_in_token,
)

SHOTS = Path(os.environ.get("ADS_SHOTS_DIR", "/tmp/shots/ads"))
# The feed serves one ad after every 24 cards; a page is scrolled until the ad shows (or gives up).
FEED_SCROLLS = 12


def shoot(page: Page, name: str, target: Locator) -> None:
    """The same screen at 1440 and at 390 px (the dialogs follow the layout's breakpoints)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((1440, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(300)  # the modal's size follows the media query; let it settle
        expect(target).to_be_visible()
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"))
    page.set_viewport_size({"width": 1440, "height": 900})
    page.wait_for_timeout(300)


def picture(folder: Path) -> Path:
    """A 1200x800 picture for the ad's preview (the upload makes the card-size copy)."""
    image = Image.new("RGB", (1200, 800), (14, 116, 144))
    for x in range(300, 900):
        for y in range(250, 550, 3):
            image.putpixel((x, y), (250, 204, 21))
    path = folder / "ad-picture.png"
    image.save(path, format="PNG")
    return path


def make_creator(server: str, admin: str, user_id: int, folder: Path) -> None:
    """The member becomes a creator at once (an administrator's POST applies without approval)."""
    logo = folder / "logo.png"
    Image.new("RGB", (240, 240), (250, 204, 21)).save(logo, format="PNG")
    with logo.open("rb") as file:
        path = api(server, "POST", "/v2/creators/creator-logo", admin, files={"image": ("logo.png", file, "image/png")})
    suffix = uuid.uuid4().hex[:6]
    body = {
        "userid": user_id,
        "creator_name": f"Harbour Ads {suffix}",
        "user_name": f"harbour.ads.{suffix}",
        "description": "Boat tours and harbour walks",
        "logo": path["path"],
        "img_settings": {"bgColor": "white", "logoScale": 12, "profileScale": 10},
        "services": ["360 photo"],
        "contact_email": f"ads.{suffix}@example.com",
        "phone": "4912345",
        "area_served": ["Lisbon"],
        "default_view": "grid",
    }
    api(server, "POST", "/v2/creators/", admin, json=body)


def open_menu_item(page: Page, item: str) -> None:
    page.get_by_test_id("profile-menu").click()
    entry = page.get_by_test_id(f"menu-{item}")
    expect(entry).to_be_visible(timeout=LOAD_TIMEOUT)
    entry.click()


def approve_the_ad(server: str, admin: str, title: str) -> int:
    queue = api(server, "GET", "/v2/ads/approval-items", admin)
    items = queue["data"] if isinstance(queue, dict) else queue
    item = next(entry for entry in items if title in str(entry))
    api(server, "PUT", "/v2/ads/approval-items", admin, json={"ids": [item["id"]], "action": "approve"})
    return int(item["id"])


def total(page: Page, name: str) -> Locator:
    return page.get_by_test_id(f"analytics-total-{name}")


def find_sponsored(page: Page, title: str) -> Locator:
    """Scroll the feed until the ad's Sponsored card is there."""
    card = page.get_by_test_id("ad-card").filter(has_text=title)
    for _ in range(FEED_SCROLLS):
        if card.count():
            return card.first
        page.mouse.wheel(0, 4000)
        page.wait_for_timeout(700)
    expect(card.first).to_be_visible(timeout=LOAD_TIMEOUT)
    return card.first


def test_a_creators_ad_is_approved_served_clicked_and_counted_live(browser: Any, server: str, tmp_path: Path) -> None:
    admin = sign_in_token(server, *ADMIN)
    token = new_member(server)
    me = api(server, "GET", "/v2/users/", token)
    make_creator(server, admin, me["userid"], tmp_path)

    # The viewer likes a tour: its tags become theirs, and the ad will carry one of them.
    viewer_token = new_member(server)
    guid = listed_tour(server)
    tour = api(server, "GET", f"/v2/virtualtours/{guid}")
    tag = tour["tags"][0]["name"]
    api(server, "POST", "/v2/virtualtours/post_likes", viewer_token, json={"id": guid, "isLike": True})

    title = f"Harbour boat tour {uuid.uuid4().hex[:5]}"
    link = f"https://boats.example.com/{uuid.uuid4().hex[:8]}"

    page = open_context(browser, server, token)
    page.goto("/feed")
    connected(page)

    # ---- Manage Ads: empty at first, then the form
    open_menu_item(page, "manageAds")
    dialog = page.get_by_test_id("manage-ads")
    expect(page.get_by_test_id("manage-ads-empty")).to_be_visible(timeout=LOAD_TIMEOUT)
    shoot(page, "manage-ads-empty", dialog)
    page.get_by_test_id("add-ad").first.click()
    form = page.get_by_test_id("ad-form")
    expect(form).to_be_visible(timeout=LOAD_TIMEOUT)
    page.get_by_test_id("ad-form-submit").click()
    expect(form).to_contain_text("required")  # the empty form says what is missing
    page.get_by_test_id("ad-link").fill("http://boats.example.com/")
    expect(form).to_contain_text("https://", timeout=LOAD_TIMEOUT)
    page.get_by_test_id("ad-link").fill(link)
    page.get_by_test_id("ad-title").fill(title)
    with page.expect_file_chooser() as chooser:
        page.get_by_test_id("ad-image-upload").click()
    chooser.value.set_files(str(picture(tmp_path)))
    expect(page.get_by_test_id("ad-image-preview")).to_be_visible(timeout=LOAD_TIMEOUT)
    page.get_by_label("Search tags to add").fill(tag)
    page.get_by_role("option", name=tag, exact=True).first.click()
    expect(page.get_by_test_id("ad-tags")).to_contain_text(tag)
    page.get_by_test_id("ad-title").click()  # away from the tags: their list closes
    expect(page.get_by_role("listbox")).to_have_count(0)
    shoot(page, "ad-form", form)
    page.get_by_test_id("ad-form-submit").click()
    expect(form).to_have_count(0, timeout=LOAD_TIMEOUT)
    row = page.get_by_test_id("manage-ad-row").filter(has_text=title)
    expect(row).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(row).to_contain_text("Pending approval")
    shoot(page, "manage-ads", dialog)
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)

    # ---- an administrator approves it (through the API)
    approve_the_ad(server, admin, title)
    mine = api(server, "GET", f"/v2/ads/user/{me['userid']}", token)
    assert title in str(mine)

    # ---- the creator watches Ads Analytics
    open_menu_item(page, "adsAnalytics")
    screen = page.get_by_test_id("analytics-screen-ads")
    expect(screen).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.get_by_test_id("analytics-table")).to_contain_text(title, timeout=LOAD_TIMEOUT)
    expect(total(page, "impressions")).to_have_attribute("data-value", "0")
    expect(total(page, "clicks")).to_have_attribute("data-value", "0")
    mark_page(page)

    # ---- another member sees it Sponsored in the feed and clicks it
    viewer = open_context(browser, server, viewer_token)
    try:
        viewer.goto("/feed")
        expect(viewer.get_by_test_id("media-card").first).to_be_visible(timeout=LOAD_TIMEOUT)
        card = find_sponsored(viewer, title)
        card.scroll_into_view_if_needed()
        expect(card).to_contain_text("Sponsored")
        assert card.get_attribute("href") == link
        expect(card.locator("img")).to_have_js_property("complete", True, timeout=LOAD_TIMEOUT)
        viewer.wait_for_timeout(500)  # the neighbours' pictures, for the screenshot
        viewer.screenshot(path=str(SHOTS / "feed-sponsored-1440.png"))
        # The advertiser's site (no internet here): the browser answers it itself.
        viewer.context.route(
            "https://boats.example.com/**",
            lambda route: route.fulfill(body="<h1>Boat tours</h1>", content_type="text/html"),
        )
        with viewer.context.expect_page() as opened:
            card.click()
        opened.value.wait_for_load_state()
        assert opened.value.url == link
        opened.value.close()

        # ---- the creator's open page counts both, live
        expect(total(page, "impressions")).to_have_attribute("data-value", "1", timeout=PUSH_TIMEOUT)
        expect(total(page, "clicks")).to_have_attribute("data-value", "1", timeout=PUSH_TIMEOUT)
        not_reloaded(page)
        expect(page.get_by_test_id("analytics-table")).to_contain_text(title)
        shoot(page, "ads-analytics", screen)

        # ---- the CSV export downloads the range
        with page.expect_download() as download:
            page.get_by_test_id("analytics-export-csv").click()
        assert download.value.suggested_filename.startswith("touratlas-ads-analytics-")
        text = Path(download.value.path()).read_text(encoding="utf-8-sig")
        rows = list(csv.reader(io.StringIO(text)))
        assert any(title in cell for line in rows for cell in line), text[:500]

        # ---- in Russian (a page of its own: the shared first-visit script sets English on every load)
        russian = open_context(browser, server, token)
        russian.context.add_init_script("localStorage.setItem('localise', 'ru')")
        russian.goto("/feed")
        open_menu_item(russian, "adsAnalytics")
        expect(russian.get_by_test_id("analytics-screen-ads")).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(russian.get_by_test_id("analytics-table")).to_contain_text(title, timeout=LOAD_TIMEOUT)
        expect(russian.get_by_test_id("analytics-screen-ads")).to_contain_text("Показы")
        shoot(russian, "ads-analytics-ru", russian.get_by_test_id("analytics-screen-ads"))
        russian.context.close()
    finally:
        viewer.context.close()
        page.context.close()


def a_demo_creator(server_data_dir: Path) -> dict[str, Any]:
    """A demo creator with listed tours: their e-mail, user id and the guids of their tours."""
    with sqlite3.connect(server_data_dir / "touratlas.db") as database:
        row = database.execute(
            "SELECT u.id, u.email FROM users u JOIN creators c ON c.user_id = u.id "
            "JOIN tours t ON t.user_id = u.id WHERE u.is_admin = 0 AND c.is_active = 1 AND t.status = 'active' "
            "GROUP BY u.id, u.email HAVING COUNT(t.id) BETWEEN 3 AND 20 ORDER BY u.id DESC LIMIT 1"
        ).fetchone()
        guids = [
            guid
            for (guid,) in database.execute(
                "SELECT guid FROM tours WHERE user_id = ? AND status = 'active' AND approval_state = 'approved'",
                (row[0],),
            )
        ]
    return {"userid": row[0], "email": row[1], "guids": guids}


def test_a_creators_analytics_count_a_like_live_and_page_their_tours(
    browser: Any, server: str, server_data_dir: Path
) -> None:
    creator = a_demo_creator(server_data_dir)
    token = sign_in_token(server, creator["email"], DEMO_PASSWORD)
    member = new_member(server)
    liked = creator["guids"][0]

    page = open_context(browser, server, token)
    # The daily featured-tour dialog (which cannot be closed) is answered for today.
    page.context.add_init_script(
        "localStorage.setItem('dailyFeatured', JSON.stringify({"
        f"'{creator['userid']}': new Date().toISOString().slice(0, 10)"
        "}));"
    )
    try:
        page.goto("/feed")
        connected(page)
        open_menu_item(page, "analytics")
        screen = page.get_by_test_id("analytics-screen-tours")
        expect(screen).to_be_visible(timeout=LOAD_TIMEOUT)
        table = page.get_by_test_id("analytics-table")
        expect(table).to_be_visible(timeout=LOAD_TIMEOUT)
        row = page.get_by_test_id(f"analytics-row-{liked}")
        expect(row).to_be_visible(timeout=LOAD_TIMEOUT)
        likes_before = int(total(page, "likes").get_attribute("data-value") or "-1")
        row_before = int(row.get_by_test_id("analytics-cell-likes").get_attribute("data-value") or "-1")
        mark_page(page)

        api(server, "POST", "/v2/virtualtours/post_likes", member, json={"id": liked, "isLike": True})

        expect(total(page, "likes")).to_have_attribute("data-value", str(likes_before + 1), timeout=PUSH_TIMEOUT)
        expect(row.get_by_test_id("analytics-cell-likes")).to_have_attribute(
            "data-value", str(row_before + 1), timeout=PUSH_TIMEOUT
        )
        not_reloaded(page)
        shoot(page, "analytics", screen)
    finally:
        page.context.close()
