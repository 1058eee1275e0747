"""Accounts in a browser: sign up, sign out and in again, reset a password through the mail outbox,
choose the language, edit the account and its interests."""

from __future__ import annotations

import re
import sqlite3
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import expect

PASSWORD = "Secret1!"
CYRILLIC = re.compile("[\u0400-\u04ff]")
# What the cookie banner stores once answered: pages then open without it.
ANSWER_COOKIES = (
    "localStorage.getItem('cookieConsent') || localStorage.setItem('cookieConsent', "
    "JSON.stringify({necessary: true, preferences: true, decidedAt: new Date().toISOString()}))"
)


def new_page(
    browser: Any,
    server: str,
    width: int = 1440,
    height: int = 900,
    *,
    cookies_answered: bool = False,
    locale: str = "en-US",
) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=server, locale=locale)
    if cookies_answered:
        context.add_init_script(ANSWER_COOKIES)
    return context.new_page()


def create_account(server: str, prefix: str) -> tuple[str, str]:
    """A fresh email account through the API (the browser sign-up has its own test)."""
    suffix = uuid.uuid4().hex[:8]
    email, username = f"{prefix}.{suffix}@example.com", f"{prefix}_{suffix}"
    answer = httpx.post(
        f"{server}/v2/users/sign-up",
        json={
            "email": email,
            "password": PASSWORD,
            "repeat_password": PASSWORD,
            "first_name": "Grace",
            "last_name": "Hopper",
            "platform_username": username,
        },
        timeout=30,
    )
    assert answer.status_code == 201, answer.text
    return email, username


def sign_in(page: Any, email: str, password: str = PASSWORD) -> None:
    page.goto("/registration")
    form = page.get_by_test_id("sign-in-form")
    form.get_by_label("Email", exact=True).fill(email)
    form.get_by_label("Password", exact=True).fill(password)
    form.get_by_label("Password", exact=True).press("Enter")


def sign_up(page: Any, email: str, username: str) -> None:
    page.goto("/registration?tab=signup")
    form = page.get_by_test_id("sign-up-form")
    form.get_by_label("First name").fill("Ada")
    form.get_by_label("Last name").fill("Lovelace")
    form.get_by_label("Email", exact=True).fill(email)
    form.get_by_label("Platform username").fill(username)
    form.get_by_label("Password", exact=True).fill(PASSWORD)
    form.get_by_label("Repeat password").fill(PASSWORD)
    form.get_by_label("Repeat password").press("Enter")  # forms submit on Enter


def sign_out(page: Any) -> None:
    page.get_by_test_id("profile-menu").click()
    page.get_by_role("menuitem", name="Logout").click()
    expect(page.get_by_text("Are you sure you want to Sign Out?")).to_be_visible()
    page.get_by_test_id("confirm-sign-out").click()


def test_sign_up_sign_out_sign_in(browser: Any, server: str) -> None:
    page = new_page(browser, server)
    suffix = uuid.uuid4().hex[:8]
    email = f"ada.{suffix}@example.com"
    sign_up(page, email, f"ada_{suffix}")
    expect(page).to_have_url(f"{server}/feed", timeout=15_000)
    assert page.evaluate("localStorage.getItem('access_token')")
    assert page.evaluate("localStorage.getItem('guest_token')") is None

    sign_out(page)
    expect(page.get_by_text("Logout Successful")).to_be_visible()
    assert page.evaluate("localStorage.getItem('access_token')") is None

    page.goto("/registration")
    form = page.get_by_test_id("sign-in-form")
    form.get_by_label("Email", exact=True).fill(email)
    form.get_by_label("Password", exact=True).fill("wrong1!a")
    form.get_by_label("Password", exact=True).press("Enter")
    expect(form.get_by_role("alert")).to_be_visible()
    form.get_by_label("Password", exact=True).fill(PASSWORD)
    form.get_by_label("Password", exact=True).press("Enter")
    expect(page).to_have_url(f"{server}/feed", timeout=15_000)
    assert page.evaluate("localStorage.getItem('currentUserId')")


def test_sign_up_validates_in_the_browser(browser: Any, server: str) -> None:
    page = new_page(browser, server, width=390, height=844)
    sign_up(page, "not-an-email", "abc")
    form = page.get_by_test_id("sign-up-form")
    expect(form.get_by_text("Invalid email")).to_be_visible()
    expect(form.get_by_text("Username is too short")).to_be_visible()


@pytest.fixture(scope="session")
def outbox(server: str, server_data_dir: Path) -> Path:
    """The e2e server's SQLite database, where mail waits in `outgoing_mail` (no SMTP configured)."""
    return server_data_dir / "touratlas.db"


def reset_link(outbox: Path, email: str) -> str:
    with sqlite3.connect(outbox) as database:
        row = database.execute(
            "SELECT body_text FROM outgoing_mail WHERE to_address = ? AND template = 'reset_password' ORDER BY id DESC",
            (email,),
        ).fetchone()
    assert row is not None, f"no reset mail for {email}"
    link = next(word for word in row[0].split() if "/resetpassword?token=" in word)
    parts = urlsplit(link)
    return f"{parts.path}?{parts.query}"  # the mail names the public URL; the test server has its own port


def test_reset_password_through_the_mail(browser: Any, server: str, outbox: Path) -> None:
    email, _ = create_account(server, "reset")
    page = new_page(browser, server, cookies_answered=True)
    page.goto("/registration")
    page.get_by_role("link", name="Forgot password?").click()
    expect(page).to_have_url(f"{server}/resetpassword")
    # The page is fetched on navigation (a lazy route) and drawn in a transition: the address bar can
    # change before the sign-in page leaves the screen.
    expect(page.get_by_role("button", name="Send reset link")).to_be_visible()
    page.get_by_label("Email").fill(email)
    page.get_by_role("button", name="Send reset link").click()
    expect(page.get_by_test_id("reset-sent")).to_contain_text(email)

    link = reset_link(outbox, email)
    page.goto(link)
    form = page.get_by_test_id("new-password-form")
    expect(form.get_by_label("Email")).to_have_value(email)
    form.get_by_label("New password").fill("Fresh2@pass")
    form.get_by_label("Repeat password").fill("Fresh2@pass")
    form.get_by_role("button", name="Save new password").click()
    expect(page.get_by_text("Password changed")).to_be_visible()

    page.get_by_test_id("reset-done").get_by_role("link", name="Sign in").click()
    sign_in_form = page.get_by_test_id("sign-in-form")
    expect(sign_in_form.get_by_label("Email", exact=True)).to_have_value(email)
    sign_in_form.get_by_label("Password", exact=True).fill("Fresh2@pass")
    sign_in_form.get_by_label("Password", exact=True).press("Enter")
    expect(page).to_have_url(f"{server}/feed", timeout=15_000)

    page.goto(link)  # a reset link works once
    expect(page.get_by_text("This link no longer works")).to_be_visible()


def test_language_popup_switches_to_russian_and_stays(browser: Any, server: str) -> None:
    page = new_page(browser, server, locale="ru-RU")
    page.goto("/feed")
    expect(page.get_by_test_id("language-suggested")).to_have_text("Продолжить: Русский")
    expect(page.get_by_test_id("cookie-banner")).to_have_count(0)  # one question at a time
    page.get_by_test_id("language-suggested").click()
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    banner = page.get_by_test_id("cookie-banner")
    expect(banner).to_contain_text("Cookie на TourAtlas")
    banner.get_by_role("button", name="Принять все").click()
    assert page.evaluate("localStorage.getItem('localise')") == "ru"
    expect(page.get_by_test_id("search-input")).to_have_attribute("placeholder", CYRILLIC)

    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.get_by_test_id("media-card").first).to_be_visible(timeout=20_000)
    expect(page.get_by_test_id("language-suggested")).to_have_count(0)
    expect(page.get_by_test_id("cookie-banner")).to_have_count(0)


def test_edit_account_and_interests(browser: Any, server: str) -> None:
    email, _ = create_account(server, "settings")
    page = new_page(browser, server, width=390, height=844, cookies_answered=True)
    sign_in(page, email)
    expect(page).to_have_url(f"{server}/feed", timeout=15_000)

    guide = page.get_by_test_id("getting-started-guide")
    expect(guide).to_contain_text("Welcome to TourAtlas, Grace!")
    guide.get_by_test_id("guide-next").click()
    guide.get_by_test_id("guide-skip").click()
    expect(guide).to_have_count(0)

    open_settings(page)
    modal = page.get_by_test_id("settings-modal")
    modal.get_by_label("First name").fill("Amazing")
    modal.get_by_test_id("account-save").click()
    expect(page.get_by_text("Your account has been saved")).to_be_visible()

    modal.get_by_role("tab", name="Interests").click()
    modal.get_by_test_id("interest-add").click()
    modal.get_by_label("Interest 1", exact=True).click()
    option = page.get_by_role("option").first
    category = option.inner_text()
    option.click()
    modal.get_by_test_id("interests-save").click()
    expect(page.get_by_text("Your interests have been saved")).to_be_visible()

    page.reload()
    expect(page.get_by_test_id("getting-started-guide")).to_have_count(0)  # skipped means done
    open_settings(page)
    expect(modal.get_by_label("First name")).to_have_value("Amazing")
    modal.get_by_role("tab", name="Interests").click()
    expect(modal.get_by_label("Interest 1", exact=True)).to_have_value(category)


def open_settings(page: Any) -> None:
    page.get_by_test_id("profile-menu").click()
    page.get_by_role("menuitem", name="Settings").click()
    expect(page.get_by_test_id("settings-modal").get_by_label("First name")).to_be_visible()
