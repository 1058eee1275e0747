"""One error body for every failure: `{"message": ..., "fields": {field: message}, "request_id": ...}`.

Validation failures are 400, never 422: the client renews its token and retries on 401 and 422
(spec §7), so a 422 would turn every bad form into a pointless second request.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

logger = logging.getLogger("touratlas.errors")

GENERIC_MESSAGE = "Something went wrong"


class ErrorBody(BaseModel):
    message: str
    fields: dict[str, str] = Field(default_factory=dict)
    request_id: str | None = None


class AppError(Exception):
    """A failure the caller can act on; raised by services, shaped by the handler below."""

    status_code = 400

    def __init__(self, message: str, *, fields: dict[str, str] | None = None, status_code: int | None = None):
        super().__init__(message)
        self.message = message
        self.fields = fields or {}
        if status_code is not None:
            self.status_code = status_code

    @property
    def headers(self) -> dict[str, str]:
        """Headers the answer carries besides the body (none unless a subclass says so)."""
        return {}


class BadRequest(AppError):
    status_code = 400


class Unauthorized(AppError):
    status_code = 401


class Forbidden(AppError):
    status_code = 403


class NotFound(AppError):
    status_code = 404


class Conflict(AppError):
    status_code = 409


class TooManyRequests(AppError):
    """429 with `Retry-After`: a well-behaved client waits that many seconds before trying again."""

    status_code = 429

    def __init__(self, message: str, *, retry_after_seconds: int) -> None:
        super().__init__(message)
        self.retry_after_seconds = max(1, retry_after_seconds)

    @property
    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after_seconds)}


def field_error(field: str, message: str) -> BadRequest:
    return BadRequest(message, fields={field: message})


ERROR_DESCRIPTIONS: dict[int, str] = {
    400: "Bad input: the message and the failing fields",
    401: "No valid token, or its account is gone or inactive: renew the token and retry (spec §7)",
    403: "Refused: the caller may not do this",
    404: "Not found",
    409: "Conflicts with the current state: the message says how",
    429: "Too many attempts: wait the Retry-After seconds",
    503: "A service this call depends on cannot be reached: try again later",
}


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """A route's `responses=` for the errors only its code knows (a lookup by an id in the body, a
    conflict, a rate limit): `responses=error_responses(404, 409)`. The others are derived from the
    route (app/core/openapi.py)."""
    return {code: {"model": ErrorBody, "description": ERROR_DESCRIPTIONS[code]} for code in codes}


def error_body(request: Request, message: str, fields: dict[str, str] | None = None) -> dict[str, Any]:
    return ErrorBody(
        message=message, fields=fields or {}, request_id=getattr(request.state, "request_id", None)
    ).model_dump()


def _validation_fields(exc: RequestValidationError) -> dict[str, str]:
    fields: dict[str, str] = {}
    for error in exc.errors():
        location = [str(part) for part in error.get("loc", ()) if part not in ("body", "query", "path", "header")]
        name = ".".join(location) or "request"
        message = str(error.get("msg", "Invalid field"))
        # pydantic prefixes custom messages with "Value error, "; the user should read only ours.
        fields.setdefault(name, message.removeprefix("Value error, "))
    return fields


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(AppError)
    async def _app_error(request: Request, exc: AppError) -> JSONResponse:
        return JSONResponse(
            error_body(request, exc.message, exc.fields), status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        fields = _validation_fields(exc)
        first = next(iter(fields.items()), ("request", "Invalid field"))
        message = f"{first[0]}: {first[1]}" if first[0] != "request" else first[1]
        return JSONResponse(error_body(request, message, fields), status_code=400)

    @app.exception_handler(ClientDisconnect)
    async def _client_gone(request: Request, _exc: ClientDisconnect) -> None:
        """The client hung up while its request was read (the body, a form): nobody is left to answer,
        and nothing went wrong here. No answer is sent (the server sends none to a closed connection
        either) and nothing is logged above debug: load tools and impatient clients do this all day."""
        _log_client_gone(request)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse | None:
        if isinstance(exc.__cause__, ClientDisconnect):
            # FastAPI turns a failure to read a route's body into a 400 "error parsing the body",
            # a hang-up included: the same departed client as above.
            _log_client_gone(request)
            return None
        status = 400 if exc.status_code == 422 else exc.status_code
        message = exc.detail if isinstance(exc.detail, str) else GENERIC_MESSAGE
        return JSONResponse(error_body(request, message), status_code=status, headers=getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        logger.exception("unhandled error on %s %s", request.method, request.url.path)
        return JSONResponse(error_body(request, GENERIC_MESSAGE), status_code=500)


def _log_client_gone(request: Request) -> None:
    logger.debug("client disconnected during %s %s: no answer sent", request.method, request.url.path)


class KeepConnectionAfterError:
    """The process's outermost layer: an unexpected exception does not cost the client its connection.

    Starlette's ServerErrorMiddleware answers it with the 500 above (`_unexpected`, which logs it) and
    then raises it again for the server; uvicorn, seeing an exception after a complete answer, closes
    the connection without having said `Connection: close`, and a client that reuses it has its next
    request reset. Once the answer is complete the exception is dropped here. Raised before the answer
    ends, it goes on: the server sends its own 500 or closes a half-sent answer, as it must."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        answered = False

        async def send_and_note(message: Message) -> None:
            nonlocal answered
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                answered = True

        try:
            await self.app(scope, receive, send_and_note)
        except Exception:
            if not answered:
                raise
