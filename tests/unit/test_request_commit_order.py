"""The request's transaction commits before its answer leaves: a client told "done" can read it back
at once. (FastAPI ends a yield dependency after the response by default; a new account's next call
raced its own commit and read "User Deleted" on a loaded machine.)"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI
from sqlalchemy import event
from sqlalchemy.orm import Session

from app.core.deps import DbSession


def test_the_commit_happens_before_the_response_starts() -> None:
    happened: list[str] = []

    @event.listens_for(Session, "after_commit")
    def committed(_session: Session) -> None:
        happened.append("commit")

    app = FastAPI()

    @app.post("/write")
    def write(db: DbSession) -> dict[str, bool]:
        db.connection()  # a transaction to commit
        return {"ok": True}

    async def call() -> None:
        scope = {
            "type": "http",
            "method": "POST",
            "path": "/write",
            "headers": [],
            "query_string": b"",
            "http_version": "1.1",
            "scheme": "http",
            "server": ("test", 80),
            "client": ("test", 1),
            "root_path": "",
        }
        messages = iter([{"type": "http.request", "body": b"", "more_body": False}])

        async def receive() -> dict[str, Any]:
            return next(messages, {"type": "http.disconnect"})

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                happened.append("response")

        await app(scope, receive, send)

    try:
        asyncio.run(call())
    finally:
        event.remove(Session, "after_commit", committed)
    assert happened[:2] == ["commit", "response"], happened
