"""The OpenAPI document tells the truth about who may call what and which errors come back.

FastAPI documents a 422 on every operation with inputs (ours are 400: app/core/errors.py) and knows
nothing of our tokens. `install_openapi(app)` rewrites each operation from its route:

- `x-access`: the route's declared rule (app/core/access.py);
- `security`: the bearer scheme when the rule needs a token, optional (`{}` or bearer) when the
  route reads one if sent, none otherwise;
- error answers, all with the ErrorBody schema: 400 when the operation has inputs (a parameter
  other than a header, or a body); 401 when it reads a token (its rule needs one, it reads an
  optional one, or restrict_access reads it); 403 when a rule narrower than "user" or restrict_access
  applies; 404 when the path names something. What only the code knows (a lookup by an id in the
  body, a 409 conflict, a 429 limit, a 400 without inputs) the route states in `responses=` with
  `error_responses(...)` (app/core/errors.py); what a route states is kept.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, iter_route_contexts
from starlette.routing import BaseRoute

from app.core.access import Access, rule_of
from app.core.deps import get_caller, guard_request
from app.core.errors import ERROR_DESCRIPTIONS, ErrorBody

BEARER = "bearer"
SECURITY_SCHEMES = {
    BEARER: {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "JWT",
        "description": "A user's access token (user_jwt) or a guest token (POST /v2/users/guest-token)",
    }
}
# FastAPI's schemas for its 422 answer, which we never send.
VALIDATION_SCHEMAS = ("HTTPValidationError", "ValidationError")

ROLE_REFUSALS = {
    Access.CREATOR: "the caller has no active creator profile",
    Access.CM: "content managers and administrators only",
    Access.ADMIN: "administrators only",
    Access.OWNER: "the account named is not the caller's (administrators may act on any)",
    Access.FOLLOWER: "administrators cannot follow creators",
}
RESTRICTED_REFUSAL = "restrict_access is on and the caller is signed out"


def install_openapi(app: FastAPI) -> None:
    """Replaces `app.openapi` with FastAPI's document rewritten as this module says (once per
    document FastAPI builds)."""
    generate = app.openapi
    rewritten: list[dict[str, Any]] = []

    def openapi() -> dict[str, Any]:
        schema = generate()
        if not rewritten or rewritten[0] is not schema:
            describe_operations(schema, app.routes)
            rewritten[:] = [schema]
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def describe_operations(schema: dict[str, Any], routes: Sequence[BaseRoute]) -> None:
    components = schema.setdefault("components", {})
    components["securitySchemes"] = SECURITY_SCHEMES
    schemas = components.setdefault("schemas", {})
    schemas.setdefault("ErrorBody", ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}"))
    for context in iter_route_contexts(routes):
        route = context.original_route
        if not isinstance(route, APIRoute) or not route.include_in_schema:
            continue
        # The effective dependant: the route's own dependencies and those of the routers including it.
        dependant: Dependant = context.dependant
        for method in context.methods or ():
            operation = schema["paths"].get(context.path_format, {}).get(method.lower())
            if operation is not None:
                _describe(operation, rule_of(route), dependant)
    paths = json.dumps(schema["paths"])
    if not any(f'"#/components/schemas/{name}"' in paths for name in VALIDATION_SCHEMAS):
        for name in VALIDATION_SCHEMAS:
            schemas.pop(name, None)


def _describe(operation: dict[str, Any], rule: Access | None, dependant: Dependant) -> None:
    responses: dict[str, Any] = operation.setdefault("responses", {})
    responses.pop("422", None)
    if rule is None:
        return  # tests/api/test_access.py names the route and how to declare its rule
    operation["x-access"] = rule.value
    guarded = rule is not Access.UNRESTRICTED and _depends_on(dependant, guard_request)
    reads_token = rule.needs_token or guarded or _depends_on(dependant, get_caller)
    if rule.needs_token:
        operation["security"] = [{BEARER: []}]
    elif reads_token:
        operation["security"] = [{}, {BEARER: []}]
    else:
        operation["security"] = []
    parameters = operation.get("parameters", [])
    derived: dict[int, str] = {}
    if "requestBody" in operation or any(parameter["in"] != "header" for parameter in parameters):
        derived[400] = ERROR_DESCRIPTIONS[400]
    if reads_token:
        derived[401] = ERROR_DESCRIPTIONS[401] if rule.needs_token else STALE_TOKEN
    refusals = [ROLE_REFUSALS[rule]] if rule.narrower_than_user else []
    if guarded:
        refusals.append(RESTRICTED_REFUSAL)
    if refusals:
        derived[403] = "Refused: " + "; or ".join(refusals)
    if any(parameter["in"] == "path" for parameter in parameters):
        derived[404] = ERROR_DESCRIPTIONS[404]
    for code, description in derived.items():
        responses.setdefault(str(code), _error_answer(description))


def _depends_on(dependant: Dependant, call: Callable[..., Any]) -> bool:
    return any(sub.call is call or _depends_on(sub, call) for sub in dependant.dependencies)


def _error_answer(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}},
    }


STALE_TOKEN = "The token sent is invalid or expired, or its account is gone or inactive: renew it and retry"
