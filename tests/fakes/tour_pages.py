"""A local fake tour provider: a small threaded HTTP server serving provider-like pages for the link
lookup (GET /v2/virtualtours/discover) and for end-to-end tests that add a tour through the form.

It listens on 127.0.0.1, which the lookup refuses by default: point DISCOVER_ALLOWED_NETWORKS at
127.0.0.1/32 (settings) to let the server fetch from it.

    with running_tour_pages() as pages:
        pages.url("/tours/louvre")        # OpenGraph + JSON-LD museum page, in Paris
        pages.link_pattern                 # a host link pattern matching pages.url("/tours/<id>")
        pages.add("/tours/mine", html)     # serve a page of your own

Built-in paths (see `TourPages` for the details):
- /tours/louvre        OpenGraph, Twitter and JSON-LD (Museum with geo + PostalAddress in Paris), oEmbed link
- /tours/krakow        JSON-LD PostalAddress only (Kraków, Poland), relative og:image
- /tours/geo-meta      og:latitude/og:longitude (Barcelona) and a Latin-1 page declared in its header
- /tours/oembed-only   only a <title> and an oEmbed link; /oembed answers with title and thumbnail
- /tours/no-metadata   a page with nothing to preview
- /redirect?to=URL     302 to URL;  /redirect-private: 302 to http://10.0.0.1/;  /redirect-loop: forever
- /huge                a page whose head has OpenGraph, then HUGE_PAGE_BYTES of padding
- /gzip-bomb           a gzip-encoded page that inflates to 64 MB
- /slow                headers after SLOW_SECONDS;  /drip: headers at once, then a byte every 0.2 s
- /files/tour.pdf      a PDF (not a page);  /missing: 404
- /images/<name>.jpg   a real small JPEG (preview images of the pages)
"""

from __future__ import annotations

import gzip
import io
import json
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from PIL import Image

from tests.fakes.server import http_server, serve_in_background, stop

HUGE_PAGE_BYTES = 8 * 1024 * 1024
SLOW_SECONDS = 3.0
DRIP_SECONDS = 30.0
LOUVRE = {"latitude": 48.8606, "longitude": 2.3376}  # the gazetteer resolves it to Paris
BARCELONA = {"latitude": 41.4036, "longitude": 2.1744}  # Sagrada Família


@dataclass(frozen=True)
class Page:
    body: bytes
    content_type: str = "text/html; charset=utf-8"
    status: int = 200
    headers: tuple[tuple[str, str], ...] = ()


@dataclass
class TourPages:
    server: ThreadingHTTPServer
    pages: dict[str, Page] = field(default_factory=dict)
    hits: Counter[str] = field(default_factory=Counter)
    host_headers: dict[str, str] = field(default_factory=dict)  # path → the Host header of its last request
    bytes_sent: Counter[str] = field(default_factory=Counter)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def base_url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])

    @property
    def link_pattern(self) -> str:
        """A host link pattern (vendors.link_pattern) that this server's /tours/<id> links match."""
        return rf"^{re.escape(self.base_url)}/tours/(?P<id>[A-Za-z0-9_-]+)/?$"

    def url(self, path: str) -> str:
        return self.base_url + path

    def add(self, path: str, html: str | bytes, *, content_type: str = "text/html; charset=utf-8") -> str:
        """Serve `html` at `path` (replacing what was there); returns its URL."""
        body = html.encode("utf-8") if isinstance(html, str) else html
        self.pages[path] = Page(body=body, content_type=content_type)
        return self.url(path)

    def record_hit(self, path: str, host: str) -> None:
        # Counted before the answer goes out: a client may act on the answer before this thread
        # runs again, and a test reading hits then must already see this one.
        with self._lock:
            self.hits[path] += 1
            self.host_headers[path] = host

    def record_sent(self, path: str, sent: int) -> None:
        with self._lock:
            self.bytes_sent[path] += sent

    def close(self) -> None:
        stop(self.server)


def tour_page(
    *,
    title: str,
    description: str,
    image: str | None = None,
    json_ld: dict[str, Any] | None = None,
    extra_head: str = "",
) -> str:
    """A provider-like tour page: OpenGraph and Twitter cards, optionally JSON-LD."""
    image_tags = (
        f'<meta property="og:image" content="{image}"><meta name="twitter:image" content="{image}">' if image else ""
    )
    ld = f'<script type="application/ld+json">{json.dumps(json_ld)}</script>' if json_ld else ""
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>{title} | FakeTours</title>"
        f'<meta property="og:type" content="website"><meta property="og:title" content="{title}">'
        f'<meta property="og:description" content="{description}">'
        f'<meta name="twitter:card" content="summary_large_image">{image_tags}{ld}{extra_head}'
        f"</head><body><h1>{title}</h1><div id='player'>360° player</div></body></html>"
    )


def _builtin_pages(base: str) -> dict[str, Page]:
    louvre_ld = {
        "@context": "https://schema.org",
        "@graph": [
            {
                "@type": ["Museum", "TouristAttraction"],
                "name": "Louvre Museum",
                "description": "The world's most-visited museum.",
                "image": {"@type": "ImageObject", "url": f"{base}/images/louvre-ld.jpg"},
                "geo": {"@type": "GeoCoordinates", **LOUVRE},
                "address": {
                    "@type": "PostalAddress",
                    "streetAddress": "Rue de Rivoli",
                    "addressLocality": "Paris",
                    "postalCode": "75001",
                    "addressCountry": "FR",
                },
            }
        ],
    }
    krakow_ld = {
        "@context": "https://schema.org",
        "@type": "Place",
        "name": "Wawel Royal Castle",
        "address": {
            "@type": "PostalAddress",
            "streetAddress": "Wawel 5",
            "addressLocality": "Kraków",
            "addressCountry": {"@type": "Country", "name": "Poland"},
        },
    }
    oembed_link = f'<link rel="alternate" type="application/json+oembed" href="{base}/oembed?id=louvre">'
    geo_meta = (
        "<html><head><title>Sagrada Fam\xedlia 360</title>"
        '<meta property="og:title" content="Sagrada Fam\xedlia: nave in 360\xb0">'
        '<meta property="og:description" content="Gaud\xed\'s basilica, stained glass and towers.">'
        f'<meta property="og:image" content="{base}/images/sagrada.jpg">'
        f'<meta property="og:latitude" content="{BARCELONA["latitude"]}">'
        f'<meta property="og:longitude" content="{BARCELONA["longitude"]}">'
        "</head><body>Basilica</body></html>"
    )
    huge_head = tour_page(
        title="Huge tour page", description="A page far larger than the cap.", image=f"{base}/images/huge.jpg"
    ).split("</head>")[0]
    return {
        "/tours/louvre": Page(
            tour_page(
                title="Louvre Museum — Grande Galerie in 360°",
                description="Walk through the Grande Galerie of the Louvre museum: Italian paintings, "
                "sculptures and the Mona Lisa.",
                image=f"{base}/images/louvre.jpg",
                json_ld=louvre_ld,
                extra_head=oembed_link,
            ).encode()
        ),
        "/tours/krakow": Page(
            tour_page(
                title="Wawel Royal Castle",
                description="Courtyards and state rooms of the royal castle.",
                image="/images/wawel.jpg",
                json_ld=krakow_ld,
            ).encode()
        ),
        "/tours/geo-meta": Page(geo_meta.encode("latin-1"), content_type="text/html; charset=ISO-8859-1"),
        "/tours/oembed-only": Page(
            f"<html><head><title>Only oEmbed here</title>{oembed_link}</head><body></body></html>".encode()
        ),
        "/tours/no-metadata": Page(b"<html><head></head><body><p>Nothing to see.</p></body></html>"),
        "/oembed": Page(
            json.dumps(
                {
                    "version": "1.0",
                    "type": "rich",
                    "title": "Louvre from oEmbed",
                    "provider_name": "FakeTours",
                    "thumbnail_url": f"{base}/images/oembed.jpg",
                    "thumbnail_width": 64,
                    "thumbnail_height": 48,
                }
            ).encode(),
            content_type="application/json+oembed",
        ),
        "/files/tour.pdf": Page(b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n", content_type="application/pdf"),
        "/missing": Page(b"<html><body>Not here</body></html>", status=404),
        "/redirect-private": Page(b"", status=302, headers=(("Location", "http://10.0.0.1/tours/secret"),)),
        "/redirect-loop": Page(b"", status=302, headers=(("Location", "/redirect-loop"),)),
        "/redirect-to-louvre": Page(b"", status=301, headers=(("Location", "/tours/louvre"),)),
        "/huge": Page(huge_head.encode()),  # the padding is streamed by the handler
    }


def _jpeg(name: str) -> bytes:
    buffer = io.BytesIO()
    shade = sum(name.encode()) % 200
    Image.new("RGB", (60, 40), (shade, 120, 200 - shade)).save(buffer, format="JPEG")
    return buffer.getvalue()


@cache
def _gzip_bomb() -> bytes:
    head = b"<html><head><title>Bomb</title></head><body>"
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=9) as archive:
        archive.write(head)
        block = b"\0" * (1024 * 1024)
        for _ in range(64):
            archive.write(block)
    return buffer.getvalue()


def _handler(fake: TourPages) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return  # quiet test output

        def handle(self) -> None:
            try:
                super().handle()
            except OSError:
                return  # a client that hangs up mid-answer is what several tests are about

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            path = parts.path
            fake.record_hit(path, self.headers.get("Host", ""))
            try:
                sent = self._serve(path, parse_qs(parts.query))
            except (BrokenPipeError, ConnectionResetError):
                sent = -1  # the client hung up, as the lookup does once it has read enough
            fake.record_sent(path, max(sent, 0))

        def _serve(self, path: str, query: dict[str, list[str]]) -> int:
            if path == "/redirect":
                return self._send(Page(b"", status=302, headers=(("Location", query.get("to", ["/"])[0]),)))
            if path.startswith("/images/") and path.endswith(".jpg"):
                return self._send(Page(_jpeg(path), content_type="image/jpeg"))
            if path == "/slow":
                time.sleep(float(query.get("seconds", [SLOW_SECONDS])[0]))
                return self._send(fake.pages["/tours/louvre"])
            if path == "/drip":
                return self._drip()
            if path == "/gzip-bomb":
                return self._send(Page(_gzip_bomb(), headers=(("Content-Encoding", "gzip"),)))
            if path == "/huge":
                return self._huge()
            page = fake.pages.get(path)
            if page is None:
                return self._send(Page(b"<html><body>Not found</body></html>", status=404))
            return self._send(page)

        def _send(self, page: Page) -> int:
            self.send_response(page.status)
            self.send_header("Content-Type", page.content_type)
            self.send_header("Content-Length", str(len(page.body)))
            for name, value in page.headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(page.body)
            return len(page.body)

        def _huge(self) -> int:
            head = fake.pages["/huge"].body + b"</head><body>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(head) + HUGE_PAGE_BYTES))
            self.end_headers()
            self.wfile.write(head)
            sent = len(head)
            block = b"<p>" + b"x" * 65530 + b"</p>"
            while sent < len(head) + HUGE_PAGE_BYTES:
                piece = block[: len(head) + HUGE_PAGE_BYTES - sent]
                self.wfile.write(piece)
                sent += len(piece)
            return sent

        def _drip(self) -> int:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(b"<html><head><title>Drip")
            sent = 0
            ends_at = time.monotonic() + DRIP_SECONDS
            while time.monotonic() < ends_at:
                self.wfile.write(b".")
                self.wfile.flush()
                sent += 1
                time.sleep(0.2)
            return sent

    return Handler


def start_tour_pages(host: str = "127.0.0.1", port: int = 0) -> TourPages:
    """Start the fake provider on a free port (threads are daemons, so a forgotten server never blocks exit)."""
    server = http_server(host, port)
    fake = TourPages(server=server)
    fake.pages.update(_builtin_pages(fake.base_url))
    server.RequestHandlerClass = _handler(fake)
    serve_in_background(server, "fake-tour-pages")
    return fake


@contextmanager
def running_tour_pages(host: str = "127.0.0.1") -> Iterator[TourPages]:
    fake = start_tour_pages(host)
    try:
        yield fake
    finally:
        fake.close()
