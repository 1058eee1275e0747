"""POST /v2/virtualtours/preview-image (spec §5: pdf, jpg, jpeg, png; at most 2 MB) and how an
uploaded preview travels with a tour, including images_approval (spec §6)."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image
from sqlalchemy.orm import Session

from app.core.settings import get_settings
from app.platform.models import PlatformConfig
from app.users.models import User
from tests.api.test_tours import Setup, add, build_setup, grid_guids


@pytest.fixture
def s(db: Session, monkeypatch: pytest.MonkeyPatch) -> Setup:
    return build_setup(db, monkeypatch)


def picture(size: tuple[int, int], image_format: str, mode: str = "RGB", **save: Any) -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, size, (200, 40, 40, 128) if mode == "RGBA" else (200, 40, 40)).save(
        buffer, format=image_format, **save
    )
    return buffer.getvalue()


def upload(client: TestClient, s: Setup, person: User, content: bytes, name: str = "image.bin") -> Any:
    return client.post(
        "/v2/virtualtours/preview-image",
        files={"image": (name, content, "application/octet-stream")},
        headers=s.headers(person),
    )


def stored(path: str) -> Path:
    return get_settings().uploads_dir / path.removeprefix("/uploads/")


@pytest.mark.parametrize(
    ("content", "source_type"),
    [
        (picture((1600, 900), "JPEG"), "jpg"),
        (picture((500, 700), "PNG"), "png"),
        (picture((300, 300), "PNG", mode="RGBA"), "png"),
        (picture((842, 595), "PDF"), "pdf"),
    ],
    ids=["jpg", "png", "transparent-png", "pdf"],
)
def test_uploads_are_resized_for_cards_and_the_tour_page(
    client: TestClient, s: Setup, content: bytes, source_type: str
) -> None:
    response = upload(client, s, s.user, content, name="ignored-name.gif")
    assert response.status_code == 201, response.text
    answer = response.json()
    assert answer["source_type"] == source_type and answer["pending"] is False
    assert answer["path"].startswith("/uploads/previews/") and answer["path"].endswith("-card.jpg")
    with Image.open(stored(answer["path"])) as card:
        assert card.format == "JPEG" and card.size == (600, 400)
    with Image.open(stored(answer["large"])) as large:
        assert large.format == "JPEG" and large.width <= 1200 and large.height <= 800
        assert large.width == 1200 or large.height == 800
    served = client.get(answer["path"])
    assert served.status_code == 200 and served.headers["content-type"] == "image/jpeg"


def test_a_pdf_becomes_the_image_of_its_first_page(client: TestClient, s: Setup) -> None:
    pages = [Image.new("RGB", (600, 400), color) for color in ((10, 200, 10), (10, 10, 200))]
    buffer = io.BytesIO()
    pages[0].save(buffer, format="PDF", save_all=True, append_images=pages[1:])
    answer = upload(client, s, s.user, buffer.getvalue()).json()
    with Image.open(stored(answer["path"])) as card:
        red, green, blue = card.convert("RGB").getpixel((300, 200))  # type: ignore[misc]
    assert green > 150 and red < 80 and blue < 80


def test_an_oversize_image_states_its_size_and_the_maximum(client: TestClient, s: Setup) -> None:
    noise = picture((10, 10), "PNG") + os.urandom(int(3.1 * 1024 * 1024))
    response = upload(client, s, s.user, noise)
    assert response.status_code == 400
    assert response.json()["message"] == "Image is 3.1 MB; the maximum is 2 MB"
    assert response.json()["fields"] == {"image": "Image is 3.1 MB; the maximum is 2 MB"}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (picture((40, 40), "GIF"), "Upload a PDF, JPG, JPEG or PNG image"),
        (picture((40, 40), "WEBP"), "Upload a PDF, JPG, JPEG or PNG image"),
        (b"just some text", "Upload a PDF, JPG, JPEG or PNG image"),
        (b"", "Upload a PDF, JPG, JPEG or PNG image"),
        (picture((40, 40), "PNG")[:60], "The image is damaged or incomplete"),
        (b"%PDF-1.7\n%broken beyond repair", "This PDF cannot be read: upload a JPG or PNG image instead"),
    ],
    ids=["gif", "webp", "text", "empty", "truncated-png", "broken-pdf"],
)
def test_other_files_are_refused_by_their_bytes(client: TestClient, s: Setup, content: bytes, message: str) -> None:
    response = upload(client, s, s.user, content, name="looks-fine.png")
    assert response.status_code == 400 and response.json()["message"] == message


def test_with_images_approval_a_non_admins_image_waits(client: TestClient, db: Session, s: Setup) -> None:
    db.add(PlatformConfig(id=1, restrict_access=False, images_approval=True))
    db.commit()
    waiting = upload(client, s, s.trusted_user, picture((600, 400), "JPEG")).json()
    assert waiting["pending"] is True and "approves" in waiting["message"]
    admins = upload(client, s, s.admin, picture((600, 400), "JPEG")).json()
    assert admins["pending"] is False and admins["message"] == "The image has been uploaded"


def test_an_uploaded_preview_travels_with_the_tour(client: TestClient, s: Setup) -> None:
    answer = upload(client, s, s.trusted_user, picture((1200, 800), "JPEG")).json()
    tour = add(client, s, s.trusted_user, preview_picture=answer["path"])
    assert tour["pending"] is False
    assert tour["data"]["preview_picture"] == answer["path"]
    assert tour["data"]["preview_picture_large"] == answer["large"]
    cards = client.get("/v2/user-recomendations/filtered-grid", params={"mode": "media"}).json()["data"]
    assert [card["preview_picture"] for card in cards if card["type"] == "vt"] == [answer["path"]]


def test_with_images_approval_a_trusted_tour_with_a_new_image_waits(client: TestClient, db: Session, s: Setup) -> None:
    db.add(PlatformConfig(id=1, restrict_access=False, images_approval=True))
    db.commit()
    first = upload(client, s, s.trusted_user, picture((600, 400), "PNG")).json()
    answer = add(client, s, s.trusted_user, preview_picture=first["path"])
    assert answer["pending"] is True and answer["data"]["guid"] not in grid_guids(client)
    without_upload = add(
        client, s, s.trusted_user, link="https://kuula.co/share/Hp001", preview_picture="https://cdn.example/p.jpg"
    )
    assert without_upload["pending"] is False  # the host's own picture is not an upload to review

    guid = without_upload["data"]["guid"]
    second = upload(client, s, s.trusted_user, picture((600, 400), "PNG")).json()
    edit = client.put(
        "/v2/virtualtours/",
        json={**s.payload(link="https://kuula.co/share/Hp001", preview_picture=second["path"]), "guid": guid},
        headers=s.headers(s.trusted_user),
    )
    assert edit.status_code == 200 and edit.json()["data"]["preview_picture"] == "https://cdn.example/p.jpg"
    items = client.get("/v2/virtualtours/approval-items", headers=s.headers(s.admin)).json()["data"]
    assert [item["changes"] for item in items if item["kind"] == "vt_edit"] == [{"preview_picture": second["path"]}]
