"""CPU per feed call, in process: the FastAPI app called as ASGI (no sockets, no uvicorn), on the
corpus that bench_index prepared, with the five feed requests that bench_http's wrk rotates through
and a signed-in caller. Reports process CPU time (every thread of the process: the event loop and
the worker thread that reads the index) per request, which a machine shared with other work
disturbs far less than wall-clock time; run two builds alternately to compare them. With
--event-loop-only the worker-thread trip (user, index read, cards, JSON) answers a constant instead:
what is left is the event loop's share (middlewares, routing, the access guard, the token, the query
validation, the response), where the two builds of the route differ. --count-calls counts the
Python function calls per request instead (cProfile; the thread trip run inline so that it is
counted too): a figure that other work on the machine cannot move.

    .venv/bin/python -m bench.bench_index --tours 20000        # once, prepares the corpus
    .venv/bin/python -m bench.bench_feed_cpu --tours 20000 --requests 3000 --rounds 5
    .venv/bin/python -m bench.bench_feed_cpu --tours 20000 --requests 20000 --event-loop-only
    .venv/bin/python -m bench.bench_feed_cpu --tours 20000 --requests 1000 --count-calls
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.bench_http import ROOT, user_token

PATHS = (
    "mode=media&sorting=views&limit=48",
    "mode=media&sorting=newest&limit=48&offset=480",
    "mode=media&sorting=likes&categories=1&limit=48",
    "mode=media&sorting=random&seed=s&countries=US&limit=48",
    "mode=both&feed=popular&limit=48&offset=96",
)
GRID = "/v2/user-recomendations/filtered-grid"


def scope_of(query: str, token: str) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": GRID,
        "raw_path": GRID.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), (b"authorization", f"Bearer {token}".encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8765),
        "state": {},
    }


async def call(app: Any, scope: dict[str, Any]) -> int:
    status = 0

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    await app(dict(scope), receive, send)
    return status


async def measure(app: Any, token: str, requests: int, rounds: int) -> list[float]:
    scopes = [scope_of(query, token) for query in PATHS]
    for number in range(200):  # warm-up: caches, statements, the index's pages
        assert await call(app, scopes[number % len(scopes)]) == 200
    per_request_us = []
    for _ in range(rounds):
        started = time.process_time()
        for number in range(requests):
            await call(app, scopes[number % len(scopes)])
        per_request_us.append((time.process_time() - started) / requests * 1e6)
    return per_request_us


async def count_calls(app: Any, token: str, requests: int) -> float:
    scopes = [scope_of(query, token) for query in PATHS]
    for number in range(200):
        assert await call(app, scopes[number % len(scopes)]) == 200
    profile = cProfile.Profile()
    profile.enable()
    for number in range(requests):
        await call(app, scopes[number % len(scopes)])
    profile.disable()
    return float(pstats.Stats(profile).total_calls) / requests  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tours", type=int, default=20_000)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--event-loop-only", action="store_true", help="a constant answer from the thread trip")
    parser.add_argument("--count-calls", action="store_true", help="Python calls per request, not CPU time")
    args = parser.parse_args()
    directory: Path = ROOT / "data" / "bench" / str(args.tours)
    token = user_token(directory)
    os.environ.update({"SEED_DEMO": "false", "PERIODIC_TASKS": "false", "ELASTICSEARCH_URL": "", "REDIS_URL": ""})
    import app.discovery.router as router
    from app.main import create_app

    if args.event_loop_only:

        async def constant_answer(*_args: Any) -> bytes:
            return b'{"total_items":0,"limit":48,"offset":0,"data":[]}'

        router.run_compute = constant_answer  # type: ignore[assignment]
    if args.count_calls:

        async def inline(function: Callable[..., Any], *function_args: Any) -> Any:
            return function(*function_args)

        if not args.event_loop_only:
            router.run_compute = inline  # type: ignore[assignment]
        calls = asyncio.run(count_calls(create_app(), token, args.requests))
        print(f"feed Python calls per request: {calls:.1f}")
        return
    figures = asyncio.run(measure(create_app(), token, args.requests, args.rounds))
    rounded = ", ".join(f"{value:.0f}" for value in figures)
    print(f"feed CPU per request: median {statistics.median(figures):.0f} µs, min {min(figures):.0f} µs ({rounded})")


if __name__ == "__main__":
    main()
