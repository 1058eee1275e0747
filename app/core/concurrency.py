"""A cap on HTTP requests in flight, so the database pool and the worker threads never run dry.

A request runs its dependencies, its handler and its final commit in separate trips to anyio's
worker threads, holding one pooled connection (and any row locks) in between. With more requests
in flight than threads, every thread can end up blocked on a row lock whose holder is queued for a
thread to commit: the process hangs. With more than the pool, requests time out waiting for a
connection. Admitting at most `limit` requests at once, with more threads than that, rules both
out; the rest wait their turn in the event loop, which costs nothing.
"""

from __future__ import annotations

import anyio
import anyio.to_thread
from starlette.types import ASGIApp, Receive, Scope, Send

# Threads beyond the request cap, for what runs in threads outside a request's own steps
# (static files, Socket.IO handlers' blocking calls).
SPARE_THREADS = 16


class RequestConcurrencyLimit:
    def __init__(self, app: ASGIApp, *, limit: int) -> None:
        self.app = app
        self.limit = limit
        self._semaphore: anyio.Semaphore | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        async with self._admission():
            await self.app(scope, receive, send)

    def _admission(self) -> anyio.Semaphore:
        # Created on first use: both belong to the event loop that serves the requests.
        if self._semaphore is None:
            self._semaphore = anyio.Semaphore(self.limit)
            threads = anyio.to_thread.current_default_thread_limiter()
            threads.total_tokens = max(threads.total_tokens, self.limit + SPARE_THREADS)
        return self._semaphore
