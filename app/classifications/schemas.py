"""Wire shapes of spec §3 Category, Subcategory, Tag, Media type, Vendor (host), Capture device, Rank source."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel


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


class RankSourceOut(BaseModel):
    id: int
    name: str


class RankSourceList(BaseModel):
    data: list[RankSourceOut]
