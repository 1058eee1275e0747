"""Wire shapes of the Creators calls of spec §7: follows, shares, ranks, profiles, logos, contact, approvals."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from app.core.daily_series import DailySeries
from app.core.timestamps import UtcDateTime
from app.core.types import DbId
from app.creators.service import FollowRow, FollowState
from app.tours.schemas import RankValues

MAX_PAGE = 200


class FollowBody(BaseModel):
    userid: DbId | None = Field(default=None, description="The signed-in user (the only one who can follow)")
    creator_id: DbId


class FollowAnswer(BaseModel):
    creator_id: int
    userid: int
    followers: int = Field(description="The creator's exact follower count after the change")
    isFollow: bool  # noqa: N815 - wire name

    @classmethod
    def of(cls, state: FollowState) -> FollowAnswer:
        return cls(
            creator_id=state.creator_id, userid=state.userid, followers=state.followers, isFollow=state.is_follow
        )


class IsFollowAnswer(BaseModel):
    creator_id: int
    isFollow: bool  # noqa: N815 - wire name


class FollowOut(BaseModel):
    userid: int
    creator_id: int
    created_date: UtcDateTime
    platform_username: str | None
    username: str
    profile_img: str | None
    creator_name: str
    logo: str | None

    @classmethod
    def of(cls, row: FollowRow) -> FollowOut:
        return cls(
            userid=row.userid,
            creator_id=row.creator_id,
            created_date=row.created_at,
            platform_username=row.platform_username,
            username=row.username,
            profile_img=row.profile_img,
            creator_name=row.creator_name,
            logo=row.logo,
        )


class FollowsPage(BaseModel):
    data: list[FollowOut]
    total_items: int
    limit: int
    offset: int


class UnfollowAllAnswer(BaseModel):
    userid: int
    removed: int = Field(description="How many follows were removed")


class CreatorShareBody(BaseModel):
    id: DbId = Field(description="The creator id")
    channel: str | None = Field(default=None, max_length=32, description="Where it was shared (link, facebook, …)")


class CreatorShareAnswer(BaseModel):
    id: int
    shared: int = Field(description="How many times this creator profile has been shared")


# ------------------------------------------------------------------------------ ranks (admins)


class CreatorRankWrite(RankValues):
    creator_id: DbId
    rank_source_id: DbId


class CreatorRankOut(BaseModel):
    id: int
    rank_source_id: int
    rank_source: str
    creator_id: int
    creator_name: str
    value: float
    position: int | None
    updated_date: UtcDateTime


class CreatorRanksPage(BaseModel):
    data: list[CreatorRankOut]
    total_items: int
    limit: int
    offset: int


# ------------------------------------------------------------------------------ profiles (spec §3)

BgColor = Literal["white", "black"]
LOGO_SCALE_MIN, LOGO_SCALE_MAX = 1, 30  # divided by 10 when shown (spec §9 "Logo scale")


class ImgSettings(BaseModel):
    """How the logo is drawn: its background (white or black only, spec §5) and its scales."""

    bgColor: BgColor = "black"  # noqa: N815 - wire name
    logoScale: int = Field(default=10, ge=LOGO_SCALE_MIN, le=LOGO_SCALE_MAX)  # noqa: N815 - wire name
    profileScale: int = Field(default=10, ge=LOGO_SCALE_MIN, le=LOGO_SCALE_MAX)  # noqa: N815 - wire name


class FeaturedTourOut(BaseModel):
    id: str = Field(description="The tour guid")
    title: str
    preview_picture: str | None
    position: int


class CreatorProfileOut(BaseModel):
    """A creator profile as its page shows it (spec §3 "Creator profile")."""

    id: int
    type: Literal["creator"] = "creator"
    userid: int
    user_name: str | None = Field(description="The owner's platform username: the creator's landing path")
    platform_username: str | None
    creator_name: str
    description: str | None
    logo: str | None
    trusted: bool
    services: list[str]
    website: str | None
    instagram: str | None
    twitter: str | None
    youtube: str | None
    facebook: str | None
    linkedin: str | None
    phone: str | None
    contact_email: str | None
    creator_email: str | None = Field(description="The same address as contact_email (both wire names are in use)")
    views: int
    likes: int
    followers: int
    vt_count: int
    activeTours: int  # noqa: N815 - wire name
    created_date: UtcDateTime
    area_served: list[str]
    default_view: Literal["grid", "map"]
    img_settings: ImgSettings
    is_active: bool
    joined_fb_group: bool
    featured_tours: list[FeaturedTourOut]
    is_follow: bool = Field(description="Whether the caller follows it (false for guests)")
    is_owner: bool = Field(description="Whether the caller owns it")
    edit_pending: bool = Field(description="An edit waits for approval (told to the owner and admins only)")


class CreatorAnswer(BaseModel):
    data: CreatorProfileOut


class CreatorMetaOut(BaseModel):
    """What a link preview shows (Open Graph / Twitter card)."""

    id: int
    title: str
    description: str
    image: str | None
    url: str


class LogoPathAnswer(BaseModel):
    path: str
    message: str | None = None


class PendingCreatorAnswer(BaseModel):
    userid: int
    is_pending: bool = Field(description="A new profile or an edit of this user waits for approval")
    pending_kind: Literal["new_creator_profile", "creator_profile_edit"] | None
    creator_id: int | None = Field(description="The published profile, when there is one")
    approval_item_id: int | None


# ------------------------------------------------------------------------------ writing profiles

LINK_MAX = 2048
MAX_LISTED = 20  # services and areas served per profile
# Bounds the list the server reads; the spec's limit of 10 is checked with its own message.
FEATURED_READ_MAX = 100


class CreatorWrite(BaseModel):
    """The creator payload of POST and PUT /v2/creators/ (spec §3, §5). Links and texts are checked
    by the server's rules (400 naming the field), not here, so the messages are the spec's."""

    userid: DbId | None = Field(default=None, description="Whose profile (oneself unless an admin)")
    id: DbId | None = Field(default=None, description="PUT: the profile being edited (checked against userid)")
    creator_name: str = Field(max_length=100)
    user_name: str | None = Field(
        default=None, max_length=100, description="The owner's platform username (required, spec §5)"
    )
    description: str | None = Field(default=None, max_length=4000)
    logo: str | None = Field(default=None, max_length=512, description="A path answered by POST creator-logo")
    img_settings: ImgSettings = Field(default_factory=ImgSettings)
    services: list[str] = Field(default_factory=list, max_length=MAX_LISTED)
    website: str | None = Field(default=None, max_length=LINK_MAX)
    instagram: str | None = Field(default=None, max_length=LINK_MAX)
    twitter: str | None = Field(default=None, max_length=LINK_MAX)
    youtube: str | None = Field(default=None, max_length=LINK_MAX)
    facebook: str | None = Field(default=None, max_length=LINK_MAX)
    linkedin: str | None = Field(default=None, max_length=LINK_MAX)
    phone: str | None = Field(default=None, max_length=32)
    contact_email: str | None = Field(default=None, max_length=320)
    creator_email: str | None = Field(default=None, max_length=320, description="Another name for contact_email")
    area_served: list[str] = Field(default_factory=list, max_length=MAX_LISTED, description="Required (location)")
    default_view: Literal["grid", "map"] = "grid"
    featured_tours: list[str] = Field(
        default_factory=list, max_length=FEATURED_READ_MAX, description="Tour guids, at most 10"
    )
    joined_fb_group: bool = False


class CreatorSaveAnswer(BaseModel):
    message: Literal["CreatorProfile.Updated", "CreatorProfile.AddEditPending"] = Field(
        description="Success key: 200 Updated (applied), 201 AddEditPending (waits for approval)"
    )
    pending: bool
    approval_item_id: int | None
    data: CreatorProfileOut | None = Field(description="The published profile (none before a first approval)")


class CreatorDeletedAnswer(BaseModel):
    message: str
    creator_id: int
    userid: int


class CreatorTrustedBody(BaseModel):
    creator_id: DbId
    trusted: bool


class CreatorActivateBody(BaseModel):
    creator_id: DbId
    is_active: bool


class CreatorStats(BaseModel):
    total: int
    active: int
    inactive: int
    trusted: int
    pending_new: int = Field(description="New profiles waiting for approval")
    pending_edits: int = Field(description="Profile edits waiting for approval")
    new_last_30_days: int
    followers: int = Field(description="Follows of every creator")
    daily: DailySeries = Field(description="Creator profiles created per UTC day of the asked range")


class CreatorStatsAnswer(BaseModel):
    data: CreatorStats


# ------------------------------------------------------------------------------ approval items (admins)

CreatorApprovalKind = Literal["new_creator_profile", "creator_profile_edit"]


class CreatorApprovalItemOut(BaseModel):
    id: int
    kind: CreatorApprovalKind
    status: Literal["pending", "approved", "rejected"]
    userid: int | None = Field(description="Whose profile")
    creator_id: int | None = Field(description="The published profile an edit changes")
    pending: dict[str, Any] = Field(description="The proposed profile (creator payload wire names)")
    current: CreatorProfileOut | None = Field(description="The published profile, when there is one")
    created_at: UtcDateTime
    reviewed_at: UtcDateTime | None
    reviewed_by: int | None
    review_note: str | None


class CreatorApprovalItemsAnswer(BaseModel):
    data: list[CreatorApprovalItemOut]
    total_items: int
    limit: int
    offset: int


class CreatorApprovalDecision(BaseModel):
    id: DbId
    action: Literal["approve", "reject"]
    review_note: str | None = Field(default=None, max_length=1000, description="Mailed to the creator")


class CreatorApprovalDecisionAnswer(BaseModel):
    message: str
    data: CreatorApprovalItemOut


# ------------------------------------------------------------------------------ contact form

CONTACT_MESSAGE_MAX = 4000


class CreatorMessageBody(BaseModel):
    creator_id: DbId
    name: str = Field(max_length=100)
    email: str = Field(max_length=320, description="Where the creator can answer")
    subject: str | None = Field(default=None, max_length=150)
    message: str = Field(max_length=CONTACT_MESSAGE_MAX)


class CreatorMessageAnswer(BaseModel):
    message: str
    creator_id: int
