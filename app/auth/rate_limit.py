"""Abuse limits for sign-in, sign-up and password reset, counted per client IP and per account.

Counts live in memory for one process, or in Redis when REDIS_URL is set so every API process
shares them. A moving window means a burst cannot straddle two fixed windows to double its allowance.
"""

from __future__ import annotations

import math
import time
from functools import lru_cache

from fastapi import Request
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from app.core.errors import TooManyRequests
from app.core.settings import get_settings


class RateLimited(TooManyRequests):
    def __init__(self, retry_after_seconds: int) -> None:
        super().__init__(f"Too many attempts. Please try again in {retry_after_seconds} seconds.")
        self.retry_after_seconds = retry_after_seconds


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
    return request.client.host if request.client else "unknown"


def _hit(limiter: MovingWindowRateLimiter, notation: str, action: str, scope: str, key: str) -> None:
    item = _limit(notation)
    if limiter.hit(item, action, scope, key):
        return
    reset_at = limiter.get_window_stats(item, action, scope, key).reset_time
    raise RateLimited(max(1, math.ceil(reset_at - time.time())))


def check_rate_limit(action: str, *, ip: str, account: str | None = None) -> None:
    """Count one attempt at `action` (e.g. "sign-in") from this IP and, when known, for this account
    (an email, lowercased); raises 429 once either is over its limit."""
    settings = get_settings()
    limiter = _limiter()
    _hit(limiter, settings.auth_rate_limit_per_ip, action, "ip", ip)
    if account:
        _hit(limiter, settings.auth_rate_limit_per_account, action, "account", account.strip().lower())


def reset_rate_limits() -> None:
    """Forget every count (tests, and an operator clearing a false alarm)."""
    _storage(get_settings().redis_url).reset()
