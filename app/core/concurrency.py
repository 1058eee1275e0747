"""A cap on HTTP requests in flight, so the database pool and the worker threads never run dry.

A request runs its dependencies, its handler and its final commit in separate trips to anyio's
worker threads, holding one pooled connection (and any row locks) in between. With more requests
in flight than threads, every thread can end up blocked on a row lock whose holder is queued for a
thread to commit: the process hangs. With more than the pool, requests time out waiting for a
connection. Admitting at most `limit` requests at once, with more threads than that, rules both
out; the rest wait their turn in the event loop, which costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, TypeVarTuple

import anyio
import anyio.to_thread
from anyio.lowlevel import RunVar
from starlette.types import ASGIApp, Receive, Scope, Send

from app.core.settings import get_settings

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


# ------------------------------------------------------------------ compute-bound calls

# Work that is Python and in-process SQLite (the feed on the embedded index) gains nothing from more
# threads than there are cores: under the GIL the threads only take turns, at a price, since every
# sqlite3 step gives the GIL up and takes it back, a context switch each time another thread waits.
# With 16 feed calls in flight per process, 2 threads served about a fifth more requests than 40, at
# half the p99 (bench/RESULTS.md, "The feed over HTTP"; 1 thread did as well as 2, 4 less well). And
# no thread at all costs less again: the trip itself (queue, wake the thread, wake the loop back) was a
# fifth of the served feed's CPU under load (py-spy --gil, "The feed over HTTP at 1M"). So on SQLite
# and the embedded index the work runs in the event loop, which it holds for the ~1 ms it takes, as a
# thread would hold the GIL; the calls given to run_compute only read, and SQLite in WAL mode never
# makes a reader wait for a writer. With PostgreSQL and the embedded index, a few threads (the index
# work is in-process, the database's is a wait); with Elasticsearch the thread mostly waits on the
# network: a thread per admitted request, no cap beyond the request cap.
INLINE = None
EMBEDDED_INDEX_THREADS = 2

_compute_limiter: RunVar[anyio.CapacityLimiter | None] = RunVar("touratlas_compute_limiter")
_T = TypeVar("_T")
_Args = TypeVarTuple("_Args")


async def run_compute(function: Callable[[*_Args], _T], *args: *_Args) -> _T:
    """Run a request's blocking, mostly-CPU, read-only work in one step: in the event loop when it is
    all in-process (SQLite and the embedded index), else in one worker-thread trip. The function opens
    and closes what it needs (its session): queueing for a thread, a request holds no connection or
    lock that another one waits for."""
    limiter = _compute_threads()
    if limiter is INLINE:
        return function(*args)
    return await anyio.to_thread.run_sync(function, *args, limiter=limiter)


def _compute_threads() -> anyio.CapacityLimiter | None:
    # One per event loop (RunVar): a limiter belongs to the loop it was made in, and tests start many.
    try:
        return _compute_limiter.get()
    except LookupError:
        settings = get_settings()
        limiter: anyio.CapacityLimiter | None
        if settings.elasticsearch_url:
            limiter = anyio.CapacityLimiter(settings.max_requests_in_flight)
        elif settings.sqlalchemy_url.startswith("sqlite"):
            limiter = INLINE
        else:
            limiter = anyio.CapacityLimiter(EMBEDDED_INDEX_THREADS)
        _compute_limiter.set(limiter)
        return limiter
