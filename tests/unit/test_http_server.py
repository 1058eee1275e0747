"""The served protocol (app/core/http_server.py) sends each answer's head and body in one write, and
otherwise behaves as uvicorn's own: HEAD and empty answers, streaming, "100 Continue", pipelining,
keep-alive and Connection: close. A real uvicorn on a free port; raw sockets as the client."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn

from app.core.http_server import HTTP_PROTOCOL, OneWriteHttpToolsProtocol

BODY = b'{"cards": "' + b"x" * 20_000 + b'"}'


class CountingTransport:
    """The connection's transport, counting the socket writes of this connection."""

    def __init__(self, transport: asyncio.Transport, writes: list[bytes]) -> None:
        self._transport = transport
        self.writes = writes

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))
        self._transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


WRITES: list[bytes] = []


class CountedProtocol(OneWriteHttpToolsProtocol):
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.transport = CountingTransport(transport, WRITES)  # type: ignore[assignment]


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    assert scope["type"] == "http"
    path = scope["path"]
    if path == "/echo":
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await _answer(send, 200, body)
    elif path == "/empty":
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})
    elif path == "/stream":
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        for part in (b"one ", b"two ", b"three"):
            await send({"type": "http.response.body", "body": part, "more_body": True})
        await send({"type": "http.response.body", "body": b""})
    else:
        await _answer(send, 200, BODY)


async def _answer(send: Any, status: int, body: bytes) -> None:
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


@pytest.fixture(scope="module")
def address() -> Iterator[tuple[str, int]]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, http=CountedProtocol, lifespan="off", log_level="error")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        threading.Event().wait(0.05)
    yield "127.0.0.1", port
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(autouse=True)
def no_writes_yet() -> None:
    WRITES.clear()


def read_answer(connection: socket.socket, *, head_only: bool = False) -> tuple[bytes, bytes]:
    """One answer: its head, and its body as the Content-Length or the chunked encoding says."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += _receive(connection)
    head, rest = data.split(b"\r\n\r\n", 1)
    fields = dict(line.split(b": ", 1) for line in head.split(b"\r\n")[1:])
    if head_only:
        return head, rest
    if b"content-length" in fields:
        while len(rest) < int(fields[b"content-length"]):
            rest += _receive(connection)
        return head, rest
    while not rest.endswith(b"0\r\n\r\n"):
        rest += _receive(connection)
    return head, rest


def _receive(connection: socket.socket) -> bytes:
    chunk = connection.recv(65536)
    assert chunk, "the server closed the connection mid-answer"
    return chunk


def connect(address: tuple[str, int]) -> socket.socket:
    connection = socket.create_connection(address, timeout=10)
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return connection


def test_an_answer_leaves_in_one_write(address: tuple[str, int]) -> None:
    with connect(address) as connection:
        connection.sendall(b"GET /json HTTP/1.1\r\nHost: x\r\n\r\n")
        head, body = read_answer(connection)
    assert head.startswith(b"HTTP/1.1 200 OK")
    assert body == BODY
    assert len(WRITES) == 1
    assert WRITES[0].startswith(b"HTTP/1.1 200 OK") and WRITES[0].endswith(BODY)


def test_head_and_no_content_answers_are_sent_at_their_end(address: tuple[str, int]) -> None:
    with connect(address) as connection:
        connection.sendall(b"HEAD /json HTTP/1.1\r\nHost: x\r\n\r\n")
        head, rest = read_answer(connection, head_only=True)
        assert head.startswith(b"HTTP/1.1 200 OK") and f"content-length: {len(BODY)}".encode() in head
        assert rest == b""
        connection.sendall(b"GET /empty HTTP/1.1\r\nHost: x\r\n\r\n")
        head, rest = read_answer(connection, head_only=True)
        assert head.startswith(b"HTTP/1.1 204 No Content") and rest == b""
    assert len(WRITES) == 2


def test_a_streamed_answer_joins_the_head_to_its_first_part(address: tuple[str, int]) -> None:
    with connect(address) as connection:
        connection.sendall(b"GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        head, body = read_answer(connection)
    assert b"transfer-encoding: chunked" in head
    assert body == b"4\r\none \r\n4\r\ntwo \r\n5\r\nthree\r\n0\r\n\r\n"
    assert WRITES[0].startswith(b"HTTP/1.1 200 OK") and WRITES[0].endswith(b"4\r\none \r\n")
    assert len(WRITES) == 4


def test_continue_goes_out_at_once_and_the_body_is_read(address: tuple[str, int]) -> None:
    with connect(address) as connection:
        connection.sendall(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        interim = b""
        while not interim.endswith(b"\r\n\r\n"):
            interim += _receive(connection)
        assert interim == b"HTTP/1.1 100 Continue\r\n\r\n"
        connection.sendall(b"hello")
        head, body = read_answer(connection)
    assert head.startswith(b"HTTP/1.1 200 OK") and body == b"hello"


def test_pipelined_requests_are_answered_in_order(address: tuple[str, int]) -> None:
    with connect(address) as connection:
        connection.sendall(
            b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nfirst"
            b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\n\r\nsecond"
        )
        # Both answers may arrive in one read: parse them from one buffer.
        data = b""
        while data.count(b"HTTP/1.1 200 OK") < 2 or not data.endswith(b"second"):
            data += _receive(connection)
    first, second = data.split(b"HTTP/1.1 200 OK")[1:]
    assert first.endswith(b"first") and second.endswith(b"second")


def test_connection_close_sends_the_answer_then_closes(address: tuple[str, int]) -> None:
    with connect(address) as connection:
        connection.sendall(b"GET /json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    assert received.startswith(b"HTTP/1.1 200 OK") and received.endswith(BODY)
    assert b"connection: close" in received.split(b"\r\n\r\n", 1)[0]


def test_serve_runs_the_one_write_protocol(monkeypatch: pytest.MonkeyPatch) -> None:
    from app import cli

    captured: dict[str, Any] = {}
    monkeypatch.setattr(cli, "setup_platform", lambda: None)
    monkeypatch.setattr(uvicorn, "run", lambda application, **options: captured.update(options))
    cli.serve("127.0.0.1", 8000)
    assert captured["http"] == HTTP_PROTOCOL
    assert uvicorn.Config(app, http=captured["http"]).http == HTTP_PROTOCOL
