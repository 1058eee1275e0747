"""The feed call end to end over HTTP: 48 cards as JSON with per-user flags.

Starts uvicorn on the corpus that bench_index prepared (data/bench/<N>/), measures the unloaded
latency of single requests, then drives it with wrk (Debian's package) on loopback.

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
    port = 8765
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "app.main:create_asgi_app",
            "--factory",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            str(args.workers),
            "--log-level",
            "warning",
            "--no-access-log",
        ],
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
        result = subprocess.run(
            ["wrk", "-t2", f"-c{args.connections}", f"-d{args.seconds}s", "--latency", "-s", script.name, base],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        print(result.stdout)
        rps = re.search(r"Requests/sec:\s+([\d.]+)", result.stdout)
        print(f"RESULT workers={args.workers} rps={rps.group(1) if rps else '?'}")
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
