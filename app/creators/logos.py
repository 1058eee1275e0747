"""Creator logos (POST and GET creator-logo): uploaded through the one image pipeline
(app.core.images: sniffed by content, decoded under a pixel cap, upright, sRGB, re-encoded without
metadata) and shrunk to the size a profile shows, stored under uploads/creator-logos with a random
name. A profile names its logo by the served path; only paths of stored logos are accepted, so a
profile can never point its logo at another site.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import BinaryIO

from app.core import images as pipeline
from app.core.errors import NotFound
from app.core.settings import get_settings

LOGO_FOLDER = "creator-logos"
PUBLIC_PREFIX = f"/uploads/{LOGO_FOLDER}/"
# The Full Profile shows a logo at most ~300 px wide; twice that stays sharp on high-density screens.
LOGO_BOUND = (600, 600)
EXTENSIONS: dict[pipeline.BitmapFormat, str] = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp"}
LOGO_NOT_FOUND = "Image not found"
UPLOAD_RULES = pipeline.UploadRules(
    accepted=frozenset(EXTENSIONS),
    wrong_type="Upload a JPG, PNG or WEBP image",
    oversize="The image is {size} MB; the maximum is {maximum} MB",
)
_STORED_NAME = re.compile(r"^[0-9a-f]{32}\.(?:jpg|png|webp)$")


def _folder() -> Path:
    return get_settings().uploads_dir / LOGO_FOLDER


def store_logo(upload: BinaryIO) -> str:
    """Re-encode an uploaded logo (its own format, transparency kept, within LOGO_BOUND) and return
    its served path; the uploaded bytes themselves are never stored."""
    content = pipeline.read_upload(upload, UPLOAD_RULES)
    decoded = pipeline.decode(content, UPLOAD_RULES)
    encoded = pipeline.encode(decoded.image, decoded.stored_format, bound=LOGO_BOUND)
    name = f"{uuid.uuid4().hex}.{EXTENSIONS[decoded.stored_format]}"
    folder = _folder()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(encoded)
    return PUBLIC_PREFIX + name


def is_stored_logo(path: str) -> bool:
    """Whether the path is one of our stored logos, served at PUBLIC_PREFIX."""
    name = path.rsplit("/", 1)[-1]
    return path == PUBLIC_PREFIX + name and bool(_STORED_NAME.match(name)) and (_folder() / name).is_file()


def public_path(image: str) -> str:
    """GET creator-logo: the served path of a stored logo, by name or path; 404 'Image not found'."""
    name = image.rsplit("/", 1)[-1]
    if not is_stored_logo(PUBLIC_PREFIX + name):
        raise NotFound(LOGO_NOT_FOUND)
    return PUBLIC_PREFIX + name
