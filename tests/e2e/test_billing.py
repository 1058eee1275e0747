"""Issue 16 in Chromium: the billing journeys with payments off (the embedded default). A member opens
the plans (as spec §9 words them, with the payments-off notice), starts the Creator trial and lands on
the success page; the trial is made to end (its end time moved into the past in the database) and the
end-of-trial dialog shows on the feed, is closed 3 times, and then can no longer be closed. The
settings' Billing tab shows the ended trial. Screenshots at 390 and 1440 px, and in Russian."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.test_live import LOAD_TIMEOUT, api, new_member, open_context

SHOTS = Path(os.environ.get("BILLING_SHOTS_DIR", "/tmp/shots/billing"))


def settled(page: Page) -> None:
    """Dialogs done sliding in (for the screenshots only)."""
    page.wait_for_function("() => document.getAnimations().every((animation) => animation.playState !== 'running')")


def open_plans(page: Page) -> None:
    page.goto("/billing/plans")
    expect(page.get_by_test_id("plan-card")).to_have_count(3, timeout=LOAD_TIMEOUT)


def trial_dialog(page: Page) -> Any:
    # Mantine's modal root carries the test id but has no box of its own: the dialog is found by its role.
    return page.locator("section[role=dialog]").filter(has=page.get_by_test_id("trial-end-subscribe"))


def end_the_trial(server_data_dir: Path, subscription_id: int) -> None:
    """The trial's end time passes (as if 14 days went by)."""
    with sqlite3.connect(server_data_dir / "touratlas.db") as database:
        database.execute(
            "UPDATE subscriptions SET end_time = '2026-01-01 00:00:00.000000' WHERE id = ?", (subscription_id,)
        )


def test_a_member_starts_a_trial_and_the_end_of_trial_dialog_closes_three_times(
    browser: Any, server: str, server_data_dir: Path
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    token = new_member(server)
    page = open_context(browser, server, token)
    open_plans(page)
    expect(page.get_by_test_id("payments-off")).to_be_visible()
    free = page.locator("[data-testid=plan-card][data-plan='Free']")
    monthly = page.locator("[data-testid=plan-card][data-plan='Creator Monthly']")
    expect(free.get_by_test_id("plan-price")).to_have_text("Free")
    expect(free.get_by_test_id("plan-action")).to_have_text("Subscribed")
    expect(monthly.get_by_test_id("plan-price")).to_contain_text("$12 / month")
    expect(monthly.get_by_test_id("plan-discount")).to_have_text("for a limited time!")
    expect(monthly.get_by_test_id("plan-action")).to_have_text("Start 14 Day Free Trial")
    page.screenshot(path=str(SHOTS / "plans-1440.png"), full_page=True)

    monthly.get_by_test_id("plan-action").click()
    expect(page).to_have_url(f"{server}/billing/success", timeout=LOAD_TIMEOUT)
    expect(page.get_by_test_id("success-status")).to_have_text("Free Trial", timeout=LOAD_TIMEOUT)
    expect(page.get_by_test_id("success-setup")).to_be_visible()
    page.screenshot(path=str(SHOTS / "success-1440.png"), full_page=True)

    trials = api(server, "GET", "/v2/billing/trial-subscriptions", token)
    assert (trials["count"], trials["trial_ended"]) == (1, False)
    # Back on the plans, the trial is taken: the plan says Subscribed.
    open_plans(page)
    expect(monthly.get_by_test_id("plan-action")).to_have_text("Subscribed")

    end_the_trial(server_data_dir, trials["data"][0]["id"])
    for closed in range(3):
        page.goto("/")
        expect(trial_dialog(page)).to_be_visible(timeout=LOAD_TIMEOUT)
        if closed == 0:
            settled(page)
            page.screenshot(path=str(SHOTS / "trial-end-1440.png"))
        page.get_by_test_id("trial-end-close").click()
        expect(trial_dialog(page)).to_have_count(0)
    assert api(server, "GET", "/v2/billing/trial-subscriptions", token)["dismiss_count"] == 3
    # The fourth time it cannot be closed: subscribe or cancel.
    page.goto("/")
    expect(trial_dialog(page)).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.get_by_test_id("trial-end-last")).to_be_visible()
    expect(page.get_by_test_id("trial-end-close")).to_have_count(0)
    page.keyboard.press("Escape")
    expect(trial_dialog(page)).to_be_visible()
    settled(page)
    page.screenshot(path=str(SHOTS / "trial-end-last-1440.png"))

    # The cancel-plan warning says what goes, and the dialog's Subscribe leads to the plans.
    page.get_by_test_id("trial-end-cancel").click()
    expect(page.get_by_test_id("cancel-plan-confirm")).to_be_visible()
    settled(page)
    page.screenshot(path=str(SHOTS / "cancel-1440.png"))
    page.get_by_role("button", name="Keep my plan").click()
    page.get_by_test_id("trial-end-subscribe").click()
    expect(page).to_have_url(f"{server}/billing/plans", timeout=LOAD_TIMEOUT)
    expect(trial_dialog(page)).to_have_count(0)
    expect(monthly.get_by_test_id("plan-action")).to_have_text("Subscribe")
    page.context.close()

    phone = open_context(browser, server, token, width=390, height=844)
    open_plans(phone)
    phone.screenshot(path=str(SHOTS / "plans-390.png"), full_page=True)
    phone.goto("/")
    expect(trial_dialog(phone)).to_be_visible(timeout=LOAD_TIMEOUT)
    settled(phone)
    phone.screenshot(path=str(SHOTS / "trial-end-390.png"))
    phone.context.close()


def test_the_plans_and_the_cancel_warning_in_russian(browser: Any, server: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    token = new_member(server)
    page = open_context(browser, server, token, width=390, height=844)
    page.context.add_init_script("localStorage.setItem('localise', 'ru');")
    open_plans(page)
    monthly = page.locator("[data-testid=plan-card][data-plan='Creator Monthly']")
    expect(monthly.get_by_test_id("plan-action")).to_have_text("Начать бесплатный период на 14 дней")
    expect(monthly.get_by_test_id("plan-discount")).to_have_text("только ограниченное время!")
    page.screenshot(path=str(SHOTS / "plans-ru-390.png"), full_page=True)
    # The trial, then the settings' Billing tab and the cancel warning, in Russian.
    monthly.get_by_test_id("plan-action").click()
    expect(page).to_have_url(f"{server}/billing/success", timeout=LOAD_TIMEOUT)
    expect(page.get_by_test_id("success-status")).to_have_text("Бесплатный период", timeout=LOAD_TIMEOUT)
    page.screenshot(path=str(SHOTS / "success-ru-390.png"), full_page=True)
    page.context.close()
