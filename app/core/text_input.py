"""No text input may carry a NUL character (U+0000).

PostgreSQL cannot store NUL in a text value and psycopg refuses to send it, so a NUL in any string
that reaches a query was a 500 on PostgreSQL (and was stored as is on SQLite). No field of ours has
a use for it: one router-wide dependency refuses it everywhere, on both databases, with the usual 400
naming the field — in the path, the query string, a JSON body or a form's text fields.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from fastapi import Request
from starlette.datastructures import UploadFile

from app.core.errors import field_error

NUL = "\x00"
NUL_MESSAGE = "Text cannot contain the NUL character (U+0000)"
# How JSON spells NUL inside a string: a cheap test before the body is walked.
_JSON_NUL = b"\\u0000"


async def reject_nul_characters(request: Request) -> None:
    """Router-wide dependency. FastAPI has read and cached the body before dependencies run, so
    looking at it here costs no second read (a route without a body parameter is read here first: a
    client that hangs up meanwhile raises ClientDisconnect, let go quietly by app/core/errors.py)."""
    for name, value in _text_inputs(request):
        if NUL in name or NUL in value:
            raise field_error(name.replace(NUL, "") or "request", NUL_MESSAGE)
    content_type = request.headers.get("content-type", "")
    if content_type.startswith(("multipart/form-data", "application/x-www-form-urlencoded")):
        for name, item in (await request.form()).multi_items():
            if NUL in name or (not isinstance(item, UploadFile) and NUL in item):
                raise field_error(name.replace(NUL, "") or "request", NUL_MESSAGE)
    elif _JSON_NUL in (body := await request.body()):
        try:
            document = json.loads(body)
        except ValueError:
            return  # not JSON after all: the route's own validation answers
        field = next(_nul_fields(document, ()), None)
        if field is not None:
            raise field_error(field or "request", NUL_MESSAGE)


def _text_inputs(request: Request) -> Iterator[tuple[str, str]]:
    for name, value in request.path_params.items():
        if isinstance(value, str):
            yield name, value
    yield from request.query_params.multi_items()


def _nul_fields(value: Any, path: tuple[str, ...]) -> Iterator[str]:
    """Dotted paths (`tours.0`, as validation errors name fields) of strings or keys holding NUL."""
    if isinstance(value, str):
        if NUL in value:
            yield ".".join(path)
    elif isinstance(value, dict):
        for key, item in value.items():
            if NUL in key:
                yield ".".join(path)
            yield from _nul_fields(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _nul_fields(item, (*path, str(index)))
