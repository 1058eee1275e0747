"""A local fake of Matterport's Model API, speaking its wire format over HTTP.

`POST /api/models/graph` with HTTP Basic auth `token id:secret` and a JSON body `{"query", "variables"}`:
- unknown or missing credentials: 401 with a JSON body, before any GraphQL (as Matterport does);
- `models(...)`: `{"data": {"models": {"totalResults": n}}}` for the account's models;
- `model(id: $modelId)`: the model, or `{"data": {"model": null}, "errors": [{"message": "Model not
  found.", "extensions": {"code": "not.found"}}]}` for a model the account does not have;
- a query it does not know: 200 with a GraphQL validation error.
`outage` switches it to answering 503; `hits` counts requests, `seen_auth` records the Basic
credentials sent (to prove the adapter sends them as Matterport expects).
"""

from __future__ import annotations

import base64
import json
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.fakes.server import http_server, serve_in_background, stop

GRAPH_PATH = "/api/models/graph"


@dataclass
class FakeModel:
    id: str
    name: str
    visibility: str = "public"
    state: str = "active"


@dataclass
class FakeMatterport:
    server: ThreadingHTTPServer
    # token id → (secret, the account's models by id)
    accounts: dict[str, tuple[str, dict[str, FakeModel]]] = field(default_factory=dict)
    outage: bool = False
    hits: Counter[str] = field(default_factory=Counter)
    seen_auth: list[tuple[str, str]] = field(default_factory=list)
    bodies: list[dict[str, Any]] = field(default_factory=list)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}{GRAPH_PATH}"

    def account(self, token_id: str, secret: str, *models: FakeModel) -> None:
        self.accounts[token_id] = (secret, {model.id: model for model in models})

    def close(self) -> None:
        stop(self.server)


def _handler(fake: FakeMatterport) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            fake.hits[self.path] += 1
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if self.path != GRAPH_PATH:
                self._json(404, {"error": "not found"})
                return
            if fake.outage:
                self._json(503, {"error": "Service Unavailable"})
                return
            models = self._account()
            if models is None:
                self._json(401, {"code": "request.unauthorized", "message": "Unauthorized"})
                return
            try:
                body = json.loads(raw)
            except ValueError:
                self._json(400, {"errors": [{"message": "Invalid JSON"}]})
                return
            fake.bodies.append(body)
            query, variables = str(body.get("query", "")), body.get("variables") or {}
            if "model(" in query:
                model = models.get(str(variables.get("modelId", "")))
                if model is None:
                    self._json(
                        200,
                        {
                            "data": {"model": None},
                            "errors": [
                                {"message": "Model not found.", "path": ["model"], "extensions": {"code": "not.found"}}
                            ],
                        },
                    )
                    return
                found = {"id": model.id, "name": model.name, "visibility": model.visibility, "state": model.state}
                self._json(200, {"data": {"model": found}})
            elif "models(" in query:
                self._json(200, {"data": {"models": {"totalResults": len(models)}}})
            else:
                self._json(
                    200,
                    {"errors": [{"message": "Validation error", "extensions": {"code": "GRAPHQL_VALIDATION_FAILED"}}]},
                )

        def _account(self) -> dict[str, FakeModel] | None:
            header = self.headers.get("Authorization", "")
            if not header.startswith("Basic "):
                return None
            try:
                token_id, _, secret = base64.b64decode(header[6:]).decode().partition(":")
            except ValueError:
                return None
            fake.seen_auth.append((token_id, secret))
            account = fake.accounts.get(token_id)
            if account is None or account[0] != secret:
                return None
            return account[1]

        def _json(self, status: int, body: dict[str, Any]) -> None:
            payload = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    return Handler


@contextmanager
def running_matterport() -> Iterator[FakeMatterport]:
    server = http_server()
    fake = FakeMatterport(server=server)
    server.RequestHandlerClass = _handler(fake)
    serve_in_background(server, "fake-matterport")
    try:
        yield fake
    finally:
        fake.close()
