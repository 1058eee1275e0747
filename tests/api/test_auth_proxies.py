"""Defect 6 of issue 12: a client on loopback claimed a new address in X-Forwarded-For for every try
and walked past the per-IP sign-in limit, because uvicorn believes that header from 127.0.0.1 unless
told otherwise. These tests run the server `python -m app.cli serve` configures (a real uvicorn on a
free port) and sign in through it over TCP."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn

from app import cli
from app.auth.rate_limit import reset_rate_limits
from app.core.settings import get_settings


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def options_serve_gives_uvicorn(monkeypatch: pytest.MonkeyPatch, port: int) -> dict[str, Any]:
    """What `serve` hands uvicorn.run, without setting the platform up or blocking on the server."""
    captured: dict[str, Any] = {}
    monkeypatch.setattr(cli, "setup_platform", lambda: None)
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: captured.update(options))
    cli.serve("127.0.0.1", port)
    return captured


@pytest.fixture
def serve_app(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Start the app in a real uvicorn with serve's options; yields a function that does it."""
    servers: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start() -> str:
        from app.main import create_app

        port = free_port()
        options = options_serve_gives_uvicorn(monkeypatch, port)
        options.pop("factory", None)
        options.pop("workers", None)
        server = uvicorn.Server(uvicorn.Config(create_app(), lifespan="off", **options))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        servers.append((server, thread))
        for _ in range(200):
            if server.started:
                return f"http://127.0.0.1:{port}"
            threading.Event().wait(0.05)
        raise RuntimeError("uvicorn did not start")

    reset_rate_limits()
    yield start
    for server, thread in servers:
        server.should_exit = True
        thread.join(timeout=10)
    reset_rate_limits()


def sign_in_as_someone_else(base_url: str, attempt: int) -> httpx.Response:
    """A wrong password for a fresh account each time, from a fresh claimed address each time."""
    return httpx.post(
        f"{base_url}/v2/users/sign-in",
        json={"auth_system": "Email", "email": f"guess{attempt}@example.com", "password": "Wrong1!x"},
        headers={"X-Forwarded-For": f"203.0.113.{attempt + 1}"},
        timeout=30,
    )


def test_a_spoofed_forwarded_for_from_loopback_counts_against_the_real_client(
    serve_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "trusted_proxies", [])
    monkeypatch.setattr(get_settings(), "auth_rate_limit_per_ip", "3/minute")
    base_url = serve_app()
    statuses = [sign_in_as_someone_else(base_url, attempt).status_code for attempt in range(4)]
    assert statuses == [400, 400, 400, 429]


def test_a_trusted_proxy_reports_the_client_address(serve_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Behind a proxy TRUSTED_PROXIES names, each forwarded client has its own count."""
    monkeypatch.setattr(get_settings(), "trusted_proxies", ["127.0.0.0/8"])
    monkeypatch.setattr(get_settings(), "auth_rate_limit_per_ip", "3/minute")
    base_url = serve_app()
    statuses = [sign_in_as_someone_else(base_url, attempt).status_code for attempt in range(4)]
    assert statuses == [400, 400, 400, 400]


def test_no_proxy_is_trusted_unless_named() -> None:
    assert cli.proxy_options([]) == {"proxy_headers": False}
    assert cli.proxy_options(["10.0.0.5", "172.30.0.0/24"]) == {
        "proxy_headers": True,
        "forwarded_allow_ips": "10.0.0.5,172.30.0.0/24",
    }
