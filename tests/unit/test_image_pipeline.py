"""The upload image pipeline (app.core.images) without HTTP: the PDF scale, colour profiles, reading."""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image, ImageCms

from app.core import images as pipeline
from app.core.errors import BadRequest

RULES = pipeline.UploadRules(
    accepted=frozenset({"JPEG", "PNG", "WEBP"}), wrong_type="wrong type", oversize="{size} of {maximum}"
)


@pytest.mark.parametrize(
    "page",
    [(1, 14400), (100, 14400), (720, 14400), (14400, 720), (14400, 14400), (1, 1), (842, 595), (0.5, 7.3)],
)
def test_a_pdf_page_is_never_drawn_beyond_the_pixel_budget(page: tuple[float, float]) -> None:
    width, height = page
    scale = pipeline.pdf_render_scale(width, height, (1200, 800))
    # PDFium rounds each side of the bitmap up.
    assert math.ceil(width * scale) * math.ceil(height * scale) <= pipeline.PDF_MAX_RENDER_PIXELS


def test_a_normal_page_is_drawn_to_cover_the_wanted_size() -> None:
    scale = pipeline.pdf_render_scale(842, 595, (1200, 800))
    assert math.ceil(842 * scale) >= 1200 and math.ceil(595 * scale) >= 800


@pytest.mark.parametrize("profile_name", ["sRGB", "LAB"], ids=["usable", "unusable-for-rgb"])
def test_a_colour_profile_is_applied_and_not_kept(profile_name: str) -> None:
    profile = ImageCms.ImageCmsProfile(ImageCms.createProfile(profile_name))
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), (10, 200, 30)).save(buffer, format="PNG", icc_profile=profile.tobytes())
    decoded = pipeline.decode(buffer.getvalue(), RULES)
    assert "icc_profile" not in decoded.image.info
    red, green, blue = decoded.image.getpixel((0, 0))  # type: ignore[misc]
    assert abs(red - 10) <= 2 and abs(green - 200) <= 2 and abs(blue - 30) <= 2
    with Image.open(io.BytesIO(pipeline.encode(decoded.image, "PNG"))) as stored:
        assert "icc_profile" not in stored.info and stored.mode == "RGB"


@pytest.mark.parametrize("content", [b"GIF89a" + b"\0" * 40, b"<svg xmlns='http://www.w3.org/2000/svg'/>", b""])
def test_only_the_signature_decides_the_type(content: bytes) -> None:
    with pytest.raises(BadRequest) as refused:
        pipeline.decode(content, RULES)
    assert refused.value.message == "wrong type" and refused.value.fields == {"image": "wrong type"}


def test_a_pdf_is_refused_where_pdfs_are_not_accepted() -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (10, 10)).save(buffer, format="PDF")
    with pytest.raises(BadRequest, match="wrong type"):
        pipeline.decode(buffer.getvalue(), RULES)


class Unseekable(io.RawIOBase):
    """A stream that can only be read forward, as a socket."""

    def __init__(self, size: int) -> None:
        self.left = size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        count = min(len(buffer), self.left)
        buffer[:count] = b"\0" * count
        self.left -= count
        return count


@pytest.mark.parametrize(
    "make", [lambda size: io.BytesIO(b"\0" * size), lambda size: io.BufferedReader(Unseekable(size))]
)
def test_an_oversize_upload_is_measured_whole(make: object) -> None:
    stream = make(5 * 1024 * 1024 + 300 * 1024)  # type: ignore[operator]
    with pytest.raises(BadRequest) as refused:
        pipeline.read_upload(stream, RULES)
    assert refused.value.message == "5.3 of 2"


def test_encode_shrinks_to_the_bound_but_never_enlarges() -> None:
    large = Image.new("RGBA", (3000, 1000), (1, 2, 3, 4))
    with Image.open(io.BytesIO(pipeline.encode(large, "WEBP", bound=(1024, 1024)))) as stored:
        assert stored.size == (1024, 341) and stored.mode == "RGBA"
    with Image.open(io.BytesIO(pipeline.encode(Image.new("RGB", (20, 10)), "JPEG", bound=(1024, 1024)))) as small:
        assert small.size == (20, 10)
