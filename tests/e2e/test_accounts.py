"""Accounts in a browser: sign up with a fresh email, sign out, and sign in again."""

from __future__ import annotations

import uuid
from typing import Any

from playwright.sync_api import expect

PASSWORD = "Secret1!"


def new_page(browser: Any, server: str, width: int = 1440, height: int = 900) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=server)
    return context.new_page()


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
