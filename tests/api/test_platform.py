"""The HTTP application's shared behaviour: config, version, health, errors, request ids, the SPA."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests import factories


def test_config_defaults_and_app_version(client: TestClient) -> None:
    assert client.get("/v2/config/").json() == {
        "restrict_access": False,
        "images_approval": False,
        "gui_version": "2.3.7",
    }
    assert client.get("/v2/config/app-version").json() == {"gui_version": "2.3.7"}


def test_only_admins_change_the_config(client: TestClient, db: Session) -> None:
    plain, admin = factories.user(db), factories.user(db, admin=True)
    db.commit()
    body = {"restrict_access": True}
    assert client.put("/v2/config/", json=body).status_code == 401
    denied = client.put("/v2/config/", json=body, headers={"Authorization": f"Bearer {factories.token_for(plain)}"})
    assert denied.status_code == 403
    allowed = client.put("/v2/config/", json=body, headers={"Authorization": f"Bearer {factories.token_for(admin)}"})
    assert allowed.status_code == 200 and allowed.json()["restrict_access"] is True
    assert client.get("/v2/config/").json()["restrict_access"] is True


def test_health_reports_each_part(client: TestClient) -> None:
    body = client.get("/health").json()
    assert body["database"] == "ok"
    assert body["index"].startswith("ok (embedded")
    assert body["redis"].startswith("not configured")
    assert body["status"] == "ok" and body["warnings"] == []  # one process: no shared index to check


def test_validation_errors_are_400_with_message_and_fields(client: TestClient) -> None:
    response = client.get("/v2/user-recomendations/filtered-grid?limit=1000")
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"message", "fields", "request_id"}
    assert "limit" in body["fields"] and body["message"].startswith("limit")


def test_bad_token_is_401_so_the_client_renews_it(client: TestClient) -> None:
    response = client.get("/v2/config/", headers={"Authorization": "Bearer not-a-token"})
    assert response.status_code == 200  # config is public and reads no token
    response = client.put("/v2/config/", json={}, headers={"Authorization": "Bearer not-a-token"})
    assert response.status_code == 401 and response.json()["message"] == "Invalid or expired token"


def test_every_response_has_a_request_id(client: TestClient) -> None:
    generated = client.get("/v2/config/").headers["x-request-id"]
    assert len(generated) == 32
    echoed = client.get("/v2/config/", headers={"X-Request-ID": "abc-123-def"}).headers["x-request-id"]
    assert echoed == "abc-123-def"
    error = client.get("/v2/no-such-call")
    assert error.status_code == 404 and error.json()["request_id"] == error.headers["x-request-id"]


def test_openapi_is_served_with_readable_operation_ids(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    operation = schema["paths"]["/v2/config/app-version"]["get"]
    assert operation["operationId"] == "platform-get_app_version"
    assert "422" not in operation["responses"]


def test_front_end_routes_fall_back_to_the_app(client: TestClient, tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    from app.core.settings import get_settings

    dist = get_settings().frontend_dist
    response = client.get("/virtualtours/abc")
    if (dist / "index.html").exists():
        assert response.status_code == 200 and '<div id="root">' in response.text
    else:
        assert response.status_code == 503 and "make run" in response.json()["message"]
