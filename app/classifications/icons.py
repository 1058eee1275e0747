"""Category icons (spec §3 Category: `image_search`, `source_image_search`; §7 GET category-icon).

Two kinds of icon:
- `local`: `image_search` names an icon the app draws itself (a Tabler icon name, e.g. "trees").
- `cloud`: an uploaded picture. It goes through the one image pipeline (app.core.images: sniffed by
  content, never by name; decoded under a pixel cap; upright, sRGB, no metadata), is shrunk to
  ICON_BOUND, stored under uploads/category-icons with a random name and served at
  /uploads/category-icons/<name>. `image_search` holds that name; GET category-icon answers its path.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import BinaryIO

from app.classifications.models import ImageSource
from app.core import images as pipeline
from app.core.errors import BadRequest, NotFound
from app.core.settings import get_settings

ICON_FOLDER = "category-icons"
PUBLIC_PREFIX = f"/uploads/{ICON_FOLDER}/"
# The category strip shows an icon at 16-24 px, the admin list at 48: 128 px stays sharp on every screen.
ICON_BOUND = (128, 128)
EXTENSIONS: dict[pipeline.BitmapFormat, str] = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp"}
ICON_NOT_FOUND = "Icon not found"
LOCAL_ICON_NAME = "A local icon is named by lowercase letters, digits and dashes (e.g. building-bank)"
CLOUD_ICON_UNKNOWN = "Upload the icon first (POST category-icon) and give the name it answers"
LOCAL_HAS_NO_PATH = "A local icon is drawn by the app and has no path"
UPLOAD_RULES = pipeline.UploadRules(
    accepted=frozenset(EXTENSIONS),
    wrong_type="Upload a JPG, PNG or WEBP image",
    oversize="The image is {size} MB; the maximum is {maximum} MB",
)
_STORED_NAME = re.compile(r"^[0-9a-f]{32}\.(?:jpg|png|webp)$")
_LOCAL_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def _folder() -> Path:
    return get_settings().uploads_dir / ICON_FOLDER


def store_icon(upload: BinaryIO) -> str:
    """Re-encode an uploaded icon (its own format, transparency kept, within ICON_BOUND); returns the
    stored name, which a category's `image_search` takes with source `cloud`."""
    content = pipeline.read_upload(upload, UPLOAD_RULES)
    decoded = pipeline.decode(content, UPLOAD_RULES)
    encoded = pipeline.encode(decoded.image, decoded.stored_format, bound=ICON_BOUND)
    name = f"{uuid.uuid4().hex}.{EXTENSIONS[decoded.stored_format]}"
    folder = _folder()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(encoded)
    return name


def _stored_name(image: str) -> str | None:
    name = image.rsplit("/", 1)[-1]
    if image not in (name, PUBLIC_PREFIX + name) or not _STORED_NAME.match(name):
        return None
    return name if (_folder() / name).is_file() else None


def served_path(name: str) -> str:
    return PUBLIC_PREFIX + name


def icon_path(source: ImageSource | str | None, image: str | None) -> str | None:
    """The served path of a category's icon: only an uploaded (cloud) icon has one."""
    if source != ImageSource.cloud or not image:
        return None
    name = _stored_name(image)
    return served_path(name) if name else None


def public_path(source: str, image: str) -> str:
    """GET category-icon: the served path of an uploaded icon, by name or path."""
    if source == ImageSource.local:
        raise BadRequest(LOCAL_HAS_NO_PATH, fields={"type": LOCAL_HAS_NO_PATH})
    name = _stored_name(image)
    if name is None:
        raise NotFound(ICON_NOT_FOUND, fields={"image": ICON_NOT_FOUND})
    return served_path(name)


def checked_icon(source: ImageSource, image: str | None) -> str | None:
    """A category's `image_search` as stored for its source: a local icon's name, or the name of an
    uploaded icon (a path to it is accepted); nothing else, so no category points at another site."""
    if image is None or not image.strip():
        return None
    image = image.strip()
    if source == ImageSource.local:
        if len(image) > 64 or not _LOCAL_NAME.match(image):
            raise BadRequest(LOCAL_ICON_NAME, fields={"image_search": LOCAL_ICON_NAME})
        return image
    name = _stored_name(image)
    if name is None:
        raise BadRequest(CLOUD_ICON_UNKNOWN, fields={"image_search": CLOUD_ICON_UNKNOWN})
    return name
