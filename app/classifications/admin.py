"""The administrators' side of the classifications (spec §7 Categories: POST/PUT categories,
subcategories, admin media types, capture devices and tags; the admin-* lists).

Rules, each checked here whatever the caller sent:
- names are unique in each language within their scope, case-insensitively (app/classifications/names.py);
- a subcategory belongs to an existing, active category (no orphans); a tag to an existing topic;
- a row in use (tours, ads or active subcategories naming it) cannot be deactivated: 409 saying by what;
- a change reaches what reads it: tags and the tours that carry a renamed tag through the outbox (the
  search index), a tag's embedding through the embedding task, and every open page through a
  `dictionaries:changed` push, so clients drop their cached dictionaries.
Nothing here commits: the request (or the batch upload's savepoint) does.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, Select, func, select
from sqlalchemy.orm import Session

from app.ads.models import AdTag
from app.classifications import icons, names
from app.classifications.models import (
    CaptureDevice,
    Category,
    DictionaryKind,
    ImageSource,
    MediaType,
    Subcategory,
    Tag,
    TagTopicType,
)
from app.classifications.names import Owner
from app.core import outbox_topics
from app.core.after_commit import after_commit
from app.core.errors import BadRequest, Conflict, NotFound
from app.core.locale import DEFAULT_LOCALE
from app.core.tasks import submit_after_commit
from app.realtime.events import DICTIONARIES_CHANGED, EVERYONE_ROOM, emit_now
from app.tours.models import Tour, TourTag

# The task that embeds tags whose text changed (app/classifications/tasks.py); submitted after commit.
EMBED_TAGS_TASK = "classifications.embed_tags"
DESCRIPTION_MAX = 1000
DESCRIPTION_TOO_LONG = f"A description is at most {DESCRIPTION_MAX} characters"
NOT_FOUND: dict[DictionaryKind, str] = {
    DictionaryKind.category: "Category not found",
    DictionaryKind.subcategory: "Subcategory not found",
    DictionaryKind.media_type: "Media type not found",
    DictionaryKind.capture_device: "Capture device not found",
    DictionaryKind.tag: "Tag not found",
}
CATEGORY_INACTIVE = "This category is deactivated: activate it before adding subcategories to it"
TOPIC_NOT_FOUND = "The tag's topic (a category or a media type) does not exist"
IN_USE = "{what} is in use ({uses}): it cannot be deactivated. {hint}"
HINTS: dict[DictionaryKind, str] = {
    DictionaryKind.category: "Move its tours to another category and deactivate its subcategories first.",
    DictionaryKind.subcategory: "Move its tours to another subcategory first.",
    DictionaryKind.media_type: "Change the media type of its tours first.",
    DictionaryKind.capture_device: "Change the capture device of its tours first.",
    DictionaryKind.tag: "Remove it from those tours and ads first.",
}
WHAT: dict[DictionaryKind, str] = {
    DictionaryKind.category: "Category “{name}”",
    DictionaryKind.subcategory: "Subcategory “{name}”",
    DictionaryKind.media_type: "Media type “{name}”",
    DictionaryKind.capture_device: "Capture device “{name}”",
    DictionaryKind.tag: "Tag “{name}”",
}

Row = TypeVar("Row", Category, Subcategory, MediaType, CaptureDevice, Tag)
Out = TypeVar("Out")


@dataclass(frozen=True, slots=True)
class Page:
    """One page of an admin list, with each row's uses and translations."""

    rows: Sequence[Any]
    total: int
    uses: dict[int, int]
    translations: dict[int, dict[str, str]]

    def shaped(self, shape: Callable[[Any, int, dict[str, str]], Out]) -> list[Out]:
        """The rows as answered: `shape(row, uses, translations)` for each."""
        return [shape(row, self.uses.get(row.id, 0), self.translations.get(row.id, {})) for row in self.rows]


# ------------------------------------------------------------------------------ shared helpers


def _get(db: Session, model: type[Row], kind: DictionaryKind, row_id: int) -> Row:
    row = db.get(model, row_id)
    if row is None:
        raise NotFound(NOT_FOUND[kind], fields={"id": NOT_FOUND[kind]})
    return row


def slugify(name: str) -> str:
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:80] or "item"


def _free_slug(db: Session, column: Any, name: str) -> str:
    base = slugify(name)
    taken = set(db.scalars(select(column).where(column.like(f"{base}%"))))
    slug, number = base, 2
    while slug in taken:
        slug, number = f"{base}-{number}", number + 1
    return slug


def _check_unique_en(db: Session, kind: DictionaryKind, statement: Select[Any], name: str, field: str = "name") -> None:
    """409 when `statement` (the other rows of the scope with this lower-cased name) finds one."""
    if db.scalar(statement.limit(1)) is not None:
        raise names.taken(kind, name, field)


def _description(value: str | None) -> str | None:
    text = (value or "").strip()
    if len(text) > DESCRIPTION_MAX:
        raise BadRequest(DESCRIPTION_TOO_LONG, fields={"description": DESCRIPTION_TOO_LONG})
    return text or None


def _announce(db: Session, kind: DictionaryKind) -> None:
    """Every open page hears (after the commit) that a dictionary changed and reloads it."""
    after_commit(
        db,
        partial(emit_now, DICTIONARIES_CHANGED, {"kind": kind.value}, room=EVERYONE_ROOM),
        key=f"{DICTIONARIES_CHANGED}:{kind.value}",
        description=f"event {DICTIONARIES_CHANGED} ({kind.value})",
    )


def _refuse_if_in_use(kind: DictionaryKind, name: str, uses: dict[str, int]) -> None:
    in_use = {what: count for what, count in uses.items() if count}
    if in_use:
        said = ", ".join(f"{count} {_singular(what) if count == 1 else what}" for what, count in in_use.items())
        message = IN_USE.format(what=WHAT[kind].format(name=name), uses=f"used by {said}", hint=HINTS[kind])
        raise Conflict(message, fields={"is_active": message})


def _singular(plural: str) -> str:
    return plural[:-3] + "y" if plural.endswith("ies") else plural.removesuffix("s")


def _count(db: Session, statement: Select[Any]) -> int:
    return int(db.scalar(statement) or 0)


def _grouped_counts(db: Session, column: Any, ids: Sequence[int], *where: ColumnElement[bool]) -> dict[int, int]:
    if not ids:
        return {}
    statement = select(column, func.count()).where(column.in_(list(ids)), *where).group_by(column)
    return {int(key): int(count) for key, count in db.execute(statement)}


def _search(statement: Select[Any], column: Any, text: str | None) -> Select[Any]:
    if text and text.strip():
        return statement.where(func.lower(column).contains(text.strip().lower(), autoescape=True))
    return statement


def _page(db: Session, statement: Select[Any], order: Sequence[Any], limit: int, offset: int) -> tuple[list[Any], int]:
    total = _count(db, select(func.count()).select_from(statement.subquery()))
    rows = list(db.scalars(statement.order_by(*order).limit(limit).offset(offset)))
    return rows, total


# ------------------------------------------------------------------------------ categories


def category_uses(db: Session, ids: Sequence[int]) -> dict[int, int]:
    return _grouped_counts(db, Tour.category_id, ids)


def list_categories(db: Session, *, search: str | None, is_active: bool | None, limit: int, offset: int) -> Page:
    statement = _search(select(Category), Category.name, search)
    if is_active is not None:
        statement = statement.where(Category.is_active.is_(is_active))
    rows, total = _page(db, statement, (Category.position, Category.name), limit, offset)
    ids = [row.id for row in rows]
    return Page(rows, total, category_uses(db, ids), names.translations_of(db, DictionaryKind.category, ids))


def create_category(
    db: Session,
    *,
    name: str,
    translations: dict[str, str] | None,
    image_search: str | None,
    source_image_search: ImageSource | None,
    position: int | None,
    is_active: bool,
) -> Category:
    clean = names.clean_name(DictionaryKind.category, name, "name")
    _check_unique_en(
        db, DictionaryKind.category, select(Category.id).where(func.lower(Category.name) == clean.lower()), clean
    )
    source = source_image_search or ImageSource.local
    if position is None:
        position = _count(db, select(func.max(Category.position))) + 1
    category = Category(
        name=clean,
        slug=_free_slug(db, Category.slug, clean),
        image_search=icons.checked_icon(source, image_search),
        source_image_search=source,
        position=position,
        is_active=is_active,
    )
    db.add(category)
    db.flush()
    names.set_translations(db, Owner(DictionaryKind.category, category.id), translations)
    db.flush()
    _announce(db, DictionaryKind.category)
    return category


def update_category(
    db: Session,
    *,
    category_id: int,
    name: str | None,
    translations: dict[str, str] | None,
    image_search: str | None,
    source_image_search: ImageSource | None,
    position: int | None,
    is_active: bool | None,
) -> Category:
    """Fields left out (None) stay; `image_search` "" removes the icon."""
    category = _get(db, Category, DictionaryKind.category, category_id)
    if name is not None:
        clean = names.clean_name(DictionaryKind.category, name, "name")
        _check_unique_en(
            db,
            DictionaryKind.category,
            select(Category.id).where(func.lower(Category.name) == clean.lower(), Category.id != category.id),
            clean,
        )
        category.name = clean
    if source_image_search is not None or image_search is not None:
        source = source_image_search or category.source_image_search or ImageSource.local
        wanted = image_search if image_search is not None else category.image_search
        category.image_search = icons.checked_icon(source, wanted)
        category.source_image_search = source
    if position is not None:
        category.position = position
    if is_active is False and category.is_active:
        active_subcategories = _count(
            db,
            select(func.count())
            .select_from(Subcategory)
            .where(Subcategory.category_id == category.id, Subcategory.is_active.is_(True)),
        )
        tours = _count(db, select(func.count()).select_from(Tour).where(Tour.category_id == category.id))
        _refuse_if_in_use(
            DictionaryKind.category, category.name, {"tours": tours, "active subcategories": active_subcategories}
        )
    if is_active is not None:
        category.is_active = is_active
    names.set_translations(db, Owner(DictionaryKind.category, category.id), translations)
    db.flush()
    _announce(db, DictionaryKind.category)
    return category


# ------------------------------------------------------------------------------ subcategories


def _active_category(db: Session, category_id: int) -> Category:
    category = db.get(Category, category_id)
    if category is None:
        message = NOT_FOUND[DictionaryKind.category]
        raise BadRequest(message, fields={"category_id": message})
    if not category.is_active:
        raise BadRequest(CATEGORY_INACTIVE, fields={"category_id": CATEGORY_INACTIVE})
    return category


def _subcategory_name_free(db: Session, category_id: int, name: str, own_id: int | None) -> None:
    statement = select(Subcategory.id).where(
        Subcategory.category_id == category_id, func.lower(Subcategory.name) == name.lower()
    )
    if own_id is not None:
        statement = statement.where(Subcategory.id != own_id)
    _check_unique_en(db, DictionaryKind.subcategory, statement, name)


def subcategory_uses(db: Session, ids: Sequence[int]) -> dict[int, int]:
    return _grouped_counts(db, Tour.subcategory_id, ids)


def list_subcategories(
    db: Session, *, category_id: int | None, search: str | None, is_active: bool | None, limit: int, offset: int
) -> Page:
    statement = _search(select(Subcategory), Subcategory.name, search)
    if category_id is not None:
        statement = statement.where(Subcategory.category_id == category_id)
    if is_active is not None:
        statement = statement.where(Subcategory.is_active.is_(is_active))
    rows, total = _page(db, statement, (Subcategory.category_id, Subcategory.name), limit, offset)
    ids = [row.id for row in rows]
    return Page(rows, total, subcategory_uses(db, ids), names.translations_of(db, DictionaryKind.subcategory, ids))


def active_subcategories(db: Session, category_id: int | None) -> Sequence[Subcategory]:
    """GET /v2/categories/subcategories: the active subcategories of active categories (or of one)."""
    statement = (
        select(Subcategory)
        .join(Category, Category.id == Subcategory.category_id)
        .where(Subcategory.is_active.is_(True), Category.is_active.is_(True))
    )
    if category_id is not None:
        statement = statement.where(Subcategory.category_id == category_id)
    return db.scalars(statement.order_by(Subcategory.category_id, Subcategory.name)).all()


def create_subcategory(
    db: Session, *, category_id: int, name: str, translations: dict[str, str] | None, is_active: bool
) -> Subcategory:
    category = _active_category(db, category_id)
    clean = names.clean_name(DictionaryKind.subcategory, name, "name")
    _subcategory_name_free(db, category.id, clean, None)
    subcategory = Subcategory(category_id=category.id, name=clean, is_active=is_active)
    db.add(subcategory)
    db.flush()
    names.set_translations(db, Owner(DictionaryKind.subcategory, subcategory.id, str(category.id)), translations)
    db.flush()
    _announce(db, DictionaryKind.subcategory)
    return subcategory


def update_subcategory(
    db: Session,
    *,
    subcategory_id: int,
    category_id: int | None,
    name: str | None,
    translations: dict[str, str] | None,
    is_active: bool | None,
) -> Subcategory:
    subcategory = _get(db, Subcategory, DictionaryKind.subcategory, subcategory_id)
    target = subcategory.category_id
    moved = category_id is not None and category_id != subcategory.category_id
    if moved and category_id is not None:
        tours = _count(db, select(func.count()).select_from(Tour).where(Tour.subcategory_id == subcategory.id))
        if tours:
            message = (
                f"Subcategory “{subcategory.name}” is used by {tours} tour{'s' if tours != 1 else ''}: "
                "it cannot move to another category"
            )
            raise Conflict(message, fields={"category_id": message})
        target = _active_category(db, category_id).id
    elif (is_active or (is_active is None and subcategory.is_active)) and not subcategory.category.is_active:
        # Activating (or editing) a subcategory of a deactivated category would leave it an orphan.
        raise BadRequest(CATEGORY_INACTIVE, fields={"category_id": CATEGORY_INACTIVE})
    clean = names.clean_name(DictionaryKind.subcategory, name, "name") if name is not None else subcategory.name
    if name is not None or moved:
        _subcategory_name_free(db, target, clean, subcategory.id)
    subcategory.name, subcategory.category_id = clean, target
    if is_active is False and subcategory.is_active:
        tours = _count(db, select(func.count()).select_from(Tour).where(Tour.subcategory_id == subcategory.id))
        _refuse_if_in_use(DictionaryKind.subcategory, subcategory.name, {"tours": tours})
    if is_active is not None:
        subcategory.is_active = is_active
    owner = Owner(DictionaryKind.subcategory, subcategory.id, str(subcategory.category_id))
    if moved:
        names.move_scope(db, owner)
    names.set_translations(db, owner, translations)
    db.flush()
    db.expire(subcategory, ["category"])
    _announce(db, DictionaryKind.subcategory)
    return subcategory


# ------------------------------------------------------------------------------ media types


def media_type_uses(db: Session, ids: Sequence[int]) -> dict[int, int]:
    return _grouped_counts(db, Tour.media_type_id, ids)


def list_media_types(db: Session, *, search: str | None, is_active: bool | None, limit: int, offset: int) -> Page:
    statement = _search(select(MediaType), MediaType.name, search)
    if is_active is not None:
        statement = statement.where(MediaType.is_active.is_(is_active))
    rows, total = _page(db, statement, (MediaType.name,), limit, offset)
    ids = [row.id for row in rows]
    return Page(rows, total, media_type_uses(db, ids), names.translations_of(db, DictionaryKind.media_type, ids))


def create_media_type(db: Session, *, name: str, translations: dict[str, str] | None, is_active: bool) -> MediaType:
    clean = names.clean_name(DictionaryKind.media_type, name, "name")
    _check_unique_en(
        db, DictionaryKind.media_type, select(MediaType.id).where(func.lower(MediaType.name) == clean.lower()), clean
    )
    media_type = MediaType(name=clean, slug=_free_slug(db, MediaType.slug, clean), is_active=is_active)
    db.add(media_type)
    db.flush()
    names.set_translations(db, Owner(DictionaryKind.media_type, media_type.id), translations)
    db.flush()
    _announce(db, DictionaryKind.media_type)
    return media_type


def update_media_type(
    db: Session, *, media_type_id: int, name: str | None, translations: dict[str, str] | None, is_active: bool | None
) -> MediaType:
    media_type = _get(db, MediaType, DictionaryKind.media_type, media_type_id)
    if name is not None:
        clean = names.clean_name(DictionaryKind.media_type, name, "name")
        _check_unique_en(
            db,
            DictionaryKind.media_type,
            select(MediaType.id).where(func.lower(MediaType.name) == clean.lower(), MediaType.id != media_type.id),
            clean,
        )
        media_type.name = clean
    if is_active is False and media_type.is_active:
        tours = _count(db, select(func.count()).select_from(Tour).where(Tour.media_type_id == media_type.id))
        _refuse_if_in_use(DictionaryKind.media_type, media_type.name, {"tours": tours})
    if is_active is not None:
        media_type.is_active = is_active
    names.set_translations(db, Owner(DictionaryKind.media_type, media_type.id), translations)
    db.flush()
    _announce(db, DictionaryKind.media_type)
    return media_type


# ------------------------------------------------------------------------------ capture devices


def capture_device_uses(db: Session, ids: Sequence[int]) -> dict[int, int]:
    return _grouped_counts(db, Tour.camera_id, ids)


def list_capture_devices(db: Session, *, search: str | None, is_active: bool | None, limit: int, offset: int) -> Page:
    statement = _search(select(CaptureDevice), CaptureDevice.camera_name, search)
    if is_active is not None:
        statement = statement.where(CaptureDevice.is_active.is_(is_active))
    rows, total = _page(db, statement, (CaptureDevice.camera_name,), limit, offset)
    ids = [row.id for row in rows]
    return Page(
        rows, total, capture_device_uses(db, ids), names.translations_of(db, DictionaryKind.capture_device, ids)
    )


def create_capture_device(
    db: Session, *, camera_name: str, translations: dict[str, str] | None, is_active: bool
) -> CaptureDevice:
    clean = names.clean_name(DictionaryKind.capture_device, camera_name, "camera_name")
    _check_unique_en(
        db,
        DictionaryKind.capture_device,
        select(CaptureDevice.id).where(func.lower(CaptureDevice.camera_name) == clean.lower()),
        clean,
        "camera_name",
    )
    device = CaptureDevice(camera_name=clean, is_active=is_active)
    db.add(device)
    db.flush()
    names.set_translations(db, Owner(DictionaryKind.capture_device, device.id), translations)
    db.flush()
    _announce(db, DictionaryKind.capture_device)
    return device


def update_capture_device(
    db: Session,
    *,
    camera_id: int,
    camera_name: str | None,
    translations: dict[str, str] | None,
    is_active: bool | None,
) -> CaptureDevice:
    device = _get(db, CaptureDevice, DictionaryKind.capture_device, camera_id)
    if camera_name is not None:
        clean = names.clean_name(DictionaryKind.capture_device, camera_name, "camera_name")
        _check_unique_en(
            db,
            DictionaryKind.capture_device,
            select(CaptureDevice.id).where(
                func.lower(CaptureDevice.camera_name) == clean.lower(), CaptureDevice.id != device.id
            ),
            clean,
            "camera_name",
        )
        device.camera_name = clean
    if is_active is False and device.is_active:
        tours = _count(db, select(func.count()).select_from(Tour).where(Tour.camera_id == device.id))
        _refuse_if_in_use(DictionaryKind.capture_device, device.camera_name, {"tours": tours})
    if is_active is not None:
        device.is_active = is_active
    names.set_translations(db, Owner(DictionaryKind.capture_device, device.id), translations)
    db.flush()
    _announce(db, DictionaryKind.capture_device)
    return device


# ------------------------------------------------------------------------------ tags


def tag_scope(topic_type: TagTopicType | str, topic_id: int) -> str:
    return f"{TagTopicType(topic_type).value}:{topic_id}"


def _check_topic(db: Session, topic_type: TagTopicType, topic_id: int) -> None:
    model: type[Category] | type[MediaType] = Category if topic_type == TagTopicType.category else MediaType
    if db.get(model, topic_id) is None:
        raise BadRequest(TOPIC_NOT_FOUND, fields={"topic_id": TOPIC_NOT_FOUND})


def _tag_name_free(db: Session, topic_type: TagTopicType, topic_id: int, name: str, own_id: int | None) -> None:
    statement = select(Tag.id).where(
        Tag.topic_type == topic_type, Tag.topic_id == topic_id, Tag.name_lower == name.lower()
    )
    if own_id is not None:
        statement = statement.where(Tag.id != own_id)
    _check_unique_en(db, DictionaryKind.tag, statement, name)


def tag_uses(db: Session, ids: Sequence[int]) -> dict[int, int]:
    tours = _grouped_counts(db, TourTag.tag_id, ids)
    ads = _grouped_counts(db, AdTag.tag_id, ids)
    return {tag_id: tours.get(tag_id, 0) + ads.get(tag_id, 0) for tag_id in set(tours) | set(ads)}


def list_tags(
    db: Session,
    *,
    search: str | None,
    topic_type: TagTopicType | None,
    topic_id: int | None,
    is_active: bool | None,
    limit: int,
    offset: int,
) -> Page:
    statement = _search(select(Tag), Tag.name, search)
    if topic_type is not None:
        statement = statement.where(Tag.topic_type == topic_type)
    if topic_id is not None:
        statement = statement.where(Tag.topic_id == topic_id)
    if is_active is not None:
        statement = statement.where(Tag.is_active.is_(is_active))
    rows, total = _page(db, statement, (Tag.name_lower, Tag.id), limit, offset)
    ids = [row.id for row in rows]
    return Page(rows, total, tag_uses(db, ids), names.translations_of(db, DictionaryKind.tag, ids))


def _tag_text_changed(db: Session, tag: Tag) -> None:
    """A tag's name or description changed: its embedding is stale (computed again by the worker)."""
    tag.embedding = None
    submit_after_commit(db, EMBED_TAGS_TASK, ids=[tag.id])


def create_tag(
    db: Session,
    *,
    name: str,
    description: str | None,
    topic_type: TagTopicType,
    topic_id: int,
    translations: dict[str, str] | None,
    is_active: bool,
) -> Tag:
    _check_topic(db, topic_type, topic_id)
    clean = names.clean_name(DictionaryKind.tag, name, "name")
    _tag_name_free(db, topic_type, topic_id, clean, None)
    tag = Tag(
        name=clean, description=_description(description), topic_type=topic_type, topic_id=topic_id, is_active=is_active
    )
    db.add(tag)
    db.flush()
    names.set_translations(db, Owner(DictionaryKind.tag, tag.id, tag_scope(topic_type, topic_id)), translations)
    _tag_text_changed(db, tag)
    outbox_topics.tag_changed(db, tag.id)
    db.flush()
    _announce(db, DictionaryKind.tag)
    return tag


def update_tag(
    db: Session,
    *,
    tag_id: int,
    name: str | None,
    description: str | None,
    topic_type: TagTopicType | None,
    topic_id: int | None,
    translations: dict[str, str] | None,
    is_active: bool | None,
) -> Tag:
    tag = _get(db, Tag, DictionaryKind.tag, tag_id)
    new_type = topic_type or tag.topic_type
    new_topic = topic_id if topic_id is not None else tag.topic_id
    moved = (new_type, new_topic) != (tag.topic_type, tag.topic_id)
    if moved:
        _check_topic(db, new_type, new_topic)
    clean = names.clean_name(DictionaryKind.tag, name, "name") if name is not None else tag.name
    if name is not None or moved:
        _tag_name_free(db, new_type, new_topic, clean, tag.id)
    renamed = clean != tag.name
    text_changed = renamed
    tag.name, tag.topic_type, tag.topic_id = clean, new_type, new_topic
    if description is not None:
        new_description = _description(description)
        text_changed = text_changed or new_description != tag.description
        tag.description = new_description
    if is_active is False and tag.is_active:
        uses = tag_uses(db, [tag.id]).get(tag.id, 0)
        tours = _count(db, select(func.count()).select_from(TourTag).where(TourTag.tag_id == tag.id))
        _refuse_if_in_use(DictionaryKind.tag, tag.name, {"tours": tours, "ads": uses - tours})
    if is_active is not None:
        tag.is_active = is_active
    owner = Owner(DictionaryKind.tag, tag.id, tag_scope(new_type, new_topic))
    if moved:
        names.move_scope(db, owner)
    names.set_translations(db, owner, translations)
    if text_changed:
        _tag_text_changed(db, tag)
    outbox_topics.tag_changed(db, tag.id)
    if renamed:
        # Tour documents carry their tags' names (text search): those tours are written again.
        for tour_id in db.scalars(select(TourTag.tour_id).where(TourTag.tag_id == tag.id)):
            outbox_topics.tour_changed(db, tour_id)
    db.flush()
    _announce(db, DictionaryKind.tag)
    return tag


# ------------------------------------------------------------------------------ one name, any language


def set_name(db: Session, *, kind: DictionaryKind, entity_id: int, language: str, name: str) -> Any:
    """POST /v2/languages/language-translations: a row's name in one language. English renames the
    row itself (through its update, with every rule); another language sets (or, empty, removes)
    that language's name. Returns the row."""
    code = names.check_language(language)
    if code == DEFAULT_LOCALE:
        if not name.strip():
            raise BadRequest(names.NAME_REQUIRED, fields={"name": names.NAME_REQUIRED})
        if kind == DictionaryKind.category:
            return update_category(
                db,
                category_id=entity_id,
                name=name,
                translations=None,
                image_search=None,
                source_image_search=None,
                position=None,
                is_active=None,
            )
        if kind == DictionaryKind.subcategory:
            return update_subcategory(
                db, subcategory_id=entity_id, category_id=None, name=name, translations=None, is_active=None
            )
        if kind == DictionaryKind.media_type:
            return update_media_type(db, media_type_id=entity_id, name=name, translations=None, is_active=None)
        if kind == DictionaryKind.capture_device:
            return update_capture_device(db, camera_id=entity_id, camera_name=name, translations=None, is_active=None)
        return update_tag(
            db,
            tag_id=entity_id,
            name=name,
            description=None,
            topic_type=None,
            topic_id=None,
            translations=None,
            is_active=None,
        )
    row, scope = _row_and_scope(db, kind, entity_id)
    names.set_translation(db, Owner(kind, entity_id, scope), code, name, field="name")
    db.flush()
    _announce(db, kind)
    return row


def _row_and_scope(db: Session, kind: DictionaryKind, entity_id: int) -> tuple[Any, str]:
    if kind == DictionaryKind.category:
        return _get(db, Category, kind, entity_id), ""
    if kind == DictionaryKind.subcategory:
        subcategory = _get(db, Subcategory, kind, entity_id)
        return subcategory, str(subcategory.category_id)
    if kind == DictionaryKind.media_type:
        return _get(db, MediaType, kind, entity_id), ""
    if kind == DictionaryKind.capture_device:
        return _get(db, CaptureDevice, kind, entity_id), ""
    tag = _get(db, Tag, kind, entity_id)
    return tag, tag_scope(tag.topic_type, tag.topic_id)


USES = {
    DictionaryKind.category: category_uses,
    DictionaryKind.subcategory: subcategory_uses,
    DictionaryKind.media_type: media_type_uses,
    DictionaryKind.capture_device: capture_device_uses,
    DictionaryKind.tag: tag_uses,
}


def describe(db: Session, kind: DictionaryKind, row_id: int) -> tuple[int, dict[str, str]]:
    """One row's uses (tours, and ads for a tag) and its names in the other languages."""
    uses = USES[kind](db, [row_id]).get(row_id, 0)
    return uses, names.translations_of(db, kind, [row_id]).get(row_id, {})
