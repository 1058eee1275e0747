"""A small distributed TourAtlas for tests: a throw-away PostgreSQL database, an empty Redis database
(its own number, so its queues and Socket.IO channel are its own), a shared data directory (the
embedded index), API processes (uvicorn, the production entry point) and Celery workers, each a real
subprocess started as in docker-compose.yml.

The test process only seeds rows and reads: it commits without dispatching (its commits must not run
the outbox in here: the stack's workers do that).
"""

from __future__ import annotations

import base64
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from app.core.after_commit import discard_pending
from tests.conftest import create_postgres_database, drop_postgres_database, postgres_available

ROOT = Path(__file__).resolve().parents[2]
REDIS_HOST = os.environ.get("TOURATLAS_TEST_REDIS_HOST", "127.0.0.1")
REDIS_PORT = int(os.environ.get("TOURATLAS_TEST_REDIS_PORT", "6379"))
# Databases a test stack may take; the first empty one is used and emptied again afterwards.
REDIS_TEST_DATABASES = range(15, 7, -1)
START_TIMEOUT = 60.0
STACK_MARKER = "touratlas:test-stack"
PASSWORD = "Secret1!"


def redis_unavailable() -> str | None:
    """None when Redis answers, else why not."""
    import redis

    try:
        redis.Redis(host=REDIS_HOST, port=REDIS_PORT, socket_connect_timeout=2).ping()
    except Exception as exc:  # noqa: BLE001 - any failure means "not available"
        return f"{exc.__class__.__name__}: {exc}"
    return None


def stack_unavailable() -> str | None:
    """Why the distributed tests cannot run here, or None."""
    missing: list[str] = []
    if reason := redis_unavailable():
        missing.append(f"no Redis at {REDIS_HOST}:{REDIS_PORT} ({reason})")
    if reason := postgres_available():
        missing.append(f"no PostgreSQL ({reason})")
    try:
        import aiohttp  # noqa: F401 - python-socketio's asyncio client runs on it
    except ImportError:
        missing.append("aiohttp is not installed (pip install aiohttp)")
    return "; ".join(missing) or None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def claim_redis_database() -> int:
    import redis

    for number in REDIS_TEST_DATABASES:
        client = redis.Redis(host=REDIS_HOST, port=REDIS_PORT, db=number)
        owner = client.get(STACK_MARKER)
        if owner is not None and not _alive(int(owner)):
            client.flushdb()  # left behind by a test run that was killed: ours to reuse
        # SET NX on the marker: two test runs at once never take the same database.
        if client.dbsize() == 0 and client.set(STACK_MARKER, os.getpid(), nx=True):
            return number
    raise RuntimeError("no empty Redis database between 8 and 15 for the test stack")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass
class Process:
    name: str
    popen: subprocess.Popen[bytes]
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def terminate(self) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.terminate()
            try:
                self.popen.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(timeout=5)


@dataclass
class Stack:
    directory: Path
    database_url: str = ""
    database_name: str = ""
    redis_db: int = -1
    processes: list[Process] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    _engine: Engine | None = None
    _apis: dict[str, str] = field(default_factory=dict)
    _workers: dict[str, Process] = field(default_factory=dict)

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        from app.core.db import make_engine
        from app.core.migrate import upgrade_database

        self.database_name, self.database_url = create_postgres_database()
        upgrade_database(self.database_url)
        self._engine = make_engine(self.database_url)
        self.redis_db = claim_redis_database()
        self.env = self._environment()

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.stop()
        if self._engine is not None:
            self._engine.dispose()
        if self.redis_db >= 0:
            import redis

            redis.Redis(host=REDIS_HOST, port=REDIS_PORT, db=self.redis_db).flushdb()
        if self.database_name:
            drop_postgres_database(self.database_name)

    @property
    def redis_url(self) -> str:
        return f"redis://{REDIS_HOST}:{REDIS_PORT}/{self.redis_db}"

    def _environment(self) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items() if not key.startswith("TOURATLAS_TEST")}
        env.update(
            {
                "DATABASE_URL": self.database_url,
                "REDIS_URL": self.redis_url,
                "DATA_DIR": str(self.directory / "data"),
                # A deployment, as docker-compose.yml runs it: the processes refuse to start without
                # these two, and must not each generate their own.
                "ENVIRONMENT": "production",
                "JWT_SECRET": secrets.token_urlsafe(32),
                "ENCRYPTION_KEY": base64.urlsafe_b64encode(os.urandom(32)).decode(),
                "ELASTICSEARCH_URL": "",
                "SMTP_URL": "",
                "EMBEDDINGS_ENABLED": "false",
                "SEED_DEMO": "false",
                "TASKS_EAGER": "false",
                "TASKS_IN_PROCESS": "false",
                "PYTHONUNBUFFERED": "1",
            }
        )
        return env

    # ------------------------------------------------------------------ processes

    def up(self, *, apis: tuple[str, ...] = (), workers: tuple[str, ...] = ()) -> tuple[list[str], list[Process]]:
        """The named API processes (base URLs) and Celery workers, starting together the ones not
        running yet and waiting until each answers."""
        starting: list[tuple[Process, Callable[[], bool]]] = []
        for name in apis:
            if name not in self._apis:
                process, base = self._spawn_api(name)
                self._apis[name] = base
                starting.append((process, partial(_answers, f"{base}/health")))
        for name in workers:
            if name not in self._workers:
                process = self._spawn_worker(name)
                self._workers[name] = process
                starting.append((process, partial(_logged, process, " ready.")))
        for process, ready in starting:
            self._wait(process, ready)
        return [self._apis[name] for name in apis], [self._workers[name] for name in workers]

    def apis(self, *names: str) -> list[str]:
        return self.up(apis=names)[0]

    def workers(self, *names: str) -> list[Process]:
        return self.up(workers=names)[1]

    def start_api(self, name: str, *, env: dict[str, str]) -> str:
        """One more API process with extra environment (say, a DATA_DIR of its own); its base URL."""
        assert name not in self._apis, name
        process, base = self._spawn_api(name, env=env)
        self._apis[name] = base
        self._wait(process, partial(_answers, f"{base}/health"))
        return base

    def _spawn_api(self, name: str, *, env: dict[str, str] | None = None) -> tuple[Process, str]:
        port = free_port()
        command = [
            sys.executable,
            *("-m", "uvicorn", "app.main:create_asgi_app", "--factory"),
            *("--host", "127.0.0.1", "--port", str(port), "--log-level", "warning", "--no-access-log"),
        ]
        return self._spawn(f"api-{name}", command, env=env), f"http://127.0.0.1:{port}"

    def start_worker(self, name: str, *, app: str = "workers.celery_app", env: dict[str, str] | None = None) -> Process:
        """One more Celery worker, with its own Celery app module (a test's variant of the entry
        point) and extra environment; waits until it is ready."""
        assert name not in self._workers, name
        process = self._spawn_worker(name, app=app, env=env)
        self._workers[name] = process
        self._wait(process, partial(_logged, process, " ready."))
        return process

    def _spawn_worker(
        self, name: str, *, app: str = "workers.celery_app", env: dict[str, str] | None = None
    ) -> Process:
        """A Celery worker on every queue, one task at a time (--pool=solo)."""
        command = [
            sys.executable,
            *("-m", "celery", "-A", app, "worker", "--pool=solo", "--loglevel=info"),
            *("-n", f"{name}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat"),
        ]
        return self._spawn(f"worker-{name}", command, env=env)

    def send_task(self, name: str, *, queue: str, **kwargs: Any) -> None:
        """Queue a task through Redis, as any process of the stack does."""
        from celery import Celery

        Celery("touratlas-test", broker=self.redis_url).send_task(name, kwargs=kwargs, queue=queue)

    def run_cli(self, *arguments: str) -> str:
        """`python -m app.cli …` as its own process against the stack; returns its output."""
        done = subprocess.run(
            [sys.executable, "-m", "app.cli", *arguments],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    def _spawn(self, name: str, command: list[str], *, env: dict[str, str] | None = None) -> Process:
        log = self.directory / f"{name}.log"
        with log.open("wb") as output:
            popen = subprocess.Popen(
                command, cwd=ROOT, env={**self.env, **(env or {})}, stdout=output, stderr=subprocess.STDOUT
            )
        process = Process(name, popen, log)
        self.processes.append(process)
        return process

    def _wait(self, process: Process, ready: Callable[[], bool]) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if process.popen.poll() is not None:
                raise RuntimeError(f"{process.name} exited early:\n{process.output()[-3000:]}")
            if ready():
                return
            time.sleep(0.2)
        raise RuntimeError(f"{process.name} did not start within {START_TIMEOUT:.0f} s:\n{process.output()[-3000:]}")

    def logs(self) -> str:
        return "\n".join(f"--- {process.name}\n{process.output()[-4000:]}" for process in self.processes)

    # ------------------------------------------------------------------ data

    def session(self) -> Session:
        assert self._engine is not None
        import app.models  # noqa: F401 - every mapper known

        return sessionmaker(bind=self._engine, expire_on_commit=False)()

    def index(self) -> Any:
        """The stack's embedded index, read from the test process."""
        from indexer.embedded.adapter import EmbeddedIndex

        return EmbeddedIndex(self.directory / "data" / "index")


def commit_without_dispatch(session: Session) -> None:
    """Commit rows (outbox entries included) and leave their dispatch to the stack's workers."""
    session.flush()
    discard_pending(session)
    session.commit()


def _logged(process: Process, text: str) -> bool:
    return text in process.output()


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def wait_for(check: Callable[[], Any], *, timeout: float = 20.0, interval: float = 0.1, what: str = "") -> Any:
    """Poll until `check()` is truthy; returns its value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := check():
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what or check}")


def remove_tree(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
