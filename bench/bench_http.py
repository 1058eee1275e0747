"""The feed call end to end over HTTP: 48 cards as JSON with per-user flags.

Starts the server (`python -m app.cli serve`: uvicorn) on the corpus that bench_index prepared
(data/bench/<N>/), measures the unloaded latency of single requests, then drives it with wrk
(Debian's package) on loopback.

    .venv/bin/python -m bench.bench_index --tours 100000     # once, prepares the corpus
    .venv/bin/python -m bench.bench_http --tours 100000 --workers 2
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]

WRK_SCRIPT = """
local paths = {
  "/v2/user-recomendations/filtered-grid?mode=media&sorting=views&limit=48",
  "/v2/user-recomendations/filtered-grid?mode=media&sorting=newest&limit=48&offset=480",
  "/v2/user-recomendations/filtered-grid?mode=media&sorting=likes&categories=1&limit=48",
  "/v2/user-recomendations/filtered-grid?mode=media&sorting=random&seed=s&countries=US&limit=48",
  "/v2/user-recomendations/filtered-grid?mode=both&feed=popular&limit=48&offset=96",
}
local token = os.getenv("BENCH_TOKEN")
local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", paths[(n % #paths) + 1], { ["Authorization"] = "Bearer " .. token })
end
"""


def server_cpu_seconds(server_pid: int) -> float:
    """CPU time (user + system) used so far by the uvicorn processes: the parent and its workers."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [server_pid, *_children(server_pid)]
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total


def wait_until_idle(server_pid: int, limit: float = 180.0) -> float:
    """Wait until the servers use under a tenth of a core (their start-up work done: each worker
    builds the offline basemap in a background thread, several seconds of CPU, longer on a busy
    machine) and return how long that took: measured during it, the feed shared the cores with it."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        before = server_cpu_seconds(server_pid)
        time.sleep(1.0)
        if server_cpu_seconds(server_pid) - before < 0.1:
            break
    return time.monotonic() - started


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        children = (task / "children").read_text().split()
        for child in children:
            found += [int(child), *_children(int(child))]
    return found


def serve_command(server: str, port: int, workers: int) -> list[str]:
    """The production entry point (`serve`: uvicorn as it configures it, no access log), or plain
    uvicorn with the same options, to measure what `serve` changes."""
    where = ["--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)]
    if server == "serve":
        return [sys.executable, "-m", "app.cli", "serve", "--no-setup", *where]
    stock = ["app.main:create_asgi_app", "--factory", "--log-level", "warning", "--no-access-log"]
    return [sys.executable, "-m", "uvicorn", *stock, *where]


def user_token(directory: Path) -> str:
    os.environ.update({"DATA_DIR": str(directory), "DATABASE_URL": f"sqlite:///{directory / 'bench.db'}"})
    from sqlalchemy import select

    from app.core.db import get_sessionmaker
    from app.core.security import issue_user_token
    from app.users.models import User

    with get_sessionmaker()() as session:
        user = session.scalars(select(User).where(User.email == "demo@touratlas.local")).one()
        return issue_user_token(
            user_id=user.id, is_admin=False, roles=[], creator_id=None, token_version=user.token_version
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tours", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--server",
        choices=["serve", "stock-uvicorn"],
        default="serve",
        help="the production entry point, or plain uvicorn started by hand, to compare with",
    )
    args = parser.parse_args()
    directory = ROOT / "data" / "bench" / str(args.tours)
    if not (directory / "bench.db").exists():
        sys.exit(f"No corpus in {directory}: run `python -m bench.bench_index --tours {args.tours}` first.")
    if shutil.which("wrk") is None:
        sys.exit("wrk is missing: apt-get install wrk")
    token = user_token(directory)
    env = {
        **os.environ,
        "DATA_DIR": str(directory),
        "DATABASE_URL": f"sqlite:///{directory / 'bench.db'}",
        "SEED_DEMO": "false",
        # Serving processes only, as the compose `api` service (Celery beat runs the periodic tasks
        # there): otherwise each of the workers starts ranking the whole corpus 5 s after start-up,
        # in the middle of the measurement.
        "PERIODIC_TASKS": "false",
        "BENCH_TOKEN": token,
    }
    port = args.port
    server = subprocess.Popen(
        serve_command(args.server, port, args.workers),
        cwd=ROOT,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.5)
        settled = wait_until_idle(server.pid)
        print(f"start-up work settled after {settled:.0f} s (the offline basemap's warm-up, app/main.py)")
        headers = {"Authorization": f"Bearer {token}"}
        url = f"{base}/v2/user-recomendations/filtered-grid?mode=media&sorting=views&limit=48"
        with httpx.Client(headers=headers) as client:
            for _ in range(20):
                client.get(url)
            samples = []
            for _ in range(200):
                started = time.perf_counter()
                response = client.get(url)
                samples.append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200 and len(response.json()["data"]) >= 48
        samples.sort()
        print(f"unloaded feed call: p50 {samples[100]:.2f} ms, p99 {samples[198]:.2f} ms")
        with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
            script.write(WRK_SCRIPT)
        cpu_before = server_cpu_seconds(server.pid)
        result = subprocess.run(
            ["wrk", "-t2", f"-c{args.connections}", f"-d{args.seconds}s", "--latency", "-s", script.name, base],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        server_cpu = server_cpu_seconds(server.pid) - cpu_before
        print(result.stdout)
        rps = re.search(r"Requests/sec:\s+([\d.]+)", result.stdout)
        done = re.search(r"(\d+) requests in", result.stdout)
        # The servers' own CPU per answer (wrk's CPU and the rest of the machine's load left out): what
        # a change of the code moves, on a machine whose other work moves requests/s.
        per_request = f"{server_cpu / int(done.group(1)) * 1e6:.0f} µs" if done and int(done.group(1)) else "?"
        print(f"server CPU per request (user + system, all uvicorn processes): {per_request}")
        print(f"load average at the end: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
        served = rps.group(1) if rps else "?"
        print(f"RESULT server={args.server} workers={args.workers} rps={served} server_cpu_per_request={per_request}")
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
