"""The 3D-capture vendor port: what TourAtlas needs from the vendor whose API keys creators connect
(spec §6 "vendor API credentials", §7 Vendors credentials and matterport-type).

Only one vendor type is used (spec §7): Matterport, through its Model API
(app/vendors/matterport.py). A creator's token id and secret are checked before they are stored,
and a model id is looked up with them to tell the media form what the model is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class VendorApiError(Exception):
    """The vendor answered something we cannot use (a malformed answer, an unexpected error)."""


class VendorUnreachable(VendorApiError):
    """The vendor could not be reached, timed out, failed (5xx) or is rate limiting us."""


class CredentialsRefused(VendorApiError):
    """The vendor does not accept this token id and secret."""


class ModelNotFound(VendorApiError):
    """No model with this id is visible to the account of the credentials."""


@dataclass(frozen=True, slots=True)
class ModelInfo:
    id: str
    name: str
    visibility: str | None  # e.g. public, unlisted, private, password
    state: str | None  # e.g. active, inactive, processing


class CaptureVendorApi(Protocol):
    def check_credentials(self, key: str, secret: str) -> None:
        """Returns when the vendor accepts the token id and secret; raises CredentialsRefused or
        VendorUnreachable otherwise."""
        ...

    def model(self, key: str, secret: str, model_id: str) -> ModelInfo:
        """The model with this id as the credentials' account sees it; raises ModelNotFound,
        CredentialsRefused or VendorUnreachable."""
        ...
