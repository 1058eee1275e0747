"""Wire shapes of spec §3 Category, Subcategory, Tag, Media type, Capture device, Rank source (hosts: app/vendors)."""

from __future__ import annotations

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


class RankSourceOut(BaseModel):
    id: int
    name: str


class RankSourceList(BaseModel):
    data: list[RankSourceOut]
