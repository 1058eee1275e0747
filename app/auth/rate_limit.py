"""Abuse limits for sign-in, sign-up, password reset, the link lookup and contact messages.

Sign-in has two limits with two jobs (README "Abuse limits"):
- failed sign-ins per account (SIGN_IN_FAILURES_PER_ACCOUNT) protect the account against guessing,
  from however many addresses the guesses come;
- attempts per client IP (AUTH_RATE_LIMIT_PER_IP) are a looser flood guard against one address trying
  many accounts. An attempt refused because its account is locked is not counted there, so somebody
  hammering one locked account does not lock everybody else behind the same address out.
The other actions count every attempt per IP and, when known, per account (AUTH_RATE_LIMIT_PER_ACCOUNT).

Counts live in memory for one process, or in Redis when REDIS_URL is set so every API process
shares them. A moving window means a burst cannot straddle two fixed windows to double its allowance.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from fastapi import Request
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from app.core.errors import TooManyRequests
from app.core.settings import get_settings

SIGN_IN_FAILURES = "sign-in-failures"


class RateLimited(TooManyRequests):
    def __init__(self, retry_after_seconds: int) -> None:
        wait = max(1, retry_after_seconds)
        super().__init__(f"Too many attempts. Please try again in {_duration(wait)}.", retry_after_seconds=wait)


def _duration(seconds: int) -> str:
    if seconds < 120:
        return f"{seconds} seconds"
    return f"{math.ceil(seconds / 60)} minutes"


@lru_cache
def _storage(redis_url: str) -> Storage:
    if redis_url:
        storage = storage_from_string(redis_url)
        assert isinstance(storage, Storage)  # a redis:// URL gives the synchronous storage
        return storage
    return MemoryStorage()


def _limiter() -> MovingWindowRateLimiter:
    return MovingWindowRateLimiter(_storage(get_settings().redis_url))


@lru_cache(maxsize=32)
def _limit(notation: str) -> RateLimitItem:
    return parse(notation)


def client_ip(request: Request) -> str:
    """The TCP peer, or the address a trusted proxy (TRUSTED_PROXIES) reported for it: the server
    rewrites the peer from X-Forwarded-For only for those proxies (app.cli serve)."""
    return request.client.host if request.client else "unknown"


def _refusal(limiter: MovingWindowRateLimiter, item: RateLimitItem, *identifiers: str) -> RateLimited:
    """429 that says when the window frees its oldest slot: the moment one more attempt is let through."""
    reset_at = limiter.get_window_stats(item, *identifiers).reset_time
    return RateLimited(math.ceil(reset_at - time.time()))


def _hit(limiter: MovingWindowRateLimiter, notation: str, *identifiers: str) -> None:
    item = _limit(notation)
    if not limiter.hit(item, *identifiers):
        raise _refusal(limiter, item, *identifiers)


def _account_key(account: str) -> str:
    return account.strip().lower()


def check_rate_limit(action: str, *, ip: str, account: str | None = None) -> None:
    """Count one attempt at `action` (e.g. "sign-up") from this IP and, when known, for this account
    (an email, lowercased); raises 429 once either is over its limit."""
    settings = get_settings()
    limiter = _limiter()
    _hit(limiter, settings.auth_rate_limit_per_ip, action, "ip", ip)
    if account:
        _hit(limiter, settings.auth_rate_limit_per_account, action, "account", _account_key(account))


def check_limit(action: str, notation: str, *identifiers: str) -> None:
    """Count one attempt at `action` under its own limit (e.g. "5/hour") for these identifiers (a
    sender's account, address or IP); raises 429 once it is over."""
    _hit(_limiter(), notation, action, *identifiers)


@contextmanager
def sign_in_attempt(*, ip: str, account: str | None) -> Iterator[None]:
    """Guard one sign-in: the body checks the credentials and raises when they are wrong.

    The attempt takes a failure slot of its account before the password is checked (so parallel
    guesses cannot all slip past one check), and gives the slots back when it succeeds: only failed
    sign-ins lock an account. The IP flood guard counts only attempts that reach the password check.
    """
    settings = get_settings()
    limiter = _limiter()
    per_ip = _limit(settings.auth_rate_limit_per_ip)
    if not limiter.test(per_ip, "sign-in", "ip", ip):
        raise _refusal(limiter, per_ip, "sign-in", "ip", ip)
    if account:
        _hit(limiter, settings.sign_in_failures_per_account, SIGN_IN_FAILURES, _account_key(account))
    _hit(limiter, settings.auth_rate_limit_per_ip, "sign-in", "ip", ip)
    yield
    if account:
        limiter.clear(_limit(settings.sign_in_failures_per_account), SIGN_IN_FAILURES, _account_key(account))


def reset_rate_limits() -> None:
    """Forget every count (tests, and an operator clearing a false alarm)."""
    _storage(get_settings().redis_url).reset()
