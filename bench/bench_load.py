"""Load: locust visitors (bench/locustfile.py) browse the feed, pan the map, search, open tours and like,
for a bounded time on loopback, against the embedded server or the distributed stack.

    .venv/bin/pip install -c constraints.txt -e '.[bench]'     # locust, once
    .venv/bin/python -m bench.bench_load --target embedded --users 30 --duration 60s
    .venv/bin/python -m bench.bench_load --target distributed --users 30 --duration 60s
    .venv/bin/python -m bench.bench_load --target embedded --users 20 --think 0    # no pauses: the ceiling

- embedded: `app.cli setup` then `app.cli serve --no-setup` on a free port (SQLite, embedded index,
  in-process tasks), demo content in data/bench/load-embedded (kept: loaded once).
- distributed: tests/realtime/stack.py's stack: a throw-away PostgreSQL database, its own Redis
  database, two API processes (uvicorn) and a Celery worker; `app.cli setup` loads the demo content
  into it; everything is dropped afterwards. With no proxy in front, each visitor keeps one API process.

Signed-in visitors use demo members' accounts (one each), read from the database after setup.

Prints progress every 10 s, then requests/s, p50 / p99 per request type and overall, and every error
(locust's failures: any answer but 200, timeouts, refused connections; plus tracebacks in the servers'
logs). Locust runs on the same 2 cores as the server: the figures are a floor, not the server's ceiling.
Locust's percentiles are rounded (two significant digits above 100 ms).
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bench.servers import ROOT, embedded_server, run_setup

LOCUSTFILE = ROOT / "bench" / "locustfile.py"
PROGRESS_EVERY = 10.0


@dataclass
class Target:
    """What a run talks to: the base URLs, the processes to watch (name, pid, log) and the accounts."""

    hosts: list[str]
    processes: list[tuple[str, int, Path]]
    accounts: list[str]


def member_emails(database_url: str, count: int) -> list[str]:
    """Demo members (not staff, not creators) who may sign in: one account per signed-in visitor."""
    from sqlalchemy import select

    import app.models  # noqa: F401 - every mapper known
    from app.core.db import make_engine
    from app.creators.models import Creator
    from app.users.models import User

    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            query = (
                select(User.email)
                .where(User.email.like("%@example.com"), ~User.is_admin, User.is_active, ~User.is_deleted)
                .where(~select(Creator.id).where(Creator.user_id == User.id).exists())
                .order_by(User.id)
                .limit(count)
            )
            return list(connection.scalars(query))
    finally:
        engine.dispose()


@contextmanager
def embedded(data_dir: Path, demo_tours: int, accounts: int) -> Iterator[Target]:
    with embedded_server(data_dir, None, demo_tours) as (base, pid):
        database_url = f"sqlite:///{(data_dir / 'touratlas.db').resolve()}"
        yield Target([base], [("server", pid, data_dir / "server.log")], member_emails(database_url, accounts))


@contextmanager
def distributed(demo_tours: int, accounts: int, apis: int) -> Iterator[Target]:
    from tests.realtime.stack import Stack, stack_unavailable

    if reason := stack_unavailable():
        sys.exit(f"The distributed stack cannot start here: {reason}")
    with tempfile.TemporaryDirectory(prefix="touratlas-load-") as directory:
        stack = Stack(Path(directory))
        try:
            print("==> PostgreSQL database and Redis database", flush=True)
            stack.start()
            stack.env.update({"SEED_DEMO": "true", "DEMO_TOURS": str(demo_tours)})
            print(f"==> Setup: demo content into {stack.database_name}", flush=True)
            run_setup(stack.env, Path(directory) / "setup.log")
            names = tuple("abcdefgh"[:apis])
            print(f"==> {apis} API processes and a Celery worker", flush=True)
            hosts, _ = stack.up(apis=names, workers=("load",))
            processes = [(process.name, process.popen.pid, process.log) for process in stack.processes]
            yield Target(hosts, processes, member_emails(stack.database_url, accounts))
        finally:
            stack.stop()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (and its reaped children) from /proc, in seconds."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def read_rows(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def number(value: str | None) -> float:
    try:
        return float(value or "nan")
    except ValueError:
        return float("nan")


def run_locust(target: Target, args: argparse.Namespace, out: Path) -> int:
    accounts_file = out / "accounts.txt"
    accounts_file.write_text("".join(f"{email}\n" for email in target.accounts))
    env = {
        **os.environ,
        "TOURATLAS_LOAD_HOSTS": ",".join(target.hosts),
        "TOURATLAS_LOAD_ACCOUNTS": str(accounts_file),
        "TOURATLAS_LOAD_THINK": args.think,
        "PYTHONUNBUFFERED": "1",
    }
    prefix = out / "locust"
    command = [
        *(sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless", "--only-summary"),
        *("--users", str(args.users), "--spawn-rate", str(args.spawn_rate), "--run-time", args.duration),
        *("--host", target.hosts[0], "--csv", str(prefix), "--loglevel", "WARNING", "--stop-timeout", "5"),
    ]
    print(f"==> locust: {args.users} visitors (spawn {args.spawn_rate}/s) for {args.duration}", flush=True)
    started = time.monotonic()
    next_progress = started + PROGRESS_EVERY
    with (out / "locust.log").open("w") as log:
        locust = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        while locust.poll() is None:
            time.sleep(0.5)
            if time.monotonic() >= next_progress:
                print_progress(prefix, time.monotonic() - started)
                next_progress += PROGRESS_EVERY
    return locust.returncode


def print_progress(prefix: Path, elapsed: float) -> None:
    rows = [row for row in read_rows(Path(f"{prefix}_stats_history.csv")) if row.get("Name") == "Aggregated"]
    if not rows:
        print(f"    {elapsed:4.0f} s: starting", flush=True)
        return
    last = rows[-1]
    print(
        f"    {elapsed:4.0f} s: {last['User Count']} visitors, {number(last['Requests/s']):6.1f} req/s now, "
        f"p50 {last['50%']} ms, p99 {last['99%']} ms, {last['Total Request Count']} requests, "
        f"{last['Total Failure Count']} failed",
        flush=True,
    )


def report(args: argparse.Namespace, out: Path, target: Target, cpu: dict[str, float], load: tuple[str, str]) -> int:
    stats = read_rows(out / "locust_stats.csv")
    if not stats:
        print(f"locust wrote no statistics: see {out / 'locust.log'}")
        print((out / "locust.log").read_text()[-3000:])
        return 1
    print(f"\n==> {args.target}, {args.users} visitors, {args.duration}, think time {args.think} s")
    print(f"{'request':<22} {'count':>7} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'errors':>6}")
    for row in stats:
        name = "ALL" if row["Name"] == "Aggregated" else row["Name"]
        print(
            f"{name:<22} {row['Request Count']:>7} {number(row['Requests/s']):7.1f} {row['50%']:>7} {row['99%']:>7} "
            f"{number(row['Max Response Time']):7.0f} {row['Failure Count']:>6}"
        )
    failures = read_rows(out / "locust_failures.csv")
    for failure in failures:
        where = f"{failure['Method']} {failure['Name']}"
        print(f"  error: {where}, {failure['Occurrences']} times: {failure['Error'][:300]}")
    # An exception in the scenario itself (locust logs it and the visitor stops) is an error of the run too.
    scenario_errors = read_rows(out / "locust_exceptions.csv")
    for exception in scenario_errors:
        print(f"  scenario exception, {exception['Count']} times: {exception['Message'][:300]}")
    tracebacks = sum(int(exception["Count"]) for exception in scenario_errors)
    for name, _pid, log in target.processes:
        found = len(re.findall(r"^Traceback", log.read_text(errors="replace"), re.MULTILINE)) if log.exists() else 0
        tracebacks += found
        if found:
            print(f"  {found} traceback(s) in {name}'s log: {log}")
    total = next(row for row in stats if row["Name"] == "Aggregated")
    print("CPU seconds during the run: " + ", ".join(f"{name} {seconds:.1f}" for name, seconds in cpu.items()))
    print(f"load average before: {load[0]}\nload average after:  {load[1]}")
    print(
        f"RESULT target={args.target} users={args.users} duration={args.duration} think={args.think} "
        f"requests={total['Request Count']} req_s={number(total['Requests/s']):.1f} p50_ms={total['50%']} "
        f"p99_ms={total['99%']} errors={total['Failure Count']} tracebacks={tracebacks}"
    )
    return 0 if total["Failure Count"] == "0" and tracebacks == 0 else 1


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", choices=["embedded", "distributed"], default="embedded")
    parser.add_argument("--users", type=int, default=30, help="simulated visitors (a quarter of them sign in)")
    parser.add_argument("--spawn-rate", type=float, default=5, help="visitors started per second")
    parser.add_argument("--duration", default="60s", help="locust's --run-time: 60s, 2m, …")
    parser.add_argument("--think", default="1-3", help='pause between two actions, seconds "MIN-MAX"; "0" for none')
    parser.add_argument("--apis", type=int, default=2, help="API processes of the distributed stack")
    parser.add_argument("--demo-tours", type=int, default=2000)
    parser.add_argument("--data-dir", type=Path, default=ROOT / "data" / "bench" / "load-embedded")
    parser.add_argument("--out", type=Path, help="locust's CSV files and log (default: data/bench/load/<time>)")
    args = parser.parse_args()
    if importlib.util.find_spec("locust") is None:
        sys.exit("locust is not installed: .venv/bin/pip install -c constraints.txt -e '.[bench]'")
    out = args.out or ROOT / "data" / "bench" / "load" / f"{args.target}-{datetime.now(UTC):%Y%m%dT%H%M%S}"
    out.mkdir(parents=True, exist_ok=True)
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; {uptime()}", flush=True)
    context = (
        embedded(args.data_dir, args.demo_tours, args.users)
        if args.target == "embedded"
        else distributed(args.demo_tours, args.users, args.apis)
    )
    with context as target:
        print(f"==> Serving at {', '.join(target.hosts)}; {len(target.accounts)} member accounts", flush=True)
        load_before = uptime()
        cpu_before = {name: cpu_seconds(pid) for name, pid, _ in target.processes}
        children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        run_locust(target, args, out)
        cpu = {name: cpu_seconds(pid) - cpu_before[name] for name, pid, _ in target.processes}
        # The only child reaped meanwhile is locust (the servers still run): its CPU time.
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu["locust"] = children.ru_utime + children.ru_stime - children_before.ru_utime - children_before.ru_stime
        load_after = uptime()
        status = report(args, out, target, cpu, (load_before, load_after))
    print(f"locust's CSV files and log: {out}")
    sys.exit(status)


if __name__ == "__main__":
    main()
