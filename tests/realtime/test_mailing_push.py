"""A members-sync's progress reaches the admins' open pages over Socket.IO (`mailing:sync`), batch by
batch, through the production ASGI app under uvicorn (the in-process server of test_socketio.py) and
the local fake of Mailchimp: the mailing-list page moves its bar without asking."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy.orm import Session

from app.core.db import get_sessionmaker
from app.core.settings import get_settings
from app.mailing import service
from app.mailing import tasks as mailing_tasks
from app.realtime import events
from tests import factories
from tests.fakes.mailchimp import FakeMailchimp, running_mailchimp
from tests.realtime.test_socketio import pages, pytestmark, run, send_fence, server

__all__ = ["pytestmark", "server"]  # the aiohttp check and the module-scoped uvicorn fixture, shared


@pytest.fixture
def mailchimp(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeMailchimp]:
    with running_mailchimp() as fake:
        settings = get_settings()
        monkeypatch.setattr(settings, "mailchimp_api_url", fake.url)
        monkeypatch.setattr(settings, "mailchimp_api_key", fake.api_key)
        monkeypatch.setattr(settings, "mailchimp_list_id", fake.list_id)
        monkeypatch.setattr(settings, "mailing_retry_base_seconds", 0.0)
        monkeypatch.setattr(settings, "mailing_sync_batch_size", 2)
        monkeypatch.setattr(mailing_tasks, "PUSH_EVERY_SECONDS", 0.0)
        yield fake


def start_sync(admin_id: int) -> dict[str, Any]:
    """POST members-sync's work: the run is announced, then (tasks are eager here) synced."""
    with get_sessionmaker()() as db:
        started = service.start_sync(db, admin_id)
        db.commit()
        return started.model_dump(mode="json")


def test_admins_pages_hear_each_batch_and_nobody_else_does(server: str, db: Session, mailchimp: FakeMailchimp) -> None:
    admin = factories.user(db, admin=True)
    user = factories.user(db)
    for number in range(5):
        factories.user(db, email=f"reader{number}@example.com", consent_emails=True)
    db.commit()

    async def scenario() -> None:
        async with pages(server, factories.token_for(admin), factories.token_for(user)) as (admin_page, user_page):
            started = await asyncio.to_thread(start_sync, admin.id)
            await send_fence()
            heard = await admin_page.settled()
            assert {name for name, _data in heard} == {events.MAILING_SYNC}
            runs = [data for _name, data in heard]
            assert runs[0] == started
            assert [(run["status"], run["done"]) for run in runs] == [
                ("running", 0),
                ("running", 0),  # compared: the total is known
                ("running", 2),
                ("running", 4),
                ("running", 5),
                ("completed", 5),
            ]
            assert runs[-1]["total"] == 5 and runs[-1]["subscribed"] == 5
            assert await user_page.settled() == []

    run(scenario())
    assert len(mailchimp.batches) == 3
