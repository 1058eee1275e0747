"""Profile images: sniffed by content (never trusted by name or header), stored under
uploads/profile-images with a random name, and served at /uploads/profile-images/<name>."""

from __future__ import annotations

import io
import re
import uuid
from pathlib import Path

from PIL import Image, UnidentifiedImageError
from sqlalchemy.orm import Session

from app.core.db import utcnow
from app.core.errors import BadRequest, NotFound
from app.core.settings import get_settings
from app.moderation.models import ApprovalItem, ApprovalKind
from app.platform.models import PLATFORM_CONFIG_ID, PlatformConfig
from app.users.models import User

MAX_IMAGE_BYTES = 2 * 1024 * 1024  # spec §9: images up to 2 MB
MAX_IMAGE_PIXELS = 40_000_000  # refuses decompression bombs before decoding
IMAGE_FOLDER = "profile-images"
PUBLIC_PREFIX = f"/uploads/{IMAGE_FOLDER}/"
EXTENSIONS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp"}
IMAGE_NOT_FOUND = "Image not found"
WRONG_TYPE = "Upload a JPG, PNG or WEBP image"
_STORED_NAME = re.compile(r"^[0-9a-f]{32}\.(?:jpg|png|webp)$")


def _folder() -> Path:
    return get_settings().uploads_dir / IMAGE_FOLDER


def sniff_image(content: bytes) -> str:
    """The file extension for an acceptable image, or a 400 that says what is wrong."""
    if len(content) > MAX_IMAGE_BYTES:
        size = len(content) / (1024 * 1024)
        message = f"The image is {size:.1f} MB; the maximum is {MAX_IMAGE_BYTES // (1024 * 1024)} MB"
        raise BadRequest(message, fields={"image": message})
    try:
        with Image.open(io.BytesIO(content)) as image:
            image_format = image.format or ""
            width, height = image.size
            image.verify()
    except (UnidentifiedImageError, OSError, SyntaxError, Image.DecompressionBombError) as exc:
        raise BadRequest(WRONG_TYPE, fields={"image": WRONG_TYPE}) from exc
    if image_format not in EXTENSIONS or width * height > MAX_IMAGE_PIXELS:
        raise BadRequest(WRONG_TYPE, fields={"image": WRONG_TYPE})
    return EXTENSIONS[image_format]


def store_image(content: bytes) -> str:
    """Write a sniffed image and return its public path."""
    extension = sniff_image(content)
    folder = _folder()
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{uuid.uuid4().hex}.{extension}"
    (folder / name).write_bytes(content)
    return PUBLIC_PREFIX + name


def public_path(image: str) -> str:
    """GET profile-image: the served path of a stored image (by name or path); 404 'Image not found'."""
    name = image.rsplit("/", 1)[-1]
    if not _STORED_NAME.match(name) or not (_folder() / name).is_file():
        raise NotFound(IMAGE_NOT_FOUND)
    return PUBLIC_PREFIX + name


def set_profile_image(session: Session, *, user: User, editor: User, path: str) -> bool:
    """Use an uploaded image as the profile image; with images_approval on, a non-admin's image waits
    for approval (spec §4 "Profile images also wait"). True when it is pending."""
    config = session.get(PlatformConfig, PLATFORM_CONFIG_ID)
    if config is not None and config.images_approval and not editor.is_admin:
        session.add(
            ApprovalItem(
                kind=ApprovalKind.profile_image,
                entity_type="user",
                entity_id=user.id,
                payload={"profile_img": path},
                submitted_by_user_id=user.id,
                created_at=utcnow(),
            )
        )
        session.flush()
        return True
    user.profile_img = path
    session.flush()
    return False
