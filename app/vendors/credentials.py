"""A creator's 3D-capture vendor API credentials (spec §6; §7 Vendors credentials, matterport-type;
Settings → 3D-capture vendor API tokens).

Only one vendor type is used (spec §7): Matterport. The token id ("key") and secret are checked with
the vendor before they are stored, stored encrypted (app/core/crypto.py, Fernet), and never answered
in full: only their last 4 characters. A user keeps one pair per vendor; saving again replaces it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.classifications import dictionaries
from app.classifications.models import MediaType
from app.core.crypto import SecretDecryptionError
from app.core.db import utcnow
from app.core.errors import AppError, BadRequest, Forbidden, NotFound, field_error
from app.users.models import User
from app.users.validation import raise_for_fields
from app.vendors.models import Vendor, VendorCredential
from app.vendors.ports import CaptureVendorApi, CredentialsRefused, ModelNotFound, VendorApiError, VendorUnreachable

CAPTURE_VENDOR_SLUG = "matterport"
VENDOR_NAME = "Matterport"

KEY_REQUIRED = "Enter the API token id"
SECRET_REQUIRED = "Enter the API token secret"
NO_SPACES = "Paste it without spaces"
ONLY_CAPTURE_VENDOR = "API tokens can be connected for Matterport only"
REFUSED = "Matterport did not accept this token id and secret"
UNREACHABLE = "Matterport cannot be reached right now; nothing was saved. Try again in a few minutes"
UNREACHABLE_LOOKUP = "Matterport cannot be reached right now. Try again in a few minutes"
VENDOR_FAILED = "Matterport could not check this right now. Try again in a few minutes"
NOT_YOURS = "You can see and change only your own vendor tokens"
UNKNOWN_USER = "Unknown user"
NO_CREDENTIALS = "Connect your Matterport account first: Settings → 3D-capture vendor API tokens"
STORED_REFUSED = "Matterport no longer accepts your saved token: update it in Settings → 3D-capture vendor API tokens"
NOT_CONNECTED = "No saved token for this vendor"
MODEL_KEY_FORMAT = "Enter a Matterport model id (11 letters and digits) or a link to the model"
MODEL_NOT_FOUND = "Your Matterport account has no model with this id"

_MODEL_ID = re.compile(r"^[A-Za-z0-9]{11}$")
MASK = "••••"


def mask(value: str) -> str:
    """The last 4 characters after a fixed mask; short values are masked whole, so that at least
    twice as much stays hidden as is shown."""
    return MASK + value[-4:] if len(value) >= 12 else MASK


def capture_vendor(session: Session) -> Vendor | None:
    return session.scalar(select(Vendor).where(Vendor.slug == CAPTURE_VENDOR_SLUG))


def _owner(session: Session, caller: User, userid: int | None) -> User:
    """The account the call is about: the caller's own, or any for an admin."""
    if userid is None or userid == caller.id:
        return caller
    if not caller.is_admin:
        raise Forbidden(NOT_YOURS, fields={"userid": NOT_YOURS})
    user = session.get(User, userid)
    if user is None or user.is_deleted:
        raise NotFound(UNKNOWN_USER, fields={"userid": UNKNOWN_USER})
    return user


def _vendor(session: Session, vendor_id: int | None) -> Vendor:
    vendor = capture_vendor(session)
    if vendor is None or (vendor_id is not None and vendor_id != vendor.id):
        raise field_error("vendor", ONLY_CAPTURE_VENDOR)
    return vendor


def list_credentials(session: Session, caller: User, userid: int | None) -> Sequence[VendorCredential]:
    owner = _owner(session, caller, userid)
    return session.scalars(
        select(VendorCredential).where(VendorCredential.user_id == owner.id).order_by(VendorCredential.id)
    ).all()


@dataclass(frozen=True, slots=True)
class Saved:
    credential: VendorCredential
    replaced: bool


def save_credentials(
    session: Session,
    api: CaptureVendorApi,
    caller: User,
    *,
    userid: int | None,
    vendor_id: int | None,
    key: str,
    secret: str,
) -> Saved:
    """Check the pair with the vendor, then store it encrypted. 400 naming key and secret when the
    vendor refuses them; 503 when the vendor cannot be reached (nothing is stored)."""
    owner = _owner(session, caller, userid)
    key, secret = key.strip(), secret.strip()
    failures: dict[str, str | None] = {
        "key": KEY_REQUIRED if not key else (NO_SPACES if any(char.isspace() for char in key) else None),
        "secret": SECRET_REQUIRED if not secret else (NO_SPACES if any(char.isspace() for char in secret) else None),
    }
    raise_for_fields(failures)
    vendor = _vendor(session, vendor_id)
    try:
        api.check_credentials(key, secret)
    except CredentialsRefused:
        raise BadRequest(REFUSED, fields={"key": REFUSED, "secret": REFUSED}) from None
    except VendorUnreachable:
        raise AppError(UNREACHABLE, status_code=503) from None
    except VendorApiError:
        raise AppError(VENDOR_FAILED, status_code=503) from None
    credential = session.scalar(
        select(VendorCredential).where(VendorCredential.user_id == owner.id, VendorCredential.vendor_id == vendor.id)
    )
    replaced = credential is not None
    if credential is None:
        credential = VendorCredential(user_id=owner.id, vendor_id=vendor.id)
        session.add(credential)
    credential.set_key(key)
    credential.set_secret(secret)
    credential.checked_at = utcnow()
    session.flush()
    return Saved(credential, replaced)


def delete_credentials(session: Session, caller: User, *, userid: int | None, vendor_id: int | None) -> None:
    owner = _owner(session, caller, userid)
    vendor = _vendor(session, vendor_id)
    credential = session.scalar(
        select(VendorCredential).where(VendorCredential.user_id == owner.id, VendorCredential.vendor_id == vendor.id)
    )
    if credential is None:
        raise NotFound(NOT_CONNECTED, fields={"vendor": NOT_CONNECTED})
    session.delete(credential)
    session.flush()


def masked(credential: VendorCredential) -> tuple[str, str]:
    """(key, secret) masked; a pair the current encryption key cannot read shows as masked whole."""
    try:
        return mask(credential.key()), mask(credential.secret())
    except SecretDecryptionError:
        return MASK, MASK


def model_id_of(vendor_key: str) -> str | None:
    """A model id, given as such or inside a Matterport link (?m=… or /space/…)."""
    text = vendor_key.strip()
    if _MODEL_ID.match(text):
        return text
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https"):
        return None
    candidate = (parse_qs(parts.query).get("m") or [""])[0] or parts.path.rstrip("/").rsplit("/", 1)[-1]
    return candidate if _MODEL_ID.match(candidate) else None


@dataclass(frozen=True, slots=True)
class ModelType:
    model_id: str
    name: str
    visibility: str | None
    state: str | None
    media_type: MediaType | None


def model_type(session: Session, api: CaptureVendorApi, caller: User, vendor_key: str) -> ModelType:
    """POST matterport-type: what the model is, as the caller's connected account sees it, and the
    media type its tours get. Checks that the model exists and that the saved token still works."""
    model_id = model_id_of(vendor_key)
    if model_id is None:
        raise field_error("vendor_key", MODEL_KEY_FORMAT)
    vendor = capture_vendor(session)
    credential = (
        session.scalar(
            select(VendorCredential).where(
                VendorCredential.user_id == caller.id, VendorCredential.vendor_id == vendor.id
            )
        )
        if vendor is not None
        else None
    )
    if credential is None:
        raise field_error("vendor_key", NO_CREDENTIALS)
    try:
        key, secret = credential.key(), credential.secret()
    except SecretDecryptionError:
        raise field_error("vendor_key", STORED_REFUSED) from None
    try:
        model = api.model(key, secret, model_id)
    except ModelNotFound:
        raise field_error("vendor_key", MODEL_NOT_FOUND) from None
    except CredentialsRefused:
        raise field_error("vendor_key", STORED_REFUSED) from None
    except VendorUnreachable:
        raise AppError(UNREACHABLE_LOOKUP, status_code=503) from None
    except VendorApiError:
        raise AppError(VENDOR_FAILED, status_code=503) from None
    credential.checked_at = utcnow()
    media_type = session.scalar(
        select(MediaType).where(MediaType.name == dictionaries.WALKTHROUGH, MediaType.is_active.is_(True))
    )
    return ModelType(model.id, model.name, model.visibility, model.state, media_type)
