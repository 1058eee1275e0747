"""Defect 1 of issue 12, second half: after a 500 the next request on the same keep-alive connection was
reset. Starlette answers an unexpected exception with our 500 body and then raises it again for the
server, and uvicorn closes the connection under the client (which was told nothing: no
`Connection: close`). The production entry point (`create_asgi_app`) runs here in a real uvicorn, and two
requests go over one connection."""

from __future__ import annotations

import http.client
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
import uvicorn

from app.platform import service as platform_service
from tests.api.test_auth_proxies import free_port

if TYPE_CHECKING:  # imported at run time, pytest would try to collect it as a test class
    from tests.conftest import TestDatabase


@pytest.fixture
def server(database: TestDatabase) -> Iterator[int]:
    from app.main import create_asgi_app

    port = free_port()
    config = uvicorn.Config(create_asgi_app(), host="127.0.0.1", port=port, lifespan="off", log_level="critical")
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    for _ in range(200):
        if instance.started:
            break
        threading.Event().wait(0.05)
    else:
        raise RuntimeError("uvicorn did not start")
    yield port
    instance.should_exit = True
    thread.join(timeout=10)


def test_the_connection_serves_the_next_request_after_a_500(server: int, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(_db: object) -> str:
        raise RuntimeError("a defect")

    monkeypatch.setattr(platform_service, "database_status", broken)
    connection = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    try:
        connection.request("GET", "/health")
        failed = connection.getresponse()
        body = failed.read()
        assert failed.status == 500 and b'"message":"Something went wrong"' in body
        # The same socket: http.client only opens a new one when it was told the connection closes.
        assert failed.getheader("connection") != "close"
        connection.request("GET", "/v2/config/app-version")
        following = connection.getresponse()
        following.read()
        assert following.status == 200
    finally:
        connection.close()
