"""What gzipping the feed's JSON costs (app/core/static.py, AnswerCompression).

1. Offline, on real feed answers: size and CPU time of zlib at each level (and brotli's quality
   levels when the `brotli` module is importable), to choose the level.
2. Over HTTP, on the running embedded server: wrk on loopback drives the feed calls once without
   and once with `Accept-Encoding: gzip` (the server compresses only for a client that asks), and
   the server process's CPU time (/proc/<pid>/stat) over each run gives CPU per request.

    .venv/bin/python -m bench.bench_compression [--seconds 15] [--connections 16]
    .venv/bin/python -m bench.bench_compression --base http://127.0.0.1:8000 --pid 1234

Without --base it starts the embedded server as bench_lighthouse does (data/bench/lighthouse).
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
import zlib
from pathlib import Path

import httpx

from bench.servers import ROOT, embedded_server

FEED_PATHS = [
    "/v2/user-recomendations/filtered-grid?mode=media&sorting=views&limit=48",
    "/v2/user-recomendations/filtered-grid?mode=media&sorting=newest&limit=48&offset=480",
    "/v2/user-recomendations/filtered-grid?mode=media&sorting=likes&categories=1&limit=48",
    "/v2/user-recomendations/filtered-grid?mode=both&feed=popular&limit=48&offset=96",
]

WRK_SCRIPT = """
local paths = {%s}
local encoding = os.getenv("BENCH_ACCEPT_ENCODING")
local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", paths[(n %% #paths) + 1], { ["Accept-Encoding"] = encoding })
end
"""


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and of its children that were waited for."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(value) for value in fields[11:15])  # utime, stime, cutime, cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def compare_levels(bodies: list[bytes], repeats: int = 200) -> None:
    total = sum(len(body) for body in bodies)
    print(f"feed answers: {len(bodies)}, {total / len(bodies) / 1000:.1f} kB of JSON each on average")
    print(f"{'codec':<12} {'size %':>7} {'µs per answer':>14}")
    for level in (1, 3, 5, 6, 9):
        started = time.process_time()
        for _ in range(repeats):
            compressed = [zlib.compress(body, level) for body in bodies]
        per_answer = (time.process_time() - started) / repeats / len(bodies) * 1e6
        ratio = sum(len(item) for item in compressed) / total * 100
        print(f"{'gzip ' + str(level):<12} {ratio:7.1f} {per_answer:14.0f}")
    try:
        import brotli  # type: ignore[import-not-found]
    except ImportError:
        print("brotli: not installed in this environment (pip install brotli to compare)")
        return
    for quality in (1, 3, 4, 5):
        started = time.process_time()
        for _ in range(repeats):
            compressed = [brotli.compress(body, quality=quality) for body in bodies]
        per_answer = (time.process_time() - started) / repeats / len(bodies) * 1e6
        ratio = sum(len(item) for item in compressed) / total * 100
        print(f"{'brotli ' + str(quality):<12} {ratio:7.1f} {per_answer:14.0f}")


def drive(base: str, pid: int, accept_encoding: str, seconds: int, connections: int) -> tuple[float, float]:
    """Requests per second and server CPU milliseconds per request for one wrk run."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_SCRIPT % ", ".join(f'"{path}"' for path in FEED_PATHS))
    before = cpu_seconds(pid)
    result = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "-s", script.name, base],
        capture_output=True,
        text=True,
        env={**os.environ, "BENCH_ACCEPT_ENCODING": accept_encoding},
        check=True,
    )
    used = cpu_seconds(pid) - before
    requests = int(re.search(r"(\d+) requests in", result.stdout).group(1))  # type: ignore[union-attr]
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", result.stdout).group(1))  # type: ignore[union-attr]
    if "Non-2xx" in result.stdout:
        sys.exit(f"wrk saw errors:\n{result.stdout}")
    return rps, used / requests * 1000


def measure(base: str, pid: int, seconds: int, connections: int, rounds: int) -> None:
    with httpx.Client(base_url=base, timeout=30) as client:
        bodies = [client.get(path, headers={"Accept-Encoding": "identity"}).content for path in FEED_PATHS]
        compressed = client.get(FEED_PATHS[0], headers={"Accept-Encoding": "gzip"})
        encoding = compressed.headers.get("content-encoding")
        print(f"served answer: Content-Encoding {encoding}, {compressed.num_bytes_downloaded} bytes")
    compare_levels(bodies)
    drive(base, pid, "identity", 3, connections)  # warm-up
    # Alternating runs, so drift in the machine's load (2 shared cores) hits both sides alike.
    for round_number in range(rounds):
        for label, encoding in (("identity", "identity"), ("gzip", "gzip")):
            rps, cpu_ms = drive(base, pid, encoding, seconds, connections)
            print(f"RESULT round={round_number + 1} accept={label} rps={rps:.0f} cpu_ms_per_request={cpu_ms:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", help="a running server (give its --pid too)")
    parser.add_argument("--pid", type=int, help="the running server's process id (for its CPU time)")
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--data-dir", type=Path, default=ROOT / "data" / "bench" / "lighthouse")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is missing: apt-get install wrk")
    if args.base:
        if args.pid is None:
            sys.exit("--pid is needed with --base (the server's CPU time is read from /proc)")
        measure(args.base.rstrip("/"), args.pid, args.seconds, args.connections, args.rounds)
        return
    with embedded_server(args.data_dir, None, 2000) as (base, pid):
        measure(base, pid, args.seconds, args.connections, args.rounds)


if __name__ == "__main__":
    main()
