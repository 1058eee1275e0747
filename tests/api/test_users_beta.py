"""Spec §3 "Beta-tester questionnaire" (9 questions, all required except the camera question), §5
"Beta form required questions must be answered", the admins' list of beta testers, and the bug-report
screenshot upload (POST /v2/users/bug-image)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.core.settings import get_settings
from app.users.models import BetaTesterAnswer
from tests import factories

ANSWERS = {
    "creates_tours": "yes",
    "camera": "Insta360 X4",
    "industry": "Real estate",
    "tour_count": "11-50",
    "hosting_platforms": "Own website",
    "use_case": "Show listings on a map",
    "country": "Portugal",
    "heard_from": "A colleague",
    "feedback_frequency": "Every week",
}


@pytest.fixture(autouse=True)
def fresh_limits() -> Iterator[None]:
    reset_rate_limits()
    yield


def post(client: TestClient, headers: dict[str, str], body: dict[str, Any]) -> Any:
    return client.post("/v2/users/beta-tester", json=body, headers=headers)


def test_the_questionnaire_is_saved_and_listed_for_admins(client: TestClient, db: Session) -> None:
    admin, user = factories.user(db, admin=True), factories.user(db, first_name="Bea", last_name="Tester")
    db.commit()
    saved = post(client, factories.bearer(user), ANSWERS)
    assert saved.status_code == 200, saved.text
    assert saved.json()["message"] == "Thank you for your answers"
    assert saved.json()["data"]["answers"] == ANSWERS and saved.json()["data"]["userid"] == user.id
    listed = client.get("/v2/users/get-beta-testers", headers=factories.bearer(admin)).json()
    assert listed["total_items"] == 1 and (listed["limit"], listed["offset"]) == (20, 0)
    row = listed["data"][0]
    assert (row["userid"], row["email"], row["username"]) == (user.id, user.email, "Bea Tester")
    assert row["answers"] == ANSWERS
    groups = client.get("/v2/users/user-groups", headers=factories.bearer(admin)).json()["data"]
    assert {group["id"]: group["count"] for group in groups}["beta_testers"] == 1


def test_every_question_but_the_camera_is_required(client: TestClient, db: Session) -> None:
    user = factories.user(db)
    db.commit()
    headers = factories.bearer(user)
    without_camera = {name: value for name, value in ANSWERS.items() if name != "camera"}
    assert post(client, headers, without_camera).status_code == 200
    missing = post(client, headers, {"creates_tours": "no", "industry": "   ", "camera": "Phone"})
    assert missing.status_code == 400
    assert missing.json()["message"] == "Please answer every required question"
    assert missing.json()["fields"] == {
        name: "Please answer this question"
        for name in (
            "industry",
            "tour_count",
            "hosting_platforms",
            "use_case",
            "country",
            "heard_from",
            "feedback_frequency",
        )
    }
    wrong_choice = post(client, headers, {**ANSWERS, "tour_count": "lots"})
    assert wrong_choice.status_code == 400 and "tour_count" in wrong_choice.json()["fields"]
    too_long = post(client, headers, {**ANSWERS, "use_case": "x" * 1001})
    assert too_long.status_code == 400 and "use_case" in too_long.json()["fields"]


def test_answering_again_replaces_the_answers(client: TestClient, db: Session) -> None:
    user = factories.user(db)
    db.commit()
    headers = factories.bearer(user)
    post(client, headers, ANSWERS)
    again = post(client, headers, {**ANSWERS, "camera": None, "country": "  Spain "})
    assert again.status_code == 200
    rows = db.scalars(select(BetaTesterAnswer)).all()
    assert len(rows) == 1 and rows[0].answers == {**ANSWERS, "camera": None, "country": "Spain"}


def test_a_user_reads_back_their_own_answers(client: TestClient, db: Session) -> None:
    user, other = factories.user(db), factories.user(db)
    db.commit()
    headers = factories.bearer(user)
    before = client.get("/v2/users/beta-tester", headers=headers)
    assert before.status_code == 200 and before.json() == {"data": None}
    post(client, headers, ANSWERS)
    post(client, factories.bearer(other), {**ANSWERS, "country": "Chile"})
    mine = client.get("/v2/users/beta-tester", headers=headers).json()["data"]
    assert mine["userid"] == user.id and mine["answers"] == ANSWERS
    post(client, headers, {**ANSWERS, "camera": "  "})
    assert client.get("/v2/users/beta-tester", headers=headers).json()["data"]["answers"]["camera"] is None
    assert client.get("/v2/users/beta-tester").status_code == 401


def test_beta_testers_are_searched_and_paged(client: TestClient, db: Session) -> None:
    admin = factories.user(db, admin=True)
    testers = [factories.user(db, platform_username=f"tester.{name}") for name in ("ann", "ben", "cat")]
    db.commit()
    for tester in testers:
        post(client, factories.bearer(tester), ANSWERS)
    headers = factories.bearer(admin)
    newest_first = client.get("/v2/users/get-beta-testers", params={"limit": 2}, headers=headers).json()
    assert newest_first["total_items"] == 3
    assert [row["userid"] for row in newest_first["data"]] == [testers[2].id, testers[1].id]
    found = client.get("/v2/users/get-beta-testers", params={"searchPattern": "BEN"}, headers=headers).json()
    assert [row["userid"] for row in found["data"]] == [testers[1].id]
    assert client.get("/v2/users/get-beta-testers", params={"limit": 0}, headers=headers).status_code == 400


# ----------------------------------------------------------------------------------------- bug image


def image_bytes(image_format: str = "PNG") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (32, 20), "orange").save(buffer, format=image_format)
    return buffer.getvalue()


def upload(client: TestClient, headers: dict[str, str], content: bytes, name: str = "bug.png") -> Any:
    return client.post("/v2/users/bug-image", files={"image": (name, content, "image/png")}, headers=headers)


def test_bug_image_is_sniffed_stored_and_served(client: TestClient, db: Session) -> None:
    user = factories.user(db)
    db.commit()
    headers = factories.bearer(user)
    # Named .png but a JPEG inside: the content decides.
    response = upload(client, headers, image_bytes("JPEG"))
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["content_type"] == "image/jpeg" and body["message"] == "The image has been uploaded"
    assert body["path"].startswith("/uploads/bug-images/") and body["path"].endswith(".jpg")
    assert (get_settings().uploads_dir / "bug-images" / body["path"].rsplit("/", 1)[-1]).is_file()
    served = client.get(body["path"])
    assert served.status_code == 200 and served.headers["content-type"] == "image/jpeg"
    with Image.open(io.BytesIO(served.content)) as stored:  # re-encoded, not the uploaded bytes
        assert stored.format == "JPEG" and stored.size == (32, 20)


def test_bug_image_refuses_wrong_types_big_files_and_anonymous_callers(client: TestClient, db: Session) -> None:
    user = factories.user(db)
    db.commit()
    headers = factories.bearer(user)
    folder = get_settings().uploads_dir / "bug-images"
    stored_before = set(folder.iterdir()) if folder.exists() else set()
    text = upload(client, headers, b"just some text", name="notes.png")
    assert text.status_code == 400 and text.json()["fields"] == {"image": "Upload a JPG, PNG or WEBP image"}
    gif = upload(client, headers, image_bytes("GIF"), name="anim.gif")
    assert gif.status_code == 400
    big = upload(client, headers, b"\0" * (2 * 1024 * 1024 + 1))
    assert big.status_code == 400 and big.json()["message"] == "The image is 2.0 MB; the maximum is 2 MB"
    missing = client.post("/v2/users/bug-image", headers=headers)
    assert missing.status_code == 400 and "image" in missing.json()["fields"]
    assert upload(client, {}, image_bytes()).status_code == 401
    # Nothing refused was written.
    assert (set(folder.iterdir()) if folder.exists() else set()) == stored_before
