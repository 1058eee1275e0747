"""The built front end and the answers' compression (app/core/static.py): hashed assets in the best
encoding the client accepts, cached for a year; index.html and other files revalidated; JSON gzipped
above 1 KB and not below."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.core.static import IMMUTABLE, accepted_encodings
from tests import factories
from tests.conftest import clear_caches

SCRIPT = "export const answer = 42;\n" * 200  # 5 KB of text
SCRIPT_NAME = "index-Ab12_-Xy.js"  # Vite's `<name>-<8 character hash>.<ext>`
BROTLI_BYTES = b"\x8b\x03\x80stand-in for brotli output"  # served as stored: only the bytes matter
INDEX_HTML = '<!doctype html><html><body><div id="root"></div></body></html>'
GRID = "/v2/user-recomendations/filtered-grid"


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    """A built front end as Vite writes it, with the .br and .gz of the compression plugin."""
    assets = tmp_path / "dist" / "assets"
    assets.mkdir(parents=True)
    (assets / SCRIPT_NAME).write_text(SCRIPT)
    (assets / f"{SCRIPT_NAME}.br").write_bytes(BROTLI_BYTES)
    (assets / f"{SCRIPT_NAME}.gz").write_bytes(gzip.compress(SCRIPT.encode(), compresslevel=9))
    # Smaller than the plugin's threshold: no compressed copies beside it.
    (assets / "tiny-Zz99Yy88.css").write_text("body{margin:0}")
    (assets / "worker-Qq11Ww22.mjs").write_text("self.onmessage = () => {};\n")
    (assets / "worker-Qq11Ww22.mjs.gz").write_bytes(gzip.compress(b"self.onmessage = () => {};\n"))
    (tmp_path / "dist" / "index.html").write_text(INDEX_HTML)
    (tmp_path / "dist" / "favicon.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    (tmp_path / "secret.txt").write_text("outside dist")
    return tmp_path / "dist"


@pytest.fixture
def site(database: object, dist: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    from app.main import create_app

    monkeypatch.setenv("FRONTEND_DIST", str(dist))
    clear_caches()
    try:
        with TestClient(create_app()) as client:
            yield client
    finally:
        monkeypatch.delenv("FRONTEND_DIST")
        clear_caches()


def raw_get(client: TestClient, path: str, accept_encoding: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """The answer's bytes as sent and its headers. Never decoded by the client: with the `brotli` module
    importable (locust brings it) httpx would decode a brotli answer, and the stand-in bytes are not brotli."""
    with client.stream("GET", path, headers={"Accept-Encoding": accept_encoding, **headers}) as response:
        return response.status_code, dict(response.headers), b"".join(response.iter_raw())


@pytest.mark.parametrize(
    ("accept_encoding", "encoding"),
    [
        ("gzip, deflate, br, zstd", "br"),
        ("br;q=1.0, gzip;q=0.8", "br"),
        ("gzip, deflate", "gzip"),
        ("br;q=0, gzip", "gzip"),
        ("*", "br"),
        ("*, br;q=0", "gzip"),
        ("identity", None),
        ("", None),
        ("gzip;q=0, br;q=0", None),
    ],
)
def test_a_hashed_asset_comes_in_the_best_encoding_the_client_accepts(
    site: TestClient, accept_encoding: str, encoding: str | None
) -> None:
    status, headers, body = raw_get(site, f"/assets/{SCRIPT_NAME}", accept_encoding)
    assert status == 200
    assert headers.get("content-encoding") == encoding
    assert headers["content-type"].startswith("text/javascript")
    assert "accept-encoding" in headers["vary"].lower()
    assert headers["cache-control"] == IMMUTABLE == "public, max-age=31536000, immutable"
    assert int(headers["content-length"]) == len(body)
    if encoding == "br":
        assert body == BROTLI_BYTES
    elif encoding == "gzip":
        assert gzip.decompress(body).decode() == SCRIPT
    else:
        assert body.decode() == SCRIPT


def test_an_asset_without_a_compressed_copy_is_sent_as_it_is(site: TestClient) -> None:
    status, headers, body = raw_get(site, "/assets/tiny-Zz99Yy88.css", "gzip, br")
    assert status == 200 and body == b"body{margin:0}"
    assert "content-encoding" not in headers
    assert headers["cache-control"] == IMMUTABLE
    # Only a gzip copy: a client that takes both gets it.
    status, headers, body = raw_get(site, "/assets/worker-Qq11Ww22.mjs", "gzip, br")
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert headers["content-type"].startswith("text/javascript")
    assert gzip.decompress(body) == b"self.onmessage = () => {};\n"


def test_a_conditional_request_for_an_unchanged_asset_is_not_modified(site: TestClient) -> None:
    _, headers, _ = raw_get(site, f"/assets/{SCRIPT_NAME}", "gzip")
    again = site.get(f"/assets/{SCRIPT_NAME}", headers={"Accept-Encoding": "gzip", "If-None-Match": headers["etag"]})
    assert again.status_code == 304
    # Each encoding is its own representation: the gzip copy's tag does not match the brotli one.
    status, _, body = raw_get(site, f"/assets/{SCRIPT_NAME}", "br", **{"If-None-Match": headers["etag"]})
    assert status == 200 and body == BROTLI_BYTES


@pytest.mark.parametrize(
    "path",
    [
        "/assets/missing-Aa11Bb22.js",
        f"/assets/{SCRIPT_NAME}.br",  # the compressed copies are never served by their own names
        f"/assets/{SCRIPT_NAME}.gz",
        "/assets/%2e%2e/secret.txt",
        "/assets/..%2f..%2fsecret.txt",
        "/assets/%2e%2e%2f%2e%2e%2fsecret.txt",
    ],
)
def test_a_missing_asset_or_a_path_outside_the_assets_is_a_404(site: TestClient, path: str) -> None:
    response = site.get(path, headers={"Accept-Encoding": "gzip, br"})
    assert response.status_code == 404
    assert b"outside dist" not in response.content and b'<div id="root">' not in response.content


@pytest.mark.parametrize("path", ["/assets/../secret.txt", "/assets/../../secret.txt", "/../secret.txt"])
def test_dot_segments_never_reach_a_file_outside(site: TestClient, dist: Path, path: str) -> None:
    """HTTP clients resolve `..` before sending (RFC 3986): sent as is, straight to the ASGI app,
    the asset lookup still refuses it, and the app's fallback answers its HTML, never the file."""
    from app.core.static import PrecompressedStaticFiles

    assets = PrecompressedStaticFiles(directory=dist / "assets")
    assert assets.lookup_path(path.removeprefix("/assets/")) == ("", None)
    status, body = asgi_get(path)
    assert b"outside dist" not in body
    assert status == 404 or body == INDEX_HTML.encode()


def asgi_get(path: str) -> tuple[int, bytes]:
    """A GET with the path exactly as given (no client-side normalisation), straight to a new app
    (its own event loop: the TestClient's app belongs to the client's loop)."""
    import anyio

    from app.main import create_app

    sent: list[dict[str, object]] = []
    requested = False
    answered = anyio.Event()

    async def receive() -> dict[str, object]:
        nonlocal requested
        if not requested:
            requested = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await answered.wait()  # a client that stays until it has the whole answer
        return {"type": "http.disconnect"}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)
        if message["type"] == "http.response.body" and not message.get("more_body", False):
            answered.set()

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"testserver"), (b"accept-encoding", b"gzip, br")],
        "client": ("127.0.0.1", 1234),
        "server": ("testserver", 80),
    }
    anyio.run(create_app(), scope, receive, send)  # type: ignore[arg-type]
    status = next(int(message["status"]) for message in sent if message["type"] == "http.response.start")  # type: ignore[call-overload]
    body = b"".join(message.get("body", b"") for message in sent if message["type"] == "http.response.body")  # type: ignore[misc]
    return status, body


def test_index_html_and_client_routes_are_revalidated(site: TestClient) -> None:
    for path in ("/", "/feed", "/virtualtours/abc", "/index.html"):
        response = site.get(path)
        assert response.status_code == 200 and '<div id="root">' in response.text
        assert response.headers["cache-control"] == "no-cache", path
    favicon = site.get("/favicon.svg")
    assert favicon.status_code == 200 and favicon.headers["cache-control"] == "no-cache"
    assert favicon.headers["content-type"].startswith("image/svg+xml")


@pytest.mark.parametrize("path", ["/v2/no-such-call", "/robots.txt", "/favicon.ico", "/.well-known/security.txt"])
def test_unknown_api_paths_and_absent_crawler_files_are_404_not_the_app(site: TestClient, path: str) -> None:
    response = site.get(path)
    assert response.status_code == 404 and response.headers["content-type"].startswith("application/json")


def test_a_crawler_file_in_dist_is_served(site: TestClient, dist: Path) -> None:
    (dist / "robots.txt").write_text("User-agent: *\nAllow: /\n")
    response = site.get("/robots.txt")
    assert response.status_code == 200 and response.text.startswith("User-agent")


def test_a_large_json_answer_is_gzipped_for_a_client_that_accepts_it(site: TestClient, db: Session) -> None:
    catalog = factories.catalog(db)
    owner = factories.user(db)
    for number in range(12):
        catalog.tour(db, owner, title=f"Tour {number} along the old harbour walls", views=number)
    db.commit()
    query = f"{GRID}?mode=media&limit=48"

    status, headers, body = raw_get(site, query, "gzip, deflate, br")
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert "accept-encoding" in headers["vary"].lower()
    plain = site.get(query, headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and "content-encoding" not in plain.headers
    assert len(plain.content) > 1024 and len(body) < len(plain.content)
    assert json.loads(gzip.decompress(body)) == plain.json()
    refused = site.get(query, headers={"Accept-Encoding": "gzip;q=0, deflate"})
    assert "content-encoding" not in refused.headers


def test_a_small_json_answer_is_sent_as_it_is(site: TestClient) -> None:
    status, headers, body = raw_get(site, "/health", "gzip, br")
    assert status == 200 and len(body) < 1024
    assert "content-encoding" not in headers
    assert body.startswith(b"{")


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("gzip, deflate, br, zstd", {"gzip", "deflate", "br", "zstd"}),
        ("GZIP;Q=0.5, br;q=0", {"gzip"}),
        ("*;q=0.1", {"*", "br", "gzip"}),
        ("br;q=nonsense", set()),
        ("", set()),
    ],
)
def test_accept_encoding_is_read_with_its_weights(header: str, expected: set[str]) -> None:
    assert accepted_encodings(header) == expected
