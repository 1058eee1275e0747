"""Methods answered as RFC 9110 says: 405 naming every method a path serves, OPTIONS, and HEAD.

FastAPI declares one route per method, and its router, finding no route for a request's method, hands
the request to the first route whose path matches: the 405 raised there named only that route's
methods, and OPTIONS (which no route declares) got the same one-method 405. Here the 405 names every
method any route serves for the path, and OPTIONS answers 204 with that list. A CORS preflight never
gets this far: CORSMiddleware answers it. No library does this for FastAPI; the cost is paid only by
requests that are refused (or OPTIONS), never by the calls themselves.
"""

from __future__ import annotations

from collections.abc import Iterable

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.errors import error_body

# The methods a route may serve; HEAD and OPTIONS are answered for every path (below).
PROBED_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def served_methods(routes: Iterable[BaseRoute], scope: Scope) -> set[str]:
    """The methods some route takes the request's path with, asked the way the router asks."""
    probe = {
        "type": "http",
        "path": scope["path"],
        # Below a mount `root_path` has grown by the mount's prefix; the app's own is kept here.
        "root_path": scope.get("app_root_path", scope.get("root_path", "")),
    }
    served: set[str] = set()
    for route in routes:
        if isinstance(route, Mount):
            continue  # a mounted app (StaticFiles) takes every method and names its own in its 405
        served |= {method for method in PROBED_METHODS if route.matches({**probe, "method": method})[0] is Match.FULL}
    return served


def allow_header(methods: set[str]) -> str:
    every = {*methods, "OPTIONS"}
    if "GET" in every:
        every.add("HEAD")  # HeadAsGet answers it
    return ", ".join(sorted(every))


async def method_not_allowed(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    named = (exc.headers or {}).get("Allow", "")
    methods = served_methods(request.app.router.routes, request.scope) | {
        method.strip() for method in named.split(",") if method.strip()
    }
    headers = {"Allow": allow_header(methods)}
    if request.method == "OPTIONS":
        return Response(status_code=204, headers=headers)
    return JSONResponse(error_body(request, str(exc.detail)), status_code=405, headers=headers)


class HeadAsGet:
    """HEAD is GET without the body (RFC 9110 §9.3.2), wherever GET is served: FastAPI's routes declare
    GET only. The headers are those of the GET answer, Content-Length included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        # A copy: the server keeps its own scope, which still says HEAD.
        await self.app({**scope, "method": "GET"}, receive, headers_only)


def answer_every_method(app: FastAPI) -> None:
    """Install the 405 / OPTIONS answer and HEAD. Called last in create_app: HeadAsGet must be the
    outermost middleware, so a HEAD carries the headers of the GET answer as sent (compressed or not)."""
    app.add_exception_handler(405, method_not_allowed)
    app.add_middleware(HeadAsGet)
