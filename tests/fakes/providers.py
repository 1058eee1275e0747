"""A local fake of the two social sign-in providers, speaking their real wire formats over HTTP.

- Google: `GET /google/certs` serves a JWKS (with Cache-Control max-age, as Google does); tokens
  are RS256 ID tokens signed by the matching private key (`google_id_token`).
- Facebook: `GET /facebook/debug_token?input_token=..&access_token=APP_ID|SECRET` and
  `GET /facebook/me?fields=..&access_token=..&appsecret_proof=..` answer as the Graph API does,
  for tokens registered with `facebook_token`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa

from tests.fakes.server import http_server, serve_in_background, stop

GOOGLE_CLIENT_ID = "touratlas-test.apps.googleusercontent.com"
GOOGLE_ISSUER = "https://accounts.google.com"
FACEBOOK_APP_ID = "424242"
FACEBOOK_APP_SECRET = "fake-facebook-secret"


@dataclass
class FacebookUser:
    user_id: str
    email: str | None
    first_name: str
    last_name: str
    app_id: str = FACEBOOK_APP_ID
    valid: bool = True


@dataclass
class FakeProviders:
    server: ThreadingHTTPServer
    key_id: str = field(default_factory=lambda: secrets.token_hex(8))
    private_key: rsa.RSAPrivateKey = field(default_factory=lambda: rsa.generate_private_key(65537, 2048))
    facebook_tokens: dict[str, FacebookUser] = field(default_factory=dict)
    hits: Counter[str] = field(default_factory=Counter)

    @property
    def base_url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    def jwks(self) -> dict[str, Any]:
        public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.private_key.public_key()))
        return {"keys": [{**public, "kid": self.key_id, "use": "sig", "alg": "RS256"}]}

    def google_id_token(
        self,
        subject: str,
        email: str,
        *,
        first_name: str = "Grace",
        last_name: str = "Hopper",
        audience: str = GOOGLE_CLIENT_ID,
        issuer: str = GOOGLE_ISSUER,
        expires_in: int = 3600,
        email_verified: bool = True,
        key: rsa.RSAPrivateKey | None = None,
    ) -> str:
        now = int(time.time())
        claims = {
            "iss": issuer,
            "aud": audience,
            "sub": subject,
            "email": email,
            "email_verified": email_verified,
            "given_name": first_name,
            "family_name": last_name,
            "iat": now,
            "exp": now + expires_in,
        }
        return jwt.encode(claims, key or self.private_key, algorithm="RS256", headers={"kid": self.key_id})

    def facebook_token(self, user: FacebookUser) -> str:
        token = "EAAB" + secrets.token_urlsafe(24)
        self.facebook_tokens[token] = user
        return token

    def rotate_google_key(self) -> None:
        self.key_id = secrets.token_hex(8)
        self.private_key = rsa.generate_private_key(65537, 2048)

    def close(self) -> None:
        stop(self.server)


def _handler(fake: FakeProviders) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return  # quiet test output

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            query = {name: values[0] for name, values in parse_qs(parts.query).items()}
            fake.hits[parts.path] += 1
            if parts.path == "/google/certs":
                self._json(200, fake.jwks(), {"Cache-Control": "public, max-age=3600"})
            elif parts.path == "/facebook/debug_token":
                self._debug_token(query)
            elif parts.path == "/facebook/me":
                self._me(query)
            else:
                self._json(404, {"error": "not found"})

        def _debug_token(self, query: dict[str, str]) -> None:
            if query.get("access_token") != f"{FACEBOOK_APP_ID}|{FACEBOOK_APP_SECRET}":
                self._graph_error(400, "Invalid OAuth access token signature.")
                return
            user = fake.facebook_tokens.get(query.get("input_token", ""))
            if user is None:
                self._json(200, {"data": {"is_valid": False, "error": {"message": "Malformed access token"}}})
                return
            data = {"app_id": user.app_id, "type": "USER", "is_valid": user.valid, "user_id": user.user_id}
            self._json(200, {"data": data})

        def _me(self, query: dict[str, str]) -> None:
            token = query.get("access_token", "")
            user = fake.facebook_tokens.get(token)
            expected_proof = hmac.new(FACEBOOK_APP_SECRET.encode(), token.encode(), hashlib.sha256).hexdigest()
            if user is None or not user.valid:
                self._graph_error(400, "Error validating access token")
            elif query.get("appsecret_proof") != expected_proof:
                self._graph_error(400, "Invalid appsecret_proof provided in the API argument")
            else:
                profile = {"id": user.user_id, "first_name": user.first_name, "last_name": user.last_name}
                if user.email:
                    profile["email"] = user.email
                self._json(200, profile)

        def _graph_error(self, status: int, message: str) -> None:
            self._json(status, {"error": {"message": message, "type": "OAuthException", "code": 190}})

        def _json(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
            payload = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)

    return Handler


def start_fake_providers() -> FakeProviders:
    server = http_server()
    fake = FakeProviders(server=server)
    server.RequestHandlerClass = _handler(fake)
    serve_in_background(server, "fake-providers")
    return fake
