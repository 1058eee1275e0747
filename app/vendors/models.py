"""The hosts (spec §3 "Vendor (host)", "Custom provider") and what users keep about them: 3D-capture
vendor API credentials and group subscriptions.

Vendors are the hosts (providers) tours live on. A custom host belongs to the user who requested it
(`owner_user_id`) and an alternative version points at its `parent_vendor_id`. The classifications
dictionaries, the tours and the search documents read these rows; only the vendors service changes
them (the built-in hosts are seeded by app/classifications/seed.py).
"""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import Enum, ForeignKey, LargeBinary, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.core.crypto import decrypt_secret, encrypt_secret
from app.core.db import Base, utcnow


class EmbedKind(enum.StrEnum):
    iframe = "iframe"
    video = "video"


class VendorStatus(enum.StrEnum):
    approved = "approved"
    pending = "pending"
    rejected = "rejected"
    inactive = "inactive"


class RequestStatus(enum.StrEnum):
    pending = "pending"
    approved = "approved"
    rejected = "rejected"


class Vendor(Base):
    """A host (provider). On the wire: vendor_id = id, vendor_name = name."""

    __tablename__ = "vendors"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    slug: Mapped[str] = mapped_column(String(100), unique=True)
    link_header: Mapped[str | None] = mapped_column(String(500))
    link_pattern: Mapped[str | None] = mapped_column(String(1000))
    # Player URL for a link, with {link} and/or {id} placeholders (see the vendor service).
    embed_template: Mapped[str | None] = mapped_column(String(1000))
    embed_kind: Mapped[EmbedKind] = mapped_column(
        Enum(EmbedKind, native_enum=False, validate_strings=True, length=8), default=EmbedKind.iframe
    )
    group_name: Mapped[str | None] = mapped_column(String(100), index=True)
    preview_picture_required: Mapped[bool] = mapped_column(default=False)
    is_white_label: Mapped[bool] = mapped_column(default=False)
    is_custom: Mapped[bool] = mapped_column(default=False)
    status: Mapped[VendorStatus] = mapped_column(
        Enum(VendorStatus, native_enum=False, validate_strings=True, length=16),
        default=VendorStatus.approved,
        index=True,
    )
    owner_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    parent_vendor_id: Mapped[int | None] = mapped_column(ForeignKey("vendors.id", ondelete="SET NULL"), index=True)
    website: Mapped[str | None] = mapped_column(String(2048))
    position: Mapped[int] = mapped_column(default=0, index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    parent: Mapped[Vendor | None] = relationship(remote_side="Vendor.id")


class VendorGroupSubscriber(Base):
    """A user subscribed to a vendor group (spec §7 vendors group-subscribers)."""

    __tablename__ = "vendor_group_subscribers"
    __table_args__ = (UniqueConstraint("user_id", "group_name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    group_name: Mapped[str] = mapped_column(String(100), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CustomProviderRequest(Base):
    """A user's request for a host: its own custom host, an alternative version of a host, or a new
    public host. The request files the host as a pending `vendor_id`, which approval makes usable by
    everyone it is meant for (app/vendors/approvals.py)."""

    __tablename__ = "custom_provider_requests"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    # The host name the templates' {host} stands for, e.g. tours.studio.example (absent on old rows).
    host: Mapped[str | None] = mapped_column(String(253))
    link_heading: Mapped[str] = mapped_column(String(500))
    sample_tour: Mapped[str] = mapped_column(String(2048))
    alternate_version_name: Mapped[str | None] = mapped_column(String(100))
    parent_vendor_id: Mapped[int | None] = mapped_column(ForeignKey("vendors.id", ondelete="SET NULL"), index=True)
    status: Mapped[RequestStatus] = mapped_column(
        Enum(RequestStatus, native_enum=False, validate_strings=True, length=16),
        default=RequestStatus.pending,
        index=True,
    )
    vendor_id: Mapped[int | None] = mapped_column(ForeignKey("vendors.id", ondelete="SET NULL"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    parent_vendor: Mapped[Vendor | None] = relationship(foreign_keys=[parent_vendor_id])
    vendor: Mapped[Vendor | None] = relationship(foreign_keys=[vendor_id])


class VendorCredential(Base):
    """A user's API key and secret for a 3D-capture vendor, encrypted at rest (Fernet).

    Read and write them only through `set_key`/`set_secret` and `key()`/`secret()`.
    """

    __tablename__ = "vendor_credentials"
    __table_args__ = (UniqueConstraint("user_id", "vendor_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # The unique constraint leads with user_id, so it also serves "my credentials".
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    vendor_id: Mapped[int] = mapped_column(ForeignKey("vendors.id", ondelete="CASCADE"), index=True)
    key_encrypted: Mapped[bytes] = mapped_column(LargeBinary)
    secret_encrypted: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # When the vendor last accepted this key and secret (they are checked before they are stored).
    checked_at: Mapped[datetime | None]

    vendor: Mapped[Vendor] = relationship()

    def set_key(self, key: str) -> None:
        self.key_encrypted = encrypt_secret(key)

    def set_secret(self, secret: str) -> None:
        self.secret_encrypted = encrypt_secret(secret)

    def key(self) -> str:
        return decrypt_secret(self.key_encrypted)

    def secret(self) -> str:
        return decrypt_secret(self.secret_encrypted)
