"""Wire shapes of spec §7 Ads (`/v2/ads/`): the add/edit ad form, an ad as its owner and the admins
read it, the Sponsored card's calls (show, click), engagement, statistics, approval items and ranks.

The names follow the tours' where the spec gives an ad the same thing (tags [{id}], task, likes /
isLike, saves / isSave); an ad's `id` is its number, as on the Ad card (spec §3).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.ads.models import AdApprovalState, AdStatus
from app.core.daily_series import DailySeries
from app.core.timestamps import UtcDateTime
from app.core.types import DbId, DbInt
from app.tours.schemas import RankValues, TagOut, TagRef

TITLE_MAX = 255
DESCRIPTION_MAX = 4000
LINK_MAX = 2048
MAX_ADS_PER_REQUEST = 200
# The client's page-view id (GET show, POST click): one per page view, kept across re-renders.
PAGE_VIEW_PATTERN = r"^[A-Za-z0-9_.:-]{1,64}$"


class AdTaskName(StrEnum):
    activate = "activate"
    deactivate = "deactivate"
    approve = "approve"


class AdWrite(BaseModel):
    """The add/edit ad form (spec §3 Ad card: a link and a preview image; a title; tags). Required
    fields are checked by the service, so a missing one is a 400 naming the field with the form's
    message."""

    title: str | None = Field(default=None, max_length=TITLE_MAX)
    description: str | None = Field(default=None, max_length=DESCRIPTION_MAX)
    link: str | None = Field(default=None, max_length=LINK_MAX, description="https:// address, unique")
    preview_picture: str | None = Field(
        default=None, max_length=1024, description="POST preview-image's `path`, or an https:// image"
    )
    tags: list[TagRef] = Field(default_factory=list, max_length=50, description="At most 10 tags")
    is_active: bool = Field(default=True, description="false saves it as a draft")
    userid: DbId | None = Field(default=None, description="Admins: the owner of a new ad (else the caller)")


class AdOnBehalfWrite(AdWrite):
    """POST on-behalf-of (admins): the owner by id or platform username ('select user' when neither)."""

    platform_username: str | None = Field(default=None, max_length=100)


class AdUpdate(AdWrite):
    """PUT {id}: a `task` (activate, deactivate, approve), or else the edited form. Admins may also
    feature an ad (featured-ads) and give it a place."""

    task: AdTaskName | None = None
    is_featured: bool | None = Field(default=None, description="Admins only")
    featured_order: DbInt | None = Field(default=None, ge=1, description="Admins only: place among featured ads")


class AdOut(BaseModel):
    id: int
    guid: str
    user_id: int
    platform_username: str | None
    title: str
    description: str | None
    link: str
    preview_picture: str | None
    preview_picture_large: str | None
    tags: list[TagOut]
    status: AdStatus
    approval_state: AdApprovalState
    edit_pending: bool = Field(description="An edit waits for an administrator; the published version shows")
    is_featured: bool
    featured_order: int | None
    views: int = Field(description="Impressions")
    clicks: int
    likes: int
    saves: int
    shared: int
    created_date: UtcDateTime
    updated_date: UtcDateTime
    is_owned: bool


class AdAnswer(BaseModel):
    message: str
    data: AdOut | None = None
    pending: bool = False
    fields: dict[str, str] = Field(default_factory=dict)


class AdsPage(BaseModel):
    data: list[AdOut]
    total_items: int
    limit: int
    offset: int


class AdUserStatus(StrEnum):
    all = "all"
    active = "active"
    draft = "draft"
    pending = "pending"
    rejected = "rejected"


class AdCounts(BaseModel):
    total: int
    active: int
    draft: int
    pending: int
    rejected: int
    featured: int


class LinkExistsAnswer(BaseModel):
    exists: bool
    id: int | None = Field(default=None, description="The ad with this link, when the caller may see it.")


class MessageAnswer(BaseModel):
    message: str


class UserMediaBody(BaseModel):
    userid: DbId


class AdCardOut(BaseModel):
    """Spec §3 Ad card."""

    type: Literal["ad"] = "ad"
    id: int
    title: str
    preview_picture: str | None
    link: str
    user_id: int


class ShowAnswer(AdCardOut):
    counted: bool = Field(description="False when this viewer's impression in this page view was counted already")


class ClickBody(BaseModel):
    page_view: str | None = Field(default=None, pattern=PAGE_VIEW_PATTERN, description="The page view's id")


class ClickAnswer(BaseModel):
    id: int
    link: str = Field(description="Where the click goes")
    clicks: int
    counted: bool


class FeaturedAdsAnswer(BaseModel):
    data: list[AdCardOut]


class AdCountersOut(BaseModel):
    id: int
    views: int
    clicks: int
    likes: int
    saves: int
    shared: int


class AdStats(AdCountersOut):
    ctr: float = Field(description="clicks / views (0 without impressions)")
    user_like: Literal[0, 1]
    user_save: Literal[0, 1]


class AdIdBody(BaseModel):
    id: DbId = Field(description="The ad id")


class AdShareBody(AdIdBody):
    channel: str | None = Field(default=None, max_length=32, description="Where it was shared (link, facebook, …)")


class AdLikeBody(AdIdBody):
    likes: DbInt | None = Field(default=None, description="The client's count; ignored, the answer has the exact one")
    isLike: bool = Field(description="true to like, false to take the like back")  # noqa: N815 - wire name


class AdSaveBody(AdIdBody):
    saves: DbInt | None = Field(default=None, description="The client's count; ignored, the answer has the exact one")
    isSave: bool = Field(description="true to save, false to unsave")  # noqa: N815 - wire name


class AdLikeAnswer(AdCountersOut):
    isLike: bool  # noqa: N815 - wire name
    user_like: Literal[0, 1]


class AdSaveAnswer(AdCountersOut):
    isSave: bool  # noqa: N815 - wire name
    user_save: Literal[0, 1]


class AdApprovalKindName(StrEnum):
    new_ad = "new_ad"
    ad_edit = "ad_edit"


class AdApprovalItemOut(BaseModel):
    id: int
    kind: AdApprovalKindName
    status: str
    ad_id: int | None
    title: str | None
    userid: int | None
    platform_username: str | None
    changes: dict[str, Any] = Field(description="For an ad edit: field → proposed value.")
    current: dict[str, Any] = Field(description="For an ad edit: field → value now in use.")
    created_at: UtcDateTime


class AdApprovalItemsPage(BaseModel):
    data: list[AdApprovalItemOut]
    total_items: int
    limit: int
    offset: int


class AdminStats(BaseModel):
    total: int
    served: int
    active: int
    draft: int
    pending: int
    rejected: int
    edits_pending: int
    featured: int
    views: int = Field(description="Impressions of every ad")
    clicks: int
    likes: int
    saves: int
    shared: int
    daily: DailySeries = Field(description="Ads added per UTC day of the asked range")


class AdTagOut(BaseModel):
    id: int
    name: str
    ad_count: int


class AdTagsAnswer(BaseModel):
    data: list[AdTagOut]


class AdRankWrite(RankValues):
    ad_id: DbId
    rank_source_id: DbId


class AdRanksBulk(BaseModel):
    ranks: list[AdRankWrite] = Field(min_length=1, max_length=1000)


class AdRankOut(BaseModel):
    id: int
    rank_source_id: int
    rank_source: str
    ad_id: int
    title: str
    value: float
    position: int | None
    updated_date: UtcDateTime


class AdRanksPage(BaseModel):
    data: list[AdRankOut]
    total_items: int
    limit: int
    offset: int


class EmbeddingsBody(BaseModel):
    ads: list[DbId] | None = Field(
        default=None, max_length=MAX_ADS_PER_REQUEST, description="Ad ids; none: every served ad missing one"
    )


class PreviewImageAnswer(BaseModel):
    path: str = Field(description="The card-size image (600x400), used as preview_picture.")
    large: str = Field(description="The large copy (up to 1200x800).")
    message: str
    pending: bool
    source_type: Literal["jpg", "png", "pdf"]
