"""A local fake of Stripe's REST API for the calls billing makes, speaking Stripe's wire format.

Requests are form-encoded with Stripe's bracket notation (`items[0][price]=...`, `expand[0]=...`),
authenticated with `Authorization: Bearer sk_...`, and carry `Stripe-Version`; answers are JSON objects
with `id` and `object`, lists as `{"object": "list", "data": [...]}`, errors as
`{"error": {"type", "message", "code", "param"}}` with Stripe's statuses (400 invalid request, 401 bad
key, 402 card error, 404 unknown path). An `Idempotency-Key` replays the first answer (with
`Idempotent-Replayed: true`); the same key with other parameters is a 400 `idempotency_error`, as
Stripe does.

Served: POST /v1/customers, /v1/products, /v1/prices, /v1/subscriptions; GET and DELETE
/v1/subscriptions/{id} (with `expand` of `latest_invoice.confirmation_secret` and
`pending_setup_intent`). `fail_next` makes the next request to a path fail with a given error;
`created` counts the objects really created; `advance(id, status)` moves a subscription on as Stripe
would after a payment or at a trial's end, returning the object a webhook would carry.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from tests.fakes.server import http_server, serve_in_background, stop

SECRET_KEY = "sk_test_fake_touratlas_0123456789"
DAY = 86400


def parse_form(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """Stripe's bracket notation back into nested dicts and lists (`a[0][b]=1` → {"a": [{"b": "1"}]})."""
    root: dict[str, Any] = {}
    for key, value in pairs:
        parts = re.findall(r"[^\[\]]+", key)
        node: Any = root
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            if isinstance(node, dict):
                if last:
                    node[part] = value
                else:
                    node = node.setdefault(part, {})
        # lists come in as dicts keyed "0", "1", …: turned into lists below
    return _lists(root)


def _lists(value: Any) -> Any:
    if isinstance(value, dict):
        converted = {key: _lists(item) for key, item in value.items()}
        if converted and all(key.isdigit() for key in converted):
            return [converted[key] for key in sorted(converted, key=int)]
        return converted
    return value


def _id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(12)}"


def error(
    status: int, kind: str, message: str, *, code: str | None = None, param: str | None = None
) -> tuple[int, dict[str, Any]]:
    body: dict[str, Any] = {"type": kind, "message": message}
    if code:
        body["code"] = code
    if param:
        body["param"] = param
    return status, {"error": body}


@dataclass
class FakeStripe:
    server: ThreadingHTTPServer
    secret_key: str = SECRET_KEY
    customers: dict[str, dict[str, Any]] = field(default_factory=dict)
    products: dict[str, dict[str, Any]] = field(default_factory=dict)
    prices: dict[str, dict[str, Any]] = field(default_factory=dict)
    subscriptions: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Idempotency-Key → (method, path, params, status, body)
    replays: dict[str, tuple[str, str, dict[str, Any], int, dict[str, Any]]] = field(default_factory=dict)
    fail_next: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    created: Counter[str] = field(default_factory=Counter)
    hits: Counter[str] = field(default_factory=Counter)
    versions: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    def reset(self) -> None:
        with self.lock:
            for store in (self.customers, self.products, self.prices, self.subscriptions, self.replays, self.fail_next):
                store.clear()
            self.created.clear()
            self.hits.clear()
            self.versions.clear()

    def close(self) -> None:
        stop(self.server)

    # ------------------------------------------------------------------------------------- objects

    def _subscription_view(self, subscription: dict[str, Any], expand: list[str]) -> dict[str, Any]:
        view = json.loads(json.dumps(subscription))
        invoice = subscription["_invoice"]
        setup = subscription["_setup_intent"]
        if "latest_invoice" in expand or "latest_invoice.confirmation_secret" in expand:
            view["latest_invoice"] = {
                "id": invoice["id"],
                "object": "invoice",
                "status": invoice["status"],
                "amount_due": invoice["amount_due"],
            }
            if "latest_invoice.confirmation_secret" in expand:
                view["latest_invoice"]["confirmation_secret"] = (
                    {"client_secret": invoice["client_secret"], "type": "payment_intent"}
                    if invoice["status"] == "open"
                    else None
                )
        else:
            view["latest_invoice"] = invoice["id"]
        if setup is None:
            view["pending_setup_intent"] = None
        elif "pending_setup_intent" in expand:
            view["pending_setup_intent"] = {
                "id": setup["id"],
                "object": "setup_intent",
                "client_secret": setup["client_secret"],
                "status": "requires_payment_method",
            }
        else:
            view["pending_setup_intent"] = setup["id"]
        return {key: value for key, value in view.items() if not key.startswith("_")}

    def advance(self, subscription_id: str, status: str, *, now: int | None = None) -> dict[str, Any]:
        """Move a subscription on as Stripe would (a paid invoice: active; a trial ending without a
        card: canceled; a failed renewal: past_due); answers the object a webhook carries."""
        with self.lock:
            subscription = self.subscriptions[subscription_id]
            subscription["status"] = status
            moment = now or int(time.time())
            if status == "active":
                subscription["_invoice"]["status"] = "paid"
                subscription["_setup_intent"] = None
            if status == "canceled":
                subscription["canceled_at"] = moment
                subscription["ended_at"] = moment
            return self._subscription_view(subscription, [])

    def webhook_object(self, subscription_id: str) -> dict[str, Any]:
        with self.lock:
            return self._subscription_view(self.subscriptions[subscription_id], [])

    # ------------------------------------------------------------------------------------- handlers

    def handle(self, method: str, path: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        expand = [str(item) for item in params.get("expand", [])]
        if method == "POST" and path == "/v1/customers":
            customer = {
                "id": _id("cus"),
                "object": "customer",
                "email": params.get("email"),
                "name": params.get("name"),
                "metadata": params.get("metadata", {}),
                "created": int(time.time()),
                "livemode": False,
            }
            self.customers[customer["id"]] = customer
            self.created["customer"] += 1
            return 200, customer
        if method == "POST" and path == "/v1/products":
            if not params.get("name"):
                return error(
                    400,
                    "invalid_request_error",
                    "Missing required param: name.",
                    code="parameter_missing",
                    param="name",
                )
            product = {
                "id": _id("prod"),
                "object": "product",
                "name": params["name"],
                "active": True,
                "livemode": False,
            }
            self.products[product["id"]] = product
            self.created["product"] += 1
            return 200, product
        if method == "POST" and path == "/v1/prices":
            product = str(params.get("product", ""))
            if product not in self.products:
                return error(
                    400,
                    "invalid_request_error",
                    f"No such product: '{product}'",
                    code="resource_missing",
                    param="product",
                )
            recurring = params.get("recurring") or {}
            if recurring.get("interval") not in ("day", "week", "month", "year"):
                return error(
                    400,
                    "invalid_request_error",
                    "Invalid recurring[interval]",
                    code="parameter_invalid_string",
                    param="recurring[interval]",
                )
            price = {
                "id": _id("price"),
                "object": "price",
                "product": product,
                "unit_amount": int(params.get("unit_amount", 0)),
                "currency": params.get("currency", "usd"),
                "recurring": {"interval": recurring["interval"], "interval_count": 1},
                "type": "recurring",
                "livemode": False,
            }
            self.prices[price["id"]] = price
            self.created["price"] += 1
            return 200, price
        if method == "POST" and path == "/v1/subscriptions":
            return self._create_subscription(params, expand)
        match = re.fullmatch(r"/v1/subscriptions/([A-Za-z0-9_]+)", path)
        if match:
            subscription = self.subscriptions.get(match.group(1))
            if subscription is None:
                return error(
                    404,
                    "invalid_request_error",
                    f"No such subscription: '{match.group(1)}'",
                    code="resource_missing",
                    param="id",
                )
            if method == "GET":
                return 200, self._subscription_view(subscription, expand)
            if method == "DELETE":
                if subscription["status"] == "canceled":
                    return error(
                        400,
                        "invalid_request_error",
                        "A canceled subscription can only update its cancellation_details and metadata.",
                    )
                moment = int(time.time())
                subscription.update(status="canceled", canceled_at=moment, ended_at=moment)
                return 200, self._subscription_view(subscription, expand)
        return error(404, "invalid_request_error", f"Unrecognized request URL ({method}: {path}).")

    def _create_subscription(self, params: dict[str, Any], expand: list[str]) -> tuple[int, dict[str, Any]]:
        customer = str(params.get("customer", ""))
        if customer not in self.customers:
            return error(
                400,
                "invalid_request_error",
                f"No such customer: '{customer}'",
                code="resource_missing",
                param="customer",
            )
        items = params.get("items") or []
        if not items or str(items[0].get("price")) not in self.prices:
            return error(
                400, "invalid_request_error", "No such price", code="resource_missing", param="items[0][price]"
            )
        price = self.prices[str(items[0]["price"])]
        now = int(time.time())
        trial_days = int(params.get("trial_period_days", 0) or 0)
        interval_days = 365 if price["recurring"]["interval"] == "year" else 30
        trial_end = now + trial_days * DAY if trial_days else None
        period_end = trial_end or now + interval_days * DAY
        subscription_id = _id("sub")
        setup = {"id": _id("seti"), "client_secret": ""} if trial_days else None
        if setup is not None:
            setup["client_secret"] = f"{setup['id']}_secret_{secrets.token_hex(8)}"
        intent = _id("pi")
        subscription = {
            "id": subscription_id,
            "object": "subscription",
            "customer": customer,
            "status": "trialing" if trial_days else "incomplete",
            "created": now,
            "start_date": now,
            "trial_start": now if trial_days else None,
            "trial_end": trial_end,
            "cancel_at_period_end": False,
            "canceled_at": None,
            "ended_at": None,
            "metadata": params.get("metadata", {}),
            "livemode": False,
            "items": {
                "object": "list",
                "data": [
                    {
                        "id": _id("si"),
                        "object": "subscription_item",
                        "price": price,
                        "quantity": 1,
                        "current_period_start": now,
                        "current_period_end": period_end,
                    }
                ],
                "has_more": False,
            },
            "_invoice": {
                "id": _id("in"),
                "status": "paid" if trial_days else "open",
                "amount_due": 0 if trial_days else price["unit_amount"],
                "client_secret": f"{intent}_secret_{secrets.token_hex(8)}",
            },
            "_setup_intent": setup,
        }
        self.subscriptions[subscription_id] = subscription
        self.created["subscription"] += 1
        return 200, self._subscription_view(subscription, expand)


def _handler(fake: FakeStripe) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_GET(self) -> None:
            self._serve("GET")

        def do_POST(self) -> None:
            self._serve("POST")

        def do_DELETE(self) -> None:
            self._serve("DELETE")

        def _serve(self, method: str) -> None:
            parts = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode() if length else ""
            content_type = self.headers.get("Content-Type", "")
            if raw and "application/x-www-form-urlencoded" not in content_type:
                self._json(*error(400, "invalid_request_error", "Stripe expects form-encoded bodies"))
                return
            pairs = parse_qsl(parts.query, keep_blank_values=True) + parse_qsl(raw, keep_blank_values=True)
            params = parse_form(pairs)
            fake.hits[f"{method} {parts.path}"] += 1
            if self.headers.get("Authorization", "") != f"Bearer {fake.secret_key}":
                self._json(*error(401, "invalid_request_error", "Invalid API Key provided: sk_****"))
                return
            fake.versions.append(self.headers.get("Stripe-Version", ""))
            key = self.headers.get("Idempotency-Key")
            with fake.lock:
                failure = fake.fail_next.pop(parts.path, None)
                if failure is not None:
                    self._json(*failure)
                    return
                if key and method == "POST":
                    earlier = fake.replays.get(key)
                    if earlier is not None:
                        if (earlier[0], earlier[1], earlier[2]) != (method, parts.path, params):
                            self._json(
                                *error(
                                    400,
                                    "idempotency_error",
                                    "Keys for idempotent requests can only be used with the same parameters they "
                                    "were first used with.",
                                )
                            )
                            return
                        self._json(earlier[3], earlier[4], replayed=True)
                        return
                status, body = fake.handle(method, parts.path, params)
                if key and method == "POST" and status < 500:
                    fake.replays[key] = (method, parts.path, params, status, body)
            self._json(status, body)

        def _json(self, status: int, body: dict[str, Any], *, replayed: bool = False) -> None:
            payload = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.send_header("Request-Id", _id("req"))
            if replayed:
                self.send_header("Idempotent-Replayed", "true")
            self.end_headers()
            self.wfile.write(payload)

    return Handler


@contextmanager
def running_stripe() -> Iterator[FakeStripe]:
    server = http_server()
    fake = FakeStripe(server=server)
    server.RequestHandlerClass = _handler(fake)
    serve_in_background(server, "fake-stripe")
    try:
        yield fake
    finally:
        fake.close()
