"""End-to-end: the real server on its embedded defaults (its own data directory, demo content) and
Debian's Chromium driven by Playwright. Never a downloaded browser."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.fakes.mailchimp import FakeMailchimp, running_mailchimp
from tests.fakes.matterport import FakeMatterport, running_matterport

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
E2E_DEMO_TOURS = os.environ.get("E2E_DEMO_TOURS", "2000")
SERVER_START_SECONDS = float(
    os.environ.get("E2E_SERVER_START_SECONDS", "300")
)  # `serve` runs setup first: migrations, the demo content, the index


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="session")
def server_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The e2e server's DATA_DIR (its SQLite database `touratlas.db`, uploads, index)."""
    return tmp_path_factory.mktemp("e2e-data")


@pytest.fixture(scope="session")
def matterport() -> Iterator[FakeMatterport]:
    """The local fake of Matterport's Model API the e2e server talks to (MATTERPORT_API_URL); a test
    adds the accounts it needs (`matterport.account(token_id, secret, *models)`)."""
    with running_matterport() as fake:
        yield fake


@pytest.fixture(scope="session")
def mailchimp() -> Iterator[FakeMailchimp]:
    """The local fake of Mailchimp's Marketing API the e2e server keeps its mailing list in step with
    (MAILCHIMP_API_URL); a test adds the list members it needs (`mailchimp.add(email)`)."""
    with running_mailchimp() as fake:
        yield fake


@pytest.fixture(scope="session")
def server(server_data_dir: Path, matterport: FakeMatterport, mailchimp: FakeMailchimp) -> Iterator[str]:
    if not (ROOT / "frontend" / "dist" / "index.html").exists():
        pytest.fail("The front end is not built: run `make test` (it builds it) or `npm --prefix frontend run build`.")
    port = _free_port()
    data_dir = server_data_dir
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "ELASTICSEARCH_URL", "REDIS_URL", "TASKS_EAGER", "SEED_DEMO"}
    }
    # Embeddings would load torch and encode 2,000 tours beside the browser: the e2e tests leave them
    # off (similar tours fall back to category and tags); tests/unit/test_embeddings.py covers them.
    env.update(
        {
            "DATA_DIR": str(data_dir),
            "DEMO_TOURS": E2E_DEMO_TOURS,
            "PYTHONUNBUFFERED": "1",
            "EMBEDDINGS_ENABLED": "false",
            # The link lookup may fetch from the local fake provider (tests/fakes/tour_pages.py).
            "DISCOVER_ALLOWED_NETWORKS": "127.0.0.1/32",
            # 3D-capture vendor tokens are checked with the local fake (tests/fakes/matterport.py).
            "MATTERPORT_API_URL": matterport.url,
            # The mailing list is the local fake of Mailchimp (tests/fakes/mailchimp.py).
            "MAILCHIMP_API_URL": mailchimp.url,
            "MAILCHIMP_API_KEY": mailchimp.api_key,
            "MAILCHIMP_LIST_ID": mailchimp.list_id,
            # Small batches, so a sync has steps whose progress a page can be seen following.
            "MAILING_SYNC_BATCH_SIZE": "2",
        }
    )
    log = (data_dir / "server.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        try:
            wait_until_up(base, process, data_dir / "server.log", timeout=SERVER_START_SECONDS)
        except ServerNotUp as exc:
            pytest.fail(str(exc))
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


class ServerNotUp(RuntimeError):
    """The server exited, or did not answer /health in time; the message ends with its log's tail."""


def wait_until_up(base: str, process: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    """Wait until a server started as `process` answers 200 at `{base}/health` (these tests and the
    benches in bench/servers.py start theirs the same way)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ServerNotUp(f"The server exited early:\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise ServerNotUp(f"The server did not answer within {timeout:.0f} s ({log}):\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Debian's Chromium is missing at {CHROMIUM}: `make test` installs it (apt-get install chromium).")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        user_data = Path(os.environ.get("TMPDIR", "/tmp")) / f"touratlas-chromium-{os.getpid()}"
        shutil.rmtree(user_data, ignore_errors=True)
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()
            shutil.rmtree(user_data, ignore_errors=True)
