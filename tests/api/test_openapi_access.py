"""Issue 12 defect 8: the OpenAPI document declares the bearer scheme, each operation's security and
x-access from its route's declaration, and the error answers the operation can give (400 with
inputs, 401 when it reads a token, 403 when a narrower rule or restrict_access applies, 404 with a
path), all as ErrorBody; never 422, which we do not send (app/core/errors.py)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.access import Access
from tests.api.test_access import Operation, api_operations

ERROR_BODY = {"$ref": "#/components/schemas/ErrorBody"}


@pytest.fixture
def document(client: TestClient) -> dict[str, Any]:
    document: dict[str, Any] = client.get("/openapi.json").json()
    return document


def operations(document: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (method.upper(), path): operation
        for path, path_item in document["paths"].items()
        for method, operation in path_item.items()
    }


def errors(operation: dict[str, Any]) -> set[int]:
    return {int(code) for code in operation["responses"] if code.startswith(("4", "5"))}


def test_no_operation_documents_422(document: dict[str, Any]) -> None:
    documenting = [
        f"{method} {path}" for (method, path), op in operations(document).items() if "422" in op["responses"]
    ]
    assert documenting == []
    assert not {"HTTPValidationError", "ValidationError"} & set(document["components"]["schemas"])


def test_the_bearer_scheme_is_declared(document: dict[str, Any]) -> None:
    scheme = document["components"]["securitySchemes"]["bearer"]
    assert scheme["type"] == "http" and scheme["scheme"] == "bearer" and scheme["bearerFormat"] == "JWT"


@pytest.mark.parametrize("operation", api_operations(), ids=str)
def test_security_and_errors_follow_the_declaration(document: dict[str, Any], operation: Operation) -> None:
    documented = operations(document)[(operation.method, operation.path)]
    rule = operation.rule
    assert rule is not None and documented["x-access"] == rule.value
    security = documented["security"]
    if rule.needs_token:
        assert security == [{"bearer": []}]
    elif rule is Access.PUBLIC:
        assert security == [{}, {"bearer": []}]  # optional: a token, if sent, is read
    else:
        assert security in ([], [{}, {"bearer": []}])
    parameters = documented.get("parameters", [])
    expected: set[int] = set()
    if "requestBody" in documented or any(parameter["in"] != "header" for parameter in parameters):
        expected.add(400)
    if rule is not Access.UNRESTRICTED:
        # The rule needs a token, or restrict_access reads one (a stale one is a 401) and refuses
        # signed-out callers (403).
        expected |= {401, 403}
    if security:
        expected.add(401)
    if any(parameter["in"] == "path" for parameter in parameters):
        expected.add(404)
    assert expected <= errors(documented)
    for code in errors(documented):
        assert documented["responses"][str(code)]["content"]["application/json"]["schema"] == ERROR_BODY


def test_what_only_the_code_knows_is_documented_too(document: dict[str, Any]) -> None:
    documented = operations(document)
    # Sign-in: a wrong password is a 400, an unknown social account 404, a deleted or inactive
    # account 403, too many failures 429; no token is read.
    assert errors(documented[("POST", "/v2/users/sign-in")]) == {400, 403, 404, 429}
    assert errors(documented[("POST", "/v2/users/sign-up")]) == {400, 403, 409, 429}
    assert errors(documented[("POST", "/v2/users/update-token")]) == {400, 401}
    # Nothing to get wrong: no error at all.
    assert errors(documented[("GET", "/v2/config/")]) == set()
    assert errors(documented[("GET", "/health")]) == set()
    # No inputs, yet a 400 while embeddings are off.
    assert 400 in errors(documented[("POST", "/v2/categories/admin-tag-embeddings")])
    assert {404, 409} <= errors(documented[("PUT", "/v2/virtualtours/approval-items")])
    assert 429 in errors(documented[("GET", "/v2/virtualtours/discover")])
    assert 404 in errors(documented[("POST", "/v2/virtualtours/post_likes")])
