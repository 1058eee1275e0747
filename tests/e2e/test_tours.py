"""Tours in a browser: add a tour through the media form against a local fake provider, approve it,
find it in the feed, open it, like and save it and watch the counters move; screenshots of the form,
the tour page, the share screen and the manage-media dashboard at 390 and 1440 px."""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image, ImageDraw
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from tests.e2e.test_accounts import sign_up
from tests.fakes.tour_pages import TourPages, running_tour_pages, tour_page

SHOTS = Path(os.environ.get("TOUR_SHOTS_DIR", "/tmp/shots/tours"))
LOAD_TIMEOUT = 20_000
ADMIN = ("admin@touratlas.local", "Admin123!")
DEMO = ("demo@touratlas.local", "Demo123!")
HOST = "FakeTours"
# First-visit screens of other features (cookie banner, language popup, guest guide) stay out of the way.
CONSENT = {"necessary": True, "preferences": True, "decidedAt": "2026-01-01T00:00:00.000Z"}
QUIET_FIRST_VISIT = f"""
  localStorage.setItem('cookieConsent', {json.dumps(json.dumps(CONSENT))});
  localStorage.setItem('localise', 'en');
  localStorage.setItem('previewGuideSeen', 'true');
"""


@pytest.fixture(scope="module")
def provider(server_data_dir: Path, server: str) -> Iterator[TourPages]:
    """The fake provider, registered as a host of the e2e server (its link pattern, embedding the link)."""
    with running_tour_pages() as pages:
        _register_host(server_data_dir / "touratlas.db", pages.link_pattern)
        yield pages


def _register_host(database: Path, link_pattern: str) -> None:
    import app.models  # noqa: F401 - every table, so the foreign keys resolve
    from app.vendors.models import Vendor

    engine = create_engine(f"sqlite:///{database}", connect_args={"timeout": 30})
    with Session(engine) as session:
        if session.scalar(select(Vendor).where(Vendor.name == HOST)) is None:
            session.add(
                Vendor(
                    name=HOST,
                    slug="faketours",
                    group_name="Panoramas",
                    link_header="http://127.0.0.1/tours/…",
                    link_pattern=link_pattern,
                    embed_template="{link}",
                    website="http://127.0.0.1/",
                )
            )
            session.commit()
    engine.dispose()


@pytest.fixture(scope="module")
def preview_image(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("images") / "preview.jpg"
    image = Image.new("RGB", (900, 600), (36, 108, 160))
    ImageDraw.Draw(image).ellipse((300, 150, 600, 450), fill=(250, 200, 60))
    image.save(path, quality=85)
    return path


def new_page(browser: Any, server: str, width: int, height: int) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=server)
    context.add_init_script(QUIET_FIRST_VISIT)
    return context.new_page()


def skip_guide(page: Page) -> None:
    """A new account is greeted by the getting-started guide: it can be skipped."""
    skip = page.get_by_role("button", name="Skip guide")
    try:
        skip.wait_for(timeout=3_000)
    except Exception:  # noqa: BLE001 - no guide for this account
        return
    skip.click()


def sign_in(page: Page, server: str, email: str, password: str) -> None:
    page.goto("/registration")
    form = page.get_by_test_id("sign-in-form")
    form.get_by_label("Email", exact=True).fill(email)
    form.get_by_label("Password", exact=True).fill(password)
    form.get_by_label("Password", exact=True).press("Enter")
    expect(page).to_have_url(f"{server}/feed", timeout=15_000)
    skip_guide(page)


def api_token(server: str, email: str, password: str) -> dict[str, str]:
    answer = httpx.post(
        f"{server}/v2/users/sign-in",
        json={"email": email, "password": password, "auth_system": "Email", "user_system_id": "e2e"},
        timeout=30,
    )
    answer.raise_for_status()
    return {"Authorization": f"Bearer {answer.json()['user_jwt']}"}


def provider_page(provider: TourPages, title: str) -> str:
    slug = uuid.uuid4().hex[:10]
    return provider.add(
        f"/tours/{slug}",
        tour_page(
            title=title,
            description="A 360 panorama of the old lighthouse by the harbour, with the maritime museum next door.",
            image=provider.url("/images/lighthouse.jpg"),
            json_ld={
                "@context": "https://schema.org",
                "@type": "Museum",
                "name": title,
                "address": {"@type": "PostalAddress", "addressLocality": "Kraków", "addressCountry": "PL"},
            },
        ),
    )


def choose(page: Page, test_id: str, option: str | None = None) -> None:
    page.get_by_test_id(test_id).click()
    options = page.get_by_role("option")
    (options.filter(has_text=option) if option else options).first.click()


def fill_media_form(page: Page, link: str, image: Path) -> None:
    """Host first, then the link; the lookup fills title, description and address, suggestions the rest."""
    form = page.get_by_test_id("media-form")
    expect(form).to_be_visible()
    choose(page, "media-host", HOST)
    page.get_by_test_id("media-link").fill(link)
    expect(page.get_by_test_id("lookup-found")).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(form.get_by_label("Title")).not_to_have_value("")
    expect(page.get_by_test_id("media-address")).to_have_value("Kraków, Lesser Poland Voivodeship, Poland")
    choose(page, "media-type")
    category = page.get_by_test_id("media-category")
    expect(category).not_to_have_value("", timeout=LOAD_TIMEOUT)  # suggested from the title and description
    # The provider's image is a plain-http address, which the server refuses: upload one instead.
    page.get_by_test_id("media-image").locator("input[type=file]").set_input_files(str(image))
    expect(page.get_by_test_id("media-image-preview")).to_have_attribute(
        "src", re.compile(r"^/uploads/"), timeout=LOAD_TIMEOUT
    )


def counter(page: Page, name: str) -> int:
    return int(page.get_by_test_id(f"count-{name}").get_attribute("data-value") or "-1")


def test_add_approve_find_open_like_and_save_a_tour(
    browser: Any, server: str, provider: TourPages, preview_image: Path
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    suffix = uuid.uuid4().hex[:6]
    title = f"Old lighthouse of Kraków {suffix}"
    link = provider_page(provider, title)

    # A new member adds the tour through the form.
    page = new_page(browser, server, 1440, 900)
    sign_up(page, f"adder.{suffix}@example.com", f"adder_{suffix}")
    expect(page).to_have_url(f"{server}/feed", timeout=15_000)
    skip_guide(page)
    page.get_by_test_id("add-media-button").click()
    fill_media_form(page, link, preview_image)
    page.screenshot(path=str(SHOTS / "form-1440.png"))
    page.get_by_test_id("media-form-submit").click()
    saved = page.get_by_test_id("media-saved-dialog")
    expect(saved).to_be_visible(timeout=LOAD_TIMEOUT)
    saved.get_by_role("button", name="OK").click()
    expect(page.get_by_test_id("media-form")).to_be_hidden()

    # The owner's dashboard lists it, waiting for approval.
    page.get_by_test_id("profile-menu").click()
    page.get_by_role("menuitem", name="Manage Media").click()
    row = page.get_by_test_id("manage-row").filter(has_text=title)
    expect(row).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(row.get_by_text("Pending")).to_be_visible()
    page.screenshot(path=str(SHOTS / "manage-1440.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(SHOTS / "manage-390.png"))
    page.context.close()

    # An administrator approves it.
    admin = api_token(server, *ADMIN)
    found = httpx.get(f"{server}/v2/virtualtours/link_exists", params={"link": link}, headers=admin, timeout=30).json()
    assert found["exists"] and found["guid"]
    guid = found["guid"]
    approved = httpx.put(
        f"{server}/v2/virtualtours/{guid}", json={"guid": guid, "task": "approve"}, headers=admin, timeout=30
    )
    assert approved.status_code in (200, 201), approved.text

    # Another member finds it in the feed, opens it, likes and saves it.
    page = new_page(browser, server, 1440, 900)
    sign_in(page, server, *DEMO)
    search = page.get_by_test_id("search-input")
    search.fill(title)
    search.press("Enter")
    card = page.locator(f"[data-testid=media-card][data-guid='{guid}']")
    expect(card).to_be_visible(timeout=LOAD_TIMEOUT)
    card.click()
    expect(page).to_have_url(f"{server}/virtualtours/{guid}")
    expect(page.get_by_test_id("tour-title")).to_have_text(title)
    expect(page.get_by_test_id("tour-description")).to_contain_text("maritime museum")
    expect(page.get_by_test_id("tour-counters")).to_be_visible()
    expect(page.get_by_test_id("count-views")).to_have_attribute("data-value", "1", timeout=LOAD_TIMEOUT)
    likes, saves = counter(page, "likes"), counter(page, "saves")
    page.get_by_test_id("like-button").click()
    page.get_by_test_id("save-button").click()
    expect(page.get_by_test_id("count-likes")).to_have_attribute("data-value", str(likes + 1))
    expect(page.get_by_test_id("count-saves")).to_have_attribute("data-value", str(saves + 1))
    expect(page.get_by_test_id("like-button")).to_have_attribute("aria-pressed", "true")
    page.screenshot(path=str(SHOTS / "tour-1440.png"), full_page=True)

    # The server kept them: a reload shows the same counts and the visitor's own like and save.
    page.reload()
    expect(page.get_by_test_id("count-likes")).to_have_attribute("data-value", str(likes + 1), timeout=LOAD_TIMEOUT)
    expect(page.get_by_test_id("count-saves")).to_have_attribute("data-value", str(saves + 1))
    expect(page.get_by_test_id("save-button")).to_have_attribute("aria-pressed", "true")

    # The player embeds the provider's page by the host's embed rule ("{link}").
    page.get_by_test_id("start-tour").click()
    expect(page.get_by_test_id("tour-player").locator("iframe")).to_have_attribute("src", link)

    # Sharing: the copy button says 'copied' and the share counter moves.
    shared = counter(page, "shared")
    page.get_by_test_id("share-button").click()
    page.get_by_test_id("share-copy").click()
    expect(page.get_by_test_id("share-copy")).to_have_text("copied")
    page.screenshot(path=str(SHOTS / "share-1440.png"))
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("count-shared")).to_have_attribute("data-value", str(shared + 1))

    # The saved tour is in the visitor's saved tours.
    page.get_by_test_id("profile-menu").click()
    page.get_by_test_id("menu-saved-tours").click()
    expect(page.get_by_test_id("saved-tours").locator(f"[data-guid='{guid}']")).to_be_visible(timeout=LOAD_TIMEOUT)
    page.screenshot(path=str(SHOTS / "saved-1440.png"))
    page.context.close()

    # The tour page and the share screen on a phone.
    page = new_page(browser, server, 390, 844)
    page.goto(f"/virtualtours/{guid}")
    expect(page.get_by_test_id("tour-title")).to_have_text(title, timeout=LOAD_TIMEOUT)
    page.screenshot(path=str(SHOTS / "tour-390.png"), full_page=True)
    page.get_by_test_id("share-button").click()
    expect(page.get_by_test_id("share-screen")).to_be_visible()
    page.screenshot(path=str(SHOTS / "share-390.png"))
    page.context.close()


def test_a_guest_is_asked_to_sign_in_to_like(browser: Any, server: str) -> None:
    page = new_page(browser, server, 1440, 900)
    page.goto("/feed")
    first = page.get_by_test_id("media-card").first
    expect(first).to_be_visible(timeout=LOAD_TIMEOUT)
    first.click()
    expect(page.get_by_test_id("tour-title")).to_be_visible(timeout=LOAD_TIMEOUT)
    likes = counter(page, "likes")
    page.get_by_test_id("like-button").click()
    expect(page.get_by_role("dialog").filter(has_text="Sign in to continue")).to_be_visible()
    assert counter(page, "likes") == likes


def test_an_unknown_tour_says_it_could_not_be_found(browser: Any, server: str) -> None:
    page = new_page(browser, server, 390, 844)
    page.goto("/media/00000000000000000000000000000000")
    expect(page.get_by_test_id("tour-not-found")).to_contain_text(
        "Unfortunately this Virtual Tour could not be found...", timeout=LOAD_TIMEOUT
    )


def test_the_form_on_a_phone_asks_before_closing_a_changed_form(
    browser: Any, server: str, provider: TourPages, preview_image: Path
) -> None:
    page = new_page(browser, server, 390, 844)
    sign_in(page, server, *DEMO)
    page.get_by_test_id("profile-menu").click()
    page.get_by_role("menuitem", name="Add media").click()
    fill_media_form(page, provider_page(provider, f"Harbour lights {uuid.uuid4().hex[:6]}"), preview_image)
    page.screenshot(path=str(SHOTS / "form-390.png"))
    page.keyboard.press("Escape")
    expect(page.get_by_text("Are you sure want to close ?")).to_be_visible()
    page.get_by_test_id("confirm-close-media-form").click()
    expect(page.get_by_test_id("media-form")).to_be_hidden()
    # Opened again and closed untouched: no question.
    page.get_by_test_id("profile-menu").click()
    page.get_by_role("menuitem", name="Add media").click()
    expect(page.get_by_test_id("media-form")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("media-form")).to_be_hidden()
