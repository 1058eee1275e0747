"""Realtime tests: the Socket.IO server in this process on the API tests' database (test_socketio.py),
and the distributed stack of real processes on PostgreSQL and Redis (the `distributed` tests)."""

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.api.conftest import clean_state, db  # noqa: F401 - fixtures shared with the API tests
from tests.realtime.stack import Stack, commit_without_dispatch, stack_unavailable


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The distributed stack; its tests skip, saying why, where Redis or PostgreSQL is missing."""
    if reason := stack_unavailable():
        pytest.skip(f"distributed tests skipped: {reason}")
    directory: Path = tmp_path_factory.mktemp("stack")
    running = Stack(directory)
    try:
        running.start()
        yield running
    finally:
        running.stop()


@dataclass(frozen=True)
class SeededTour:
    id: int
    guid: str
    title: str


@dataclass(frozen=True)
class World:
    """What the distributed tests find in the stack's database."""

    tours: list[SeededTour]
    owner_email: str
    fan_email: str
    fan_id: int


@pytest.fixture(scope="session")
def world(stack: Stack) -> World:
    """A dozen listed tours (their index entries still pending, for the workers) and a fan."""
    from tests import factories

    with stack.session() as session:
        catalog = factories.catalog(session)
        owner = factories.user(session, email="owner@example.com")
        tours = [catalog.tour(session, owner, title=f"Stack tour {number}") for number in range(12)]
        fan = factories.user(session, email="fan@example.com")
        commit_without_dispatch(session)
        return World(
            tours=[SeededTour(tour.id, tour.guid, tour.title) for tour in tours],
            owner_email=owner.email,
            fan_email=fan.email,
            fan_id=fan.id,
        )
