"""uvicorn's httptools protocol, sending each answer's head and body in one socket write.

uvicorn writes the status line and headers when the app starts its answer, then the body in a second
write. On loopback (and behind a proxy on the same host) the first write wakes the client's process
before ours has finished the answer, and the two share the cores: under wrk, the two writes were a
fifth of the servers' time (bench/RESULTS.md, "The feed over HTTP at 1M"). Holding the head until
the body's first bytes (or the end of the answer) joins them; the bytes on the wire are the same.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

STATUS_LINE_START = b"HTTP/1.1 "
# The interim "100 Continue" must go at once: the client waits for it before it sends the body.
INTERIM_CONTINUE = b"HTTP/1.1 100 "


class HeadJoiningTransport:
    """The one answer's view of the connection: the head is held until the next write, the close,
    or the end of the answer, whichever comes first; everything else passes straight through."""

    __slots__ = ("_head", "_transport")

    def __init__(self, transport: asyncio.Transport) -> None:
        self._transport = transport
        self._head: bytes | None = None

    def write(self, data: bytes) -> None:
        if self._head is not None:
            data, self._head = self._head + data, None
        elif data.startswith(STATUS_LINE_START) and not data.startswith(INTERIM_CONTINUE):
            self._head = data
            return
        self._transport.write(data)

    def flush(self) -> None:
        if self._head is not None:
            head, self._head = self._head, None
            self._transport.write(head)

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class OneWriteHttpToolsProtocol(HttpToolsProtocol):
    """Each request's cycle writes through a HeadJoiningTransport; the connection itself (flow
    control, keep-alive timer, WebSocket upgrades) keeps the real transport."""

    def on_headers_complete(self) -> None:
        previous = self.cycle
        super().on_headers_complete()
        cycle = self.cycle
        if cycle is previous or cycle is None:  # an upgrade, handed to the WebSocket protocol
            return
        joiner = HeadJoiningTransport(self.transport)
        cycle.transport = joiner  # type: ignore[assignment]
        cycle.on_response = _flushing_first(joiner, cycle.on_response)


def _flushing_first(joiner: HeadJoiningTransport, on_response: Callable[[], None]) -> Callable[[], None]:
    """An answer with no body bytes (HEAD, 204, 304, an empty 200) ends without a body write."""

    def flush_then_continue() -> None:
        joiner.flush()
        on_response()

    return flush_then_continue


HTTP_PROTOCOL = f"{__name__}:{OneWriteHttpToolsProtocol.__name__}"
