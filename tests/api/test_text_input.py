"""No text input carries NUL (U+0000): PostgreSQL cannot store it, so it was a 500 there (found by
tests/api/test_fuzz_openapi.py on PostgreSQL). Every route answers 400 naming the field instead."""

from __future__ import annotations

import io

from fastapi.testclient import TestClient
from httpx2 import Response
from PIL import Image
from sqlalchemy.orm import Session

from app.core.text_input import NUL_MESSAGE
from tests import factories


def refused_field(response: Response) -> str:
    """The one field a 400 names for its NUL."""
    assert response.status_code == 400, response.text
    body = response.json()
    (field,) = body["fields"]
    assert body["message"] == body["fields"][field] == NUL_MESSAGE
    return str(field)


def test_nul_in_a_query_parameter_is_a_400(client: TestClient) -> None:
    assert (
        refused_field(client.get("/v2/virtualtours/get-by-link", params={"link": "https://a.example/\x00"})) == "link"
    )


def test_nul_in_a_path_parameter_is_a_400(client: TestClient) -> None:
    assert refused_field(client.get("/v2/virtualtours/abc%00def")) == "id"


def test_nul_in_a_json_body_is_a_400_naming_the_nested_field(client: TestClient, db: Session) -> None:
    admin = factories.user(db, admin=True)
    db.commit()
    response = client.request(
        "DELETE", "/v2/virtualtours/pending", json={"tours": ["0" * 32, "\x00"]}, headers=factories.bearer(admin)
    )
    assert refused_field(response) == "tours.1"


def test_nul_in_a_form_text_field_is_a_400(client: TestClient, db: Session) -> None:
    person = factories.user(db)
    db.commit()
    png = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(png, format="PNG")
    response = client.post(
        "/v2/users/profile-image",
        files={"image": ("me.png", png.getvalue(), "image/png")},
        data={"note": "a\x00b"},
        headers=factories.bearer(person),
    )
    assert refused_field(response) == "note"


def test_other_control_characters_and_escaped_backslashes_pass(client: TestClient) -> None:
    """Only NUL is refused: a literal backslash-u-0000 in JSON text is six characters, not NUL."""
    response = client.post("/v2/user-recomendations/media-tags", json={"documents": [["Park \\u0000", "\x01 walk"]]})
    assert response.status_code == 200, response.text
