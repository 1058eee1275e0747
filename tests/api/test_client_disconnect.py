"""A client that hangs up while its request is being read is no error of ours (issue 17 leftovers,
seen under wrk): the router-wide NUL check reading the body (app/core/text_input.py), or FastAPI
reading a route's JSON or form body, meets starlette's ClientDisconnect. It used to be logged as
"unhandled error" with a 500 attempted to nobody; now nothing is sent and nothing is logged above
debug. The production entry point runs in a real uvicorn, and a raw socket sends the headers and part
of the body it announced, then closes."""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest
import uvicorn
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tests.api.test_auth_proxies import free_port

if TYPE_CHECKING:  # imported at run time, pytest would try to collect it as a test class
    from tests.conftest import TestDatabase


@dataclass
class Recorder:
    """Wraps the whole ASGI app: what it sent for each HTTP request, and what escaped it."""

    app: ASGIApp
    sent: list[list[str]] = field(default_factory=list)
    escaped: list[BaseException] = field(default_factory=list)
    finished: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(0))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        messages: list[str] = []
        self.sent.append(messages)

        async def recording(message: Message) -> None:
            messages.append(message["type"])
            await send(message)

        try:
            await self.app(scope, receive, recording)
        except BaseException as exc:
            self.escaped.append(exc)
            raise
        finally:
            self.finished.release()


@pytest.fixture
def server(database: TestDatabase) -> Iterator[tuple[int, Recorder]]:
    from app.main import create_asgi_app

    recorder = Recorder(create_asgi_app())
    port = free_port()
    # log_config=None leaves logging alone: uvicorn's own error log reaches caplog like ours.
    config = uvicorn.Config(recorder, host="127.0.0.1", port=port, lifespan="off", log_config=None)
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    for _ in range(200):
        if instance.started:
            break
        threading.Event().wait(0.05)
    else:
        raise RuntimeError("uvicorn did not start")
    yield port, recorder
    instance.should_exit = True
    thread.join(timeout=10)


def hang_up_mid_body(port: int, method: str, path: str, content_type: str | None, part: bytes) -> None:
    """Announce a 1,000-byte body, send only `part` of it, and close the connection."""
    headers = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Length: 1000"]
    if content_type:
        headers.append(f"Content-Type: {content_type}")
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        connection.sendall(("\r\n".join(headers) + "\r\n\r\n").encode() + part)
        threading.Event().wait(0.3)  # the request reaches the app and waits for the rest of its body


PARTS = [
    # No body parameter: the router-wide NUL check (app/core/text_input.py) reads the body.
    pytest.param("GET", "/v2/config/app-version", None, b"0123456789", id="the NUL check reads the body"),
    # A JSON body FastAPI reads for the route (before any dependency: no token needed).
    pytest.param("POST", "/v2/crawler/configuration", "application/json", b'{"name": "Half', id="a JSON body"),
    # A multipart form FastAPI parses for the route.
    pytest.param(
        "POST",
        "/v2/users/profile-image",
        "multipart/form-data; boundary=xyz",
        b'--xyz\r\nContent-Disposition: form-data; name="image"; filename="me.png"\r\n\r\n\x89PNG',
        id="a multipart form",
    ),
]


@pytest.mark.parametrize(("method", "path", "content_type", "part"), PARTS)
def test_a_client_that_hangs_up_mid_request_is_let_go_quietly(
    server: tuple[int, Recorder],
    caplog: pytest.LogCaptureFixture,
    method: str,
    path: str,
    content_type: str | None,
    part: bytes,
) -> None:
    port, recorder = server
    caplog.set_level(logging.DEBUG)
    hang_up_mid_body(port, method, path, content_type, part)

    assert recorder.finished.acquire(timeout=10), "the app never finished the request"
    assert recorder.sent == [[]]  # no answer started: no 500, no 400, to a closed connection
    assert recorder.escaped == []
    loud = [(record.name, record.getMessage()) for record in caplog.records if record.levelno >= logging.WARNING]
    assert loud == []
    assert any(
        record.name == "touratlas.errors" and "client disconnected" in record.getMessage() for record in caplog.records
    )


def test_a_complete_request_is_still_answered(server: tuple[int, Recorder]) -> None:
    """The quiet path is only for departed clients: a request whose body arrives is served as before."""
    import http.client

    port, recorder = server
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("POST", "/v2/crawler/configuration", body=b'{"name": "x"}', headers=_json())
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 401  # admins only; the body itself was read
        connection.request("GET", "/v2/config/app-version", body=b"ignored", headers={"Content-Length": "7"})
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 200
    finally:
        connection.close()
    assert all(messages[:1] == ["http.response.start"] for messages in recorder.sent)


def _json() -> dict[str, Any]:
    return {"Content-Type": "application/json"}
