"""Issue 13 in Chromium, the whole creator journey: a new user becomes a creator in the browser (the
menu's entry, the info modal, the profile form with its errors, a logo upload and the live preview of
its background and scale, a dead link refused by the server beside its field), waits for approval
(the menu says so), an administrator approves through the API, and the profile shows at
/creator/{id} in grid, list and map with a filter kept across a reload. The creator's edit waits for
approval while the published profile stays; another account follows (the creator's open page sees
the count move, Socket.IO) and writes through the contact form, whose message lands in the stored
mail. Screenshots at 390 and 1440 px of the info modal, the form (empty and with errors), the
pending state and the edit mode with its preview."""

from __future__ import annotations

import io
import os
import sqlite3
import time
import uuid
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import Locator, Page, expect

from tests.e2e.test_creator_page import choose_view, link_params, shown_guids
from tests.e2e.test_live import ADMIN, api, connected, in_room, new_member, open_context, sign_in_token, value

SHOTS = Path(os.environ.get("CREATOR_JOURNEY_SHOTS_DIR", "/tmp/shots/creator-journey"))
LOAD_TIMEOUT = 20_000
PUSH_TIMEOUT = 10_000
MAIL_WAIT_SECONDS = 15


# ------------------------------------------------------------------------------------------ helpers


def shoot(page: Page, name: str, target: Locator | None = None) -> None:
    """The same screen at 1440 and at 390 px (the dialogs follow the layout's breakpoints)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((1440, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(250)  # the modal's size follows the media query; let it settle
        if target is not None:
            expect(target).to_be_visible()
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"))
    page.set_viewport_size({"width": 1440, "height": 900})
    page.wait_for_timeout(250)


def add_tours(server: str, token: str, admin: str) -> list[dict[str, Any]]:
    """Two listed tours of the member, in two categories (submitted, then approved by an admin)."""
    vendors = api(server, "GET", "/v2/vendors/")["data"]
    kuula = next(vendor for vendor in vendors if vendor["vendor_name"] == "Kuula")
    categories = [c for c in api(server, "GET", "/v2/categories/")["data"] if c["subcategories"]][:2]
    media_type = api(server, "GET", "/v2/categories/media-types")["data"][0]
    tours = []
    for index, (category, place) in enumerate(zip(categories, ("38.7223,-9.1393", "41.1579,-8.6291"), strict=True)):
        body = {
            "vendor": kuula["vendor_id"],
            "link": f"https://kuula.co/share/{uuid.uuid4().hex[:5]}",
            "title": f"Journey tour {index + 1} {uuid.uuid4().hex[:4]}",
            "description": "A tiled courtyard and its fountain, seen from the gallery above.",
            "media_type_id": media_type["id"],
            "category_id": category["id"],
            "subcategory_id": category["subcategories"][0]["id"],
            "coordinate": place,
            "approve_needed": True,
        }
        guid = api(server, "POST", "/v2/virtualtours/", token, json=body)["data"]["guid"]
        api(server, "PUT", f"/v2/virtualtours/{guid}", admin, json={"guid": guid, "task": "approve"})
        tours.append({"guid": guid, "title": body["title"], "category_id": category["id"]})
    return tours


def logo_file(folder: Path) -> Path:
    """A round logo on a transparent ground: the chosen background shows around it."""
    image = Image.new("RGBA", (240, 240), (0, 0, 0, 0))
    for x in range(40, 200):
        for y in range(40, 200):
            distance = (x - 120) ** 2 + (y - 120) ** 2
            if distance < 6400:
                image.putpixel((x, y), (14, 116, 144, 255) if distance > 2500 else (250, 204, 21, 255))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    path = folder / "journey-logo.png"
    path.write_bytes(buffer.getvalue())
    return path


def open_menu_item(page: Page, item: str) -> Locator:
    page.get_by_test_id("profile-menu").click()
    entry = page.get_by_test_id(f"menu-{item}")
    expect(entry).to_be_visible(timeout=LOAD_TIMEOUT)
    return entry


def stored_mail(database: Path, to_address: str) -> tuple[str, str]:
    """The creator's contact mail in the outbox table (mail is queued after the request commits)."""
    deadline = time.monotonic() + MAIL_WAIT_SECONDS
    while time.monotonic() < deadline:
        with sqlite3.connect(database) as connection:
            row = connection.execute(
                "SELECT subject, body_text FROM outgoing_mail WHERE to_address = ? AND template = 'creator.message'"
                " ORDER BY id DESC",
                (to_address,),
            ).fetchone()
        if row is not None:
            return str(row[0]), str(row[1])
        time.sleep(0.3)
    raise AssertionError(f"no contact mail for {to_address}")


# -------------------------------------------------------------------------------------------- test


def test_a_new_user_becomes_a_creator_is_approved_followed_and_written_to(
    browser: Any, server: str, server_data_dir: Path, tmp_path: Path
) -> None:
    admin = sign_in_token(server, *ADMIN)
    token = new_member(server)
    me = api(server, "GET", "/v2/users/", token)
    tours = add_tours(server, token, admin)
    suffix = uuid.uuid4().hex[:6]
    creator_name = f"Azulejo Studio {suffix}"
    contact_email = f"studio.{suffix}@example.com"

    page = open_context(browser, server, token)
    # Once approved, this creator has listed tours, so the daily featured-tour dialog (which cannot be
    # closed; tests/e2e/test_vendor_settings.py covers it) would ask first: answered for today here.
    page.context.add_init_script(
        "localStorage.setItem('dailyFeatured', JSON.stringify({"
        f"'{me['userid']}': new Date().toISOString().slice(0, 10)"
        "}));"
    )
    try:
        page.goto("/feed")
        # ---- the entry point, the info modal
        open_menu_item(page, "profile").click()
        info = page.get_by_test_id("become-creator-info")
        expect(info).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(page.get_by_role("dialog")).to_contain_text("Become a creator")
        shoot(page, "info-modal", info)
        page.get_by_test_id("become-creator-continue").click()

        # ---- the form, empty, then refused in the browser
        form = page.get_by_test_id("creator-form")
        expect(form).to_be_visible()
        expect(page.get_by_test_id("creator-form-username")).to_have_value(me["platform_username"])
        shoot(page, "form-empty", form)
        page.get_by_test_id("creator-form-submit").click()
        expect(page.get_by_test_id("creator-form-problem")).to_be_visible()
        expect(form.get_by_text("Logo is required")).to_be_visible()
        expect(form.get_by_text("Location is required")).to_be_visible()
        expect(page.get_by_test_id("creator-form-name")).to_be_focused()  # the first field to fix
        shoot(page, "form-errors", form)

        # ---- filled in: logo (uploaded), its background and scale previewed live
        page.get_by_test_id("creator-form-name").fill(creator_name)
        form.locator("input[type=file]").set_input_files(str(logo_file(tmp_path)))
        preview = page.get_by_test_id("creator-form-preview")
        expect(preview.locator("img")).to_be_visible(timeout=LOAD_TIMEOUT)
        assert "/uploads/creator-logos/" in (preview.locator("img").get_attribute("src") or "")
        expect(preview).to_have_attribute("data-background", "black")
        page.get_by_test_id("creator-form-background").get_by_text("White").click()
        expect(preview).to_have_attribute("data-background", "white")
        expect(preview.get_by_test_id("creator-logo")).to_have_attribute("data-background", "white")
        slider = page.get_by_role("slider", name="Logo size")
        slider.focus()
        for _ in range(5):
            page.keyboard.press("ArrowRight")
        expect(preview).to_have_attribute("data-scale", "15")
        page.get_by_test_id("creator-form-description").fill("Tiles, courtyards and chapels of Lisbon in 360.")
        services = page.get_by_test_id("creator-form-services")
        services.fill("360 photography")
        services.press("Enter")
        area = page.get_by_test_id("creator-form-area")
        area.fill("Lisbon")
        area.press("Enter")
        area.fill("Porto")
        area.press("Enter")
        page.get_by_test_id("creator-form-email").fill(contact_email)
        page.get_by_test_id("creator-form-featured").click()
        page.get_by_role("option", name=tours[0]["title"]).click()
        page.keyboard.press("Escape")
        # A website that does not answer: the server's reason appears beside the field.
        page.get_by_test_id("creator-form-website").fill("http://127.0.0.1:9/")
        page.get_by_test_id("creator-form-submit").click()
        expect(form.get_by_text("This link does not answer")).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(page.get_by_test_id("creator-form-website")).to_have_attribute("aria-invalid", "true")
        page.get_by_test_id("creator-form-website").fill(f"{server}/health")

        # ---- sent: it waits for approval, and the menu says so
        page.get_by_test_id("creator-form-submit").click()
        pending = page.get_by_test_id("become-creator-pending")
        expect(pending).to_be_visible(timeout=LOAD_TIMEOUT)
        shoot(page, "pending", pending)
        pending.get_by_role("button", name="OK").click()
        entry = open_menu_item(page, "profile")
        expect(entry).to_have_attribute("data-pending", "true")
        expect(entry).to_contain_text("Pending")
        page.keyboard.press("Escape")

        # ---- an administrator approves through the API
        items = api(server, "GET", "/v2/creators/approval-items", admin, params={"kind": "new_creator_profile"})["data"]
        item = next(entry for entry in items if entry["userid"] == me["userid"])
        assert item["pending"]["img_settings"] == {"bgColor": "white", "logoScale": 15, "profileScale": 10}
        assert item["pending"]["featured_tours"] == [tours[0]["guid"]]
        decision = {"id": item["id"], "action": "approve"}
        approved = api(server, "PUT", "/v2/creators/approval-items", admin, json=decision)
        creator_id = approved["data"]["current"]["id"]

        # ---- the menu now leads to the creator's page (the token learns the creator id)
        page.reload()
        # The open menu asks afresh: a profile is published now, the token is renewed with its id,
        # and the entries become the creator's.
        open_menu_item(page, "profile")
        creator_entry = page.get_by_test_id("menu-creatorProfile")
        expect(creator_entry).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(page.get_by_test_id("menu-profile")).to_have_count(0)
        creator_entry.click()
        expect(page).to_have_url(f"{server}/creator/{creator_id}")
        expect(page.get_by_test_id("creator-name")).to_have_text(creator_name, timeout=LOAD_TIMEOUT)
        expect(page.get_by_test_id("creator-logo").first).to_have_attribute("data-background", "white")

        # ---- grid, list and map, and a filter kept across a reload
        choose_view(page, "Grid")
        expect(page.get_by_test_id("media-card").first).to_be_visible(timeout=LOAD_TIMEOUT)
        assert set(shown_guids(page)) == {tour["guid"] for tour in tours}
        choose_view(page, "List")
        expect(page.locator("[data-testid=card-grid][data-layout=list]")).to_be_visible(timeout=LOAD_TIMEOUT)
        choose_view(page, "Map")
        page.wait_for_function(
            "() => { const s = document.querySelector('[data-testid=map-status]');"
            " return s && s.dataset.ready && !s.dataset.loading"
            " && Number(s.dataset.points || 0) + Number(s.dataset.clusters || 0) > 0; }",
            timeout=30_000,
        )
        choose_view(page, "Grid")
        category = str(tours[1]["category_id"])
        page.get_by_test_id("creator-full-profile").locator(f"[data-category-id='{category}']").click()
        page.wait_for_function("c => new URL(location.href).searchParams.get('categories') === c", arg=category)
        page.reload()
        expect(page.get_by_test_id("creator-name")).to_have_text(creator_name, timeout=LOAD_TIMEOUT)
        assert link_params(page)["categories"] == category
        chip = page.get_by_test_id("creator-full-profile").locator(f"[data-category-id='{category}']")
        expect(chip).to_have_attribute("aria-pressed", "true")
        page.wait_for_function(
            "g => { const cards = [...document.querySelectorAll('[data-testid=media-card]')];"
            " return cards.length === 1 && cards[0].dataset.guid === g; }",
            arg=tours[1]["guid"],
            timeout=LOAD_TIMEOUT,
        )
        page.get_by_test_id("creator-clear-filters").click()

        # ---- edit mode: prefilled, previewed live; the edit waits, the published profile stays
        page.get_by_test_id("creator-edit").click()
        edit = page.get_by_test_id("creator-form")
        expect(edit).to_have_attribute("data-mode", "edit", timeout=LOAD_TIMEOUT)
        expect(page.get_by_test_id("creator-form-name")).to_have_value(creator_name)
        preview = page.get_by_test_id("creator-form-preview")
        expect(preview).to_have_attribute("data-scale", "15")
        page.get_by_test_id("creator-form-background").get_by_text("Black").click()
        page.get_by_role("slider", name="Logo size").focus()
        for _ in range(5):
            page.keyboard.press("ArrowLeft")
        expect(preview).to_have_attribute("data-background", "black")
        expect(preview).to_have_attribute("data-scale", "10")
        page.get_by_test_id("creator-form-name").fill(f"{creator_name} Tours")
        shoot(page, "edit-preview", edit)
        page.get_by_test_id("creator-form-submit").click()
        expect(page.get_by_test_id("creator-edit-pending")).to_be_visible(timeout=LOAD_TIMEOUT)
        page.get_by_test_id("creator-edit-pending").get_by_role("button", name="OK").click()
        expect(page.get_by_test_id("creator-edit-pending-banner")).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(page.get_by_test_id("creator-name")).to_have_text(creator_name)  # still the published one
        expect(page.get_by_test_id("creator-logo").first).to_have_attribute("data-background", "white")
        shoot(page, "owner-page", page.get_by_test_id("creator-owner-tools"))

        # ---- another account follows: the creator's open page sees the count move
        connected(page)
        in_room(page, f"creator:{creator_id}")
        followers = value(page, "creator-count-followers")
        assert page.get_by_test_id("creator-follow").count() == 0  # never on one's own profile
        other = open_context(browser, server, new_member(server))
        try:
            other.goto(f"/creator/{creator_id}")
            follow = other.get_by_test_id("creator-follow")
            expect(follow).to_have_attribute("aria-pressed", "false", timeout=LOAD_TIMEOUT)
            follow.click()
            expect(follow).to_have_attribute("aria-pressed", "true")
            expect(page.get_by_test_id("creator-count-followers")).to_have_attribute(
                "data-value", str(followers + 1), timeout=PUSH_TIMEOUT
            )

            # ---- and writes through the contact form: the mail reaches the creator's contact address
            other.get_by_test_id("creator-contact").click()
            contact = other.get_by_test_id("creator-contact-form")
            expect(contact).to_be_visible(timeout=LOAD_TIMEOUT)
            expect(other.get_by_test_id("contact-name")).to_have_value("Live Member")
            other.get_by_test_id("contact-subject").fill("A chapel in Sintra")
            other.get_by_test_id("contact-message").fill("Short")
            other.get_by_test_id("contact-send").click()
            expect(contact.get_by_text("The message must have at least 20 letters")).to_be_visible()
            other.get_by_test_id("contact-message").fill("Could you capture our chapel in Sintra next spring?")
            other.get_by_test_id("contact-send").click()
            expect(contact).to_be_hidden(timeout=LOAD_TIMEOUT)
        finally:
            other.context.close()
        subject, body = stored_mail(server_data_dir / "touratlas.db", contact_email)
        assert subject.startswith("A chapel in Sintra")
        assert "Could you capture our chapel in Sintra next spring?" in body
    finally:
        page.context.close()
