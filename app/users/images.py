"""Uploaded images of the users domain: profile images and bug-report screenshots.

Every upload goes through the image pipeline (app.core.images): sniffed by content, decoded under a
pixel cap, re-encoded in its own format without metadata and shrunk to the size it is shown at, then
stored under uploads/<folder> with a random name and served at /uploads/<folder>/<name>.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import BinaryIO

from sqlalchemy.orm import Session

from app.core import images as pipeline
from app.core.after_commit import after_commit
from app.core.errors import NotFound
from app.core.settings import get_settings
from app.moderation.models import ApprovalKind
from app.platform.models import PLATFORM_CONFIG_ID, PlatformConfig
from app.users import approval_queue
from app.users.models import User

IMAGE_FOLDER = "profile-images"
BUG_IMAGE_FOLDER = "bug-images"
PUBLIC_PREFIX = f"/uploads/{IMAGE_FOLDER}/"
PROFILE_IMAGE_BOUND = (1024, 1024)  # an avatar is shown at most a few hundred pixels wide
BUG_IMAGE_BOUND = (2560, 2560)  # a screenshot stays readable at a laptop's full resolution
EXTENSIONS: dict[pipeline.BitmapFormat, str] = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp"}
CONTENT_TYPES = {"jpg": "image/jpeg", "png": "image/png", "webp": "image/webp"}
IMAGE_NOT_FOUND = "Image not found"
WRONG_TYPE = "Upload a JPG, PNG or WEBP image"
UPLOAD_RULES = pipeline.UploadRules(
    accepted=frozenset(EXTENSIONS),
    wrong_type=WRONG_TYPE,
    oversize="The image is {size} MB; the maximum is {maximum} MB",
)
_STORED_NAME = re.compile(r"^[0-9a-f]{32}\.(?:jpg|png|webp)$")


@dataclass(frozen=True)
class StoredImage:
    path: str
    content_type: str


def _folder(folder: str = IMAGE_FOLDER) -> Path:
    return get_settings().uploads_dir / folder


def read_upload(upload: BinaryIO) -> bytes:
    """The uploaded bytes; an upload over 2 MB is refused stating its real size."""
    return pipeline.read_upload(upload, UPLOAD_RULES)


def store_upload(content: bytes, folder: str, bound: tuple[int, int]) -> StoredImage:
    """Re-encode an uploaded image (same format, within `bound`, no metadata) under uploads/<folder>
    and say where it is served; the uploaded bytes themselves are never stored."""
    decoded = pipeline.decode(content, UPLOAD_RULES)
    encoded = pipeline.encode(decoded.image, decoded.stored_format, bound=bound)
    extension = EXTENSIONS[decoded.stored_format]
    target = _folder(folder)
    target.mkdir(parents=True, exist_ok=True)
    name = f"{uuid.uuid4().hex}.{extension}"
    (target / name).write_bytes(encoded)
    return StoredImage(path=f"/uploads/{folder}/{name}", content_type=CONTENT_TYPES[extension])


def store_image(content: bytes) -> str:
    """Store an uploaded profile image at avatar size and return its public path."""
    return store_upload(content, IMAGE_FOLDER, PROFILE_IMAGE_BOUND).path


def store_bug_image(content: bytes) -> StoredImage:
    """POST bug-image: a screenshot for a bug report, stored before the report that will name it."""
    return store_upload(content, BUG_IMAGE_FOLDER, BUG_IMAGE_BOUND)


def public_path(image: str) -> str:
    """GET profile-image: the served path of a stored image (by name or path); 404 'Image not found'."""
    name = image.rsplit("/", 1)[-1]
    if not _STORED_NAME.match(name) or not (_folder() / name).is_file():
        raise NotFound(IMAGE_NOT_FOUND)
    return PUBLIC_PREFIX + name


def discard_after_commit(session: Session, path: str) -> None:
    """Remove a rejected profile image's file once the rejection commits (a rolled-back rejection
    keeps it); a path that is not one of our stored images is left alone."""
    name = path.rsplit("/", 1)[-1]
    if path == PUBLIC_PREFIX + name and _STORED_NAME.match(name):
        file = _folder() / name
        after_commit(session, partial(file.unlink, missing_ok=True), description=f"remove {name}")


def set_profile_image(session: Session, *, user: User, editor: User, path: str) -> bool:
    """Use an uploaded image as the profile image; with images_approval on, a non-admin's image waits
    for approval (spec §4 "Profile images also wait"). True when it is pending."""
    config = session.get(PlatformConfig, PLATFORM_CONFIG_ID)
    if config is not None and config.images_approval and not editor.is_admin:
        approval_queue.file_item(session, kind=ApprovalKind.profile_image, user=user, payload={"profile_img": path})
        return True
    user.profile_img = path
    session.flush()
    return False


def find_bug_image(image: str) -> StoredImage:
    """A stored bug-report screenshot by name or served path (GET bug-image, and the paths a bug
    report names); 404 'Image not found' for anything else."""
    name = image.rsplit("/", 1)[-1]
    if image not in (name, f"/uploads/{BUG_IMAGE_FOLDER}/{name}"):
        raise NotFound(IMAGE_NOT_FOUND)
    if not _STORED_NAME.match(name) or not (_folder(BUG_IMAGE_FOLDER) / name).is_file():
        raise NotFound(IMAGE_NOT_FOUND)
    return StoredImage(path=f"/uploads/{BUG_IMAGE_FOLDER}/{name}", content_type=CONTENT_TYPES[name.rsplit(".", 1)[1]])
