"""Social sign-in (spec §3 auth_system): the server verifies what the browser got from the provider.

- Google: an OpenID Connect ID token, an RS256 JWT checked against Google's published keys (JWKS,
  fetched over httpx and cached as long as Google's Cache-Control allows), the client id
  (audience), the issuer and the expiry.
- Facebook: a user access token, checked with the Graph API's debug_token under our app's
  credentials (valid, issued to our app), then read with /me (id, email, names) signed by
  appsecret_proof.

Either way the result is a `SocialIdentity`; nothing the browser claims about itself is trusted.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import threading
import time
from dataclasses import dataclass
from typing import Any

import httpx
import jwt

from app.core.errors import AppError, BadRequest
from app.core.settings import get_settings
from app.users.models import AuthSystem

GOOGLE_NOT_CONFIGURED = "GoogleAuth not initialized"
GOOGLE_FAILED = "Google sign-in failed"
FACEBOOK_FAILED = "fbError"  # spec §8: the message the client shows for any Facebook failure
PROVIDER_UNREACHABLE = "The sign-in provider could not be reached. Please try again."
DEFAULT_JWKS_TTL_SECONDS = 3600
# An unknown key id triggers a refetch (the provider rotated keys), but at most this often, so a
# stream of forged tokens cannot make us hammer the provider.
MIN_REFETCH_INTERVAL_SECONDS = 60
CLOCK_SKEW_SECONDS = 60


@dataclass(frozen=True)
class SocialIdentity:
    auth_system: AuthSystem
    subject: str
    email: str | None
    first_name: str
    last_name: str
    picture: str | None = None


class ProviderUnavailable(AppError):
    status_code = 502


def _http_client() -> httpx.Client:
    return httpx.Client(timeout=get_settings().social_http_timeout_seconds, follow_redirects=False)


# ----------------------------------------------------------------------------------------- Google


class JwksCache:
    """Key sets by URL, kept until their max-age runs out."""

    def __init__(self) -> None:
        self._entries: dict[str, tuple[jwt.PyJWKSet, float, float]] = {}
        self._lock = threading.Lock()
        self.fetches = 0

    def key_for(self, url: str, key_id: str) -> jwt.PyJWK | None:
        keys = self._fresh_keys(url)
        key = _find_key(keys, key_id)
        if key is None and self._may_refetch(url):
            key = _find_key(self._fetch(url), key_id)
        return key

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.fetches = 0

    def _fresh_keys(self, url: str) -> jwt.PyJWKSet:
        with self._lock:
            entry = self._entries.get(url)
        if entry is not None and entry[1] > time.monotonic():
            return entry[0]
        return self._fetch(url)

    def _may_refetch(self, url: str) -> bool:
        with self._lock:
            entry = self._entries.get(url)
        return entry is None or time.monotonic() - entry[2] >= MIN_REFETCH_INTERVAL_SECONDS

    def _fetch(self, url: str) -> jwt.PyJWKSet:
        try:
            with _http_client() as client:
                response = client.get(url)
                response.raise_for_status()
                keys = jwt.PyJWKSet.from_dict(response.json())
        except (httpx.HTTPError, ValueError, jwt.PyJWTError) as exc:
            raise ProviderUnavailable(PROVIDER_UNREACHABLE) from exc
        now = time.monotonic()
        with self._lock:
            self._entries[url] = (keys, now + _max_age(response.headers.get("cache-control", "")), now)
            self.fetches += 1
        return keys


def _find_key(keys: jwt.PyJWKSet, key_id: str) -> jwt.PyJWK | None:
    return next((key for key in keys.keys if key.key_id == key_id), None)


def _max_age(cache_control: str) -> int:
    match = re.search(r"max-age=(\d+)", cache_control)
    return int(match.group(1)) if match else DEFAULT_JWKS_TTL_SECONDS


jwks_cache = JwksCache()


def _google_failure(reason: str) -> BadRequest:
    return BadRequest(GOOGLE_FAILED, fields={"provider_token": reason})


def verify_google_id_token(id_token: str) -> SocialIdentity:
    settings = get_settings()
    if not settings.google_client_id:
        raise BadRequest(GOOGLE_NOT_CONFIGURED)
    try:
        key_id = jwt.get_unverified_header(id_token).get("kid")
    except jwt.PyJWTError as exc:
        raise _google_failure("The Google token is malformed") from exc
    key = jwks_cache.key_for(settings.google_jwks_url, str(key_id)) if key_id else None
    if key is None:
        raise _google_failure("The Google token is signed with an unknown key")
    # Google issues both spellings of its issuer.
    issuers = [settings.google_issuer, settings.google_issuer.removeprefix("https://")]
    try:
        claims: dict[str, Any] = jwt.decode(
            id_token,
            key.key,
            algorithms=["RS256"],
            audience=settings.google_client_id,
            issuer=issuers,
            leeway=CLOCK_SKEW_SECONDS,
            options={"require": ["exp", "iat", "iss", "aud", "sub"]},
        )
    except jwt.PyJWTError as exc:
        raise _google_failure(str(exc)) from exc
    # An unverified address could belong to someone else: it must not open or claim an account.
    if not claims.get("email") or claims.get("email_verified") is not True:
        raise _google_failure("The Google account has no verified email")
    return SocialIdentity(
        auth_system=AuthSystem.google,
        subject=str(claims["sub"]),
        email=str(claims["email"]),
        first_name=str(claims.get("given_name") or ""),
        last_name=str(claims.get("family_name") or ""),
        picture=claims.get("picture"),
    )


# --------------------------------------------------------------------------------------- Facebook


def _facebook_failure(reason: str) -> BadRequest:
    return BadRequest(FACEBOOK_FAILED, fields={"provider_token": reason})


def _graph_get(client: httpx.Client, path: str, params: dict[str, str]) -> dict[str, Any]:
    base = get_settings().facebook_graph_url.rstrip("/")
    try:
        response = client.get(f"{base}/{path}", params=params)
    except httpx.HTTPError as exc:
        raise ProviderUnavailable(PROVIDER_UNREACHABLE) from exc
    if response.status_code >= 500:
        raise ProviderUnavailable(PROVIDER_UNREACHABLE)
    try:
        body: dict[str, Any] = response.json()
    except ValueError as exc:
        raise ProviderUnavailable(PROVIDER_UNREACHABLE) from exc
    if response.status_code != 200 or "error" in body:
        raise _facebook_failure(str(body.get("error", {}).get("message", "The Facebook token was refused")))
    return body


def verify_facebook_access_token(access_token: str) -> SocialIdentity:
    settings = get_settings()
    if not settings.facebook_app_id or not settings.facebook_app_secret:
        raise _facebook_failure("Facebook sign-in is not configured")
    app_token = f"{settings.facebook_app_id}|{settings.facebook_app_secret}"
    proof = hmac.new(settings.facebook_app_secret.encode(), access_token.encode(), hashlib.sha256).hexdigest()
    with _http_client() as client:
        debug = _graph_get(client, "debug_token", {"input_token": access_token, "access_token": app_token})
        data = debug.get("data", {})
        # A token issued to another app must not sign anyone in here (the "confused deputy" attack).
        if not data.get("is_valid") or str(data.get("app_id")) != settings.facebook_app_id:
            raise _facebook_failure("The Facebook token is not valid for this app")
        profile = _graph_get(
            client,
            "me",
            {"fields": "id,email,first_name,last_name", "access_token": access_token, "appsecret_proof": proof},
        )
    if str(profile.get("id")) != str(data.get("user_id")):
        raise _facebook_failure("The Facebook token does not match its user")
    return SocialIdentity(
        auth_system=AuthSystem.facebook,
        subject=str(profile["id"]),
        email=profile.get("email"),
        first_name=str(profile.get("first_name") or ""),
        last_name=str(profile.get("last_name") or ""),
    )


def verify_social_token(auth_system: AuthSystem, provider_token: str | None) -> SocialIdentity:
    if not provider_token:
        message = FACEBOOK_FAILED if auth_system == AuthSystem.facebook else GOOGLE_FAILED
        raise BadRequest(message, fields={"provider_token": "The provider token is required"})
    if auth_system == AuthSystem.google:
        return verify_google_id_token(provider_token)
    if auth_system == AuthSystem.facebook:
        return verify_facebook_access_token(provider_token)
    raise BadRequest("Unknown sign-in provider", fields={"auth_system": "Unknown sign-in provider"})
