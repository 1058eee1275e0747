"""Wire shapes of the Vendors calls (spec §7 Vendors; §3 "Vendor (host)", "Custom provider").

A host on the wire is `vendor_id` / `vendor_name` (spec §3); what only some answers carry (status,
owner, request details, masked credentials) is added by the shapes below.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.core.daily_series import DailySeries
from app.core.timestamps import UtcDateTime
from app.core.types import DbId
from app.moderation.models import ApprovalKind

VendorStatusName = Literal["approved", "pending", "rejected", "inactive"]
HostRequestKind = Literal[
    "new_custom_provider", "new_alternative_custom_provider", "new_provider", "new_alternative_provider"
]
HOST_REQUEST_KINDS: tuple[ApprovalKind, ...] = (
    ApprovalKind.new_custom_provider,
    ApprovalKind.new_alternative_custom_provider,
    ApprovalKind.new_provider,
    ApprovalKind.new_alternative_provider,
)


class VendorOut(BaseModel):
    vendor_id: int
    vendor_name: str
    link_header: str | None
    group_name: str | None
    preview_picture_required: bool
    is_white_label: bool
    website: str | None
    # How the tour page embeds a tour of this host: `embed_template` with `{link}` and the named groups
    # of `link_pattern` (a Python regular expression) filled in from the tour's link.
    link_pattern: str | None
    embed_template: str | None
    embed_kind: Literal["iframe", "video"]


class VendorList(BaseModel):
    data: list[VendorOut]


class VendorChoiceOut(VendorOut):
    """A host the caller may choose in the media form: a public one or one of the caller's own."""

    is_custom: bool
    status: VendorStatusName
    parent_vendor_id: int | None


class VendorChoiceList(BaseModel):
    data: list[VendorChoiceOut]


class VendorAdminOut(VendorChoiceOut):
    """A host as the providers moderation tab shows it."""

    userid: int | None = Field(description="The owner of a custom host")
    platform_username: str | None
    tours: int = Field(description="Tours on this host, any status")
    created_at: UtcDateTime


class VendorAdminList(BaseModel):
    data: list[VendorAdminOut]
    total_items: int
    limit: int
    offset: int


# ------------------------------------------------------------------------------------ host requests


class HostRequestIn(BaseModel):
    """Spec §3 "Custom provider": name, link heading, sample tour, alternate version name, parent
    provider; and the host name the heading and sample write as {host}."""

    vendor_name: str = Field(max_length=100, description="The host's name as users will see it")
    host: str = Field(max_length=300, description="The host's DNS name, e.g. tours.studio.example")
    link_header: str = Field(
        max_length=500, description="The start of every tour link, with {host}: https://{host}/tours/"
    )
    sample_tour: str = Field(max_length=2048, description="One tour link, with {host}: https://{host}/tours/lobby")
    alternate_version_name: str | None = Field(
        None, max_length=100, description="For an alternative version of the parent host, e.g. its white-label edition"
    )
    parent_vendor_id: DbId | None = Field(None, description="The host this one is a version of (parent provider)")
    is_custom: bool = Field(
        True,
        description="True: the caller's own host, usable by the caller (custom provider). False: a suggestion "
        "of a new host for everyone (new provider).",
    )
    group_name: str | None = Field(None, max_length=100, description="Defaults to the parent host's group")


class HostRequestOut(BaseModel):
    """A host the caller asked for (own-vendors), or the one just asked for."""

    vendor_id: int | None = Field(description="The host's record; null once it has been deleted")
    vendor_name: str
    host: str | None
    link_header: str = Field(description="As requested, with {host}")
    sample_tour: str = Field(description="As requested, with {host}")
    alternate_version_name: str | None
    parent_vendor_id: int | None
    is_custom: bool
    kind: HostRequestKind
    status: VendorStatusName = Field(description="The host's status: pending until an admin decides")
    tours: int
    created_at: UtcDateTime


class HostRequestAnswer(BaseModel):
    message: str
    data: HostRequestOut


class HostRequestList(BaseModel):
    data: list[HostRequestOut]


class VendorDeleted(BaseModel):
    message: str
    vendor_id: int


class ChangeStatusIn(BaseModel):
    vendor_id: DbId
    status: Literal["approved", "inactive"] = Field(description="approved: offered again; inactive: withdrawn")


class ChangeStatusAnswer(BaseModel):
    message: str
    data: VendorAdminOut


# --------------------------------------------------------------------------------------- approvals


class HostApprovalItemOut(BaseModel):
    id: int
    kind: HostRequestKind
    status: Literal["pending", "approved", "rejected"]
    userid: int | None = Field(description="Who asked")
    platform_username: str | None
    request: HostRequestOut | None = Field(description="The request, null when its host has been deleted")
    created_at: UtcDateTime
    reviewed_at: UtcDateTime | None
    reviewed_by: int | None
    review_note: str | None


class HostApprovalItems(BaseModel):
    data: list[HostApprovalItemOut]
    total_items: int
    limit: int
    offset: int


class HostDecisionIn(BaseModel):
    id: DbId
    action: Literal["approve", "reject"]
    review_note: str | None = Field(default=None, max_length=1000, description="Mailed to the requester")


class HostDecisionAnswer(BaseModel):
    message: str
    data: HostApprovalItemOut


# ------------------------------------------------------------------------------------- media types


class NamedRef(BaseModel):
    id: int
    name: str


class VendorMediaTypesOut(BaseModel):
    vendor_id: int
    vendor_name: str
    media_types: list[NamedRef] = Field(description="What tours on this host can be, most common first")


class VendorMediaTypesList(BaseModel):
    data: list[VendorMediaTypesOut]


# ------------------------------------------------------------------------------------- credentials


class CredentialIn(BaseModel):
    userid: DbId | None = Field(None, description="Whose account; the caller's by default (admins: anyone's)")
    vendor: DbId | None = Field(None, description="The vendor's id; the 3D-capture vendor (Matterport) by default")
    key: str = Field(max_length=200, description="The API token id")
    secret: str = Field(max_length=200, description="The API token secret")


class CredentialOut(BaseModel):
    id: int
    userid: int
    vendor: NamedRef = Field(description="{id, name} of the vendor")
    key: str = Field(description="Masked: only the last 4 characters are shown")
    secret: str = Field(description="Masked: only the last 4 characters are shown")
    created_at: UtcDateTime
    checked_at: UtcDateTime | None = Field(description="When the vendor last accepted them")


class CredentialList(BaseModel):
    data: list[CredentialOut]


class CredentialAnswer(BaseModel):
    message: str
    data: CredentialOut


class MessageAnswer(BaseModel):
    message: str


class MatterportTypeIn(BaseModel):
    vendor_key: str = Field(
        max_length=2048, description="A Matterport model id (11 characters) or a link naming one (?m=…)"
    )


class MatterportTypeOut(BaseModel):
    vendor_key: str = Field(description="The model id")
    name: str
    visibility: str | None
    state: str | None
    media_type_id: int | None = Field(description="The media type its tours get (3D walkthrough)")
    media_type: str | None


class MatterportTypeAnswer(BaseModel):
    message: str
    data: MatterportTypeOut


# -------------------------------------------------------------------------------- group subscribers


class GroupSubscriberIn(BaseModel):
    group_name: str = Field(min_length=1, max_length=100)


class GroupSubscriberOut(BaseModel):
    userid: int
    platform_username: str | None
    group_name: str
    created_at: UtcDateTime


class GroupSubscriberList(BaseModel):
    data: list[GroupSubscriberOut]
    total_items: int
    limit: int
    offset: int


class GroupSubscriberAnswer(BaseModel):
    message: str
    data: GroupSubscriberOut | None


# ------------------------------------------------------------------------------------- admin stats


class VendorTourCount(BaseModel):
    vendor_id: int
    vendor_name: str
    tours: int


class VendorStats(BaseModel):
    total: int
    by_status: dict[str, int] = Field(description="Hosts per status, every status named")
    public: int
    custom: int
    pending_requests: dict[str, int] = Field(description="Host requests waiting, per kind")
    connected_accounts: int = Field(description="Stored 3D-capture vendor credentials")
    group_subscribers: dict[str, int] = Field(description="Subscribers per group")
    tours_by_vendor: list[VendorTourCount] = Field(description="The hosts with the most tours first")
    daily: DailySeries = Field(description="Hosts created per UTC day of the asked range")


class VendorStatsAnswer(BaseModel):
    data: VendorStats
