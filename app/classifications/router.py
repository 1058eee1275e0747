"""Spec §7 Categories (and GET /v2/sources/rank-sources, POST /v2/languages/language-translations).

Everyone reads the dictionaries, named in the caller's language (Accept-Language); every write is an
administrator's. The rules live in admin.py, requests.py, batch.py, icons.py and embeddings.py."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, File, Form, Query, UploadFile
from pydantic import BaseModel, Field

from app.classifications import admin, batch, embeddings, icons, requests, service, suggestions
from app.classifications.models import (
    CaptureDevice,
    Category,
    DictionaryKind,
    MediaType,
    Subcategory,
    Tag,
    TagEmbeddingJob,
    TagTopicType,
)
from app.classifications.schemas import (
    AdminCaptureDeviceAnswer,
    AdminCaptureDeviceOut,
    AdminCaptureDevicePage,
    AdminCategoryAnswer,
    AdminCategoryOut,
    AdminCategoryPage,
    AdminMediaTypeAnswer,
    AdminMediaTypeOut,
    AdminMediaTypePage,
    AdminSubcategoryAnswer,
    AdminSubcategoryOut,
    AdminSubcategoryPage,
    AdminTagAnswer,
    AdminTagOut,
    AdminTagPage,
    BatchRowOut,
    BatchUploadAnswer,
    CaptureDeviceCreate,
    CaptureDeviceList,
    CaptureDeviceOut,
    CaptureDeviceUpdate,
    CategoryCreate,
    CategoryIconAnswer,
    CategoryList,
    CategoryOut,
    CategoryRequestDecision,
    CategoryRequestDecisionAnswer,
    CategoryRequestOut,
    CategoryRequestPage,
    CategoryUpdate,
    MediaTypeCreate,
    MediaTypeList,
    MediaTypeOut,
    MediaTypeUpdate,
    RankSourceList,
    RankSourceOut,
    SubcategoryCreate,
    SubcategoryList,
    SubcategoryOut,
    SubcategoryUpdate,
    TagCreate,
    TagEmbeddingJobAnswer,
    TagEmbeddingJobOut,
    TagList,
    TagOut,
    TagUpdate,
    TranslationAnswer,
    TranslationIn,
)
from app.core.access import public
from app.core.deps import AdminUser, CurrentUser, DbSession, Locale
from app.core.errors import error_responses
from app.core.types import DbId, DbInt
from app.moderation.models import ApprovalItem

categories_router = APIRouter(prefix="/v2/categories", tags=["classifications"])
sources_router = APIRouter(prefix="/v2/sources", tags=["classifications"])
languages_router = APIRouter(prefix="/v2/languages", tags=["classifications"])

NO_DATA_MESSAGE = "No data found"
ADMIN_PAGE_MAX = 500
CONFLICTS = error_responses(404, 409)
Search = Annotated[str | None, Query(max_length=100, description="part of the name, case-insensitive")]
Active = Annotated[bool | None, Query(description="only active (true) or deactivated (false) rows")]
Limit = Annotated[int, Query(ge=1, le=ADMIN_PAGE_MAX)]
Offset = Annotated[DbInt, Query(ge=0)]


# ------------------------------------------------------------------------------ shaping


def _subcategory(sub: Subcategory, localized: dict[int, str]) -> SubcategoryOut:
    return SubcategoryOut(id=sub.id, name=localized.get(sub.id, sub.name), category_id=sub.category_id)


def _category(category: Category, localized: dict[int, str], localized_subs: dict[int, str]) -> CategoryOut:
    return CategoryOut(
        id=category.id,
        name=localized.get(category.id, category.name),
        image_search=category.image_search,
        source_image_search=str(category.source_image_search.value) if category.source_image_search else None,
        subcategories=[_subcategory(sub, localized_subs) for sub in category.subcategories if sub.is_active],
    )


def _tag(tag: Tag, localized: dict[int, str] | None = None) -> TagOut:
    return TagOut(
        id=tag.id,
        name=(localized or {}).get(tag.id, tag.name),
        description=tag.description,
        is_active=tag.is_active,
        topic_type=tag.topic_type.value,
        topic_id=tag.topic_id,
    )


def _admin_category(category: Category, tours: int, translations: dict[str, str]) -> AdminCategoryOut:
    return AdminCategoryOut(
        id=category.id,
        name=category.name,
        translations=translations,
        image_search=category.image_search,
        source_image_search=str(category.source_image_search.value) if category.source_image_search else None,
        icon_path=icons.icon_path(category.source_image_search, category.image_search),
        position=category.position,
        is_active=category.is_active,
        tours=tours,
    )


def _admin_subcategory(sub: Subcategory, tours: int, translations: dict[str, str]) -> AdminSubcategoryOut:
    return AdminSubcategoryOut(
        id=sub.id,
        name=sub.name,
        translations=translations,
        category_id=sub.category_id,
        is_active=sub.is_active,
        tours=tours,
    )


def _admin_media_type(row: MediaType, tours: int, translations: dict[str, str]) -> AdminMediaTypeOut:
    return AdminMediaTypeOut(id=row.id, name=row.name, translations=translations, is_active=row.is_active, tours=tours)


def _admin_device(row: CaptureDevice, tours: int, translations: dict[str, str]) -> AdminCaptureDeviceOut:
    return AdminCaptureDeviceOut(
        camera_id=row.id, camera_name=row.camera_name, translations=translations, is_active=row.is_active, tours=tours
    )


def _admin_tag(tag: Tag, uses: int, translations: dict[str, str]) -> AdminTagOut:
    return AdminTagOut(
        id=tag.id,
        name=tag.name,
        translations=translations,
        description=tag.description,
        is_active=tag.is_active,
        topic_type=tag.topic_type.value,
        topic_id=tag.topic_id,
        embedded=tag.embedding is not None,
        uses=uses,
    )


def _one_category(db: DbSession, category: Category) -> AdminCategoryOut:
    return _admin_category(category, *admin.describe(db, DictionaryKind.category, category.id))


def _one_subcategory(db: DbSession, sub: Subcategory) -> AdminSubcategoryOut:
    return _admin_subcategory(sub, *admin.describe(db, DictionaryKind.subcategory, sub.id))


def _one_media_type(db: DbSession, row: MediaType) -> AdminMediaTypeOut:
    return _admin_media_type(row, *admin.describe(db, DictionaryKind.media_type, row.id))


def _one_device(db: DbSession, row: CaptureDevice) -> AdminCaptureDeviceOut:
    return _admin_device(row, *admin.describe(db, DictionaryKind.capture_device, row.id))


def _one_tag(db: DbSession, tag: Tag) -> AdminTagOut:
    return _admin_tag(tag, *admin.describe(db, DictionaryKind.tag, tag.id))


def _saved(created: bool) -> str:
    return "Created" if created else "Saved"


# ------------------------------------------------------------------------------ everyone reads


@categories_router.get("/", response_model=CategoryList, dependencies=[Depends(public)])
def list_categories(db: DbSession, locale: Locale) -> CategoryList:
    """The active categories in the strip's order, each with its active subcategories."""
    categories = service.list_categories(db)
    names = service.localized_names(db, DictionaryKind.category, [row.id for row in categories], locale)
    subs = service.subcategories_of(categories)
    sub_names = service.localized_names(db, DictionaryKind.subcategory, [sub.id for sub in subs], locale)
    return CategoryList(data=[_category(category, names, sub_names) for category in categories])


@categories_router.get("/subcategories", response_model=SubcategoryList, dependencies=[Depends(public)])
def list_subcategories(db: DbSession, locale: Locale, category_id: DbId | None = Query(None)) -> SubcategoryList:
    """The active subcategories of the active categories, or of one category."""
    rows = admin.active_subcategories(db, category_id)
    names = service.localized_names(db, DictionaryKind.subcategory, [row.id for row in rows], locale)
    return SubcategoryList(data=[_subcategory(row, names) for row in rows])


@categories_router.get("/media-types", response_model=MediaTypeList, dependencies=[Depends(public)])
def list_media_types(db: DbSession, locale: Locale) -> MediaTypeList:
    rows = service.list_media_types(db)
    names = service.localized_names(db, DictionaryKind.media_type, [row.id for row in rows], locale)
    return MediaTypeList(
        data=[MediaTypeOut(id=row.id, name=names.get(row.id, row.name), is_360=row.is_360) for row in rows]
    )


@categories_router.get("/capture-devices", response_model=CaptureDeviceList, dependencies=[Depends(public)])
def list_capture_devices(db: DbSession, locale: Locale) -> CaptureDeviceList:
    rows = service.list_capture_devices(db)
    names = service.localized_names(db, DictionaryKind.capture_device, [row.id for row in rows], locale)
    return CaptureDeviceList(
        data=[CaptureDeviceOut(camera_id=row.id, camera_name=names.get(row.id, row.camera_name)) for row in rows]
    )


@categories_router.get("/tags", response_model=TagList, dependencies=[Depends(public)])
def list_tags(
    db: DbSession,
    locale: Locale,
    search: str | None = Query(
        None, max_length=100, description="part of the name, case-insensitive; a leading # is ignored"
    ),
    category_id: DbId | None = Query(None),
    media_type_id: DbId | None = Query(None),
    limit: int = Query(service.MAX_TAG_RESULTS, ge=1, le=service.MAX_TAG_RESULTS),
) -> TagList:
    tags = service.search_tags(
        db, text=search, category_id=category_id, media_type_id=media_type_id, limit=limit, locale=locale
    )
    names = service.localized_names(db, DictionaryKind.tag, [tag.id for tag in tags], locale)
    return TagList(data=[_tag(tag, names) for tag in tags], message=None if tags else NO_DATA_MESSAGE)


@categories_router.get(
    "/category-icon", response_model=CategoryIconAnswer, dependencies=[Depends(public)], responses=error_responses(404)
)
def get_category_icon(
    type: str = Query("cloud", max_length=16, description="the category's source_image_search: cloud"),
    image: str = Query(max_length=512, description="the category's image_search (a stored name or its path)"),
) -> CategoryIconAnswer:
    """The served path of an uploaded (cloud) category icon; 404 'Icon not found'."""
    return CategoryIconAnswer(path=icons.public_path(type, image))


class DocumentTagsIn(BaseModel):
    documents: list[Annotated[str, Field(max_length=4000)]] = Field(
        min_length=1, max_length=5, description="the tour's title, then its description"
    )


class DocumentTagsOut(BaseModel):
    tags: list[TagOut]
    category_id: int | None


@categories_router.post("/document-tags", response_model=DocumentTagsOut)
def document_tags(body: DocumentTagsIn, db: DbSession, _user: CurrentUser) -> DocumentTagsOut:
    """Up to 10 tags and the best category for a tour's title and description (Add media form);
    how they are chosen, with and without embeddings, is told in app/classifications/suggestions.py."""
    found = suggestions.suggest(db, body.documents)
    return DocumentTagsOut(tags=[_tag(tag) for tag in found.tags], category_id=found.category_id)


# ------------------------------------------------------------------------------ categories (admins)


@categories_router.post("/", response_model=AdminCategoryAnswer, status_code=201, responses=error_responses(409))
def create_category(body: CategoryCreate, db: DbSession, _admin: AdminUser) -> AdminCategoryAnswer:
    """A new category; its name unique in each language. 409 when a name is taken."""
    category = admin.create_category(
        db,
        name=body.name,
        translations=body.translations,
        image_search=body.image_search,
        source_image_search=body.source_image_search,
        position=body.position,
        is_active=body.is_active,
    )
    return AdminCategoryAnswer(message=_saved(True), data=_one_category(db, category))


@categories_router.put("/", response_model=AdminCategoryAnswer, responses=CONFLICTS)
def update_category(body: CategoryUpdate, db: DbSession, _admin: AdminUser) -> AdminCategoryAnswer:
    """Rename, re-order, change the icon, (de)activate. 409 when a name is taken, or on deactivating
    a category that tours or active subcategories use."""
    category = admin.update_category(
        db,
        category_id=body.id,
        name=body.name,
        translations=body.translations,
        image_search=body.image_search,
        source_image_search=body.source_image_search,
        position=body.position,
        is_active=body.is_active,
    )
    return AdminCategoryAnswer(message=_saved(False), data=_one_category(db, category))


@categories_router.post("/category-icon", response_model=CategoryIconAnswer, status_code=201)
def upload_category_icon(_admin: AdminUser, image: UploadFile = File(...)) -> CategoryIconAnswer:
    """JPG, PNG or WEBP up to 2 MB, recognised by its content, shrunk to 128 px and stored without
    metadata; give the answer's `image` as a category's image_search with source_image_search cloud."""
    name = icons.store_icon(image.file)
    return CategoryIconAnswer(path=icons.served_path(name), image=name, message="The icon has been uploaded")


@categories_router.get("/admin-categories", response_model=AdminCategoryPage)
def admin_categories(
    db: DbSession,
    _admin: AdminUser,
    search: Search = None,
    is_active: Active = None,
    limit: Limit = 100,
    offset: Offset = 0,
) -> AdminCategoryPage:
    """Every category, active or not, with its names and how many tours use it."""
    page = admin.list_categories(db, search=search, is_active=is_active, limit=limit, offset=offset)
    return AdminCategoryPage(
        data=page.shaped(_admin_category),
        total_items=page.total,
        limit=limit,
        offset=offset,
    )


# ------------------------------------------------------------------------------ subcategories (admins)


@categories_router.get("/admin-subcategories", response_model=AdminSubcategoryPage)
def admin_subcategories(
    db: DbSession,
    _admin: AdminUser,
    category_id: DbId | None = Query(None),
    search: Search = None,
    is_active: Active = None,
    limit: Limit = 100,
    offset: Offset = 0,
) -> AdminSubcategoryPage:
    page = admin.list_subcategories(
        db, category_id=category_id, search=search, is_active=is_active, limit=limit, offset=offset
    )
    return AdminSubcategoryPage(
        data=page.shaped(_admin_subcategory),
        total_items=page.total,
        limit=limit,
        offset=offset,
    )


def _create_subcategory(body: SubcategoryCreate, db: DbSession) -> AdminSubcategoryAnswer:
    sub = admin.create_subcategory(
        db, category_id=body.category_id, name=body.name, translations=body.translations, is_active=body.is_active
    )
    return AdminSubcategoryAnswer(message=_saved(True), data=_one_subcategory(db, sub))


def _update_subcategory(body: SubcategoryUpdate, db: DbSession) -> AdminSubcategoryAnswer:
    sub = admin.update_subcategory(
        db,
        subcategory_id=body.id,
        category_id=body.category_id,
        name=body.name,
        translations=body.translations,
        is_active=body.is_active,
    )
    return AdminSubcategoryAnswer(message=_saved(False), data=_one_subcategory(db, sub))


@categories_router.post(
    "/subcategories", response_model=AdminSubcategoryAnswer, status_code=201, responses=error_responses(409)
)
def create_subcategory(body: SubcategoryCreate, db: DbSession, _admin: AdminUser) -> AdminSubcategoryAnswer:
    """A subcategory of an existing, active category (400 otherwise); its name unique there in each language."""
    return _create_subcategory(body, db)


@categories_router.put("/subcategories", response_model=AdminSubcategoryAnswer, responses=CONFLICTS)
def update_subcategory(body: SubcategoryUpdate, db: DbSession, _admin: AdminUser) -> AdminSubcategoryAnswer:
    """Rename, move (when unused) or (de)activate; 409 on deactivating one that tours use."""
    return _update_subcategory(body, db)


@categories_router.post(
    "/admin-subcategories", response_model=AdminSubcategoryAnswer, status_code=201, responses=error_responses(409)
)
def admin_create_subcategory(body: SubcategoryCreate, db: DbSession, _admin: AdminUser) -> AdminSubcategoryAnswer:
    """As POST subcategories."""
    return _create_subcategory(body, db)


@categories_router.put("/admin-subcategories", response_model=AdminSubcategoryAnswer, responses=CONFLICTS)
def admin_update_subcategory(body: SubcategoryUpdate, db: DbSession, _admin: AdminUser) -> AdminSubcategoryAnswer:
    """As PUT subcategories."""
    return _update_subcategory(body, db)


# ------------------------------------------------------------------------------ media types (admins)


@categories_router.get("/admin-media-types", response_model=AdminMediaTypePage)
def admin_media_types(
    db: DbSession,
    _admin: AdminUser,
    search: Search = None,
    is_active: Active = None,
    limit: Limit = 100,
    offset: Offset = 0,
) -> AdminMediaTypePage:
    page = admin.list_media_types(db, search=search, is_active=is_active, limit=limit, offset=offset)
    return AdminMediaTypePage(
        data=page.shaped(_admin_media_type),
        total_items=page.total,
        limit=limit,
        offset=offset,
    )


@categories_router.post(
    "/admin-media-types", response_model=AdminMediaTypeAnswer, status_code=201, responses=error_responses(409)
)
def admin_create_media_type(body: MediaTypeCreate, db: DbSession, _admin: AdminUser) -> AdminMediaTypeAnswer:
    row = admin.create_media_type(db, name=body.name, translations=body.translations, is_active=body.is_active)
    return AdminMediaTypeAnswer(message=_saved(True), data=_one_media_type(db, row))


@categories_router.put("/admin-media-types", response_model=AdminMediaTypeAnswer, responses=CONFLICTS)
def admin_update_media_type(body: MediaTypeUpdate, db: DbSession, _admin: AdminUser) -> AdminMediaTypeAnswer:
    """409 on deactivating a media type that tours use."""
    row = admin.update_media_type(
        db, media_type_id=body.id, name=body.name, translations=body.translations, is_active=body.is_active
    )
    return AdminMediaTypeAnswer(message=_saved(False), data=_one_media_type(db, row))


# ------------------------------------------------------------------------------ capture devices (admins)


@categories_router.get("/admin-capture-devices", response_model=AdminCaptureDevicePage)
def admin_capture_devices(
    db: DbSession,
    _admin: AdminUser,
    search: Search = None,
    is_active: Active = None,
    limit: Limit = 100,
    offset: Offset = 0,
) -> AdminCaptureDevicePage:
    page = admin.list_capture_devices(db, search=search, is_active=is_active, limit=limit, offset=offset)
    return AdminCaptureDevicePage(
        data=page.shaped(_admin_device),
        total_items=page.total,
        limit=limit,
        offset=offset,
    )


@categories_router.post(
    "/admin-capture-devices", response_model=AdminCaptureDeviceAnswer, status_code=201, responses=error_responses(409)
)
def admin_create_capture_device(
    body: CaptureDeviceCreate, db: DbSession, _admin: AdminUser
) -> AdminCaptureDeviceAnswer:
    row = admin.create_capture_device(
        db, camera_name=body.camera_name, translations=body.translations, is_active=body.is_active
    )
    return AdminCaptureDeviceAnswer(message=_saved(True), data=_one_device(db, row))


@categories_router.put("/admin-capture-devices", response_model=AdminCaptureDeviceAnswer, responses=CONFLICTS)
def admin_update_capture_device(
    body: CaptureDeviceUpdate, db: DbSession, _admin: AdminUser
) -> AdminCaptureDeviceAnswer:
    """409 on deactivating a capture device that tours use."""
    row = admin.update_capture_device(
        db,
        camera_id=body.camera_id,
        camera_name=body.camera_name,
        translations=body.translations,
        is_active=body.is_active,
    )
    return AdminCaptureDeviceAnswer(message=_saved(False), data=_one_device(db, row))


# ------------------------------------------------------------------------------ tags (admins)


@categories_router.get("/admin-tags", response_model=AdminTagPage)
def admin_tags(
    db: DbSession,
    _admin: AdminUser,
    search: Search = None,
    topic_type: TagTopicType | None = Query(None),
    topic_id: DbId | None = Query(None),
    is_active: Active = None,
    limit: Limit = 100,
    offset: Offset = 0,
) -> AdminTagPage:
    page = admin.list_tags(
        db, search=search, topic_type=topic_type, topic_id=topic_id, is_active=is_active, limit=limit, offset=offset
    )
    return AdminTagPage(
        data=page.shaped(_admin_tag),
        total_items=page.total,
        limit=limit,
        offset=offset,
    )


@categories_router.post("/admin-tags", response_model=AdminTagAnswer, status_code=201, responses=error_responses(409))
def admin_create_tag(body: TagCreate, db: DbSession, _admin: AdminUser) -> AdminTagAnswer:
    """A tag of a category or media type; its embedding is computed by the worker once saved."""
    tag = admin.create_tag(
        db,
        name=body.name,
        description=body.description,
        topic_type=body.topic_type,
        topic_id=body.topic_id,
        translations=body.translations,
        is_active=body.is_active,
    )
    return AdminTagAnswer(message=_saved(True), data=_one_tag(db, tag))


@categories_router.put("/admin-tags", response_model=AdminTagAnswer, responses=CONFLICTS)
def admin_update_tag(body: TagUpdate, db: DbSession, _admin: AdminUser) -> AdminTagAnswer:
    """A changed name or description is embedded again by the worker; 409 on deactivating a tag
    that tours or ads carry."""
    tag = admin.update_tag(
        db,
        tag_id=body.id,
        name=body.name,
        description=body.description,
        topic_type=body.topic_type,
        topic_id=body.topic_id,
        translations=body.translations,
        is_active=body.is_active,
    )
    return AdminTagAnswer(message=_saved(False), data=_one_tag(db, tag))


def _job(job: TagEmbeddingJob | None) -> TagEmbeddingJobOut | None:
    if job is None:
        return None
    return TagEmbeddingJobOut(
        id=job.id,
        status=job.status,
        total=job.total,
        done=job.done,
        message=job.message,
        created_at=job.created_at,
        finished_at=job.finished_at,
    )


@categories_router.post(
    "/admin-tag-embeddings", response_model=TagEmbeddingJobAnswer, status_code=202, responses=error_responses(400)
)
def admin_tag_embeddings(db: DbSession, admin_user: AdminUser) -> TagEmbeddingJobAnswer:
    """Embed every tag again, in the background; GET admin-tag-embeddings tells its progress. A run
    already under way is answered instead of starting another. 400 when embeddings are off."""
    job, started = embeddings.start_job(db, admin_user)
    message = "Embedding every tag" if started else "Tags are being embedded already"
    return TagEmbeddingJobAnswer(message=message, data=_job(job))


@categories_router.get("/admin-tag-embeddings", response_model=TagEmbeddingJobAnswer)
def admin_tag_embeddings_progress(db: DbSession, _admin: AdminUser) -> TagEmbeddingJobAnswer:
    """The latest run of admin-tag-embeddings: status, tags done of total."""
    job = embeddings.latest_job(db)
    return TagEmbeddingJobAnswer(message="No run yet" if job is None else str(job.status.value), data=_job(job))


# ------------------------------------------------------------------------------ batch upload (admins)


@categories_router.post("/admin-batch-upload", response_model=BatchUploadAnswer)
def admin_batch_upload(
    db: DbSession,
    _admin: AdminUser,
    file: UploadFile = File(
        ..., description="CSV or XLSX, at most 2 MB and 5,000 rows (columns: app/classifications/batch.py)"
    ),
    dry_run: bool = Form(False, description="Only check the rows and report; change nothing"),
) -> BatchUploadAnswer:
    """Categories, subcategories and tags from a file, all rows or none: one bad row and nothing is
    applied; the report says, row by row, what was (or would be) created or updated and what failed."""
    result = batch.apply(db, batch.read_file(file.file), dry_run=dry_run)
    errors = result.count("error")
    if errors:
        message = f"{errors} row{'s' if errors != 1 else ''} failed: nothing was applied"
    elif dry_run:
        message = "Every row is valid (dry run: nothing was applied)"
    else:
        message = f"Applied {len(result.report)} rows"
    return BatchUploadAnswer(
        message=message,
        applied=result.applied,
        dry_run=result.dry_run,
        created=result.count("created"),
        updated=result.count("updated"),
        errors=errors,
        report=[
            BatchRowOut(row=row.row, status=row.status, message=row.message, field=row.field, kind=row.kind, id=row.id)
            for row in result.report
        ],
    )


# ------------------------------------------------------------------------------ category requests (admins)


def _request(db: DbSession, item: ApprovalItem) -> CategoryRequestOut:
    payload = item.payload or {}
    category = str(payload.get("category") or "")
    existing = requests.existing_category_id(db, category)
    return CategoryRequestOut(
        id=item.id,
        status=item.status.value,  # type: ignore[arg-type]  # the three statuses of ApprovalStatus
        category=category,
        subcategory=payload.get("subcategory") or None,
        tour_guid=payload.get("tour_guid") or None,
        userid=item.submitted_by_user_id,
        existing_category_id=existing,
        created_at=item.created_at,
        reviewed_at=item.reviewed_at,
        reviewed_by=item.reviewed_by_user_id,
        review_note=item.review_note,
    )


@categories_router.get("/approval-items", response_model=CategoryRequestPage)
def list_category_requests(
    db: DbSession,
    _admin: AdminUser,
    status: str = Query("pending", pattern="^(pending|approved|rejected|all)$"),
    limit: int = Query(20, ge=1, le=100),
    offset: Offset = 0,
) -> CategoryRequestPage:
    """Category requests users sent with their tours (new category mode), oldest first."""
    items, total = requests.list_items(db, status=status, limit=limit, offset=offset)
    return CategoryRequestPage(
        data=[_request(db, item) for item in items], total_items=total, limit=limit, offset=offset
    )


@categories_router.put("/approval-items", response_model=CategoryRequestDecisionAnswer, responses=CONFLICTS)
def decide_category_request(
    body: CategoryRequestDecision, db: DbSession, admin_user: AdminUser
) -> CategoryRequestDecisionAnswer:
    """Approve (the category and subcategory exist afterwards and the tour moves into them) or
    reject (nothing changes); the user is told by mail. 409 when decided already."""
    approve = body.action == "approve"
    item = requests.decide(db, admin_user=admin_user, item_id=body.id, approve=approve, note=body.review_note)
    return CategoryRequestDecisionAnswer(message="Approved" if approve else "Rejected", data=_request(db, item))


# ------------------------------------------------------------------------------ rank sources, translations


@sources_router.get("/rank-sources", response_model=RankSourceList, dependencies=[Depends(public)])
def list_rank_sources(db: DbSession) -> RankSourceList:
    return RankSourceList(data=[RankSourceOut(id=item.id, name=item.name) for item in service.list_rank_sources(db)])


@languages_router.post("/language-translations", response_model=TranslationAnswer, responses=CONFLICTS)
def set_translation(body: TranslationIn, db: DbSession, _admin: AdminUser) -> TranslationAnswer:
    """A dictionary row's name in one language (en renames the row); unique in that language within
    its scope (409 otherwise)."""
    row = admin.set_name(db, kind=body.kind, entity_id=body.id, language=body.language, name=body.name)
    _uses, translations = admin.describe(db, body.kind, row.id)
    english = row.camera_name if isinstance(row, CaptureDevice) else row.name
    return TranslationAnswer(message="Saved", kind=body.kind, id=row.id, name=english, translations=translations)


# The domain's one router, which app/main.py includes.
router = APIRouter()
router.include_router(categories_router)
router.include_router(sources_router)
router.include_router(languages_router)
