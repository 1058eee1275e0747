"""Wire shapes of spec §3: Filter state, Media / Creator / Ad cards, map features, search results."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field


class FeedChoice(StrEnum):
    featured = "featured"
    user_favorite = "user_favorite"
    popular = "popular"
    trending = "trending"
    new = "new"
    for_you = "for_you"
    saves_follows = "saves_follows"


class Mode(StrEnum):
    media = "media"
    creators = "creators"
    both = "both"


class Sorting(StrEnum):
    az = "az"
    za = "za"
    newest = "newest"
    random = "random"
    likes = "likes"
    saves = "saves"
    shares = "shares"
    views = "views"
    near_me = "near_me"


class ImgSettings(BaseModel):
    bgColor: str = "black"  # noqa: N815 - wire name
    logoScale: float = 10  # noqa: N815


class MediaCard(BaseModel):
    """Spec §3 Media card, exactly."""

    type: Literal["vt"] = "vt"
    guid: str
    title: str
    preview_picture: str | None
    views: int
    saves: int
    is_save: bool
    is_owned: bool
    created_ago: str  # in the caller's language (Accept-Language: en, ru)
    media_type_id: int
    userid: int


class CreatorLocation(BaseModel):
    location: str


class CreatorCard(BaseModel):
    type: Literal["creator"] = "creator"
    id: int
    creator_name: str
    platform_username: str | None
    logo: str | None
    img_settings: ImgSettings
    followers: int
    vt_count: int
    views: int
    is_follow: bool
    locations: list[CreatorLocation]
    userid: int


class AdCard(BaseModel):
    """Spec §3 Ad card, exactly; shown as Sponsored."""

    type: Literal["ad"] = "ad"
    id: int
    title: str
    preview_picture: str | None
    link: str
    user_id: int


Card = Annotated[MediaCard | CreatorCard | AdCard, Field(discriminator="type")]


class RankedBy(StrEnum):
    """What a grid page is ordered by, so the client can say so above it (issue 18 part 8): a sort
    order, or For You's own rules: `taste` (nearest to what the user liked and saved) and
    `interests` (trending among the user's interests, before they have liked or saved anything)."""

    az = "az"
    za = "za"
    newest = "newest"
    random = "random"
    likes = "likes"
    saves = "saves"
    shares = "shares"
    views = "views"
    near_me = "near_me"
    trending = "trending"
    featured = "featured"
    favorite = "favorite"
    popular = "popular"
    relevance = "relevance"
    taste = "taste"
    interests = "interests"


class GridPage(BaseModel):
    total_items: int
    limit: int
    offset: int
    ranked_by: RankedBy
    data: list[Card]


class MapCluster(BaseModel):
    id: str
    count: int
    center: tuple[float, float]  # [lng, lat]
    expansion_zoom: int


class MapFeatureProperties(BaseModel):
    """Spec §3 Map feature properties."""

    id: int
    guid: str
    type: Literal["vt"] = "vt"
    userid: int
    platform_username: str | None = None
    address: str | None = None
    address_id: str | None = None
    created_date: str | None = None
    created_ago: str | None = None
    title: str
    link: str | None = None
    category_id: int | None = None
    subcategory_id: int | None = None
    description: str | None = None
    creator_name: str | None = None
    third_party_creator: str | None = None
    creator_website: str | None = None
    preview_picture: str | None = None
    logo: str | None = None
    img_settings: dict[str, Any] = Field(default_factory=dict)
    shared: int = 0
    saves: int = 0
    likes: int = 0
    views: int = 0
    vt_count: int | None = None
    followers: int | None = None
    is_follow: bool = False
    is_save: bool = False
    media_type_id: int | None = None


class PointGeometry(BaseModel):
    type: Literal["Point"] = "Point"
    coordinates: tuple[float, float]  # [lng, lat]


class MapFeature(BaseModel):
    type: Literal["Feature"] = "Feature"
    geometry: PointGeometry
    properties: MapFeatureProperties


class MapAreaAnswer(BaseModel):
    type: Literal["FeatureCollection"] = "FeatureCollection"
    total_items: int
    features: list[MapFeature]
    clusters: list[MapCluster]


class MapAreaRequest(BaseModel):
    leftX: float  # noqa: N815 - west
    leftY: float  # noqa: N815 - south
    rightX: float  # noqa: N815 - east
    rightY: float  # noqa: N815 - north
    zoom: float = Field(ge=0, le=24)


class SearchResult(BaseModel):
    """Spec §3 Search result."""

    type: Literal["creator", "tour", "place", "tag"]
    id: str
    text: str
    creator_id: int | None = None
    category: int | None = None
    bbox: list[float] | None = None
    center: list[float] | None = None
    vt_count: int | None = None


class SearchAnswer(BaseModel):
    data: list[SearchResult]
    message: str | None = None


class TagOut(BaseModel):
    id: int
    name: str
    vt_count: int = 0


class TagList(BaseModel):
    data: list[TagOut]


class PopularTagsPage(BaseModel):
    """The most used tags (tags of at least one listed tour, hashtags of descriptions included), most
    tours first, named in the caller's language."""

    total_items: int
    limit: int
    offset: int
    data: list[TagOut]


class MediaTagsRequest(BaseModel):
    ids: list[str] = Field(default_factory=list, max_length=200, description="tour guids")
