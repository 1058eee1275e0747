"""Issue 17 part 4 in Chromium: the admins' mailing-list page (/admin/mailing-list) against the local
fake of Mailchimp the e2e server is configured with (tests/fakes/mailchimp.py). An admin sees the
connection and the diff both ways (new consenting members to subscribe, a former reader to
unsubscribe), syncs, watches the progress bar move on the server's pushes (the page asks nothing
while the sync runs), and sees the list in step; a page opened mid-sync starts from the figure of the
moment; the fake holds the result. Screenshots at 1440 and 390 px, and one in Russian, under
/tmp/shots/mailing."""

from __future__ import annotations

import math
import os
import uuid
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Request, expect

from tests.e2e.test_live import ADMIN, LOAD_TIMEOUT, api, connected, open_context, sign_in_token
from tests.e2e.test_moderation import settled
from tests.fakes.mailchimp import FakeMailchimp

SHOTS = Path(os.environ.get("MAILING_SHOTS_DIR", "/tmp/shots/mailing"))
FORMER_READER = "former.reader@example.com"
SYNC_STATE = "/v2/mailing-list/members-sync"
# The e2e server syncs two members per batch (MAILING_SYNC_BATCH_SIZE in conftest.py); the fake takes
# this long over the whole sync, so its steps can be watched.
SYNC_SECONDS = 8.0
# Every value the page's progress bar takes, in order (a MutationObserver: nothing is missed between polls).
RECORD_PROGRESS = """() => {
  window.syncProgress = [];
  const note = () => {
    const bar = document.querySelector('[data-testid="mailing-sync-run"] [role="progressbar"]');
    const value = bar && Number(bar.getAttribute('aria-valuenow'));
    if (bar && window.syncProgress[window.syncProgress.length - 1] !== value) window.syncProgress.push(value);
  };
  new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true });
}"""


def shown_progress(page: Page) -> int:
    return int(page.get_by_role("progressbar", name="Sync progress").get_attribute("aria-valuenow") or 0)


def consenting_member(server: str) -> str:
    """A fresh account that consented to e-mails; its address."""
    suffix = uuid.uuid4().hex[:8]
    email = f"reader.{suffix}@example.com"
    body = {
        "email": email,
        "password": "Secret1!",
        "first_name": "Rita",
        "last_name": "Reader",
        "platform_username": f"reader_{suffix}",
        "consent_emails": True,
    }
    api(server, "POST", "/v2/users/sign-up", json=body)
    return email


def test_an_admin_brings_the_mailing_list_in_step(browser: Any, server: str, mailchimp: FakeMailchimp) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    mailchimp.reset()
    mailchimp.add(FORMER_READER, first_name="Former", last_name="Reader")
    new_readers = [consenting_member(server) for _ in range(2)]
    admin_token = sign_in_token(server, *ADMIN)
    admin = open_context(browser, server, admin_token)
    try:
        admin.goto("/admin/mailing-list")
        expect(admin.get_by_test_id("mailing-connected")).to_contain_text("TourAtlas news", timeout=LOAD_TIMEOUT)
        # The demo's members who consented are to subscribe too: the page shows what the API counts.
        diff = api(server, "GET", "/v2/mailing-list/members-diff?limit=100&offset=0", admin_token)
        wanted = diff["to_subscribe"]["total_items"]
        every_page = [
            api(server, "GET", f"/v2/mailing-list/members-diff?limit=100&offset={o}", admin_token)
            for o in range(0, wanted, 100)
        ]
        assert set(new_readers) <= {p["email"] for page in every_page for p in page["to_subscribe"]["data"]}
        to_subscribe = admin.get_by_test_id("mailing-toSubscribe")
        to_unsubscribe = admin.get_by_test_id("mailing-toUnsubscribe")
        expect(to_subscribe).to_contain_text(f"{wanted} people", timeout=LOAD_TIMEOUT)
        expect(to_subscribe).to_contain_text(diff["to_subscribe"]["data"][0]["email"])
        expect(to_subscribe.get_by_role("listitem")).to_have_count(min(wanted, 20))
        expect(to_unsubscribe).to_contain_text(FORMER_READER)
        expect(to_unsubscribe).to_contain_text("1 person")
        expect(admin.get_by_text("No sync has run yet.")).to_be_visible()
        settled(admin)
        admin.screenshot(path=str(SHOTS / "diff-1440.png"), full_page=True)

        # The sync's steps take a while, and the page follows them on pushes alone.
        mailchimp.batch_delay_seconds = SYNC_SECONDS / math.ceil((wanted + 1) / 2)
        connected(admin)
        admin.evaluate(RECORD_PROGRESS)
        reads: list[str] = []

        def note_read(request: Request) -> None:
            if request.method == "GET" and request.url.endswith(SYNC_STATE):
                reads.append(request.url)

        admin.on("request", note_read)
        with admin.expect_response(lambda r: r.url.endswith(SYNC_STATE) and r.request.method == "POST") as started:
            admin.get_by_role("button", name="Sync").click()
        assert started.value.status == 202, started.value.text()
        bar = admin.get_by_role("progressbar", name="Sync progress")
        expect(bar).not_to_have_attribute("aria-valuenow", "0", timeout=LOAD_TIMEOUT)
        first_seen = shown_progress(admin)
        assert first_seen < 100, "the sync ended before its progress could be watched"
        admin.screenshot(path=str(SHOTS / "syncing-1440.png"), full_page=True)

        # A page opened mid-sync (on a phone) starts from the figure of the moment, then follows the pushes too.
        latecomer = open_context(browser, server, admin_token, width=390, height=844)
        try:
            latecomer.goto("/admin/mailing-list")
            late_bar = latecomer.get_by_role("progressbar", name="Sync progress")
            expect(late_bar).to_be_visible(timeout=LOAD_TIMEOUT)
            assert shown_progress(latecomer) >= first_seen
            latecomer.get_by_test_id("mailing-sync-run").scroll_into_view_if_needed()
            latecomer.screenshot(path=str(SHOTS / "syncing-390.png"))
            expect(latecomer.get_by_test_id("mailing-sync-run")).to_have_attribute(
                "data-status", "completed", timeout=LOAD_TIMEOUT
            )
        finally:
            latecomer.context.close()

        expect(admin.get_by_test_id("mailing-sync-run")).to_have_attribute(
            "data-status", "completed", timeout=LOAD_TIMEOUT
        )
        expect(admin.get_by_test_id("mailing-sync-result")).to_contain_text("1 unsubscribed")
        progress = admin.evaluate("window.syncProgress")
        assert progress == sorted(progress) and progress[-1] == 100, progress
        assert len([value for value in progress if 0 < value < 100]) >= 3, f"the bar did not move in steps: {progress}"
        # Not one read of the run while it ran: every step came as a push.
        assert reads == [], reads
        mailchimp.batch_delay_seconds = 0.0
        expect(admin.get_by_test_id("mailing-in-step")).to_be_visible(timeout=LOAD_TIMEOUT)
        settled(admin)
        admin.screenshot(path=str(SHOTS / "in-step-1440.png"), full_page=True)

        statuses = mailchimp.statuses()
        assert statuses[FORMER_READER] == "unsubscribed"
        assert all(statuses[email] == "subscribed" for email in new_readers)
        state = api(server, "GET", "/v2/mailing-list/members-sync", admin_token)["data"]
        assert state["status"] == "completed" and state["done"] == state["total"]

        admin.set_viewport_size({"width": 390, "height": 844})
        settled(admin)
        admin.screenshot(path=str(SHOTS / "in-step-390.png"), full_page=True)
        width = admin.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide at 390 px"

        # After the quiet first visit's 'en': init scripts run in the order they were added.
        admin.context.add_init_script("localStorage.setItem('localise', 'ru');")
        admin.reload()
        expect(admin.get_by_test_id("mailing-in-step")).to_contain_text("Всё совпадает", timeout=LOAD_TIMEOUT)
        settled(admin)
        admin.screenshot(path=str(SHOTS / "in-step-390-ru.png"), full_page=True)
    finally:
        admin.context.close()
