"""Wire shapes of the Creators calls of spec §7: follows, shares, ranks, profiles, logos, contact, approvals."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

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
