"""The built front end on the API's port, made cheap for a phone on a slow link.

- `/assets/*` are Vite's hashed files: the build writes a `.br` and a `.gz` beside each one
  (frontend/vite.config.ts), and the answer is the smallest encoding the client accepts, with
  `Vary: Accept-Encoding`. A hashed name never changes content, so it is cached for a year as
  `immutable`; anything else (index.html, the SPA fallback, favicon) is revalidated (`no-cache`).
- JSON and other text answers above `COMPRESS_MINIMUM_BYTES` are gzipped on the fly (Starlette's
  GZipMiddleware). It never sees Socket.IO (python-socketio's ASGI app sits in front of FastAPI and
  answers /socket.io itself) and leaves the precompressed assets alone (they already carry
  `Content-Encoding`).
"""

from __future__ import annotations

import mimetypes
import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio.to_thread
from fastapi import Depends, FastAPI
from fastapi.responses import FileResponse
from fastapi.routing import APIRoute
from starlette.datastructures import Headers
from starlette.middleware.gzip import (
    DEFAULT_EXCLUDED_CONTENT_TYPES,
    GZipMiddleware,
    GZipResponder,
    IdentityResponder,
)
from starlette.responses import Response
from starlette.routing import Match
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from app.core.access import unrestricted
from app.core.errors import AppError, NotFound

ASSETS_PREFIX = "/assets/"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"

# Files crawlers and browsers ask for by name (and anything under /.well-known/): absent from dist/,
# they are missing, not app routes.
CRAWLER_FILES = frozenset({"robots.txt", "sitemap.xml", "favicon.ico", "ads.txt", "security.txt"})

# Vite names an emitted file `<name>-<hash>.<ext>`, the hash 8 characters of [A-Za-z0-9_-].
HASHED_NAME = re.compile(r"-[A-Za-z0-9_-]{8}\.[A-Za-z0-9]+$")

# The encodings the build writes beside an asset, best first: (Content-Encoding, file suffix).
PRECOMPRESSED = (("br", ".br"), ("gzip", ".gz"))

# Below this an answer fits in one packet anyway and compressing it costs CPU for nothing.
COMPRESS_MINIMUM_BYTES = 1024
# gzip level 1: a feed answer (48 cards, 15 kB of JSON) shrinks to 25.6 % in ~60 µs; level 5 gets
# 23.5 % for ~135 µs and level 9 22.8 % for ~175 µs (bench/RESULTS.md, "Compression of JSON answers").
# The feed's throughput is worth more than 300 bytes on the wire. Brotli (quality 1: 25.4 %, 43 µs)
# would need two more packages for a size gzip already reaches.
JSON_GZIP_LEVEL = 1
# Binary answers that gzip cannot shrink (uploaded pictures are excluded by Starlette already).
NOT_COMPRESSED = (*DEFAULT_EXCLUDED_CONTENT_TYPES, "application/pdf", "application/x-brotli", "font/*")


def accepted_encodings(accept_encoding: str) -> set[str]:
    """The codings an `Accept-Encoding` header allows (RFC 9110 §12.5.3): listed without `q=0`;
    `*` stands for any coding not named otherwise."""
    allowed: set[str] = set()
    refused: set[str] = set()
    for item in accept_encoding.split(","):
        coding, _, parameters = item.partition(";")
        coding = coding.strip().lower()
        if not coding:
            continue
        quality = 1.0
        for parameter in parameters.split(";"):
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        (allowed if quality > 0 else refused).add(coding)
    if "*" in allowed:
        allowed |= {coding for coding, _ in PRECOMPRESSED} - refused
    return allowed


def cache_control_for(path: str) -> str:
    return IMMUTABLE if HASHED_NAME.search(path) else REVALIDATE


class PrecompressedStaticFiles(StaticFiles):
    """StaticFiles that answers with the `.br` / `.gz` written beside a file when the client accepts
    it, and says how long the answer may be cached. The compressed files are never served by their
    own names (they would go out without `Content-Encoding`)."""

    def lookup_path(self, path: str) -> tuple[str, os.stat_result | None]:
        if path.endswith(tuple(suffix for _, suffix in PRECOMPRESSED)):
            return "", None
        return super().lookup_path(path)

    def file_response(
        self, full_path: str | os.PathLike[str], stat_result: os.stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        request_headers = Headers(scope=scope)
        served_path, served_stat, encoding = _best_variant(
            str(full_path), stat_result, accepted_encodings(request_headers.get("accept-encoding", ""))
        )
        headers = {"Cache-Control": cache_control_for(str(full_path)), "Vary": "Accept-Encoding"}
        if encoding:
            headers["Content-Encoding"] = encoding
        response = FileResponse(
            served_path,
            status_code=status_code,
            stat_result=served_stat,
            headers=headers,
            # The type of what the bytes decode to, not of the .br / .gz container.
            media_type=_media_type(str(full_path)),
        )
        if self.is_not_modified(response.headers, request_headers):
            return NotModifiedResponse(response.headers)
        return response


def _best_variant(
    full_path: str, stat_result: os.stat_result, accepted: set[str]
) -> tuple[str, os.stat_result, str | None]:
    for encoding, suffix in PRECOMPRESSED:
        if encoding not in accepted:
            continue
        try:
            return full_path + suffix, os.stat(full_path + suffix), encoding
        except OSError:
            continue
    return full_path, stat_result, None


def _media_type(path: str) -> str:
    guessed, _ = mimetypes.guess_type(path)
    return guessed or "application/octet-stream"


class AnswerCompression(GZipMiddleware):
    """Starlette's GZipMiddleware, with two differences: `Accept-Encoding` is read with its weights
    (`gzip;q=0` refuses gzip), and the assets are left to PrecompressedStaticFiles, which already
    chose their encoding (compressing them again per request would only cost CPU)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith(ASSETS_PREFIX):
            await self.app(scope, receive, send)
            return
        accepted = accepted_encodings(Headers(scope=scope).get("accept-encoding", ""))
        responder: ASGIApp
        if "gzip" in accepted:
            responder = GZipResponder(
                self.app,
                self.minimum_size,
                compresslevel=self.compresslevel,
                thread_minimum_size=self.thread_minimum_size,
                exclude_content_types=self.exclude_content_types,
            )
        else:
            responder = IdentityResponder(self.app, self.minimum_size, exclude_content_types=self.exclude_content_types)
        await responder(scope, receive, send)


def add_response_compression(app: FastAPI) -> None:
    """Gzip JSON (and other text) answers above the minimum size, for clients that accept gzip."""
    app.add_middleware(
        AnswerCompression,
        minimum_size=COMPRESS_MINIMUM_BYTES,
        compresslevel=JSON_GZIP_LEVEL,
        exclude_content_types=NOT_COMPRESSED,
    )


def mount_frontend(app: FastAPI, dist: Path, *, api_prefixes: tuple[str, ...]) -> None:
    """Serve the built React app: hashed assets as above, other files of dist/ revalidated, and every
    other non-API path falls back to index.html (client-side routing)."""
    assets = dist / "assets"
    if assets.is_dir():
        app.mount(ASSETS_PREFIX.rstrip("/"), PrecompressedStaticFiles(directory=assets), name="assets")
    # The pages themselves are for anyone: the client's route guard applies restrict_access to them.
    app.router.add_api_route(
        "/{path:path}",
        _spa_handler(dist),
        include_in_schema=False,
        response_model=None,
        dependencies=[Depends(unrestricted)],
        route_class_override=_frontend_route(api_prefixes),
    )


def _frontend_route(api_prefixes: tuple[str, ...]) -> type[APIRoute]:
    """The catch-all never matches an API path: a request for one meets the API's routes only, so a
    path served with other methods is a 405 naming them (GET /v2/users/sign-in) and an unknown one
    is a 404, never the app's HTML."""

    class FrontendRoute(APIRoute):
        def matches(self, scope: Scope) -> tuple[Match, Scope]:
            path = scope["path"].removeprefix(scope.get("root_path", ""))
            if scope["type"] == "http" and path.lstrip("/").startswith(api_prefixes):
                return Match.NONE, {}
            return super().matches(scope)

    return FrontendRoute


def _spa_handler(dist: Path) -> Callable[[str], Awaitable[FileResponse]]:
    root = dist.resolve()

    async def spa(path: str) -> FileResponse:
        if path.startswith("assets/"):
            # A missing asset is a 404, never the app's HTML.
            raise NotFound("Not found")
        candidate = await anyio.to_thread.run_sync(_file_in_dist, root, path)
        if candidate is not None:
            return FileResponse(candidate, headers={"Cache-Control": REVALIDATE})
        if path in CRAWLER_FILES or path.startswith(".well-known/"):
            # Not an app route either: a robots.txt answered with the app's HTML is an invalid one.
            raise NotFound("Not found")
        index = root / "index.html"
        if not index.is_file():
            raise AppError("The front end is not built yet: run `make run`.", status_code=503)
        return FileResponse(index, headers={"Cache-Control": REVALIDATE})

    return spa


def _file_in_dist(root: Path, path: str) -> Path | None:
    """A file inside dist/ (favicon.svg, robots.txt when there is one), never one outside it."""
    if not path:
        return None
    candidate = (root / path).resolve()
    if candidate.is_file() and root in candidate.parents:
        return candidate
    return None
