"""Wire shapes of spec §3 Category, Subcategory, Tag, Media type, Capture device, Rank source (hosts: app/vendors)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.classifications.models import DictionaryKind, EmbeddingJobStatus, ImageSource, TagTopicType
from app.core.timestamps import UtcDateTime
from app.core.types import DbId, DbInt


class SubcategoryOut(BaseModel):
    id: int
    name: str
    category_id: int


class CategoryOut(BaseModel):
    id: int
    name: str
    image_search: str | None
    source_image_search: str | None
    subcategories: list[SubcategoryOut]


class CategoryList(BaseModel):
    data: list[CategoryOut]


class MediaTypeOut(BaseModel):
    id: int
    name: str
    is_360: bool = Field(False, description="A panorama or 360 video type: kept by the filters' 360° switch.")


class MediaTypeList(BaseModel):
    data: list[MediaTypeOut]


class CaptureDeviceOut(BaseModel):
    camera_id: int
    camera_name: str


class CaptureDeviceList(BaseModel):
    data: list[CaptureDeviceOut]


class TagOut(BaseModel):
    id: int
    name: str
    description: str | None
    is_active: bool
    topic_type: str
    topic_id: int


class TagList(BaseModel):
    data: list[TagOut]
    message: str | None = None


class RankSourceOut(BaseModel):
    id: int
    name: str


class RankSourceList(BaseModel):
    data: list[RankSourceOut]


# ------------------------------------------------------------------------------ administrators

Translations = dict[str, str]
TRANSLATIONS_DOC = (
    'Names in languages other than English, by language code ({"ru": "Музеи"}); an empty name '
    "removes that language's name. English is `name`."
)


class AdminCategoryOut(BaseModel):
    id: int
    name: str = Field(description="English")
    translations: Translations = Field(description="Names in the other languages")
    image_search: str | None
    source_image_search: str | None
    icon_path: str | None = Field(description="Where an uploaded (cloud) icon is served")
    position: int
    is_active: bool
    tours: int = Field(description="Tours filed under it: more than 0 and it cannot be deactivated")


class AdminSubcategoryOut(BaseModel):
    id: int
    name: str
    translations: Translations
    category_id: int
    is_active: bool
    tours: int


class AdminMediaTypeOut(BaseModel):
    id: int
    name: str
    translations: Translations
    is_active: bool
    tours: int


class AdminCaptureDeviceOut(BaseModel):
    camera_id: int
    camera_name: str
    translations: Translations
    is_active: bool
    tours: int


class AdminTagOut(BaseModel):
    id: int
    name: str
    translations: Translations
    description: str | None
    is_active: bool
    topic_type: str
    topic_id: int
    embedded: bool = Field(description="Whether its embedding is computed (the worker does it after a change)")
    uses: int = Field(description="Tours and ads that carry it")


class AdminCategoryPage(BaseModel):
    data: list[AdminCategoryOut]
    total_items: int
    limit: int
    offset: int


class AdminSubcategoryPage(BaseModel):
    data: list[AdminSubcategoryOut]
    total_items: int
    limit: int
    offset: int


class AdminMediaTypePage(BaseModel):
    data: list[AdminMediaTypeOut]
    total_items: int
    limit: int
    offset: int


class AdminCaptureDevicePage(BaseModel):
    data: list[AdminCaptureDeviceOut]
    total_items: int
    limit: int
    offset: int


class AdminTagPage(BaseModel):
    data: list[AdminTagOut]
    total_items: int
    limit: int
    offset: int


class CategoryCreate(BaseModel):
    name: str = Field(max_length=200)
    translations: Translations | None = Field(default=None, description=TRANSLATIONS_DOC)
    image_search: str | None = Field(
        default=None,
        max_length=512,
        description="local: an icon name the app draws (building-bank); cloud: the name POST category-icon answered",
    )
    source_image_search: ImageSource | None = Field(default=None, description="Default local")
    position: DbInt | None = Field(default=None, description="Order in the category strip; default last")
    is_active: bool = True


class CategoryUpdate(BaseModel):
    id: DbId
    name: str | None = Field(default=None, max_length=200)
    translations: Translations | None = Field(default=None, description=TRANSLATIONS_DOC)
    image_search: str | None = Field(default=None, max_length=512, description='"" removes the icon')
    source_image_search: ImageSource | None = None
    position: DbInt | None = None
    is_active: bool | None = Field(default=None, description="false deactivates; 409 while tours use it")


class SubcategoryCreate(BaseModel):
    category_id: DbId
    name: str = Field(max_length=200)
    translations: Translations | None = Field(default=None, description=TRANSLATIONS_DOC)
    is_active: bool = True


class SubcategoryUpdate(BaseModel):
    id: DbId
    category_id: DbId | None = Field(default=None, description="Move it to another category (unused only)")
    name: str | None = Field(default=None, max_length=200)
    translations: Translations | None = Field(default=None, description=TRANSLATIONS_DOC)
    is_active: bool | None = None


class MediaTypeCreate(BaseModel):
    name: str = Field(max_length=200)
    translations: Translations | None = Field(default=None, description=TRANSLATIONS_DOC)
    is_active: bool = True


class MediaTypeUpdate(BaseModel):
    id: DbId
    name: str | None = Field(default=None, max_length=200)
    translations: Translations | None = Field(default=None, description=TRANSLATIONS_DOC)
    is_active: bool | None = None


class CaptureDeviceCreate(BaseModel):
    camera_name: str = Field(max_length=300)
    translations: Translations | None = Field(default=None, description=TRANSLATIONS_DOC)
    is_active: bool = True


class CaptureDeviceUpdate(BaseModel):
    camera_id: DbId
    camera_name: str | None = Field(default=None, max_length=300)
    translations: Translations | None = Field(default=None, description=TRANSLATIONS_DOC)
    is_active: bool | None = None


class TagCreate(BaseModel):
    name: str = Field(max_length=200)
    description: str | None = Field(default=None, max_length=2000)
    topic_type: TagTopicType = TagTopicType.category
    topic_id: DbId
    translations: Translations | None = Field(default=None, description=TRANSLATIONS_DOC)
    is_active: bool = True


class TagUpdate(BaseModel):
    id: DbId
    name: str | None = Field(default=None, max_length=200)
    description: str | None = Field(default=None, max_length=2000, description='"" removes it')
    topic_type: TagTopicType | None = None
    topic_id: DbId | None = None
    translations: Translations | None = Field(default=None, description=TRANSLATIONS_DOC)
    is_active: bool | None = None


class AdminCategoryAnswer(BaseModel):
    message: str
    data: AdminCategoryOut


class AdminSubcategoryAnswer(BaseModel):
    message: str
    data: AdminSubcategoryOut


class AdminMediaTypeAnswer(BaseModel):
    message: str
    data: AdminMediaTypeOut


class AdminCaptureDeviceAnswer(BaseModel):
    message: str
    data: AdminCaptureDeviceOut


class AdminTagAnswer(BaseModel):
    message: str
    data: AdminTagOut


class SubcategoryList(BaseModel):
    data: list[SubcategoryOut]


class CategoryIconAnswer(BaseModel):
    path: str = Field(description="Where the icon is served")
    image: str | None = Field(default=None, description="The stored name, for a category's image_search (upload)")
    message: str | None = None


class TranslationIn(BaseModel):
    """POST /v2/languages/language-translations: one row's name in one language."""

    kind: DictionaryKind = Field(description="category, subcategory, media_type, capture_device or tag")
    id: DbId
    language: str = Field(max_length=8, description="en renames the row itself")
    name: str = Field(max_length=300, description='"" removes the name in that language (not English)')


class TranslationAnswer(BaseModel):
    message: str
    kind: DictionaryKind
    id: int
    name: str = Field(description="English")
    translations: Translations


class TagEmbeddingJobOut(BaseModel):
    id: int
    status: EmbeddingJobStatus
    total: int
    done: int
    message: str | None
    created_at: UtcDateTime
    finished_at: UtcDateTime | None


class TagEmbeddingJobAnswer(BaseModel):
    message: str
    data: TagEmbeddingJobOut | None


class CategoryRequestOut(BaseModel):
    id: int
    status: Literal["pending", "approved", "rejected"]
    category: str = Field(description="The category asked for")
    subcategory: str | None
    tour_guid: str | None = Field(description="The tour it came with (moved into it on approval)")
    userid: int | None = Field(description="Who asked")
    existing_category_id: int | None = Field(description="A category of that name exists already")
    created_at: UtcDateTime
    reviewed_at: UtcDateTime | None
    reviewed_by: int | None
    review_note: str | None


class CategoryRequestPage(BaseModel):
    data: list[CategoryRequestOut]
    total_items: int
    limit: int
    offset: int


class CategoryRequestDecision(BaseModel):
    id: DbId
    action: Literal["approve", "reject"]
    review_note: str | None = Field(default=None, max_length=1000, description="Mailed to the user")


class CategoryRequestDecisionAnswer(BaseModel):
    message: str
    data: CategoryRequestOut


class BatchRowOut(BaseModel):
    row: int = Field(description="The row's number in the file (the header is row 1)")
    status: Literal["created", "updated", "error"]
    message: str
    field: str | None = Field(description="The column at fault")
    kind: str | None
    id: int | None


class BatchUploadAnswer(BaseModel):
    message: str
    applied: bool = Field(description="false when any row failed or with dry_run: nothing was changed")
    dry_run: bool
    created: int
    updated: int
    errors: int
    report: list[BatchRowOut]
