"""Realtime fan-out: one like, N open pages of that tour hearing the new counters.

Starts the API (uvicorn, the production entry point) on a fresh database with one tour and a few
hundred fans, connects N python-socketio asyncio clients (one process) to the tour's room, then:

- latency: `--rounds` likes sent one after another; for each, the time from sending the like request
  to each client hearing the counters (p50/p99 over every delivery) and to the *last* client hearing
  them (p50/p99 over the rounds);
- throughput: `--burst` likes sent at once; deliveries per second until every client heard all of them.

    .venv/bin/python -m bench.bench_fanout --clients 1000                      # one process, in-memory rooms
    .venv/bin/python -m bench.bench_fanout --clients 1000 --redis redis://127.0.0.1:6379/14 --processes 2

With --redis, the clients are spread over the API processes, which share rooms through Redis; the
like goes to the first process. The clients run on the same machine as the server: on 2 cores they
compete for the CPU, so the figures are a floor for the server, not its ceiling.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import socketio

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "Bench123!"
CONNECT_CONCURRENCY = 50


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def seed(database_url: str, fans: int) -> tuple[str, list[str]]:
    """One listed tour and `fans` users who may like it; returns the tour guid and the fans' emails."""
    from sqlalchemy.orm import Session

    import app.models  # noqa: F401 - every mapper known
    from app.classifications.models import Category, MediaType
    from app.core.db import make_engine
    from app.core.migrate import upgrade_database
    from app.core.security import hash_password
    from app.tours.models import ApprovalState, Tour, TourStatus
    from app.users.models import User
    from app.vendors.models import Vendor, VendorStatus

    upgrade_database(database_url)
    password_hash = hash_password(PASSWORD)  # one hash for all: argon2 is slow on purpose
    with Session(make_engine(database_url)) as session:
        category = Category(name="Museums", slug="museums")
        media_type = MediaType(name="360 photo", slug="360-photo")
        vendor = Vendor(name="Example", slug="example", link_pattern=r"^https://.+$", status=VendorStatus.approved)
        owner = User(email="owner@bench.local", password_hash=password_hash, platform_username="bench_owner")
        session.add_all([category, media_type, vendor, owner])
        session.flush()
        tour = Tour(
            user_id=owner.id,
            vendor_id=vendor.id,
            media_type_id=media_type.id,
            category_id=category.id,
            title="The fan-out tour",
            link="https://example.com/fanout",
            link_normalised="example.com/fanout",
            status=TourStatus.active,
            approval_state=ApprovalState.approved,
        )
        emails = [f"fan{number}@bench.local" for number in range(fans)]
        session.add(tour)
        session.add_all(
            User(email=email, password_hash=password_hash, platform_username=f"bench_fan_{number:04d}")
            for number, email in enumerate(emails)
        )
        session.commit()
        return tour.guid, emails


@dataclass
class Server:
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    bases: list[str] = field(default_factory=list)

    def start(self, env: dict[str, str], count: int, logs: Path) -> None:
        for number in range(count):
            port = free_port()
            log = (logs / f"api-{number}.log").open("wb")
            command = [sys.executable, "-m", "uvicorn", "app.main:create_asgi_app", "--factory"]
            command += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
            self.processes.append(subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT))
            self.bases.append(f"http://127.0.0.1:{port}")
        for base, process in zip(self.bases, self.processes, strict=True):
            deadline = time.monotonic() + 60
            while not _answers(f"{base}/health"):
                if process.poll() is not None or time.monotonic() > deadline:
                    sys.exit(f"the API at {base} did not start; see {logs}")
                time.sleep(0.2)

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.wait(timeout=15)


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


class Listener:
    """One open page: the likes value it is waiting for, and when each value arrived."""

    def __init__(self, arrivals: dict[int, list[float]]) -> None:
        self.client = socketio.AsyncClient(reconnection=False)
        self.arrivals = arrivals

        @self.client.on("tour:counters")  # type: ignore[misc]
        async def counters(data: dict[str, Any]) -> None:
            self.arrivals.setdefault(int(data["likes"]), []).append(time.perf_counter())


async def connect_all(bases: list[str], token: str, room: str, count: int) -> list[Listener]:
    arrivals: dict[int, list[float]] = {}
    listeners = [Listener(arrivals) for _ in range(count)]
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

    async def open_page(number: int, listener: Listener) -> None:
        async with gate:
            base = bases[number % len(bases)]
            await listener.client.connect(base, auth={"token": token}, transports=["websocket"], wait_timeout=30)
            answer = await listener.client.call("join", room, timeout=30)
            if answer != {"ok": True}:
                raise RuntimeError(f"join refused: {answer}")

    await asyncio.gather(*(open_page(number, listener) for number, listener in enumerate(listeners)))
    return listeners


async def sign_in_all(http: httpx.AsyncClient, emails: list[str]) -> list[str]:
    async def sign_in(email: str) -> str:
        body = {"auth_system": "Email", "email": email, "password": PASSWORD}
        answer = await http.post("/v2/users/sign-in", json=body)
        answer.raise_for_status()
        return str(answer.json()["user_jwt"])

    tokens: list[str] = []
    for start in range(0, len(emails), 20):  # the sign-in rate limit counts per address, not in total
        tokens += await asyncio.gather(*(sign_in(email) for email in emails[start : start + 20]))
    return tokens


async def like(http: httpx.AsyncClient, guid: str, token: str) -> int:
    answer = await http.post(
        "/v2/virtualtours/post_likes",
        json={"id": guid, "isLike": True},
        headers={"Authorization": f"Bearer {token}"},
    )
    answer.raise_for_status()
    return int(answer.json()["likes"])


async def wait_for_deliveries(arrivals: dict[int, list[float]], likes: int, clients: int, timeout: float) -> None:
    deadline = time.perf_counter() + timeout
    while len(arrivals.get(likes, ())) < clients:
        if time.perf_counter() > deadline:
            heard = len(arrivals.get(likes, ()))
            raise TimeoutError(f"only {heard} of {clients} clients heard likes={likes}")
        await asyncio.sleep(0.001)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def run(args: argparse.Namespace, guid: str, emails: list[str], bases: list[str]) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=bases[0], timeout=60) as http:
        tokens = await sign_in_all(http, emails)
        guest = (await http.post("/v2/users/guest-token", json={"guest_id": "bench"})).json()["user_jwt"]
        started = time.perf_counter()
        listeners = await connect_all(bases, guest, f"tour:{guid}", args.clients)
        connect_seconds = time.perf_counter() - started
        arrivals = listeners[0].arrivals
        fans = iter(tokens)

        every_delivery: list[float] = []
        last_delivery: list[float] = []
        request_ms: list[float] = []
        for _ in range(args.rounds):
            sent = time.perf_counter()
            likes = await like(http, guid, next(fans))
            request_ms.append((time.perf_counter() - sent) * 1000)
            await wait_for_deliveries(arrivals, likes, args.clients, timeout=60)
            delays = [(moment - sent) * 1000 for moment in arrivals[likes]]
            every_delivery += delays
            last_delivery.append(max(delays))

        burst_tokens = [next(fans) for _ in range(args.burst)]
        sent = time.perf_counter()
        results = await asyncio.gather(*(like(http, guid, token) for token in burst_tokens))
        for likes in results:
            await wait_for_deliveries(arrivals, likes, args.clients, timeout=120)
        burst_seconds = max(max(arrivals[likes]) for likes in results) - sent

        for listener in listeners:
            await listener.client.disconnect()

    return {
        "connect_seconds": connect_seconds,
        "request_ms_p50": statistics.median(request_ms),
        "every_p50": percentile(every_delivery, 0.50),
        "every_p99": percentile(every_delivery, 0.99),
        "last_p50": percentile(last_delivery, 0.50),
        "last_p99": percentile(last_delivery, 0.99),
        "burst_messages": args.burst * args.clients,
        "burst_seconds": burst_seconds,
    }


def report(args: argparse.Namespace, figures: dict[str, Any]) -> str:
    mode = f"Redis manager, {args.processes} API processes" if args.redis else "in-memory manager, 1 API process"
    rate = figures["burst_messages"] / figures["burst_seconds"]
    return "\n".join(
        [
            f"bench_fanout — {args.clients} clients in one tour room, {mode}",
            f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
            f"date: {time.strftime('%Y-%m-%d')}",
            f"clients connected and joined in {figures['connect_seconds']:.1f} s",
            f"like request (HTTP) p50 {figures['request_ms_p50']:.1f} ms",
            f"like → each client: p50 {figures['every_p50']:.1f} ms, p99 {figures['every_p99']:.1f} ms "
            f"({args.rounds} rounds)",
            f"like → last client: p50 {figures['last_p50']:.1f} ms, p99 {figures['last_p99']:.1f} ms",
            f"burst of {args.burst} likes: {figures['burst_messages']:,} messages in {figures['burst_seconds']:.2f} s "
            f"= {rate:,.0f} messages/s",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--burst", type=int, default=20)
    parser.add_argument("--redis", default="", help="REDIS_URL: rooms shared through Redis (use an empty database)")
    parser.add_argument("--processes", type=int, default=1, help="API processes (with --redis)")
    args = parser.parse_args()
    if args.processes > 1 and not args.redis:
        sys.exit("several API processes share rooms only through Redis: add --redis")

    directory = Path(tempfile.mkdtemp(prefix="touratlas-fanout-"))
    database_url = f"sqlite:///{directory / 'bench.db'}"
    guid, emails = seed(database_url, fans=args.rounds + args.burst)
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DATA_DIR": str(directory),
        "REDIS_URL": args.redis,
        "JWT_SECRET": "bench-fanout-secret-bench-fanout-secret",
        "EMBEDDINGS_ENABLED": "false",
        "SEED_DEMO": "false",
        "TASKS_IN_PROCESS": "true",  # no Celery worker here: index sync runs in the API process
        "AUTH_RATE_LIMIT_PER_IP": "10000/minute",
        "PYTHONUNBUFFERED": "1",
    }
    server = Server()
    try:
        server.start(env, args.processes, directory)
        figures = asyncio.run(run(args, guid, emails, server.bases))
    except BaseException:
        print(f"the run failed; the server logs are in {directory}", file=sys.stderr)
        raise
    finally:
        server.stop()
    shutil.rmtree(directory, ignore_errors=True)
    print(report(args, figures))


if __name__ == "__main__":
    main()
