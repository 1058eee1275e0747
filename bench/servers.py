"""The embedded server for benchmarks: `make run` on a free port in its own data directory.

`python -m app.cli setup` first (migrations, dictionaries, the demo content on an empty database, the
index), its progress printed as it goes; then `serve --no-setup`, so the serving process does nothing
else and its process id is the server's (CPU time from /proc).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.e2e.conftest import ServerNotUp, wait_until_up  # one wait for /health, shared with the e2e tests

ROOT = Path(__file__).resolve().parents[1]
SETUP_TIMEOUT = 900  # the first run loads the demo content: about 30 s for 2,000 tours on 2 free cores
SERVER_START_SECONDS = 60  # `serve --no-setup`: setup has already run


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def embedded_environment(data_dir: Path, demo_tours: int, dist: Path | None = None) -> dict[str, str]:
    """The embedded defaults (SQLite, embedded index, in-process tasks) with demo content under data_dir."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "ELASTICSEARCH_URL", "REDIS_URL", "TASKS_EAGER"}
    }
    env.update(
        {
            "DATA_DIR": str(data_dir.resolve()),
            "DEMO_TOURS": str(demo_tours),
            "EMBEDDINGS_ENABLED": "false",  # no torch beside the load: similar tours fall back
            "PYTHONUNBUFFERED": "1",
        }
    )
    if dist is not None:
        env["FRONTEND_DIST"] = str(dist.resolve())
    return env


def run_setup(env: dict[str, str], log_path: Path) -> None:
    """`python -m app.cli setup`, its output printed (indented) and kept in log_path."""
    with log_path.open("a") as log:
        setup = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "setup"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert setup.stdout is not None
        for line in setup.stdout:
            log.write(line)
            print(f"    setup: {line.rstrip()}", flush=True)
        if setup.wait(timeout=SETUP_TIMEOUT) != 0:
            sys.exit(f"setup failed: see {log_path}")


@contextmanager
def embedded_server(data_dir: Path, dist: Path | None, demo_tours: int) -> Iterator[tuple[str, int]]:
    """Set up, then serve on a free port; yields the base URL and the serving process's id, and stops it."""
    data_dir.mkdir(parents=True, exist_ok=True)
    env = embedded_environment(data_dir, demo_tours, dist)
    log_path = data_dir / "server.log"
    run_setup(env, log_path)
    port = free_port()
    with log_path.open("a") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--no-setup", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            try:
                wait_until_up(base, server, log_path, timeout=SERVER_START_SECONDS)
            except ServerNotUp as exc:
                sys.exit(str(exc))
            yield base, server.pid
        finally:
            server.terminate()
            server.wait(timeout=20)
