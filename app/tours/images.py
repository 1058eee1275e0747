"""Tour preview images (spec §5: pdf, jpg, jpeg, png; at most 2 MB; recommended 600x400).

Every upload goes through the image pipeline (app.core.images): the type is sniffed from the bytes,
never from the name or header; JPEG and PNG are decoded under a pixel cap, a PDF (its `%PDF-`
signature) is drawn by PDFium as an image of its first page within a pixel budget. Each upload is
stored twice under uploads/previews with one random name, re-encoded without metadata:
`<name>-card.jpg`, cropped to the 600x400 of the cards, and `<name>.jpg`, fitted within 1200x800 for
the tour page. The card path is what the add/edit payload carries as preview_picture.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal

from PIL import Image, ImageOps
from sqlalchemy.orm import Session

from app.core import images as pipeline
from app.core.settings import get_settings
from app.platform.models import PLATFORM_CONFIG_ID, PlatformConfig
from app.users.models import User

CARD_SIZE = (600, 400)
LARGE_SIZE = (1200, 800)
FOLDER = "previews"
PUBLIC_PREFIX = f"/uploads/{FOLDER}/"
CARD_SUFFIX = "-card.jpg"
WRONG_TYPE = "Upload a PDF, JPG, JPEG or PNG image"
SAVED_MESSAGE = "The image has been uploaded"
PENDING_MESSAGE = "The image has been uploaded; it will be shown once an administrator approves it"
UPLOAD_RULES = pipeline.UploadRules(
    accepted=frozenset({"JPEG", "PNG"}),
    wrong_type=WRONG_TYPE,
    oversize="Image is {size} MB; the maximum is {maximum} MB",
    pdf_cover=LARGE_SIZE,  # the tour page's picture is cut from the drawn page
)
_STORED = re.compile(r"^/uploads/previews/([0-9a-f]{32})(?:-card)?\.jpg$")

SourceType = Literal["jpg", "png", "pdf"]
_SOURCE_TYPES: dict[pipeline.SourceFormat, SourceType] = {"JPEG": "jpg", "PNG": "png", "PDF": "pdf"}


@dataclass(frozen=True, slots=True)
class StoredPreview:
    card: str
    large: str
    source_type: SourceType


def _folder() -> Path:
    return get_settings().uploads_dir / FOLDER


def read_upload(upload: BinaryIO) -> bytes:
    """The uploaded bytes; an upload over 2 MB is refused stating its real size."""
    return pipeline.read_upload(upload, UPLOAD_RULES)


def decode_upload(content: bytes) -> tuple[Image.Image, SourceType]:
    """The uploaded picture as an RGB image, or a 400 that says what is wrong (size first)."""
    decoded = pipeline.decode(content, UPLOAD_RULES)
    return pipeline.flatten(decoded.image), _SOURCE_TYPES[decoded.source_format]


def store_preview(content: bytes) -> StoredPreview:
    """Decode, resize and store an upload; answers the public paths of both sizes."""
    image, source_type = decode_upload(content)
    card = ImageOps.fit(image, CARD_SIZE, method=Image.Resampling.LANCZOS)
    large = ImageOps.contain(image, LARGE_SIZE, method=Image.Resampling.LANCZOS)
    folder = _folder()
    folder.mkdir(parents=True, exist_ok=True)
    name = uuid.uuid4().hex
    (folder / f"{name}{CARD_SUFFIX}").write_bytes(pipeline.encode(card, "JPEG"))
    (folder / f"{name}.jpg").write_bytes(pipeline.encode(large, "JPEG"))
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
