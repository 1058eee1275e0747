"""Tour preview images (spec §5: pdf, jpg, jpeg, png; at most 2 MB; recommended 600x400).

The type is sniffed from the bytes, never from the name or header: Pillow recognises JPEG and PNG;
a PDF (its `%PDF-` signature) is drawn by PDFium (pypdfium2) as an image of its first page. Each
upload is stored twice under uploads/previews with one random name: `<name>-card.jpg`, cropped to
the 600x400 of the cards, and `<name>.jpg`, fitted within 1200x800 for the tour page. The card path
is what the add/edit payload carries as preview_picture.
"""

from __future__ import annotations

import io
import re
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal

import pypdfium2 as pdfium  # type: ignore[import-untyped]
from PIL import Image, ImageOps, UnidentifiedImageError
from sqlalchemy.orm import Session

from app.core.errors import BadRequest
from app.core.settings import get_settings
from app.platform.models import PLATFORM_CONFIG_ID, PlatformConfig
from app.users.models import User

MAX_UPLOAD_BYTES = 2 * 1024 * 1024  # spec §9: preview image at most 2 MB
MAX_IMAGE_PIXELS = 40_000_000  # refuses decompression bombs before decoding
MAX_PDF_PAGE_POINTS = 14_400  # PDFium's own page-size limit (200 inches); larger is not a real page
CARD_SIZE = (600, 400)
LARGE_SIZE = (1200, 800)
JPEG_QUALITY = 85
FOLDER = "previews"
PUBLIC_PREFIX = f"/uploads/{FOLDER}/"
CARD_SUFFIX = "-card.jpg"
WRONG_TYPE = "Upload a PDF, JPG, JPEG or PNG image"
UNREADABLE_PDF = "This PDF cannot be read: upload a JPG or PNG image instead"
SAVED_MESSAGE = "The image has been uploaded"
PENDING_MESSAGE = "The image has been uploaded; it will be shown once an administrator approves it"
_STORED = re.compile(r"^/uploads/previews/([0-9a-f]{32})(?:-card)?\.jpg$")

SourceType = Literal["jpg", "png", "pdf"]


@dataclass(frozen=True, slots=True)
class StoredPreview:
    card: str
    large: str
    source_type: SourceType


def _folder() -> Path:
    return get_settings().uploads_dir / FOLDER


def oversize_message(size: int) -> str:
    megabytes = size / (1024 * 1024)
    return f"Image is {megabytes:.1f} MB; the maximum is {MAX_UPLOAD_BYTES // (1024 * 1024)} MB"


def _refuse(message: str) -> BadRequest:
    return BadRequest(message, fields={"image": message})


def _decode_bitmap(content: bytes) -> tuple[Image.Image, SourceType]:
    try:
        image = Image.open(io.BytesIO(content))
        if image.format not in ("JPEG", "PNG") or image.width * image.height > MAX_IMAGE_PIXELS:
            raise _refuse(WRONG_TYPE)
        image.load()
    except (UnidentifiedImageError, OSError, SyntaxError, Image.DecompressionBombError) as exc:
        raise _refuse(WRONG_TYPE) from exc
    source_type: SourceType = "jpg" if image.format == "JPEG" else "png"
    # Phone photos carry their rotation in EXIF; apply it so the preview stands upright.
    return ImageOps.exif_transpose(image), source_type


def _render_pdf(content: bytes) -> Image.Image:
    """The first page, drawn so that its longer side covers the large size."""
    try:
        document = pdfium.PdfDocument(content)
    except pdfium.PdfiumError as exc:
        raise _refuse(UNREADABLE_PDF) from exc
    try:
        if len(document) == 0:
            raise _refuse(UNREADABLE_PDF)
        page = document[0]
        width, height = page.get_size()
        if not (0 < width <= MAX_PDF_PAGE_POINTS and 0 < height <= MAX_PDF_PAGE_POINTS):
            raise _refuse(UNREADABLE_PDF)
        scale = max(LARGE_SIZE[0] / width, LARGE_SIZE[1] / height)
        bitmap = page.render(scale=scale)
        image: Image.Image = bitmap.to_pil()
        return image
    finally:
        document.close()


def read_upload(upload: BinaryIO) -> bytes:
    """The uploaded bytes. The multipart parser has spooled the whole file already, so its size is
    known without reading it: an oversize upload is refused stating its real size."""
    upload.seek(0, io.SEEK_END)
    size = upload.tell()
    upload.seek(0)
    if size > MAX_UPLOAD_BYTES:
        raise _refuse(oversize_message(size))
    return upload.read(MAX_UPLOAD_BYTES + 1)


def decode_upload(content: bytes) -> tuple[Image.Image, SourceType]:
    """The uploaded picture as an RGB image, or a 400 that says what is wrong (size first)."""
    if len(content) > MAX_UPLOAD_BYTES:
        raise _refuse(oversize_message(len(content)))
    if not content:
        raise _refuse(WRONG_TYPE)
    source_type: SourceType
    if content.startswith(b"%PDF-"):
        image, source_type = _render_pdf(content), "pdf"
    else:
        image, source_type = _decode_bitmap(content)
    if image.mode != "RGB":
        # Transparent PNGs go on white, as the cards' background.
        background = Image.new("RGB", image.size, "white")
        rgba = image.convert("RGBA")
        background.paste(rgba, mask=rgba.getchannel("A"))
        image = background
    return image, source_type


def store_preview(content: bytes) -> StoredPreview:
    """Decode, resize and store an upload; answers the public paths of both sizes."""
    image, source_type = decode_upload(content)
    card = ImageOps.fit(image, CARD_SIZE, method=Image.Resampling.LANCZOS)
    large = ImageOps.contain(image, LARGE_SIZE, method=Image.Resampling.LANCZOS)
    folder = _folder()
    folder.mkdir(parents=True, exist_ok=True)
    name = uuid.uuid4().hex
    card.save(folder / f"{name}{CARD_SUFFIX}", format="JPEG", quality=JPEG_QUALITY, optimize=True)
    large.save(folder / f"{name}.jpg", format="JPEG", quality=JPEG_QUALITY, optimize=True)
    return StoredPreview(
        card=f"{PUBLIC_PREFIX}{name}{CARD_SUFFIX}", large=f"{PUBLIC_PREFIX}{name}.jpg", source_type=source_type
    )


def is_stored_preview(path: str) -> bool:
    """Whether `path` names an upload of this pipeline that is still on disk."""
    if not _STORED.match(path):
        return False
    return (_folder() / path.removeprefix(PUBLIC_PREFIX)).is_file()


def is_upload(path: str | None) -> bool:
    return bool(path and _STORED.match(path))


def large_path_of(path: str | None) -> str | None:
    """The tour page's copy of an uploaded preview; other pictures (the host's, the demo's) as they are."""
    if path is None:
        return None
    match = _STORED.match(path)
    return f"{PUBLIC_PREFIX}{match.group(1)}.jpg" if match else path


def images_approval_on(session: Session) -> bool:
    config = session.get(PlatformConfig, PLATFORM_CONFIG_ID)
    return bool(config is not None and config.images_approval)


def needs_approval(session: Session, uploader: User) -> bool:
    """Spec §6: with images_approval on, a non-admin's new image waits for an administrator."""
    return images_approval_on(session) and not uploader.is_admin
