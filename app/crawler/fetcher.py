"""The crawler's HTTP side: every request goes through the link lookup's SSRF guard
(app.tours.link_lookup.SafeFetcher: http(s) only, every resolved address public unless inside
DISCOVER_ALLOWED_NETWORKS, the connection pinned to the vetted address, every redirect hop vetted
again, timeouts, a deadline and a size cap), extended with what a crawler needs:

- the answer's status comes back instead of an error, so the crawler decides what to retry;
- conditional requests (If-None-Match / If-Modified-Since) and the validators of the answer;
- one pooled client per fetcher, so a crawl reuses its keep-alive connections;
- a per-host throttle (minimum interval between requests, and at most N at once).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import httpx

from app.core.errors import AppError, field_error
from app.core.settings import APP_VERSION, get_settings
from app.tours import link_lookup as lookup

# robots.txt groups are matched on this token.
ROBOTS_AGENT = "TourAtlasBot"
USER_AGENT = f"{ROBOTS_AGENT}/{APP_VERSION} (+https://touratlas.local/crawler)"
SITEMAP_TYPES = ("application/xml", "text/xml", "application/gzip", "application/x-gzip", "application/octet-stream")
ROBOTS_TYPES = ("text/plain",)
MAX_SITEMAP_BYTES = 50 * 1024 * 1024  # the sitemaps protocol's own cap on an uncompressed file
MAX_ROBOTS_BYTES = 500 * 1024  # what Google reads of a robots.txt
# Answers worth asking again later: the server is busy or broken for now.
RETRYABLE_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})


@dataclass(frozen=True, slots=True)
class Validators:
    etag: str | None = None
    last_modified: str | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    url: str  # after redirects
    status: int
    content_type: str
    charset: str | None
    body: bytes
    validators: Validators
    retry_after: float | None = None

    @property
    def not_modified(self) -> bool:
        return self.status == 304


class FetchFailed(Exception):
    """No answer: the guard refused the address, the host is unknown or unreachable, or too slow.
    `retryable` says whether trying again later may help."""

    def __init__(self, message: str, *, retryable: bool) -> None:
        super().__init__(message)
        self.message = message
        self.retryable = retryable


_PERMANENT = (lookup.NOT_ALLOWED, lookup.NOT_HTTP, lookup.TOO_MANY_REDIRECTS, lookup.NOT_FOUND_HOST)


class GuardedClient(lookup.SafeFetcher):
    """The lookup's guarded fetcher with a pooled client, conditional headers and raw statuses."""

    def __init__(
        self,
        *,
        policy: lookup.AddressPolicy,
        resolver: lookup.Resolver = lookup.system_resolver,
        pool_size: int = 8,
    ) -> None:
        super().__init__(policy=policy, resolver=resolver)
        timeout = httpx.Timeout(self.read_timeout, connect=self.connect_timeout)
        limits = httpx.Limits(max_connections=pool_size, max_keepalive_connections=pool_size)
        # trust_env off: a proxy from the environment would connect by name, not to the vetted address.
        self._client = httpx.Client(timeout=timeout, follow_redirects=False, trust_env=False, limits=limits)

    def close(self) -> None:
        self._client.close()

    def get(
        self,
        url: str,
        *,
        accept: Sequence[str],
        max_bytes: int,
        validators: Validators | None = None,
    ) -> Answer:
        try:
            return self._get(url, accept, max_bytes, validators)
        except AppError as exc:
            raise FetchFailed(exc.message, retryable=not exc.message.startswith(_PERMANENT)) from exc

    def _get(self, url: str, accept: Sequence[str], max_bytes: int, validators: Validators | None) -> Answer:
        deadline = lookup._Deadline(self.deadline_seconds)
        current = lookup.parse_link(url)
        for _hop in range(self.max_redirects + 1):
            target = self._vet(current)
            deadline.check()
            with self._translate_errors(), self._request(target, accept, validators) as response:
                location = response.headers.get("location")
                if response.status_code in lookup.REDIRECT_STATUSES and location:
                    current = lookup.parse_link(str(current.join(location)))
                    continue
                return self._answer(response, current, max_bytes, deadline)
        raise field_error("url", lookup.TOO_MANY_REDIRECTS)

    @contextmanager
    def _request(
        self, target: lookup._Target, accept: Sequence[str], validators: Validators | None
    ) -> Iterator[httpx.Response]:
        headers = {
            "Host": target.host_header,
            "User-Agent": USER_AGENT,
            "Accept": ", ".join([*accept, "*/*;q=0.1"]),
            "Accept-Encoding": "gzip, deflate",
        }
        if validators and validators.etag:
            headers["If-None-Match"] = validators.etag
        if validators and validators.last_modified:
            headers["If-Modified-Since"] = validators.last_modified
        with self._client.stream("GET", target.pinned_url, headers=headers, extensions=target.extensions) as response:
            yield response

    def _answer(self, response: httpx.Response, url: httpx.URL, max_bytes: int, deadline: lookup._Deadline) -> Answer:
        content_type, charset = lookup._content_type(response.headers.get("content-type", ""))
        body = b""
        if response.status_code == 200:
            decoder = lookup._BoundedDecoder(response.headers.get("content-encoding", ""), max_bytes)
            for chunk in response.iter_raw():
                deadline.check()
                if decoder.feed(chunk):
                    break
            body = decoder.body
        return Answer(
            url=str(url),
            status=response.status_code,
            content_type=content_type,
            charset=charset,
            body=body,
            validators=Validators(response.headers.get("etag"), response.headers.get("last-modified")),
            retry_after=_retry_after(response.headers.get("retry-after")),
        )


def _retry_after(value: str | None) -> float | None:
    if value and value.strip().isdigit():
        return float(value.strip())
    return None


def guarded_client(pool_size: int) -> GuardedClient:
    """The crawler's client under the deployment's address policy (tests allow 127.0.0.1 there)."""
    policy = lookup.AddressPolicy.from_settings(get_settings().discover_allowed_networks)
    return GuardedClient(policy=policy, pool_size=pool_size)


@dataclass
class _HostSlot:
    semaphore: threading.Semaphore
    lock: threading.Lock = field(default_factory=threading.Lock)
    next_start: float = 0.0


class HostThrottle:
    """Politeness per host: requests start at least `interval` seconds apart (0: no spacing) and at
    most `concurrency` run at once. Starts are handed out one by one under a lock, so N threads asking
    together are spaced evenly instead of bursting."""

    def __init__(self, *, interval: float, concurrency: int) -> None:
        self.interval = interval
        self.concurrency = concurrency
        self._hosts: dict[str, _HostSlot] = {}
        self._lock = threading.Lock()
        self._intervals: dict[str, float] = {}

    def set_host_interval(self, host: str, interval: float) -> None:
        """A longer interval for one host (its robots.txt Crawl-delay)."""
        with self._lock:
            self._intervals[host] = max(interval, self.interval)

    def _slot(self, host: str) -> _HostSlot:
        with self._lock:
            slot = self._hosts.get(host)
            if slot is None:
                slot = self._hosts[host] = _HostSlot(threading.Semaphore(self.concurrency))
            return slot

    @contextmanager
    def turn(self, host: str) -> Iterator[None]:
        slot = self._slot(host)
        interval = self._intervals.get(host, self.interval)
        with slot.semaphore:
            if interval > 0:
                # The lock is held through the wait, and the next start counts from when this one
                # really started: a thread that woke late (a busy machine) never lets the next one
                # start closer than the interval.
                with slot.lock:
                    time.sleep(max(0.0, slot.next_start - time.monotonic()))
                    slot.next_start = time.monotonic() + interval
            yield
