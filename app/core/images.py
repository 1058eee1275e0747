"""One pipeline for every uploaded image (profile images, bug-report screenshots, tour previews).

An upload is never stored as it came: its size is checked while it is read, its type is sniffed from
its bytes (never from the name or the content type), it is decoded under a pixel cap (a small PNG can
unpack into gigabytes), turned upright by its EXIF orientation, converted to sRGB and re-encoded with
no metadata at all. Only the re-encoded bytes are stored, so EXIF GPS positions, comments and text
chunks, bytes appended after the image (HTML, scripts) and damaged images never reach /uploads. A
PDF (tour previews only) is drawn by PDFium as an image of its first page, at a scale that keeps the
bitmap within a pixel budget whatever the page size.

Every refusal is a 400 naming the upload field, with a message that says what is wrong.
"""

from __future__ import annotations

import io
import math
import struct
from dataclasses import dataclass
from typing import BinaryIO, Literal

import pypdfium2 as pdfium  # type: ignore[import-untyped]
from PIL import Image, ImageCms, ImageOps, UnidentifiedImageError

from app.core.errors import BadRequest

BitmapFormat = Literal["JPEG", "PNG", "WEBP"]
SourceFormat = Literal["JPEG", "PNG", "WEBP", "PDF"]

MEGABYTE = 1024 * 1024
MAX_UPLOAD_BYTES = 2 * MEGABYTE  # spec §9: images up to 2 MB
# Decoding costs 3 to 4 bytes a pixel: 25 MP (a 24-megapixel camera's 6000 x 4000, a 6K screenshot) is at
# most ~100 MB while it is resized. Larger images are refused before their pixels are decoded.
MAX_SOURCE_PIXELS = 25_000_000
# A PDF page is drawn to cover the caller's size, but never into a bitmap larger than this (16 MB).
PDF_MAX_RENDER_PIXELS = 4_000_000
PDF_MAX_PAGE_POINTS = 14_400  # PDFium's own page-size limit (200 inches); larger is not a real page
# Longer side / shorter side: a page longer than this cannot become a card or a tour-page picture.
PDF_MAX_ASPECT_RATIO = 20
READ_CHUNK_BYTES = 64 * 1024
JPEG_QUALITY = 85
WEBP_QUALITY = 85

DAMAGED = "The image is damaged or incomplete"
PDF_UNREADABLE = "This PDF cannot be read: upload a JPG or PNG image instead"
PDF_PAGE_SHAPE = "This PDF page is too tall or too narrow: upload a JPG or PNG image instead"

_SRGB = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))


@dataclass(frozen=True, slots=True)
class UploadRules:
    """What one upload field accepts and how it words a refusal."""

    accepted: frozenset[BitmapFormat]
    wrong_type: str
    oversize: str  # with {size} and {maximum}, both in MB
    # Set when PDFs are accepted: the size (pixels) the drawn first page must cover.
    pdf_cover: tuple[int, int] | None = None
    max_bytes: int = MAX_UPLOAD_BYTES
    field: str = "image"

    def refuse(self, message: str) -> BadRequest:
        return BadRequest(message, fields={self.field: message})

    def refuse_size(self, size: int) -> BadRequest:
        return self.refuse(self.oversize.format(size=f"{size / MEGABYTE:.1f}", maximum=self.max_bytes // MEGABYTE))


@dataclass(frozen=True, slots=True)
class DecodedImage:
    """An upload's picture: upright, sRGB, RGB or RGBA, no metadata. A PDF's page has no alpha."""

    image: Image.Image
    source_format: SourceFormat

    @property
    def stored_format(self) -> BitmapFormat:
        """The format to store it in: the upload's own, JPEG for a drawn PDF page."""
        return "JPEG" if self.source_format == "PDF" else self.source_format


def read_upload(upload: BinaryIO, rules: UploadRules) -> bytes:
    """The uploaded bytes, refused once they pass the limit; the refusal states the real size, which
    is measured without keeping the rest (the multipart parser has spooled it already)."""
    content = upload.read(rules.max_bytes + 1)
    if len(content) <= rules.max_bytes:
        return content
    if upload.seekable():
        size = upload.seek(0, io.SEEK_END)
    else:
        size = len(content)
        while chunk := upload.read(READ_CHUNK_BYTES):
            size += len(chunk)
    raise rules.refuse_size(size)


def sniff(content: bytes) -> SourceFormat | None:
    """The format the bytes say they are (their signature), whatever the file is called."""
    if content.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if content.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if content[:4] == b"RIFF" and content[8:12] == b"WEBP":
        return "WEBP"
    if content.startswith(b"%PDF-"):
        return "PDF"
    return None


def decode(content: bytes, rules: UploadRules) -> DecodedImage:
    """The upload as a clean picture, or a 400 that says what is wrong (size first)."""
    if len(content) > rules.max_bytes:
        raise rules.refuse_size(len(content))
    source_format = sniff(content)
    if source_format == "PDF" and rules.pdf_cover is not None:
        return DecodedImage(_render_first_page(content, rules, rules.pdf_cover), "PDF")
    if source_format is None or source_format == "PDF" or source_format not in rules.accepted:
        raise rules.refuse(rules.wrong_type)
    return DecodedImage(_decode_bitmap(content, source_format, rules), source_format)


def encode(image: Image.Image, output_format: BitmapFormat, *, bound: tuple[int, int] | None = None) -> bytes:
    """The bytes to store: shrunk to fit `bound` (never enlarged) and written with no metadata."""
    if bound is not None and (image.width > bound[0] or image.height > bound[1]):
        image = image.copy()
        image.thumbnail(bound, Image.Resampling.LANCZOS)
    if output_format == "JPEG" and image.mode != "RGB":
        image = flatten(image)
    image.info = {}  # EXIF, ICC, comments and text chunks would otherwise be written back
    buffer = io.BytesIO()
    if output_format == "JPEG":
        image.save(buffer, format="JPEG", quality=JPEG_QUALITY, optimize=True)
    elif output_format == "WEBP":
        image.save(buffer, format="WEBP", quality=WEBP_QUALITY)
    else:
        image.save(buffer, format="PNG")
    return buffer.getvalue()


def flatten(image: Image.Image) -> Image.Image:
    """An RGB picture; transparent parts on white, as the cards' background."""
    if image.mode == "RGB":
        return image
    rgba = image.convert("RGBA")
    background = Image.new("RGB", image.size, "white")
    background.paste(rgba, mask=rgba.getchannel("A"))
    return background


def pdf_render_scale(width: float, height: float, cover: tuple[int, int]) -> float:
    """The scale that makes a page of `width` x `height` points cover `cover`, lowered so that the
    bitmap PDFium draws (each side rounded up) stays within PDF_MAX_RENDER_PIXELS."""
    wanted = max(cover[0] / width, cover[1] / height)
    # The largest s with (width*s + 1) * (height*s + 1) <= budget: the positive root of the quadratic.
    area, perimeter = width * height, width + height
    affordable = (-perimeter + math.sqrt(perimeter**2 + 4 * area * (PDF_MAX_RENDER_PIXELS - 1))) / (2 * area)
    return min(wanted, affordable)


def _decode_bitmap(content: bytes, image_format: BitmapFormat, rules: UploadRules) -> Image.Image:
    try:
        image = Image.open(io.BytesIO(content), formats=[image_format])
    except Image.DecompressionBombError as exc:  # Pillow's own guard, far above ours
        raise rules.refuse(_too_many_pixels()) from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError, struct.error) as exc:
        raise rules.refuse(rules.wrong_type) from exc
    with image:
        if image.width * image.height > MAX_SOURCE_PIXELS:
            raise rules.refuse(_too_many_pixels(image.size))
        try:
            # Pillow refuses truncated data unless ImageFile.LOAD_TRUNCATED_IMAGES is set; we never set it.
            image.load()
        except (OSError, SyntaxError, ValueError, EOFError, struct.error) as exc:
            raise rules.refuse(DAMAGED) from exc
        # Phone photos carry their rotation in EXIF; apply it so the stored picture stands upright.
        upright = ImageOps.exif_transpose(image)
    clean = _to_srgb(upright)
    clean.info = {}
    return clean


def _too_many_pixels(size: tuple[int, int] | None = None) -> str:
    maximum = f"the maximum is {MAX_SOURCE_PIXELS // 1_000_000} megapixels"
    if size is None:
        return f"The image has too many pixels; {maximum}"
    return f"The image is {size[0]} x {size[1]} pixels; {maximum}"


def _has_alpha(image: Image.Image) -> bool:
    return image.mode in ("RGBA", "LA", "PA", "La", "RGBa") or (image.mode == "P" and "transparency" in image.info)


def _to_srgb(image: Image.Image) -> Image.Image:
    """RGB or RGBA in sRGB: an embedded colour profile (a phone's Display P3, a print CMYK) is applied,
    because the stored picture carries none."""
    mode = "RGBA" if _has_alpha(image) else "RGB"
    profile = image.info.get("icc_profile")
    if profile:
        try:
            source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
            converted = ImageCms.profileToProfile(image, source, _SRGB, outputMode=mode)
        except (ImageCms.PyCMSError, OSError, ValueError):
            converted = None  # a broken or unusable profile: the colours as they are
        if converted is not None:
            return converted
    return image.convert(mode) if image.mode != mode else image


def _render_first_page(content: bytes, rules: UploadRules, cover: tuple[int, int]) -> Image.Image:
    try:
        document = pdfium.PdfDocument(content)
    except pdfium.PdfiumError as exc:
        raise rules.refuse(PDF_UNREADABLE) from exc
    try:
        if len(document) == 0:
            raise rules.refuse(PDF_UNREADABLE)
        page = document[0]
        width, height = page.get_size()
        if not (0 < width <= PDF_MAX_PAGE_POINTS and 0 < height <= PDF_MAX_PAGE_POINTS):
            raise rules.refuse(PDF_UNREADABLE)
        if max(width, height) / min(width, height) > PDF_MAX_ASPECT_RATIO:
            raise rules.refuse(PDF_PAGE_SHAPE)
        try:
            bitmap = page.render(scale=pdf_render_scale(width, height, cover))
        except pdfium.PdfiumError as exc:
            raise rules.refuse(PDF_UNREADABLE) from exc
        rendered: Image.Image = bitmap.to_pil()
        return flatten(rendered)
    finally:
        document.close()
