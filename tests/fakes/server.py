"""What every fake server shares: a threaded server on a free local port, served from a daemon
thread, that answers without Nagle's delay and stops within a few milliseconds.

`serve_forever` looks for a shutdown request every `poll_interval`, 0.5 s by default: a fake that
closed after each test or module cost that half second each time. And a handler writes its headers
and its body in separate sends; with Nagle's algorithm on, the second may wait for the client's
delayed acknowledgement of the first."""

from __future__ import annotations

import socket
import socketserver
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SHUTDOWN_POLL_SECONDS = 0.02


class _NoDelay:
    def get_request(self) -> tuple[socket.socket, Any]:
        connection, address = super().get_request()  # type: ignore[misc]
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return connection, address


class FakeHTTPServer(_NoDelay, ThreadingHTTPServer):
    daemon_threads = True


class FakeTCPServer(_NoDelay, socketserver.ThreadingTCPServer):
    daemon_threads = True


def http_server(host: str = "127.0.0.1", port: int = 0) -> FakeHTTPServer:
    """Bound and listening; the fake sets its RequestHandlerClass before `serve_in_background`."""
    return FakeHTTPServer((host, port), BaseHTTPRequestHandler)


def serve_in_background(server: socketserver.BaseServer, name: str) -> threading.Thread:
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": SHUTDOWN_POLL_SECONDS}, name=name, daemon=True
    )
    thread.start()
    return thread


def stop(server: socketserver.BaseServer) -> None:
    server.shutdown()
    server.server_close()
