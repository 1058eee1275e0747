"""Wire shapes of the Media calls (spec §7 `/v2/virtualtours/`; fields as spec §3 "Media (tour)
read/write", "Media card", "Map feature properties", "Daily featured submission").

Wire names are the spec's, including its camelCase (`newCategory`, `includeFavorites`). Text limits
are checked here only where the form has no rule of its own; the §5 rules with the messages users
read live in `app/tours/rules.py`, so a bad form gets every failing field at once.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.core.daily_series import DailySeries
from app.core.timestamps import UtcDateTime
from app.core.types import DbId, DbInt
from app.discovery.schemas import MediaCard
from app.tours.models import ApprovalState, TourStatus, TourVisibility

LINK_MAX = 2048
TITLE_MAX = 255
TEXT_FIELD_MAX = 10_000  # the description rule (4000) is a §5 message; this only bounds the request
MAX_TOURS_PER_REQUEST = 500


class TagRef(BaseModel):
    id: DbId


class TagOut(BaseModel):
    id: int
    name: str
    hashtag: str | None = Field(
        default=None,
        description="The description's hashtag this tag came from, as written (without '#'); "
        "null for a tag picked in the form",
    )


class VendorRef(BaseModel):
    id: int
    name: str


class AddressOut(BaseModel):
    street: str | None = None
    city: str | None = None
    province: str | None = None
    zip: str | None = None
    country: str | None = None


class NewCategory(BaseModel):
    """New category mode of the form: a category (and optionally a subcategory) the user asks for.
    It is filed as a category request for the admins; the tour keeps `category_id` meanwhile."""

    category: str = Field(max_length=100)
    subcategory: str | None = Field(default=None, max_length=100)


class TourWrite(BaseModel):
    """Spec §3 Media write. Absent optional fields are empty; the §5 rules decide what is required."""

    media_type_id: DbId | None = None
    category_id: DbId | None = None
    subcategory_id: DbId | None = None
    link: str | None = Field(default=None, max_length=LINK_MAX)
    title: str | None = Field(default=None, max_length=TITLE_MAX)
    address_str: str | None = Field(default=None, max_length=1024, description="Free text, resolved by the geocoder.")
    address_id: str | None = Field(default=None, max_length=255, description="A place id from the location search.")
    coordinate: str | None = Field(
        default=None,
        max_length=64,
        description="'lat,lng' set by the map pin picker; wins over address_str/address_id.",
    )
    description: str | None = Field(default=None, max_length=TEXT_FIELD_MAX)
    camera_id: DbId | None = None
    userid: DbId | None = Field(default=None, description="The owner; admins and CMs may name another account.")
    is_active: bool = Field(default=True, description="false saves the tour as a draft.")
    visibility: TourVisibility = Field(
        default=TourVisibility.public,
        description="public: listed everywhere; unlisted: only by its link and on its owner's pages.",
    )
    vt_website: str | None = Field(default=None, max_length=LINK_MAX, description="Learn-more website, https:// only.")
    vendor: DbId | None = Field(default=None, description="The host (vendor id).")
    preview_picture: str | None = Field(
        default=None, max_length=1024, description="A path returned by POST preview-image, or the host's image URL."
    )
    creator_website: str | None = Field(default=None, max_length=LINK_MAX, description="CM and admins only.")
    third_party_creator: str | None = Field(default=None, max_length=200, description="CM and admins only.")
    approve_needed: bool = True
    newCategory: NewCategory | None = None  # noqa: N815 - wire name
    tags: list[TagRef] = Field(default_factory=list, max_length=100)
    is_ai_generated: bool = False
    physical_address: bool = Field(
        default=True, description="The form's 'physical address' switch: when true an address is required."
    )


class TourEdit(TourWrite):
    """PUT / : the edit carries the tour guid. The host cannot change; the location is not editable."""

    guid: str = Field(min_length=1, max_length=64)


class OnBehalfWrite(TourWrite):
    """POST on-behalf-of: an admin or CM adds a tour for the account named by userid or platform_username."""

    platform_username: str | None = Field(default=None, max_length=64)


class TourOut(BaseModel):
    """Spec §3 Media read, plus the moderation state the owner's pages show."""

    guid: str
    userid: int
    platform_username: str | None
    creator_id: int | None
    address: AddressOut
    address_id: str | None
    address_str: str | None
    coordinates: list[float] | None = Field(description="[lat, lng]")
    preview_picture: str | None
    preview_picture_large: str | None = Field(description="The tour page's larger copy of an uploaded image.")
    description: str | None
    link: str
    title: str
    vt_website: str | None
    creator_website: str | None
    third_party_creator: str | None
    subcategory_id: int | None
    media_type_id: int
    category_id: int
    tags: list[TagOut]
    camera_id: int | None
    vendor: VendorRef
    is_ai_generated: bool
    views: int
    likes: int
    shared: int
    saves: int
    status: TourStatus
    visibility: TourVisibility = Field(description="public, or unlisted: reachable by its link and its owner's pages")
    approval_state: ApprovalState
    edit_pending: bool = Field(description="An edit of this tour waits for an administrator.")
    is_featured: bool
    featured_order: int | None
    provider_version: str | None
    created_date: UtcDateTime
    updated_date: UtcDateTime
    is_owned: bool


class TourAnswer(BaseModel):
    """Add/edit answer: 201 saved (pending tells whether it waits for approval), 200 an edit that waits
    for approval, 208 'Link already exists' (data null)."""

    message: str
    data: TourOut | None = None
    pending: bool = False
    fields: dict[str, str] = Field(default_factory=dict)
    hashtags_left_out: list[str] = Field(
        default_factory=list,
        description="Hashtags of the description that name a tag but were not added: the tour has 10 tags already",
    )


class TaskName(StrEnum):
    activate = "activate"
    deactivate = "deactivate"
    approve = "approve"
    make_unlisted = "make_unlisted"  # reachable by its link and on its owner's pages only
    make_public = "make_public"


class TaskBody(BaseModel):
    """PUT {id}: the action of the manage-media dashboard. `guid` may repeat the path's id."""

    guid: str | None = Field(default=None, max_length=64)
    task: TaskName


class MessageAnswer(BaseModel):
    message: str


class ToursBody(BaseModel):
    tours: list[str] = Field(min_length=1, max_length=MAX_TOURS_PER_REQUEST, description="tour guids")


class ToursActionAnswer(BaseModel):
    message: str
    tours: list[str] = Field(description="The guids acted on.")


class PendingTourOut(TourOut):
    owner_email: str
    submitted_at: UtcDateTime


class PendingPage(BaseModel):
    data: list[PendingTourOut]
    total_items: int
    limit: int
    offset: int


class LinkExistsAnswer(BaseModel):
    exists: bool
    guid: str | None = Field(default=None, description="The tour with this link, when the caller may see it.")


class UserTourSort(StrEnum):
    # Member names avoid str's own methods (str.title).
    by_date = "date"
    by_title = "title"
    by_featured = "featured"


class UserTourStatus(StrEnum):
    all = "all"
    active = "active"
    draft = "draft"
    pending = "pending"
    rejected = "rejected"
    unlisted = "unlisted"  # any state, as long as the owner chose unlisted


class UserToursPage(BaseModel):
    data: list[TourOut]
    total_items: int
    limit: int
    offset: int


class TourCounts(BaseModel):
    total: int
    active: int
    draft: int
    pending: int
    rejected: int
    featured: int
    unlisted: int = Field(description="Tours set to unlisted, whatever their state.")


class UserMediaBody(BaseModel):
    userid: DbId


class FeaturedScope(StrEnum):
    creator = "creator"
    platform = "platform"


class FeaturedToursBody(BaseModel):
    """The featured tours in their new order (drag ordering). `creator` scope: a creator's up to 10
    featured tours; `platform` scope (admins): the Featured feed's order."""

    tours: list[str] = Field(max_length=MAX_TOURS_PER_REQUEST, description="tour guids, first is first")
    userid: DbId | None = Field(default=None, description="Whose featured tours; admins may name another creator.")
    scope: FeaturedScope = FeaturedScope.creator


class FeaturedToursAnswer(BaseModel):
    message: str
    tours: list[str]


class SocialLinks(BaseModel):
    instagram: str | None = Field(default=None, max_length=LINK_MAX)
    twitter: str | None = Field(default=None, max_length=LINK_MAX)
    youtube: str | None = Field(default=None, max_length=LINK_MAX)
    facebook: str | None = Field(default=None, max_length=LINK_MAX)
    linkedin: str | None = Field(default=None, max_length=LINK_MAX)


class TourTodayBody(BaseModel):
    """POST send-tour-today: spec §3 Daily featured submission."""

    guid: str = Field(max_length=64, description="The tour submitted")
    description: str | None = Field(default=None, max_length=TEXT_FIELD_MAX)
    social_links: SocialLinks = Field(default_factory=SocialLinks)
    consent: bool = Field(description="Consent to be mentioned as the creator.")


class TourTodayAnswer(BaseModel):
    message: str
    id: int
    guid: str


class MediaTagOut(BaseModel):
    id: int
    name: str
    vt_count: int


class MediaTagsAnswer(BaseModel):
    data: list[MediaTagOut]


class CreatorToursAnswer(BaseModel):
    """GET creator/{user_id}: a creator's listed tours (page size 50)."""

    data: list[MediaCard]
    favorite_tours: list[MediaCard]
    total_items: int = Field(description="Tours matching the filters.")
    total_tours: int = Field(description="Every listed tour of the creator.")
    status: int = 200
    limit: int
    offset: int


class ApprovalKindName(StrEnum):
    new_virtual_tour = "new_virtual_tour"
    vt_edit = "vt_edit"


class ApprovalItemOut(BaseModel):
    id: int
    kind: ApprovalKindName
    status: str
    guid: str | None
    title: str | None
    userid: int | None
    platform_username: str | None
    changes: dict[str, Any] = Field(description="For a VT edit: field → proposed value.")
    current: dict[str, Any] = Field(description="For a VT edit: field → value now in use.")
    created_at: UtcDateTime


class ApprovalItemsPage(BaseModel):
    data: list[ApprovalItemOut]
    total_items: int
    limit: int
    offset: int


class ApprovalAction(StrEnum):
    approve = "approve"
    reject = "reject"


class ApprovalDecision(BaseModel):
    ids: list[DbId] = Field(min_length=1, max_length=MAX_TOURS_PER_REQUEST, description="approval item ids")
    action: ApprovalAction
    review_note: str | None = Field(default=None, max_length=2000)


class ApprovalDecisionAnswer(BaseModel):
    message: str
    ids: list[int]

    @classmethod
    def of(cls, decided: list[int], action: ApprovalAction) -> ApprovalDecisionAnswer:
        """A domain's PUT approval-items answer: how many items were decided, and which."""
        verb = "approved" if action == ApprovalAction.approve else "rejected"
        return cls(message=f"{len(decided)} item(s) {verb}", ids=decided)


class AdminStats(BaseModel):
    total: int
    listed: int
    active: int
    draft: int
    pending: int
    rejected: int
    edits_pending: int
    added_today: int
    added_last_7_days: int
    added_last_30_days: int
    by_vendor: dict[str, int]
    by_category: dict[str, int]
    daily: DailySeries = Field(description="Tours added per UTC day of the asked range")


class PreviewImageAnswer(BaseModel):
    """POST preview-image: `path` goes into the add/edit payload's preview_picture."""

    path: str = Field(description="The card-size image (600x400), used as preview_picture.")
    large: str = Field(description="The tour page's copy (up to 1200x800).")
    message: str
    pending: bool = Field(description="True when the image waits for an administrator (images_approval).")
    source_type: Literal["jpg", "png", "pdf"]


class SavedToursPage(BaseModel):
    """GET saved/{userid}: the tours a user saved, newest save first, as media cards."""

    data: list[MediaCard]
    total_items: int = Field(description="Every saved tour that is still listed.")
    limit: int
    offset: int


# ------------------------------------------------------------------------------ ranks (admins)

# A rank value is added to a score (the Trending boost) or orders tours (Featured): large values
# only bury everything else, and infinities or NaN would break the sort.
RANK_VALUE_LIMIT = 1_000_000.0
MAX_RANKS_PER_REQUEST = 1000


class RankValues(BaseModel):
    value: float = Field(
        ge=-RANK_VALUE_LIMIT, le=RANK_VALUE_LIMIT, allow_inf_nan=False, description="The rank source's value"
    )
    position: DbInt | None = Field(default=None, ge=1, description="An optional place (1 is first)")


class RankEdit(RankValues):
    """PUT ranks: a new value (and place) for one rank row."""

    id: DbId


class RankIdBody(BaseModel):
    id: DbId


class TourRankWrite(RankValues):
    guid: str = Field(min_length=1, max_length=64, description="The tour guid")
    rank_source_id: DbId


class TourRanksBulk(BaseModel):
    """POST ranks/bulk: set many tours' values at once (added, or changed where the row exists)."""

    ranks: list[TourRankWrite] = Field(min_length=1, max_length=MAX_RANKS_PER_REQUEST)


class TourRankOut(BaseModel):
    id: int
    rank_source_id: int
    rank_source: str
    guid: str
    title: str
    value: float
    position: int | None
    updated_date: UtcDateTime


class TourRanksPage(BaseModel):
    data: list[TourRankOut]
    total_items: int
    limit: int
    offset: int


class RanksBulkAnswer(BaseModel):
    message: str
    created: int
    updated: int


class TaskQueuedAnswer(BaseModel):
    """The background task starts once the request has committed."""

    message: str


class EmbeddingsBody(BaseModel):
    tours: list[str] | None = Field(
        default=None, max_length=MAX_TOURS_PER_REQUEST, description="Tour guids; none: every listed tour"
    )
