"""The one after-commit queue (app/core/after_commit.py): what it promises the services that queue
tasks and realtime events on it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.orm import Session

from app.core import tasks
from app.core.after_commit import after_commit, discard_pending, pending_count
from app.realtime import events


@pytest.fixture
def engine() -> Iterator[Engine]:
    engine = create_engine("sqlite://")
    yield engine
    engine.dispose()


@pytest.fixture
def session(engine: Engine) -> Iterator[Session]:
    with Session(engine) as session:
        session.execute(text("SELECT 1"))  # a transaction is open, as in any service call
        yield session


Ran = list[str]


def note(ran: Ran, name: str) -> Callable[[], None]:
    return lambda: ran.append(name)


def test_a_commit_runs_the_callbacks_once_in_order(session: Session) -> None:
    ran: Ran = []
    after_commit(session, note(ran, "first"))
    after_commit(session, note(ran, "second"))
    assert ran == []  # nothing before the commit
    session.commit()
    assert ran == ["first", "second"]
    session.execute(text("SELECT 1"))
    session.commit()
    assert ran == ["first", "second"]  # a later commit does not run them again


def test_a_rollback_drops_them(session: Session) -> None:
    ran: Ran = []
    after_commit(session, note(ran, "rolled back"))
    session.rollback()
    session.execute(text("SELECT 1"))
    after_commit(session, note(ran, "committed"))
    session.commit()
    assert ran == ["committed"]


def test_closing_without_a_commit_drops_them(engine: Engine) -> None:
    ran: Ran = []
    session = Session(engine)
    session.execute(text("SELECT 1"))
    after_commit(session, note(ran, "abandoned"))
    session.close()
    session.execute(text("SELECT 1"))
    session.commit()
    assert ran == []


def test_a_begin_block_that_raises_drops_them(engine: Engine) -> None:
    ran: Ran = []
    with pytest.raises(RuntimeError), Session(engine) as session, session.begin():
        after_commit(session, note(ran, "failed"))
        raise RuntimeError("the change failed")
    with Session(engine) as session, session.begin():
        after_commit(session, note(ran, "succeeded"))
    assert ran == ["succeeded"]


def test_a_savepoint_owns_what_was_queued_inside_it(session: Session) -> None:
    ran: Ran = []
    after_commit(session, note(ran, "outer"))
    with pytest.raises(RuntimeError), session.begin_nested():
        after_commit(session, note(ran, "rolled-back savepoint"))
        raise RuntimeError("this part failed")
    with session.begin_nested():
        after_commit(session, note(ran, "released savepoint"))
    assert ran == []  # releasing a savepoint is not the commit
    session.commit()
    assert ran == ["outer", "released savepoint"]


def test_the_outer_rollback_also_drops_what_released_savepoints_queued(session: Session) -> None:
    ran: Ran = []
    with session.begin_nested():
        with session.begin_nested():
            after_commit(session, note(ran, "inner"))
        after_commit(session, note(ran, "middle"))
    session.rollback()
    session.execute(text("SELECT 1"))
    session.commit()
    assert ran == []


def test_one_failing_callback_does_not_stop_the_others(session: Session, caplog: pytest.LogCaptureFixture) -> None:
    ran: Ran = []

    def broken() -> None:
        raise ValueError("boom")

    after_commit(session, note(ran, "before"))
    after_commit(session, broken, description="the broken one")
    after_commit(session, note(ran, "after"))
    session.commit()
    assert ran == ["before", "after"]
    assert "the broken one" in caplog.text


def test_a_key_queues_one_callback_per_transaction(session: Session) -> None:
    ran: Ran = []
    for _ in range(3):
        after_commit(session, note(ran, "dispatch"), key="dispatch")
    assert pending_count(session) == 1
    session.commit()
    session.execute(text("SELECT 1"))
    after_commit(session, note(ran, "dispatch"), key="dispatch")  # a new transaction asks again
    session.commit()
    assert ran == ["dispatch", "dispatch"]


def test_a_keyed_callback_in_a_rolled_back_savepoint_does_not_swallow_the_outer_one(session: Session) -> None:
    ran: Ran = []
    with pytest.raises(RuntimeError), session.begin_nested():
        after_commit(session, note(ran, "dispatch"), key="dispatch")
        raise RuntimeError("rolled back")
    after_commit(session, note(ran, "dispatch"), key="dispatch")
    with session.begin_nested():
        after_commit(session, note(ran, "dispatch"), key="dispatch")  # covered by the outer one
    session.commit()
    assert ran == ["dispatch"]


def test_discard_pending_forgets_everything(session: Session) -> None:
    ran: Ran = []
    after_commit(session, note(ran, "dropped"))
    discard_pending(session)
    session.commit()
    assert ran == []


class RecordingRunner:
    def __init__(self, order: list[str]) -> None:
        self.order = order

    def submit(self, name: str, **kwargs: Any) -> None:
        self.order.append(f"task {name} {kwargs}")


def test_tasks_and_realtime_events_share_the_queue(session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    order: list[str] = []
    runner = RecordingRunner(order)
    monkeypatch.setattr(tasks, "get_task_runner", lambda: runner)
    monkeypatch.setattr(events, "emit_now", lambda name, data, *, room: order.append(f"event {name} {room}"))

    tasks.submit_after_commit(session, "mail.send", mail_id=7)
    events.emit_after_commit(session, events.NOTIFICATION, {"id": 1}, room=events.user_room(3))
    tasks.request_outbox_dispatch(session)
    tasks.request_outbox_dispatch(session)
    assert pending_count(session) == 3
    session.commit()
    assert order == ["task mail.send {'mail_id': 7}", "event notification user:3", "task outbox.dispatch {}"]

    session.execute(text("SELECT 1"))
    tasks.submit_after_commit(session, "mail.send", mail_id=8)
    events.emit_after_commit(session, events.NOTIFICATION, {"id": 2}, room=events.user_room(3))
    session.rollback()
    assert len(order) == 3
