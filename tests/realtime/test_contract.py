"""The realtime contract is written twice, in app/realtime/events.py and in the client's
frontend/src/shared/socket/events.ts: both name the same events and rooms."""

from __future__ import annotations

import re
from pathlib import Path

from app.realtime import events
from app.realtime.server import room_error

CLIENT_EVENTS = Path(__file__).resolve().parents[2] / "frontend" / "src" / "shared" / "socket" / "events.ts"


def client_event_names() -> set[str]:
    text = CLIENT_EVENTS.read_text()
    block = text[text.index("REALTIME_EVENTS = {") : text.index("} as const")]
    return set(re.findall(r":\s*'([^']+)'", block))


def server_event_names() -> set[str]:
    constants = {value for name, value in vars(events).items() if name.isupper() and isinstance(value, str)}
    return constants - {events.ADMINS_ROOM, events.EVERYONE_ROOM}


def test_client_and_server_name_the_same_events() -> None:
    names = {
        events.TOUR_COUNTERS,
        events.CREATOR_COUNTERS,
        events.MODERATION_QUEUE,
        events.NOTIFICATION,
        events.CRAWLER_STATUS,
        events.MAILING_SYNC,
        events.CREATOR_ANALYTICS,
        events.APP_VERSION,
        events.TRIAL_ENDED,
        events.SUBSCRIPTION_CHANGED,
        events.DICTIONARIES_CHANGED,
    }
    assert client_event_names() == names
    assert server_event_names() == names  # a new server event must be added to the list above and the client


def test_the_rooms_the_client_builds_are_the_rooms_the_server_accepts() -> None:
    text = CLIENT_EVENTS.read_text()
    assert "return `tour:${guid}`;" in text and "return `creator:${creatorId}`;" in text
    assert room_error(events.tour_room("3f2a9c")) is None
    assert room_error(events.creator_room(12)) is None


def test_the_client_never_asks_for_more_rooms_than_the_server_allows() -> None:
    """The server counts every room of a socket: its own, `everyone`, `user:{id}` and `admins` (given on
    connect) and the ones pages join; the client leaves room for the four."""
    from app.realtime.server import MAX_JOINED_ROOMS

    connection = (CLIENT_EVENTS.parent / "realtimeConnection.ts").read_text()
    client_limit = int(re.search(r"export const MAX_JOINED_ROOMS = (\d+);", connection).group(1))  # type: ignore[union-attr]
    assert client_limit + 4 == MAX_JOINED_ROOMS
