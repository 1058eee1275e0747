"""A local fake of Mailchimp's Marketing API v3 (the calls app/mailing/mailchimp.py makes), over HTTP.

Basic auth with any user name and the API key as password (else 401 with a problem document):
- `GET /3.0/ping` → `{"health_status": "Everything's Chimpy!"}`;
- `GET /3.0/lists/{id}` → `{"id", "name", "stats": {"member_count"}}` (404 problem for another id);
- `GET /3.0/lists/{id}/members?count=&offset=` → `{"members": [...], "total_items"}` in insertion order;
- `POST /3.0/lists/{id}` `{"members": [{"email_address", "status", "merge_fields"}], "update_existing"}`
  → `{"new_members", "updated_members", "errors", "total_created", "total_updated", "error_count"}`;
  more than 500 members is a 400, an address without '@' one of `errors`;
- `PUT /3.0/lists/{id}/members/{md5 of the lower-cased address}` (add or update one member).
`fail_next` holds statuses answered (once each) before any real answer, e.g. [429, 500];
`broken_after_batches` makes every batch POST after that many answer 500 (an outage mid-sync);
`batch_delay_seconds` makes each batch POST take that long (a sync whose progress can be watched).
`requests` records (method, path) and `batches` the e-mails of every batch accepted.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.fakes.server import http_server, serve_in_background, stop

PREFIX = "/3.0"
MAX_BATCH = 500


@dataclass
class FakeMember:
    email: str
    status: str = "subscribed"
    first_name: str = ""
    last_name: str = ""

    @property
    def id(self) -> str:
        return hashlib.md5(self.email.lower().encode(), usedforsecurity=False).hexdigest()

    def wire(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "email_address": self.email,
            "status": self.status,
            "merge_fields": {"FNAME": self.first_name, "LNAME": self.last_name},
        }


@dataclass
class FakeMailchimp:
    server: ThreadingHTTPServer
    api_key: str = "f4kekey0123456789abcdef-us6"
    list_id: str = "a1b2c3d4e5"
    list_name: str = "TourAtlas news"
    members: dict[str, FakeMember] = field(default_factory=dict)
    fail_next: list[int] = field(default_factory=list)
    broken_after_batches: int | None = None
    batch_delay_seconds: float = 0.0
    requests: list[tuple[str, str]] = field(default_factory=list)
    batches: list[list[str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}{PREFIX}"

    def reset(self) -> None:
        with self.lock:
            self.members.clear()
            self.fail_next.clear()
            self.broken_after_batches = None
            self.batch_delay_seconds = 0.0
            self.requests.clear()
            self.batches.clear()

    def add(self, email: str, status: str = "subscribed", first_name: str = "", last_name: str = "") -> None:
        self.members[email.lower()] = FakeMember(email.lower(), status, first_name, last_name)

    def statuses(self) -> dict[str, str]:
        return {email: member.status for email, member in self.members.items()}

    def close(self) -> None:
        stop(self.server)


def _problem(status: int, title: str, detail: str) -> dict[str, Any]:
    return {
        "type": "https://mailchimp.com/developer/marketing/docs/errors/",
        "title": title,
        "status": status,
        "detail": detail,
        "instance": "",
    }


def _handler(fake: FakeMailchimp) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_GET(self) -> None:
            self._serve("GET")

        def do_POST(self) -> None:
            self._serve("POST")

        def do_PUT(self) -> None:
            self._serve("PUT")

        def _serve(self, method: str) -> None:
            url = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            if method == "POST" and fake.batch_delay_seconds:
                time.sleep(fake.batch_delay_seconds)  # outside the lock: other calls are answered meanwhile
            with fake.lock:
                fake.requests.append((method, url.path))
                status, body = self._answer(method, url.path, parse_qs(url.query), raw)
            self._json(status, body)

        def _answer(self, method: str, path: str, query: dict[str, list[str]], raw: bytes) -> tuple[int, Any]:
            if fake.fail_next:
                code = fake.fail_next.pop(0)
                return code, _problem(
                    code, "Too Many Requests" if code == 429 else "Internal Server Error", "try later"
                )
            if not self._authorised():
                return 401, _problem(
                    401,
                    "API Key Invalid",
                    "Your API key may be invalid, or you've attempted to access the wrong datacenter.",
                )
            if not path.startswith(PREFIX):
                return 404, _problem(404, "Resource Not Found", "The requested resource could not be found.")
            parts = path[len(PREFIX) :].strip("/").split("/")
            if parts == ["ping"] and method == "GET":
                return 200, {"health_status": "Everything's Chimpy!"}
            if len(parts) < 2 or parts[0] != "lists" or parts[1] != fake.list_id:
                return 404, _problem(404, "Resource Not Found", "The requested resource could not be found.")
            return self._list_call(method, parts[2:], query, raw)

        def _list_call(self, method: str, rest: list[str], query: dict[str, list[str]], raw: bytes) -> tuple[int, Any]:
            if not rest and method == "GET":
                count = sum(1 for m in fake.members.values() if m.status == "subscribed")
                return 200, {"id": fake.list_id, "name": fake.list_name, "stats": {"member_count": count}}
            if not rest and method == "POST":
                return self._batch(raw)
            if rest == ["members"] and method == "GET":
                count = min(int(query.get("count", ["10"])[0]), 1000)
                offset = int(query.get("offset", ["0"])[0])
                everyone = list(fake.members.values())
                return 200, {
                    "members": [m.wire() for m in everyone[offset : offset + count]],
                    "list_id": fake.list_id,
                    "total_items": len(everyone),
                }
            if len(rest) == 2 and rest[0] == "members" and method == "PUT":
                return self._put_member(rest[1], raw)
            return 405, _problem(405, "Method Not Allowed", "The requested method and resource are not compatible.")

        def _batch(self, raw: bytes) -> tuple[int, Any]:
            if fake.broken_after_batches is not None and len(fake.batches) >= fake.broken_after_batches:
                return 500, _problem(500, "Internal Server Error", "An unexpected internal error has occurred.")
            body = json.loads(raw or b"{}")
            members = body.get("members") or []
            if len(members) > MAX_BATCH:
                return 400, _problem(400, "Invalid Resource", "Batch is larger than 500 members.")
            created, updated, errors = [], [], []
            for item in members:
                email = str(item.get("email_address", "")).lower()
                if "@" not in email:
                    errors.append(
                        {
                            "email_address": email,
                            "error": f"{email} looks fake or invalid, please enter a real email address.",
                            "error_code": "ERROR_GENERIC",
                        }
                    )
                    continue
                existing = fake.members.get(email)
                if existing is not None and not body.get("update_existing"):
                    errors.append(
                        {
                            "email_address": email,
                            "error": f"{email} is already a list member.",
                            "error_code": "ERROR_CONTACT_EXISTS",
                        }
                    )
                    continue
                member = self._write(email, item)
                (updated if existing else created).append(member.wire())
            fake.batches.append([str(item.get("email_address", "")).lower() for item in members])
            return 200, {
                "new_members": created,
                "updated_members": updated,
                "errors": errors,
                "total_created": len(created),
                "total_updated": len(updated),
                "error_count": len(errors),
            }

        def _put_member(self, subscriber_hash: str, raw: bytes) -> tuple[int, Any]:
            item = json.loads(raw or b"{}")
            email = str(item.get("email_address", "")).lower()
            if hashlib.md5(email.encode(), usedforsecurity=False).hexdigest() != subscriber_hash:
                return 400, _problem(400, "Invalid Resource", "The subscriber hash does not match the email address.")
            return 200, self._write(email, {**item, "status": item.get("status_if_new") or item.get("status")}).wire()

        def _write(self, email: str, item: dict[str, Any]) -> FakeMember:
            fields = item.get("merge_fields") or {}
            member = fake.members.get(email) or FakeMember(email)
            member.status = str(item.get("status") or member.status)
            member.first_name = str(fields.get("FNAME", member.first_name))
            member.last_name = str(fields.get("LNAME", member.last_name))
            fake.members[email] = member
            return member

        def _authorised(self) -> bool:
            header = self.headers.get("Authorization", "")
            if not header.startswith("Basic "):
                return False
            try:
                _user, _, key = base64.b64decode(header[6:]).decode().partition(":")
            except ValueError:
                return False
            return key == fake.api_key

        def _json(self, status: int, body: Any) -> None:
            payload = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/problem+json" if status >= 400 else "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    return Handler


@contextmanager
def running_mailchimp() -> Iterator[FakeMailchimp]:
    server = http_server()
    fake = FakeMailchimp(server=server)
    server.RequestHandlerClass = _handler(fake)
    serve_in_background(server, "fake-mailchimp")
    try:
        yield fake
    finally:
        fake.close()
