"""Wire shapes of the Creators calls of spec §7 (followers, is-follow, post_shares, ranks so far)."""

from __future__ import annotations

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
