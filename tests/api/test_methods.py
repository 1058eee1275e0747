"""Defect 5 of issue 12: method handling. `GET /v2/users/sign-in` answered 404 (the front end's
catch-all took it) instead of 405, and a 405 or an OPTIONS on a path served by several routes (one per
method) named only the first route's methods in `Allow`.

Every path of the OpenAPI document is checked, so a call added later is covered with no extra work:
a method no route of the path serves is a 405 in our error body with `Allow` naming every method the
path supports (HEAD wherever GET is, and OPTIONS), and OPTIONS answers with the same list.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from starlette.routing import compile_path

from app.main import create_app
from tests.conftest import clear_caches

METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")
INDEX_HTML = '<!doctype html><html><body><div id="root"></div></body></html>'


def _documented() -> dict[str, set[str]]:
    document = create_app().openapi()
    return {path: {method.upper() for method in item} for path, item in document["paths"].items()}


DOCUMENTED = _documented()


def concrete(template: str) -> str:
    """The path as a request sends it: every parameter filled in."""
    _regex, path_format, convertors = compile_path(template)
    return path_format.format(**dict.fromkeys(convertors, "0" * 32))


def supported(path: str) -> set[str]:
    """What the path supports: the methods of every documented path it matches (a static path such
    as /v2/virtualtours/ranks also matches /v2/virtualtours/{id}), HEAD with GET, and OPTIONS."""
    methods = {"OPTIONS"}
    for template, documented in DOCUMENTED.items():
        if compile_path(template)[0].match(path):
            methods |= documented
    if "GET" in methods:
        methods.add("HEAD")
    return methods


def allowed(header: str) -> set[str]:
    return {method.strip() for method in header.split(",")}


def refused(path: str) -> list[str]:
    return [method for method in METHODS if method not in supported(path)]


PATHS = sorted(concrete(template) for template in DOCUMENTED)


@pytest.fixture(scope="module")
def site(database: object, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The app with a built front end (its catch-all route is what took GET /v2/users/sign-in); one
    for the module: methods are settled by the routing, before any call reads the database."""
    dist = tmp_path_factory.mktemp("dist")
    (dist / "index.html").write_text(INDEX_HTML)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setenv("FRONTEND_DIST", str(dist))
        clear_caches()
        try:
            with TestClient(create_app()) as client:
                yield client
        finally:
            monkeypatch.delenv("FRONTEND_DIST")
            clear_caches()


def test_sign_in_with_get_is_a_405_not_the_front_end_s_404(site: TestClient) -> None:
    response = site.get("/v2/users/sign-in")
    assert response.status_code == 405
    assert allowed(response.headers["allow"]) == {"POST", "OPTIONS"}
    body = response.json()
    assert set(body) == {"message", "fields", "request_id"} and body["message"] == "Method Not Allowed"


def test_every_documented_path_has_a_method_to_refuse() -> None:
    """Not vacuous: every path is probed with at least one method, PATCH at least (no call uses it)."""
    assert all("PATCH" in refused(path) for path in PATHS)
    assert refused("/v2/creators/followers") == ["PUT", "PATCH"]


@pytest.mark.parametrize("path", PATHS)
def test_a_method_the_path_does_not_serve_is_a_405_and_options_names_every_method_it_does(
    site: TestClient, path: str
) -> None:
    for method in refused(path):
        response = site.request(method, path)
        assert response.status_code == 405, (method, response.text)
        assert allowed(response.headers["allow"]) == supported(path), method
        assert set(response.json()) == {"message", "fields", "request_id"}
    options = site.options(path)
    assert options.status_code == 204, options.text
    assert allowed(options.headers["allow"]) == supported(path)


def test_a_cors_preflight_is_still_answered_by_the_cors_middleware(site: TestClient) -> None:
    response = site.options(
        "/v2/creators/followers",
        headers={"Origin": "http://localhost:5173", "Access-Control-Request-Method": "DELETE"},
    )
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == "http://localhost:5173"
    assert "DELETE" in allowed(response.headers["access-control-allow-methods"])


def test_head_answers_as_get_without_a_body(site: TestClient) -> None:
    get, head = site.get("/v2/config/app-version"), site.head("/v2/config/app-version")
    assert head.status_code == get.status_code == 200
    assert head.headers["content-type"] == get.headers["content-type"] and head.content == b""
    front_end = site.head("/tour/123")
    assert front_end.status_code == 200 and front_end.headers["content-type"].startswith("text/html")


@pytest.mark.parametrize("path", ["/tour/123", "/creator/5", "/settings", "/"])
def test_front_end_routes_still_get_the_app(site: TestClient, path: str) -> None:
    response = site.get(path)
    assert response.status_code == 200 and response.text == INDEX_HTML


def test_a_front_end_route_with_another_method_is_a_405(site: TestClient) -> None:
    response = site.put("/tour/123")
    assert response.status_code == 405
    assert allowed(response.headers["allow"]) == {"GET", "HEAD", "OPTIONS"}


@pytest.mark.parametrize("method", ["GET", "DELETE", "POST", "OPTIONS"])
def test_an_unknown_api_path_is_a_404_whatever_the_method(site: TestClient, method: str) -> None:
    response = site.request(method, "/v2/no-such-call")
    assert response.status_code == 404 and response.headers["content-type"].startswith("application/json")
    assert set(response.json()) == {"message", "fields", "request_id"}


def test_uploads_name_their_methods_too(site: TestClient) -> None:
    refused = site.post("/uploads/missing.png")
    assert refused.status_code == 405 and allowed(refused.headers["allow"]) == {"GET", "HEAD", "OPTIONS"}
    assert allowed(site.options("/uploads/missing.png").headers["allow"]) == {"GET", "HEAD", "OPTIONS"}
