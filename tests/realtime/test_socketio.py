"""The Socket.IO server in one embedded process (in-memory manager, events handed to the server's loop):
who may connect, which rooms a socket is in and may join, and events leaving only after a commit.
The server is the production ASGI app under uvicorn, in a thread of the test process."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import jwt
import pytest
import socketio
import uvicorn
from sqlalchemy.orm import Session

from app.core.db import get_sessionmaker
from app.core.security import ALGORITHM, issue_guest_token
from app.core.settings import APP_VERSION, get_settings
from app.realtime import events
from app.realtime.server import MAX_JOINED_ROOMS
from app.realtime.version import announce_version
from tests import factories
from tests.realtime.stack import free_port

pytestmark = pytest.mark.skipif(
    __import__("importlib").util.find_spec("aiohttp") is None,
    reason="python-socketio's asyncio client needs aiohttp (pip install aiohttp)",
)

FENCE = "test:fence"  # sent last to everyone: once it arrives, nothing else sent before is still on the way


STARTED: dict[str, str] = {}


@pytest.fixture(scope="module")
def server(database: Any) -> Iterator[str]:
    from app.main import create_asgi_app
    from app.platform.service import get_config, set_gui_version

    with get_sessionmaker().begin() as session:
        set_gui_version(session, "0.0.1")  # an older build's version, as after a deploy
    config = uvicorn.Config(create_asgi_app(), host="127.0.0.1", port=free_port(), log_level="warning")
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not instance.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.05)
    with get_sessionmaker()() as session:
        STARTED["gui_version"] = get_config(session).gui_version
    try:
        yield f"http://127.0.0.1:{config.port}"
    finally:
        instance.should_exit = True
        thread.join(10)


class Page:
    """One open page: a Socket.IO client that keeps every event it hears."""

    def __init__(self) -> None:
        self.client = socketio.AsyncClient(reconnection=False)
        self.heard: list[tuple[str, Any]] = []
        self.refusal: Any = None
        self.fenced = asyncio.Event()

        @self.client.event  # type: ignore[misc]
        async def connect_error(data: Any) -> None:
            self.refusal = data

        @self.client.on("*")  # type: ignore[misc]
        async def any_event(event: str, data: Any) -> None:
            if event == FENCE:
                self.fenced.set()
            else:
                self.heard.append((event, data))

    async def connect(self, base: str, token: str | None) -> None:
        auth = {"token": token} if token is not None else {}
        await self.client.connect(base, auth=auth, transports=["websocket"], wait_timeout=10)

    async def request(self, event: str, room: Any) -> dict[str, Any]:
        answer: dict[str, Any] = await self.client.call(event, room, timeout=10)
        return answer

    async def settled(self) -> list[tuple[str, Any]]:
        """What this page heard once everything sent before the fence has arrived."""
        await asyncio.wait_for(self.fenced.wait(), 10)
        self.fenced.clear()
        return [(event, data) for event, data in self.heard if event != FENCE]


@asynccontextmanager
async def pages(base: str, *tokens: str | None) -> AsyncIterator[list[Page]]:
    opened = [Page() for _ in tokens]
    try:
        for page, token in zip(opened, tokens, strict=True):
            await page.connect(base, token)
        yield opened
    finally:
        for page in opened:
            await page.client.disconnect()


def emit_committed(event: str, data: dict[str, Any], room: str) -> None:
    with get_sessionmaker().begin() as session:
        events.emit_after_commit(session, event, data, room=room)


async def send_fence() -> None:
    await asyncio.to_thread(emit_committed, FENCE, {}, events.EVERYONE_ROOM)


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def expired_token(user_id: int) -> str:
    past = datetime.now(UTC) - timedelta(hours=2)
    claims = {"sub": str(user_id), "kind": "user", "ver": 0, "iat": int(past.timestamp()), "exp": int(past.timestamp())}
    return jwt.encode(claims, get_settings().resolved_jwt_secret(), algorithm=ALGORITHM)


def test_a_connection_needs_a_valid_token_of_an_active_account(server: str, db: Session) -> None:
    drafted = factories.user(db, is_active=False)
    signed_out_everywhere = factories.user(db)
    stale = factories.token_for(signed_out_everywhere)
    signed_out_everywhere.token_version += 1
    active = factories.user(db)
    db.commit()

    async def refusal(token: str | None) -> str:
        page = Page()
        with pytest.raises(socketio.exceptions.ConnectionError):
            await page.connect(server, token)
        return str(page.refusal)

    async def scenario() -> None:
        assert "token required" in await refusal(None)
        assert "invalid or expired token" in await refusal("not-a-token")
        assert "invalid or expired token" in await refusal(expired_token(active.id))
        assert "invalid or expired token" in await refusal(stale)
        assert "this account is not active" in await refusal(factories.token_for(drafted))
        async with pages(server, factories.token_for(active), issue_guest_token("guest-1")) as opened:
            assert all(page.client.connected for page in opened)

    run(scenario())


def test_pages_hear_the_rooms_they_joined_until_they_leave(server: str, db: Session) -> None:
    viewer = factories.user(db)
    db.commit()
    counters = {"id": "abc123", "views": 3, "likes": 1, "saves": 0, "shared": 0}

    async def scenario() -> None:
        async with pages(server, issue_guest_token("guest-1"), factories.token_for(viewer)) as (guest, other):
            assert await guest.request("join", "tour:abc123") == {"ok": True}
            assert await other.request("join", {"room": "creator:7"}) == {"ok": True}
            await asyncio.to_thread(emit_committed, events.TOUR_COUNTERS, counters, events.tour_room("abc123"))
            await asyncio.to_thread(emit_committed, events.CREATOR_COUNTERS, {"id": 7}, events.creator_room(7))
            await send_fence()
            assert await guest.settled() == [(events.TOUR_COUNTERS, counters)]
            assert await other.settled() == [(events.CREATOR_COUNTERS, {"id": 7})]

            assert await guest.request("leave", "tour:abc123") == {"ok": True}
            guest.heard.clear()
            await asyncio.to_thread(emit_committed, events.TOUR_COUNTERS, counters, events.tour_room("abc123"))
            await send_fence()
            assert await guest.settled() == []

    run(scenario())


def test_only_tour_and_creator_rooms_can_be_joined(server: str, db: Session) -> None:
    user = factories.user(db)
    db.commit()
    refused = ["admins", f"user:{user.id + 1}", "everyone", "tour:", "tour:a/b", "tour:" + "x" * 65, "creator:0"]
    refused += ["creator:x", "creator:-1", "Tour:abc", 5, {"room": None}, None]

    async def scenario() -> None:
        async with pages(server, factories.token_for(user)) as (page,):
            for room in refused:
                assert await page.request("join", room) == {"ok": False, "error": "unknown room"}, room
            assert await page.request("leave", "everyone") == {"ok": False, "error": "unknown room"}
            # A socket starts in its own room, its user room and `everyone`.
            for number in range(MAX_JOINED_ROOMS - 3):
                assert await page.request("join", f"tour:t{number}") == {"ok": True}
            assert await page.request("join", "tour:one-too-many") == {"ok": False, "error": "too many rooms"}

    run(scenario())


def test_user_and_admin_rooms_reach_only_their_sockets(server: str, db: Session) -> None:
    admin = factories.user(db, admin=True)
    user = factories.user(db)
    someone_else = factories.user(db)
    db.commit()

    async def scenario() -> None:
        tokens = [factories.token_for(admin), factories.token_for(user), factories.token_for(someone_else)]
        async with pages(server, *tokens) as (admin_page, user_page, other_page):
            await asyncio.to_thread(emit_committed, events.MODERATION_QUEUE, {"kind": "tour"}, events.ADMINS_ROOM)
            await asyncio.to_thread(emit_committed, events.NOTIFICATION, {"id": 1}, events.user_room(user.id))
            await send_fence()
            assert await admin_page.settled() == [(events.MODERATION_QUEUE, {"kind": "tour"})]
            assert await user_page.settled() == [(events.NOTIFICATION, {"id": 1})]
            assert await other_page.settled() == []

    run(scenario())


def test_a_rolled_back_change_sends_nothing(server: str, db: Session) -> None:
    def rolled_back() -> None:
        with pytest.raises(RuntimeError), get_sessionmaker().begin() as session:
            events.emit_after_commit(session, events.NOTIFICATION, {"id": 1}, room=events.EVERYONE_ROOM)
            raise RuntimeError("the change failed")

    async def scenario() -> None:
        async with pages(server, issue_guest_token("guest-1")) as (page,):
            await asyncio.to_thread(rolled_back)
            await send_fence()
            assert await page.settled() == []

    run(scenario())


def test_a_version_announcement_reaches_every_page(server: str, db: Session) -> None:
    user = factories.user(db)
    db.commit()
    assert STARTED["gui_version"] == APP_VERSION  # at start-up the server announced its own build

    async def scenario() -> None:
        async with pages(server, issue_guest_token("guest-1"), factories.token_for(user)) as opened:
            await asyncio.to_thread(announce_version, get_sessionmaker(), "9.9.9")
            await send_fence()
            for page in opened:
                assert await page.settled() == [(events.APP_VERSION, {"gui_version": "9.9.9"})]

    run(scenario())
    assert httpx.get(f"{server}/v2/config/app-version").json() == {"gui_version": "9.9.9"}
    with pytest.raises(ValueError):
        announce_version(get_sessionmaker(), " ")


def test_browsers_connect_from_the_served_page_public_url_and_cors_origins_only() -> None:
    from app.realtime.server import origin_allowed

    here = {"HTTP_HOST": "tours.example.com"}
    assert origin_allowed("https://tours.example.com", here)  # the page the API serves, behind TLS
    assert origin_allowed("http://localhost:5173", here)  # CORS_ORIGINS: the Vite dev server
    assert origin_allowed(get_settings().public_url, here)
    behind_proxy = {"HTTP_HOST": "api:8000", "HTTP_X_FORWARDED_HOST": "tours.example.com"}
    assert origin_allowed("https://tours.example.com", behind_proxy)
    assert not origin_allowed("https://evil.example", here)
    assert origin_allowed(None, here)  # not a browser: the token decides
