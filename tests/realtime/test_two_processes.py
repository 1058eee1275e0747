"""Proof of scale: two API processes share Socket.IO rooms through Redis. A page connected to
process B hears a like sent to process A; workers and the CLI reach pages through the same Redis."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

import httpx
import pytest
import socketio

from app.billing.models import BillingPlan, Subscription, SubscriptionStatus
from app.core.db import utcnow
from app.realtime import events
from tests.realtime.client import bearer, guest_token, sign_in
from tests.realtime.conftest import World
from tests.realtime.stack import Stack, commit_without_dispatch

pytestmark = pytest.mark.distributed

HEARD_WITHIN = 15.0


class Page:
    """An open page: a Socket.IO client connected to one API process, keeping what it hears."""

    def __init__(self) -> None:
        self.client = socketio.AsyncClient(reconnection=False)
        self.heard: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()

        @self.client.on("*")  # type: ignore[misc]
        async def any_event(event: str, data: Any) -> None:
            await self.heard.put((event, data))

    async def next(self, event: str) -> Any:
        """The next event of this name (others are skipped), or a timeout."""
        while True:
            name, data = await asyncio.wait_for(self.heard.get(), HEARD_WITHIN)
            if name == event:
                return data


@asynccontextmanager
async def page(base: str, token: str, *rooms: str) -> AsyncIterator[Page]:
    opened = Page()
    await opened.client.connect(base, auth={"token": token}, transports=["websocket"], wait_timeout=10)
    try:
        for room in rooms:
            assert await opened.client.call("join", room, timeout=10) == {"ok": True}
        yield opened
    finally:
        await opened.client.disconnect()


def test_a_like_sent_to_one_process_reaches_pages_on_both(stack: Stack, world: World) -> None:
    api_a, api_b = stack.apis("a", "b")
    tour, other_tour = world.tours[1], world.tours[2]
    fan = sign_in(api_a, world.fan_email)

    async def scenario() -> None:
        async with (
            page(api_b, guest_token(api_b, "guest-b"), events.tour_room(tour.guid)) as on_b,
            page(api_a, guest_token(api_a, "guest-a"), events.tour_room(tour.guid)) as on_a,
            page(api_b, guest_token(api_b, "guest-c"), events.tour_room(other_tour.guid)) as elsewhere,
        ):
            liked = await asyncio.to_thread(
                httpx.post,
                f"{api_a}/v2/virtualtours/post_likes",
                json={"id": tour.guid, "isLike": True},
                headers=bearer(fan),
                timeout=10,
            )
            assert liked.status_code == 200, liked.text
            expected = {"id": tour.guid, "views": 0, "likes": 1, "saves": 0, "shared": 0}
            assert await on_b.next(events.TOUR_COUNTERS) == expected
            assert await on_a.next(events.TOUR_COUNTERS) == expected
            assert elsewhere.heard.empty()

    asyncio.run(scenario())


def test_a_worker_and_the_cli_reach_pages_through_redis(stack: Stack, world: World) -> None:
    (api_b,), _ = stack.up(apis=("b",), workers=("w1",))
    with stack.session() as session:
        plan = BillingPlan(plan_name="Creator trial", trial_period_days=14)
        session.add(plan)
        session.flush()
        trial = Subscription(
            user_id=world.fan_id,
            plan_id=plan.id,
            status=SubscriptionStatus.trialing,
            is_trial=True,
            end_time=utcnow() - timedelta(minutes=1),
        )
        session.add(trial)
        commit_without_dispatch(session)
        trial_id = trial.id

    async def scenario() -> None:
        async with (
            page(api_b, sign_in(api_b, world.fan_email)) as fan_page,
            page(api_b, guest_token(api_b, "guest-v")) as guest_page,
        ):
            # The end-of-trial check runs in the worker process, which emits through Redis.
            await asyncio.to_thread(stack.send_task, "billing.end_trials", queue="default")
            ended = await fan_page.next(events.TRIAL_ENDED)
            assert ended["subscription_id"] == trial_id and ended["plan_name"] == "Creator trial"

            # An admin announces a version from the command line: every page hears it.
            await asyncio.to_thread(stack.run_cli, "announce-version", "9.9.9")
            for open_page in (fan_page, guest_page):
                assert await open_page.next(events.APP_VERSION) == {"gui_version": "9.9.9"}

    asyncio.run(scenario())
    version = httpx.get(f"{api_b}/v2/config/app-version", headers=bearer(guest_token(api_b, "g")), timeout=10)
    assert version.json() == {"gui_version": "9.9.9"}
