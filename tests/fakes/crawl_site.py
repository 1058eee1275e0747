"""A local fake tour provider for the crawler: a threaded HTTP/1.1 (keep-alive) server on 127.0.0.1
with robots.txt, a sitemap index whose children are one gzipped and one plain sitemap, a listing page,
and `tours` generated tour pages with OpenGraph titles and ETags (If-None-Match answers 304).

The crawler refuses 127.0.0.1 by default: tests allow it with DISCOVER_ALLOWED_NETWORKS=127.0.0.1/32
(the settings the link lookup's tests use), and only that address: 127.0.0.2 stays refused.

Paths:
- /robots.txt           disallows /private/ for every robot; lists /sitemap_index.xml
- /sitemap_index.xml    → /sitemaps/tours-1.xml.gz (gzip, first half) and /sitemaps/tours-2.xml (rest)
- /tours/<n>            a tour page (n < tours); /tours/<n>/ and www-less spellings are the same tour
- /list                 links to every tour twice (duplicates), to /private/secret and to the extras
- /private/secret       a tour page robots.txt forbids
- /tours/flaky          500 for the first `flaky_failures` requests, then a tour page
- /tours/slow           a tour page after `slow_seconds`
- /tours/to-loopback    302 to http://127.0.0.2:<port>/tours/0 (refused by the guard)
- /images/<name>.jpg    every tour's og:image, a small JPEG (approving a crawled tour stores it)

Tours with an even number give their place too (og:latitude / og:longitude, in Paris).
"""

from __future__ import annotations

import gzip
import io
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from PIL import Image, ImageDraw

from tests.fakes.server import http_server, serve_in_background, stop

EXTRAS = ("/tours/flaky", "/tours/slow", "/tours/to-loopback")


@dataclass
class CrawlSite:
    tours: int = 20
    flaky_failures: int = 2
    slow_seconds: float = 1.0
    with_extras: bool = True
    hits: Counter[str] = field(default_factory=Counter)
    started: list[float] = field(default_factory=list)  # monotonic start time of every tour request
    server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        return self.base_url + path

    @property
    def tour_pattern(self) -> str:
        return rf"^http://127\.0\.0\.1:{self.port}/(tours|private)/"

    def note(self, path: str) -> None:
        with self._lock:
            self.hits[path] += 1
            if path.startswith("/tours/"):
                self.started.append(time.monotonic())

    # ------------------------------------------------------------------ content

    def robots(self) -> bytes:
        return f"User-agent: *\nDisallow: /private/\n\nSitemap: {self.url('/sitemap_index.xml')}\n".encode()

    def sitemap_index(self) -> bytes:
        children = "".join(
            f"<sitemap><loc>{self.url(path)}</loc></sitemap>"
            for path in ("/sitemaps/tours-1.xml.gz", "/sitemaps/tours-2.xml")
        )
        return (
            '<?xml version="1.0" encoding="UTF-8"?>'
            f'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{children}</sitemapindex>'
        ).encode()

    def sitemap(self, part: int) -> bytes:
        half = self.tours // 2
        numbers = range(0, half) if part == 1 else range(half, self.tours)
        # The second part repeats the first tour, spelled with a trailing slash: a duplicate.
        links = [self.url(f"/tours/{n}") for n in numbers]
        if part == 2 and self.tours:
            links.append(self.url("/tours/0/"))
        if part == 2 and self.with_extras:
            links.extend(self.url(path) for path in EXTRAS)
        urls = "".join(f"<url><loc>{link}</loc></url>" for link in links)
        return (
            '<?xml version="1.0" encoding="UTF-8"?>'
            f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>'
        ).encode()

    def listing(self) -> bytes:
        anchors = "".join(
            f'<a href="/tours/{n}">Tour {n}</a><a href="/tours/{n}#top">again</a>' for n in range(self.tours)
        )
        extras = "".join(f'<a href="{path}">x</a>' for path in EXTRAS) if self.with_extras else ""
        return f'<html><body>{anchors}{extras}<a href="/private/secret">s</a></body></html>'.encode()


# Where the even-numbered tours are (Paris, a little apart).
PLACE = (48.8566, 2.3522)


def place_of(name: str) -> tuple[float, float] | None:
    number = name.rsplit(" ", 1)[-1]
    if not number.isdigit() or int(number) % 2:
        return None
    return (round(PLACE[0] + int(number) * 0.001, 6), PLACE[1])


def tour_page(name: str) -> bytes:
    place = place_of(name)
    geo = (
        f'<meta property="og:latitude" content="{place[0]}"><meta property="og:longitude" content="{place[1]}">'
        if place
        else ""
    )
    return (
        f'<html><head><title>{name}</title><meta property="og:title" content="{name}">'
        f'<meta property="og:description" content="A virtual tour of {name}">'
        f'<meta property="og:image" content="/images/{name.replace(" ", "-")}.jpg">{geo}</head>'
        f'<body><a href="/list">all tours</a></body></html>'
    ).encode()


@cache
def picture() -> bytes:
    """A tour's preview picture: 900x600, as providers' previews are."""
    image = Image.new("RGB", (900, 600), (40, 96, 140))
    ImageDraw.Draw(image).rectangle((300, 200, 600, 400), fill=(240, 190, 70))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=80)
    return buffer.getvalue()


def _handler(site: CrawlSite) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive: the crawler's pooled client reuses connections
        # TCP_NODELAY, as production servers set it: http.server writes the headers and the body
        # separately, and on a kept-alive connection the second small write waited for the client's
        # delayed ACK (Nagle), a 40 ms stall per page that measured the fake site, not the crawler.
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: object) -> None:
            return

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            site.note(path)
            if path == "/robots.txt":
                return self._send(200, site.robots(), "text/plain")
            if path == "/sitemap_index.xml":
                return self._send(200, site.sitemap_index(), "application/xml")
            if path == "/sitemaps/tours-1.xml.gz":
                return self._send(200, gzip.compress(site.sitemap(1)), "application/gzip")
            if path == "/sitemaps/tours-2.xml":
                return self._send(200, site.sitemap(2), "application/xml")
            if path == "/list":
                return self._send(200, site.listing(), "text/html; charset=utf-8")
            if path.startswith("/images/") and path.endswith(".jpg"):
                return self._send(200, picture(), "image/jpeg")
            return self._tour(path.rstrip("/"))

        def _tour(self, path: str) -> None:
            if path == "/tours/flaky" and site.hits[path] <= site.flaky_failures:
                return self._send(500, b"busy", "text/plain")
            if path == "/tours/slow":
                time.sleep(site.slow_seconds)
            if path == "/tours/to-loopback":
                self.send_response(302)
                self.send_header("Location", f"http://127.0.0.2:{site.port}/tours/0")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            name = path.rsplit("/", 1)[-1]
            known = path in ("/private/secret", *EXTRAS) or (name.isdigit() and int(name) < site.tours)
            if not path.startswith(("/tours/", "/private/")) or not known:
                return self._send(404, b"not found", "text/plain")
            etag = f'"{name}-v1"'
            if self.headers.get("If-None-Match") == etag:
                site.note("304")
                return self._send(304, b"", "text/html", etag=etag)
            return self._send(200, tour_page(f"Tour {name}"), "text/html; charset=utf-8", etag=etag)

        def _send(self, status: int, body: bytes, content_type: str, *, etag: str | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            if etag:
                self.send_header("ETag", etag)
            self.end_headers()
            if status != 304:
                self.wfile.write(body)

    return Handler


@contextmanager
def running_crawl_site(**options: object) -> Iterator[CrawlSite]:
    site = CrawlSite(**options)  # type: ignore[arg-type]
    server = http_server()
    server.RequestHandlerClass = _handler(site)
    site.server = server
    serve_in_background(server, "crawl-site")
    try:
        yield site
    finally:
        stop(server)


def serve_forever(tours: int, port_out: object) -> None:
    """A separate process's entry (the benchmark): serve and report the port through a queue."""
    site = CrawlSite(tours=tours, with_extras=False)
    server = http_server()
    server.RequestHandlerClass = _handler(site)
    site.server = server
    port_out.put(site.port)  # type: ignore[attr-defined]
    server.serve_forever()
