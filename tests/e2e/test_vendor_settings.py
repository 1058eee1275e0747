"""Issue 13 in Chromium: a demo creator with listed tours meets the daily featured-tour dialog (no way
to close it but its own answers; "Not today" keeps it away for the day, a submission reaches the
server), connects a Matterport API token in Settings against the local fake Matterport (a refused
pair says so, an accepted one shows masked, a model of the account is checked, disconnecting asks
first), and opens the custom host request from Settings and from the media form's host picker, where
{host} is checked before sending and the server's answer is shown on its field."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session

from tests.fakes.matterport import FakeMatterport, FakeModel

SHOTS = Path(os.environ.get("VENDOR_SHOTS_DIR", "/tmp/shots/vendor"))
LOAD_TIMEOUT = 20_000
PASSWORD = "Demo123!"  # every demo creator signs in with the demo user's password
TOKEN_ID, TOKEN_SECRET = "e2e0token0id0a1b2", "e2e0secret0c3d4e5f6"
MODEL = FakeModel(id="SxQL3iGyoDo", name="Harbour loft", visibility="public", state="active")
CONSENT = {"necessary": True, "preferences": True, "decidedAt": "2026-01-01T00:00:00.000Z"}
QUIET_FIRST_VISIT = f"""
  localStorage.setItem('cookieConsent', {json.dumps(json.dumps(CONSENT))});
  localStorage.setItem('localise', 'en');
  localStorage.setItem('previewGuideSeen', 'true');
"""


@pytest.fixture(scope="module")
def creator(server_data_dir: Path, server: str) -> dict[str, Any]:
    """A demo creator with listed tours (email, user id), and a custom host of theirs waiting for
    approval: the machine has no DNS, so a request made through the form cannot pass the server's
    check that the host resolves to a public address; the list is filled the way the service would."""
    import app.models  # noqa: F401 - every table, so the foreign keys resolve
    from app.creators.models import Creator
    from app.tours.models import ApprovalState, Tour, TourStatus
    from app.users.models import User
    from app.vendors.models import CustomProviderRequest, RequestStatus, Vendor, VendorStatus

    engine = create_engine(f"sqlite:///{server_data_dir / 'touratlas.db'}", connect_args={"timeout": 30})
    with Session(engine) as session:
        listed = (
            select(Tour.user_id, func.count().label("tours"))
            .where(Tour.status == TourStatus.active, Tour.approval_state == ApprovalState.approved)
            .group_by(Tour.user_id)
            .subquery()
        )
        row = session.execute(
            select(User.id, User.email)
            .join(Creator, Creator.user_id == User.id)
            .join(listed, listed.c.user_id == User.id)
            .where(Creator.is_active.is_(True), User.is_admin.is_(False), listed.c.tours >= 2)
            .order_by(User.id)
            .limit(1)
        ).one()
        slug = f"studio-{uuid.uuid4().hex[:6]}"
        vendor = Vendor(
            name=f"Studio Tours {slug[-6:]}",
            slug=slug,
            link_header="https://tours.studio-e2e.com/tours/",
            is_custom=True,
            is_white_label=True,
            status=VendorStatus.pending,
            owner_user_id=row.id,
            website="https://tours.studio-e2e.com",
        )
        session.add(vendor)
        session.flush()
        session.add(
            CustomProviderRequest(
                user_id=row.id,
                name=vendor.name,
                host="tours.studio-e2e.com",
                link_heading="https://{host}/tours/",
                sample_tour="https://{host}/tours/lobby",
                status=RequestStatus.pending,
                vendor_id=vendor.id,
            )
        )
        session.commit()
        answer = {"userid": row.id, "email": row.email, "host": vendor.name}
    engine.dispose()
    return answer


@pytest.fixture(scope="module")
def fake_account(matterport: FakeMatterport) -> Iterator[FakeMatterport]:
    matterport.account(TOKEN_ID, TOKEN_SECRET, MODEL)
    yield matterport
    matterport.accounts.pop(TOKEN_ID, None)


def new_page(browser: Any, server: str, width: int, height: int) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=server)
    context.add_init_script(QUIET_FIRST_VISIT)
    return context.new_page()


def sign_in(page: Page, server: str, email: str) -> None:
    page.goto("/registration")
    form = page.get_by_test_id("sign-in-form")
    form.get_by_label("Email", exact=True).fill(email)
    form.get_by_label("Password", exact=True).fill(PASSWORD)
    form.get_by_label("Password", exact=True).press("Enter")
    expect(page).to_have_url(f"{server}/feed", timeout=15_000)


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))


def open_settings(page: Page) -> None:
    page.get_by_test_id("profile-menu").click()
    page.get_by_role("menuitem", name="Settings").click()
    expect(page.get_by_role("dialog", name="Settings")).to_be_visible(timeout=LOAD_TIMEOUT)


def test_the_daily_dialog_cannot_be_closed_and_not_today_keeps_it_away(
    browser: Any, server: str, creator: dict[str, Any]
) -> None:
    page = new_page(browser, server, 1440, 900)
    sign_in(page, server, creator["email"])
    dialog = page.get_by_role("dialog", name="Tour of the day")
    expect(dialog).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(dialog.get_by_role("button", name="Close")).to_have_count(0)
    page.keyboard.press("Escape")
    page.mouse.click(10, 450)  # outside the dialog
    expect(dialog).to_be_visible()
    shot(page, "daily-featured-1440.png")
    dialog.get_by_test_id("daily-featured-submit-a-tour").click()
    expect(page.get_by_test_id("daily-featured-form")).to_be_visible()
    page.get_by_test_id("daily-featured-send").click()
    expect(page.get_by_text("Choose a tour")).to_be_visible()  # the tour is required
    shot(page, "daily-featured-form-1440.png")
    dialog.get_by_role("button", name="Back").click()
    dialog.get_by_test_id("daily-featured-not-today").click()
    expect(dialog).to_be_hidden()
    page.reload()
    expect(page.get_by_test_id("profile-menu")).to_be_visible(timeout=LOAD_TIMEOUT)
    page.wait_for_timeout(2_500)  # the dialog waits for the first screen and the tour count
    expect(page.get_by_role("dialog", name="Tour of the day")).to_have_count(0)
    page.context.close()


def test_a_creator_submits_a_tour_of_the_day_on_a_phone(browser: Any, server: str, creator: dict[str, Any]) -> None:
    page = new_page(browser, server, 390, 844)
    sign_in(page, server, creator["email"])
    dialog = page.get_by_role("dialog", name="Tour of the day")
    expect(dialog).to_be_visible(timeout=LOAD_TIMEOUT)
    shot(page, "daily-featured-390.png")
    dialog.get_by_test_id("daily-featured-submit-a-tour").click()
    dialog.get_by_test_id("daily-featured-tour").click()
    page.get_by_role("option").first.click()
    dialog.get_by_test_id("daily-featured-description").fill("Our brightest space, shot at noon.")
    dialog.get_by_label("Instagram").fill("http://instagram.com/studio")
    dialog.get_by_test_id("daily-featured-send").click()
    expect(dialog.get_by_text("The link must start with https://")).to_be_visible()
    dialog.get_by_label("Instagram").fill("https://instagram.com/studio")
    dialog.get_by_test_id("daily-featured-consent").check()
    shot(page, "daily-featured-form-390.png")
    dialog.get_by_test_id("daily-featured-send").click()
    expect(page.get_by_text("Your tour was submitted")).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(dialog).to_be_hidden()
    page.context.close()


@pytest.mark.parametrize(("width", "height"), [(1440, 900), (390, 844)])
def test_a_creator_connects_a_matterport_token_and_asks_for_a_custom_host(
    browser: Any, server: str, creator: dict[str, Any], fake_account: FakeMatterport, width: int, height: int
) -> None:
    page = new_page(browser, server, width, height)
    # Answered for today already: this test is about settings.
    today = "new Date().toISOString().slice(0, 10)"
    page.context.add_init_script(
        f"localStorage.setItem('dailyFeatured', JSON.stringify({{'{creator['userid']}': {today}}}));"
    )
    sign_in(page, server, creator["email"])
    open_settings(page)
    modal = page.get_by_role("dialog", name="Settings")
    modal.get_by_test_id("settings-tab-vendors").click()
    form = modal.get_by_test_id("vendor-connect-form")
    expect(form).to_be_visible(timeout=LOAD_TIMEOUT)

    form.get_by_test_id("vendor-connect").click()
    expect(form.get_by_text("Enter the API token id")).to_be_visible()
    form.get_by_test_id("vendor-key").fill(TOKEN_ID)
    form.get_by_test_id("vendor-secret").fill("not-the-secret")
    form.get_by_test_id("vendor-connect").click()
    expect(modal.get_by_test_id("vendor-connect-error")).to_contain_text("did not accept", timeout=LOAD_TIMEOUT)
    shot(page, f"vendor-tokens-refused-{width}.png")

    form.get_by_test_id("vendor-secret").fill(TOKEN_SECRET)
    form.get_by_test_id("vendor-secret").press("Enter")
    connected = modal.get_by_test_id("vendor-connected")
    expect(connected).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(connected.get_by_test_id("vendor-key-masked")).to_have_text("••••" + TOKEN_ID[-4:])
    assert TOKEN_SECRET not in page.content() and TOKEN_ID not in page.content()
    assert fake_account.seen_auth[-1] == (TOKEN_ID, TOKEN_SECRET)

    check = modal.get_by_test_id("vendor-model-check")
    check.get_by_label("Check a model").fill(f"https://my.matterport.com/show/?m={MODEL.id}")
    check.get_by_role("button", name="Check").click()
    expect(check.get_by_test_id("vendor-model-found")).to_contain_text(MODEL.name, timeout=LOAD_TIMEOUT)
    expect(check.get_by_role("button", name="Check")).to_be_enabled()
    shot(page, f"vendor-tokens-connected-{width}.png")

    connected.get_by_test_id("vendor-disconnect").click()
    page.get_by_test_id("confirm-disconnect-vendor").click()
    expect(modal.get_by_test_id("vendor-connect-form")).to_be_visible(timeout=LOAD_TIMEOUT)

    # The custom host request, from the tab's link: {host} is checked before anything is sent.
    modal.get_by_test_id("vendor-tokens-request-host").click()
    request = page.get_by_role("dialog", name="Custom host request")
    expect(request.get_by_test_id("own-host")).to_have_count(1, timeout=LOAD_TIMEOUT)
    expect(request.get_by_test_id("own-host-status")).to_have_text("Waiting for approval")
    request.get_by_test_id("host-request-name").fill("Harbour Studio")
    request.get_by_test_id("host-request-host").fill("tours.harbour-studio.com")
    request.get_by_test_id("host-request-link-header").fill("https://tours.harbour-studio.com/t/")
    request.get_by_test_id("host-request-submit").click()
    expect(request.get_by_text("Provider link heading and sample tour must include {host}").first).to_be_visible()
    request.get_by_test_id("host-request-link-header").fill("https://{host}/t/")
    request.get_by_test_id("host-request-sample").fill("https://{host}/t/lobby")
    expect(request.get_by_test_id("host-request-preview")).to_contain_text("https://tours.harbour-studio.com/t/lobby")
    request.get_by_test_id("host-request-submit").click()
    # The server checks the name resolves to a public address (this machine has no DNS): its answer
    # lands on the host field.
    expect(request.get_by_text("The host name could not be found")).to_be_visible(timeout=LOAD_TIMEOUT)
    shot(page, f"host-request-{width}.png")
    page.keyboard.press("Escape")
    expect(request).to_be_hidden()
    page.keyboard.press("Escape")
    expect(modal).to_be_hidden()

    # The media form's host picker offers the request too, and lists the creator's own (waiting) host.
    page.goto("/feed")
    page.get_by_test_id("add-media-button").first.click()
    media = page.get_by_test_id("media-form")
    expect(media).to_be_visible(timeout=LOAD_TIMEOUT)
    media.get_by_test_id("media-host").click()
    expect(page.get_by_role("option", name=f"{creator['host']} (waiting for approval)")).to_be_visible()
    page.get_by_role("option", name="Cupix").click()
    expect(media.get_by_test_id("provider-notice-video")).to_have_attribute(
        "href", "https://www.youtube.com/results?search_query=Cupix%20how%20to%20share%20a%20virtual%20tour%20link"
    )
    shot(page, f"media-form-host-{width}.png")
    media.get_by_test_id("media-host-not-listed").click()
    expect(page.get_by_test_id("host-request-form")).to_be_visible(timeout=LOAD_TIMEOUT)
    page.context.close()
