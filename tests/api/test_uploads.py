"""Every image upload goes through one pipeline (issue 12, defects 2 and 3): the bytes are decoded under
a pixel cap, re-encoded without metadata and only the re-encoded bytes are stored; a PDF page is drawn
within a pixel budget; /uploads answers with `X-Content-Type-Options: nosniff`."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pytest
from fastapi.testclient import TestClient
from PIL import ExifTags, Image
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.core import images as pipeline
from app.core.settings import get_settings
from tests import factories

PROFILE = "/v2/users/profile-image"
BUG = "/v2/users/bug-image"
PREVIEW = "/v2/virtualtours/preview-image"
ALL_ENDPOINTS = [PROFILE, BUG, PREVIEW]


@pytest.fixture(autouse=True)
def fresh_limits() -> Iterator[None]:
    reset_rate_limits()
    yield


@pytest.fixture
def headers(db: Session) -> dict[str, str]:
    user = factories.user(db)
    db.commit()
    return factories.bearer(user)


def upload(client: TestClient, endpoint: str, headers: dict[str, str], content: bytes) -> Any:
    return client.post(endpoint, files={"image": ("photo.png", content, "image/png")}, headers=headers)


def stored_file(path: str) -> Path:
    return get_settings().uploads_dir / path.removeprefix("/uploads/")


def noise_jpeg(size: tuple[int, int] = (400, 300), **save: Any) -> bytes:
    """A photo-like JPEG: noise keeps the compressed scan long, so a cut lands inside it."""
    image = Image.frombytes("RGB", size, os.urandom(size[0] * size[1] * 3))
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=90, **save)
    return buffer.getvalue()


def phone_photo_with_gps() -> bytes:
    """A JPEG as a phone writes it: GPS position, camera model, a comment and a 90° rotation flag."""
    exif = Image.Exif()
    exif[ExifTags.Base.Make] = "PhoneMaker"
    exif[ExifTags.Base.Orientation] = 6  # stored sideways: displayed rotated 90° clockwise
    gps = exif.get_ifd(ExifTags.IFD.GPSInfo)
    gps[ExifTags.GPS.GPSLatitudeRef] = "N"
    gps[ExifTags.GPS.GPSLatitude] = (52.0, 31.0, 12.5)
    gps[ExifTags.GPS.GPSLongitudeRef] = "E"
    gps[ExifTags.GPS.GPSLongitude] = (13.0, 24.0, 36.0)
    return noise_jpeg((80, 40), exif=exif, comment=b"home address")


# ------------------------------------------------------------------------------------- metadata


@pytest.mark.parametrize("endpoint", [PROFILE, BUG])
def test_exif_gps_and_comments_are_stripped_and_the_rotation_applied(
    client: TestClient, headers: dict[str, str], endpoint: str
) -> None:
    original = phone_photo_with_gps()
    with Image.open(io.BytesIO(original)) as check:  # the fixture really carries the position
        assert check.getexif().get_ifd(ExifTags.IFD.GPSInfo)
    response = upload(client, endpoint, headers, original)
    assert response.status_code in (200, 201), response.text
    content = stored_file(response.json()["path"]).read_bytes()
    assert b"Exif" not in content and b"PhoneMaker" not in content and b"home address" not in content
    with Image.open(io.BytesIO(content)) as stored:
        assert stored.format == "JPEG" and not stored.getexif()
        assert stored.size == (40, 80)  # turned upright, so no orientation flag is needed


def test_png_text_chunks_are_not_kept(client: TestClient, headers: dict[str, str]) -> None:
    from PIL.PngImagePlugin import PngInfo

    text = PngInfo()
    text.add_text("Location", "52.52N 13.41E")
    buffer = io.BytesIO()
    Image.new("RGBA", (30, 30), (0, 90, 200, 128)).save(buffer, format="PNG", pnginfo=text)
    response = upload(client, PROFILE, headers, buffer.getvalue())
    assert response.status_code == 200, response.text
    content = stored_file(response.json()["path"]).read_bytes()
    assert b"52.52N" not in content
    with Image.open(io.BytesIO(content)) as stored:
        assert stored.format == "PNG" and stored.mode == "RGBA"  # transparency survives


# ------------------------------------------------------------------------------ broken or padded


@pytest.mark.parametrize("endpoint", ALL_ENDPOINTS)
def test_a_truncated_jpeg_is_refused(client: TestClient, headers: dict[str, str], endpoint: str) -> None:
    whole = noise_jpeg()
    response = upload(client, endpoint, headers, whole[: len(whole) * 2 // 3])
    assert response.status_code == 400, response.text
    assert response.json()["fields"] == {"image": response.json()["message"]}
    assert response.json()["message"] == "The image is damaged or incomplete"


@pytest.mark.parametrize("endpoint", [PROFILE, BUG])
def test_html_appended_to_a_jpeg_is_not_stored(client: TestClient, headers: dict[str, str], endpoint: str) -> None:
    response = upload(client, endpoint, headers, noise_jpeg((60, 40)) + b"<html><script>alert(1)</script></html>")
    assert response.status_code in (200, 201), response.text
    content = stored_file(response.json()["path"]).read_bytes()
    assert b"<script" not in content and content.endswith(b"\xff\xd9")  # ends at the JPEG's own end marker


# ----------------------------------------------------------------------------------- dimensions


@pytest.mark.parametrize("endpoint", ALL_ENDPOINTS)
def test_a_40_megapixel_png_is_refused_before_decoding(
    client: TestClient, headers: dict[str, str], endpoint: str
) -> None:
    buffer = io.BytesIO()
    Image.new("1", (7000, 5700)).save(buffer, format="PNG")  # 39.9 MP in a few kilobytes
    assert len(buffer.getvalue()) < 2 * 1024 * 1024
    response = upload(client, endpoint, headers, buffer.getvalue())
    assert response.status_code == 400, response.text
    message = "The image is 7000 x 5700 pixels; the maximum is 25 megapixels"
    assert response.json()["message"] == message and response.json()["fields"] == {"image": message}


def test_a_decompression_bomb_is_refused_by_pillows_own_guard(client: TestClient, headers: dict[str, str]) -> None:
    buffer = io.BytesIO()
    Image.new("1", (15000, 15000)).save(buffer, format="PNG")  # 225 MP: Pillow refuses it while opening
    response = upload(client, PROFILE, headers, buffer.getvalue())
    assert response.status_code == 400, response.text
    assert response.json()["message"] == "The image has too many pixels; the maximum is 25 megapixels"


def test_a_large_profile_image_is_stored_at_avatar_size(client: TestClient, headers: dict[str, str]) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (3000, 2000), "teal").save(buffer, format="PNG")
    response = upload(client, PROFILE, headers, buffer.getvalue())
    assert response.status_code == 200, response.text
    with Image.open(stored_file(response.json()["path"])) as stored:
        assert stored.size == (1024, 683)


def test_a_large_bug_screenshot_keeps_a_readable_size(client: TestClient, headers: dict[str, str]) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (5120, 2880), "white").save(buffer, format="PNG")
    response = upload(client, BUG, headers, buffer.getvalue())
    assert response.status_code == 200, response.text
    with Image.open(stored_file(response.json()["path"])) as stored:
        assert stored.size == (2560, 1440)


# ------------------------------------------------------------------------------------ file size


@pytest.mark.parametrize(
    ("endpoint", "message"),
    [
        (PROFILE, "The image is 20.0 MB; the maximum is 2 MB"),
        (BUG, "The image is 20.0 MB; the maximum is 2 MB"),
        (PREVIEW, "Image is 20.0 MB; the maximum is 2 MB"),
    ],
)
def test_an_oversize_upload_states_its_real_size(
    client: TestClient, headers: dict[str, str], endpoint: str, message: str
) -> None:
    response = upload(client, endpoint, headers, b"\0" * (20 * 1024 * 1024))
    assert response.status_code == 400
    assert response.json()["message"] == message and response.json()["fields"] == {"image": message}


# ------------------------------------------------------------------------------------------ PDF


def pdf_page(width_points: int, height_points: int) -> bytes:
    """A one-page PDF of that size in points, drawn from a small picture (one pixel per 100 points)."""
    pixels = (-(-width_points // 100), -(-height_points // 100))
    dpi = (72 * pixels[0] / width_points, 72 * pixels[1] / height_points)
    buffer = io.BytesIO()
    Image.new("RGB", pixels, (20, 160, 20)).save(buffer, format="PDF", dpi=dpi)
    return buffer.getvalue()


@pytest.fixture
def rendered_pixels(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pixel count of every bitmap PDFium draws."""
    counts: list[int] = []
    original = pdfium.PdfPage.render

    def counting_render(page: Any, *args: Any, **kwargs: Any) -> Any:
        bitmap = original(page, *args, **kwargs)
        counts.append(bitmap.width * bitmap.height)
        return bitmap

    monkeypatch.setattr(pdfium.PdfPage, "render", counting_render)
    return counts


@pytest.mark.parametrize("size", [(1, 14400), (100, 14400), (14400, 100)], ids=["1x14400", "100x14400", "14400x100"])
def test_an_absurdly_tall_or_wide_pdf_page_is_refused_without_drawing_it(
    client: TestClient, headers: dict[str, str], rendered_pixels: list[int], size: tuple[int, int]
) -> None:
    response = upload(client, PREVIEW, headers, pdf_page(*size))
    assert response.status_code == 400, response.text
    message = "This PDF page is too tall or too narrow: upload a JPG or PNG image instead"
    assert response.json()["message"] == message and response.json()["fields"] == {"image": message}
    assert rendered_pixels == []


@pytest.mark.parametrize("size", [(720, 14400), (14400, 720), (14400, 14400), (1, 1)])
def test_a_pdf_page_is_drawn_within_the_pixel_budget(
    client: TestClient, headers: dict[str, str], rendered_pixels: list[int], size: tuple[int, int]
) -> None:
    response = upload(client, PREVIEW, headers, pdf_page(*size))
    assert response.status_code == 201, response.text
    assert len(rendered_pixels) == 1 and rendered_pixels[0] <= pipeline.PDF_MAX_RENDER_PIXELS
    with Image.open(stored_file(response.json()["path"])) as card:
        assert card.size == (600, 400)


# --------------------------------------------------------------------------------------- serving


def test_uploads_are_served_with_nosniff(client: TestClient, headers: dict[str, str]) -> None:
    path = upload(client, PROFILE, headers, noise_jpeg((20, 20))).json()["path"]
    served = client.get(path)
    assert served.status_code == 200 and served.headers["x-content-type-options"] == "nosniff"
    missing = client.get("/uploads/profile-images/" + "0" * 32 + ".jpg")
    assert missing.status_code == 404 and missing.headers["x-content-type-options"] == "nosniff"
