"""Defect 1 of issue 12: an integer beyond what the database holds reached SQLite and answered 500
(`OverflowError`). Every integer input is bounded at the schema (app/core/types.py), so it is the
usual 400.

The inputs are read from the app's OpenAPI document — path and query parameters and JSON body
properties, nested in objects, arrays and maps — so a call added later is covered the day it is written,
and a document without the bound fails `test_every_integer_input_is_bounded_in_the_document`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.core.types import DB_INT_MAX, DB_INT_MIN
from app.main import create_app
from tests import factories

# 2^63 is what the probe sent (SQLite's limit); DB_INT_MAX + 1 is beyond PostgreSQL's `integer`.
OUT_OF_RANGE = (2**63, -(2**63) - 1, DB_INT_MAX + 1)

Schema = dict[str, Any]
# A place in a JSON body: a property name, ITEM (every element of an array) or KEY (a map's values).
Step = tuple[str, Schema]
ITEM = "[]"
KEY = "*"


@dataclass(frozen=True)
class IntegerInput:
    method: str
    path: str
    location: str  # "path", "query" or "body"
    name: str  # the parameter, or the body property as the 400's `fields` names it
    steps: tuple[Step, ...] = ()  # body only: the way down, each step with the schema it goes into

    def __str__(self) -> str:
        return f"{self.method} {self.path} {self.location}:{self.name}"


def _document() -> Schema:
    document: Schema = create_app().openapi()
    return document


def resolve(document: Schema, schema: Schema) -> Schema:
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def branches(document: Schema, schema: Schema) -> Iterator[Schema]:
    """The schema itself, or each choice of an anyOf / oneOf / allOf, resolved."""
    schema = resolve(document, schema)
    choices = schema.get("anyOf") or schema.get("oneOf") or schema.get("allOf")
    if choices:
        for choice in choices:
            yield from branches(document, choice)
    else:
        yield schema


def integer_schemas(
    document: Schema, schema: Schema, steps: tuple[Step, ...] = ()
) -> Iterator[tuple[Schema, tuple[Step, ...]]]:
    """Every integer schema inside `schema`, with the way down to it."""
    for branch in branches(document, schema):
        kind = branch.get("type")
        if kind == "integer":
            yield branch, steps
        elif kind == "array" and "items" in branch:
            yield from integer_schemas(document, branch["items"], (*steps, (ITEM, branch)))
        elif kind == "object" or "properties" in branch:
            for name, child in branch.get("properties", {}).items():
                yield from integer_schemas(document, child, (*steps, (name, branch)))
            extra = branch.get("additionalProperties")
            if isinstance(extra, dict):
                yield from integer_schemas(document, extra, (*steps, (KEY, branch)))


def operations(document: Schema) -> Iterator[tuple[str, str, Schema]]:
    for path, item in document["paths"].items():
        for method, operation in item.items():
            yield method.upper(), path, operation


def integer_inputs(document: Schema) -> Iterator[tuple[IntegerInput, Schema]]:
    for method, path, operation in operations(document):
        for parameter in operation.get("parameters", []):
            for schema, _steps in integer_schemas(document, parameter["schema"]):
                yield IntegerInput(method, path, parameter["in"], parameter["name"]), schema
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if body:
            for schema, steps in integer_schemas(document, body["schema"]):
                name = ".".join("0" if step == ITEM else "x" if step == KEY else step for step, _ in steps)
                yield IntegerInput(method, path, "body", name, steps), schema


def example(document: Schema, schema: Schema) -> Any:
    """A small value the schema accepts (required properties only): the other inputs of a request
    must pass, so that the integer under test is what validation has to refuse."""
    schema = next(
        (branch for branch in branches(document, schema) if branch.get("type") != "null"), resolve(document, schema)
    )
    if "default" in schema and schema["default"] is not None:
        return schema["default"]
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "integer":
        return int(schema.get("minimum", 1))
    if kind == "number":
        return schema.get("minimum", 0)
    if kind == "boolean":
        return False
    if kind == "string":
        return "0" * max(32, schema.get("minLength", 1)) if schema.get("maxLength", 32) >= 32 else "a"
    if kind == "array":
        return [example(document, schema["items"]) for _ in range(schema.get("minItems", 0))]
    properties = schema.get("properties", {})
    return {name: example(document, properties[name]) for name in schema.get("required", [])}


def with_value(document: Schema, container: Any, steps: tuple[Step, ...], value: int) -> Any:
    """`container` (or an example of its schema) with `value` at the end of `steps`."""
    if not steps:
        return value
    (step, schema), rest = steps[0], steps[1:]
    if step == ITEM:
        return [with_value(document, None, rest, value)]
    if step == KEY:
        return {"x": with_value(document, None, rest, value)}
    body = dict(container) if isinstance(container, dict) else example(document, schema)
    body[step] = with_value(document, body.get(step), rest, value)
    return body


def request_for(document: Schema, target: IntegerInput, value: int) -> tuple[str, dict[str, Any]]:
    """The URL and request arguments: `value` at the target, every other required input valid."""
    operation = document["paths"][target.path][target.method.lower()]
    url, params = target.path, {}
    for parameter in operation.get("parameters", []):
        name, where = parameter["name"], parameter["in"]
        chosen = value if (where, name) == (target.location, target.name) else None
        if where == "path":
            url = url.replace(
                "{" + name + "}", str(chosen if chosen is not None else example(document, parameter["schema"]))
            )
        elif where == "query" and (chosen is not None or parameter.get("required")):
            params[name] = chosen if chosen is not None else example(document, parameter["schema"])
    arguments: dict[str, Any] = {"params": params}
    body = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if body:
        payload = example(document, body["schema"])
        arguments["json"] = with_value(document, payload, target.steps, value) if target.location == "body" else payload
    return url, arguments


DOCUMENT = _document()
INPUTS = list(integer_inputs(DOCUMENT))
OPERATIONS = sorted({(target.method, target.path) for target, _schema in INPUTS})


def test_the_document_has_integer_inputs_to_check() -> None:
    """Not vacuous: the walk finds path, query and (nested) body integers."""
    names = {str(target) for target, _schema in INPUTS}
    assert {
        "POST /v2/creators/post_shares body:id",
        "GET /v2/virtualtours/creator/{user_id} path:user_id",
        "GET /v2/creators/followers query:creator_id",
        "PUT /v2/users/user-interests body:interests.0.category_id",
        "PUT /v2/virtualtours/approval-items body:ids.0",
        "POST /v2/users/user-guide-steps body:guide_steps.x",
    } <= names
    assert len(OPERATIONS) > 40


def test_every_integer_input_is_bounded_in_the_document() -> None:
    """A new integer field or parameter without app/core/types.py's bound fails here."""

    def bounded(schema: Schema) -> bool:
        lowest, highest = schema.get("minimum", DB_INT_MIN - 1), schema.get("maximum", DB_INT_MAX + 1)
        return bool(lowest >= DB_INT_MIN and highest <= DB_INT_MAX)

    assert [str(target) for target, schema in INPUTS if not bounded(schema)] == []


@pytest.fixture
def admin_headers(db: Session) -> dict[str, str]:
    admin = factories.user(db, admin=True)
    db.commit()
    return factories.bearer(admin)


@pytest.mark.parametrize(("method", "path"), OPERATIONS)
def test_an_out_of_range_integer_is_a_400_not_a_500(
    client: TestClient, admin_headers: dict[str, str], method: str, path: str
) -> None:
    reset_rate_limits()
    for target in (target for target, _schema in INPUTS if (target.method, target.path) == (method, path)):
        for value in OUT_OF_RANGE:
            url, arguments = request_for(DOCUMENT, target, value)
            signed_out = client.request(method, url, **arguments)
            assert signed_out.status_code in (400, 401, 403, 404), (str(target), value, signed_out.text)
            answer = client.request(method, url, headers=admin_headers, **arguments)
            # Admins pass every access rule but following creators (403): validation has the last word.
            if answer.status_code == 403:
                continue
            assert answer.status_code == 400, (str(target), value, answer.text)
            # A union's failing branches are named after the field (`owner_id.constrained-int`).
            failing = {name.split(".constrained-int")[0] for name in answer.json()["fields"]}
            assert target.name in failing, (str(target), value, answer.json())


@pytest.mark.parametrize("value", ["9223372036854775808", "2147483648", "0", "-1"])
@pytest.mark.parametrize("field", ["categories", "subcategories", "vendors", "media_types", "tags"])
def test_the_feed_s_id_lists_are_bounded_too(client: TestClient, field: str, value: str) -> None:
    """The feed parses its comma-separated id lists by hand: the same bound applies."""
    response = client.get("/v2/user-recomendations/filtered-grid", params={field: f"1,{value}"})
    assert response.status_code == 400, response.text
    assert field in response.json()["fields"]
