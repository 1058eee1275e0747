"""A local fake of the Facebook Graph API's page feed, speaking its wire format over HTTP.

`POST /v19.0/{page-id}/feed` with a form body `message=...&access_token=...`:
- the page's token: 200 `{"id": "{page-id}_{n}"}` and the post is kept in `posts`;
- any other token: 400 `{"error": {"message": "Invalid OAuth access token.", "type": "OAuthException",
  "code": 190}}` (what Graph answers for a bad token);
- an empty message: 400 `{"error": {"message": "(#100) The parameter message is required", ...}}`;
- another page or path: 404 with a Graph error.
`outage` switches it to answering 503 without a JSON body.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

from tests.fakes.server import http_server, serve_in_background, stop

API_VERSION = "v19.0"


@dataclass
class FakeGraph:
    server: ThreadingHTTPServer
    page_id: str = "1234567890"
    page_token: str = "page-token"
    outage: bool = False
    posts: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}/{API_VERSION}"

    def close(self) -> None:
        stop(self.server)


def _graph_error(message: str, code: int, kind: str = "OAuthException") -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "code": code, "fbtrace_id": "AbCdEf"}}


def _handler(fake: FakeGraph) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            form = parse_qs(self.rfile.read(length).decode())
            if fake.outage:
                self._send(503, b"Service Unavailable", "text/plain")
                return
            if self.path != f"/{API_VERSION}/{fake.page_id}/feed":
                self._json(404, _graph_error("Unknown path components", 2500))
                return
            if form.get("access_token", [""])[0] != fake.page_token:
                self._json(400, _graph_error("Invalid OAuth access token.", 190))
                return
            message = form.get("message", [""])[0]
            if not message.strip():
                self._json(400, _graph_error("(#100) The parameter message is required", 100))
                return
            fake.posts.append(message)
            self._json(200, {"id": f"{fake.page_id}_{len(fake.posts)}"})

        def _json(self, status: int, body: dict[str, Any]) -> None:
            self._send(status, json.dumps(body).encode(), "application/json")

        def _send(self, status: int, payload: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    return Handler


@contextmanager
def running_graph() -> Iterator[FakeGraph]:
    server = http_server()
    fake = FakeGraph(server=server)
    server.RequestHandlerClass = _handler(fake)
    serve_in_background(server, "fake-graph")
    try:
        yield fake
    finally:
        fake.close()
