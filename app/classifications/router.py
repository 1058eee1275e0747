from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, Field

from app.classifications import service, suggestions
from app.classifications.models import Category, Tag
from app.classifications.schemas import (
    CaptureDeviceList,
    CaptureDeviceOut,
    CategoryList,
    CategoryOut,
    MediaTypeList,
    MediaTypeOut,
    RankSourceList,
    RankSourceOut,
    SubcategoryOut,
    TagList,
    TagOut,
)
from app.core.access import public
from app.core.deps import AdminUser, CurrentUser, DbSession
from app.core.errors import error_responses
from app.core.types import DbId

categories_router = APIRouter(prefix="/v2/categories", tags=["classifications"])
sources_router = APIRouter(prefix="/v2/sources", tags=["classifications"])

NO_DATA_MESSAGE = "No data found"


def _category(category: Category) -> CategoryOut:
    return CategoryOut(
        id=category.id,
        name=category.name,
        image_search=category.image_search,
        source_image_search=str(category.source_image_search.value) if category.source_image_search else None,
        subcategories=[
            SubcategoryOut(id=sub.id, name=sub.name, category_id=sub.category_id)
            for sub in category.subcategories
            if sub.is_active
        ],
    )


def _tag(tag: Tag) -> TagOut:
    return TagOut(
        id=tag.id,
        name=tag.name,
        description=tag.description,
        is_active=tag.is_active,
        topic_type=tag.topic_type.value,
        topic_id=tag.topic_id,
    )


@categories_router.get("/", response_model=CategoryList, dependencies=[Depends(public)])
def list_categories(db: DbSession) -> CategoryList:
    return CategoryList(data=[_category(category) for category in service.list_categories(db)])


@categories_router.get("/media-types", response_model=MediaTypeList, dependencies=[Depends(public)])
def list_media_types(db: DbSession) -> MediaTypeList:
    return MediaTypeList(data=[MediaTypeOut(id=item.id, name=item.name) for item in service.list_media_types(db)])


@categories_router.get("/capture-devices", response_model=CaptureDeviceList, dependencies=[Depends(public)])
def list_capture_devices(db: DbSession) -> CaptureDeviceList:
    return CaptureDeviceList(
        data=[
            CaptureDeviceOut(camera_id=item.id, camera_name=item.camera_name)
            for item in service.list_capture_devices(db)
        ]
    )


@categories_router.get("/tags", response_model=TagList, dependencies=[Depends(public)])
def list_tags(
    db: DbSession,
    search: str | None = Query(
        None, max_length=100, description="part of the name, case-insensitive; a leading # is ignored"
    ),
    category_id: DbId | None = Query(None),
    media_type_id: DbId | None = Query(None),
    limit: int = Query(service.MAX_TAG_RESULTS, ge=1, le=service.MAX_TAG_RESULTS),
) -> TagList:
    tags = service.search_tags(db, text=search, category_id=category_id, media_type_id=media_type_id, limit=limit)
    return TagList(data=[_tag(tag) for tag in tags], message=None if tags else NO_DATA_MESSAGE)


class DocumentTagsIn(BaseModel):
    documents: list[Annotated[str, Field(max_length=4000)]] = Field(
        min_length=1, max_length=5, description="the tour's title, then its description"
    )


class DocumentTagsOut(BaseModel):
    tags: list[TagOut]
    category_id: int | None


class TagEmbeddingsOut(BaseModel):
    message: str
    tags: int
    categories: int


@categories_router.post("/document-tags", response_model=DocumentTagsOut)
def document_tags(body: DocumentTagsIn, db: DbSession, _user: CurrentUser) -> DocumentTagsOut:
    """Up to 10 tags and the best category for a tour's title and description (Add media form);
    how they are chosen, with and without embeddings, is told in app/classifications/suggestions.py."""
    found = suggestions.suggest(db, body.documents)
    return DocumentTagsOut(tags=[_tag(tag) for tag in found.tags], category_id=found.category_id)


@categories_router.post("/admin-tag-embeddings", response_model=TagEmbeddingsOut, responses=error_responses(400))
def admin_tag_embeddings(db: DbSession, _admin: AdminUser) -> TagEmbeddingsOut:
    """Compute the embeddings of every tag and category again (after editing the dictionaries)."""
    counts = suggestions.recompute_embeddings(db)
    return TagEmbeddingsOut(
        message=f"Embedded {counts.tags} tags and {counts.categories} categories",
        tags=counts.tags,
        categories=counts.categories,
    )


@sources_router.get("/rank-sources", response_model=RankSourceList, dependencies=[Depends(public)])
def list_rank_sources(db: DbSession) -> RankSourceList:
    return RankSourceList(data=[RankSourceOut(id=item.id, name=item.name) for item in service.list_rank_sources(db)])


# The domain's one router, which app/main.py includes.
router = APIRouter()
router.include_router(categories_router)
router.include_router(sources_router)
