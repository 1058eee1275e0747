"""Spec §5 "Creator": the website and the social links must be live. Each link is fetched once over
the link lookup's SSRF guard (app.tours.link_lookup.SafeFetcher: http(s) only, every resolved address
public, redirects re-vetted, short timeouts, a deadline for the whole fetch) and the outcome is kept
for a day in `creator_link_checks`, so sending a profile again or approving it does not fetch again.

A link "answers" when its last hop (after redirects) answers with a status below 400, or with 401,
403 or 429: those come from a live page that refuses robots (social networks do), which is what the
rule is about. A dead host, a refused address, a 404 or a 5xx is a 400 naming the field.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import httpx
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.core.db import get_sessionmaker, utcnow
from app.core.errors import AppError, field_error
from app.core.settings import get_settings
from app.creators.models import LinkCheck
from app.tours import link_lookup as lookup

CACHE_FOR = timedelta(days=1)
READ_TIMEOUT_SECONDS = 4.0
CONNECT_TIMEOUT_SECONDS = 3.0
DEADLINE_SECONDS = 6.0
# Answers of a live page that will not serve a robot.
REFUSES_ROBOTS = frozenset({401, 403, 429})
NOT_LIVE = "This link does not answer: {reason}"
MESSAGE_MAX = 300


class _Prober(lookup.SafeFetcher):
    """The lookup's fetcher, stopping at the status line: the body is never read."""

    def _read(
        self,
        response: httpx.Response,
        url: httpx.URL,
        accept: Sequence[str],
        max_bytes: int,
        deadline: lookup._Deadline,
    ) -> lookup.FetchedPage:
        status = response.status_code
        if status >= 400 and status not in REFUSES_ROBOTS:
            raise field_error("url", f"{lookup.NOT_REACHABLE} (it answered {status})")
        return lookup.FetchedPage(url=str(url), content_type="", charset=None, body=b"", truncated=False)


def _prober() -> _Prober:
    return _Prober(
        policy=lookup.AddressPolicy.from_settings(get_settings().discover_allowed_networks),
        read_timeout=READ_TIMEOUT_SECONDS,
        connect_timeout=CONNECT_TIMEOUT_SECONDS,
        deadline_seconds=DEADLINE_SECONDS,
    )


def _probe(url: str) -> str | None:
    """None when the link answers, else why not (as the lookup words it)."""
    try:
        _prober().fetch(url, accept=("*/*",), max_bytes=1)
    except AppError as exc:
        return exc.message
    return None


def check_link(url: str) -> str | None:
    """None when the link is live, else the reason (from the cache when checked within a day).

    The cache has its own short transactions, apart from the request's: a profile refused for
    another field still remembers what its links answered, and no database lock is held while a
    slow site is fetched."""
    sessions = get_sessionmaker()
    now = utcnow()
    with sessions() as db:
        cached = db.scalar(select(LinkCheck).where(LinkCheck.url == url))
        if cached is not None and _aware(cached.checked_at) > now - CACHE_FOR:
            return None if cached.live else cached.message or lookup.NOT_REACHABLE
    reason = _probe(url)
    message = reason[:MESSAGE_MAX] if reason else None
    try:
        with sessions.begin() as db:
            cached = db.scalar(select(LinkCheck).where(LinkCheck.url == url))
            if cached is None:
                db.add(LinkCheck(url=url, live=reason is None, checked_at=now, message=message))
            else:
                cached.live, cached.checked_at, cached.message = reason is None, now, message
    except IntegrityError:
        pass  # the same new link checked at the same moment elsewhere: that answer stands
    return reason


def dead_links(links: dict[str, str]) -> dict[str, str]:
    """The fields whose links do not answer, with a message naming the reason."""
    failures: dict[str, str] = {}
    for field, url in links.items():
        reason = check_link(url)
        if reason is not None:
            failures[field] = NOT_LIVE.format(reason=reason[0].lower() + reason[1:])
    return failures


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes for timezone-aware columns; they are UTC.
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
