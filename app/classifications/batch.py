"""Batch upload of categories, subcategories and tags (POST /v2/categories/admin-batch-upload).

The file is a CSV (read with the csv module) or an XLSX workbook (openpyxl, its first sheet), told
apart by its content, never by its name; at most MAX_BYTES and MAX_ROWS data rows. Its first row
names the columns (any order, any case):

    kind         category | subcategory | tag                                   (required)
    name         the English name                                              (required)
    name_ru      the Russian name (empty: left as it is)
    id           update this row (allows renaming); without it a row is found by its name
    category     subcategory: its category's English name
    topic_type   tag: category (default) or media_type
    topic        tag: its category's or media type's English name
    description  tag: its description
    is_active    yes/no, true/false, 1/0 (empty: active when created, unchanged when updated)

Every row goes through the same service calls as an admin's own POST and PUT (the same rules: names
unique in each language, no orphan subcategories, nothing in use deactivated), in file order, so a
later row can name a category an earlier row creates. It all happens inside one savepoint: when any
row fails, or with dry_run, the savepoint is rolled back and nothing is applied (events and tasks
queued by the rows are dropped with it). The answer reports every row: created, updated or error,
with the message and the column at fault.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.classifications import admin
from app.classifications.models import Category, MediaType, Subcategory, Tag, TagTopicType
from app.core.errors import AppError, BadRequest

MEGABYTE = 1024 * 1024
MAX_BYTES = 2 * MEGABYTE
MAX_ROWS = 5000
# An XLSX is a zip: refuse one that would unpack into more than this (a zip bomb).
MAX_UNPACKED_BYTES = 40 * MEGABYTE
COLUMNS = ("kind", "name", "name_ru", "id", "category", "topic_type", "topic", "description", "is_active")
KINDS = ("category", "subcategory", "tag")

WRONG_TYPE = "Upload a CSV or XLSX file"
TOO_BIG = "The file is {size} MB; the maximum is 2 MB"
TOO_MANY_ROWS = f"The file has more than {MAX_ROWS} rows; split it"
EMPTY = "The file has no rows below its header"
NOT_UTF8 = "Save the CSV as UTF-8"
MISSING_COLUMNS = "The first row must name the columns; kind and name are required"
UNKNOWN_COLUMNS = "Unknown columns: {names}. Known: " + ", ".join(COLUMNS)
UNREADABLE_XLSX = "This XLSX file cannot be read"
BAD_KIND = "kind is category, subcategory or tag"
BAD_BOOL = "is_active is yes or no"
BAD_ID = "id is a whole number"
BAD_TOPIC_TYPE = "topic_type is category or media_type"
NO_CATEGORY = "Name the subcategory's category (column category)"
UNKNOWN_CATEGORY = "No category named “{name}”"
NO_TOPIC = "Name the tag's topic (column topic)"
UNKNOWN_TOPIC = "No {kind} named “{name}”"
NOT_FOUND = "No {kind} with id {id}"

RowStatus = Literal["created", "updated", "error"]
TRUE = {"yes", "y", "true", "1", "да"}
FALSE = {"no", "n", "false", "0", "нет"}


@dataclass(slots=True)
class RowReport:
    row: int  # the row's number in the file (the header is row 1)
    status: RowStatus
    message: str
    field: str | None = None
    kind: str | None = None
    id: int | None = None


@dataclass(slots=True)
class BatchResult:
    applied: bool
    dry_run: bool
    report: list[RowReport] = field(default_factory=list)

    def count(self, status: RowStatus) -> int:
        return sum(1 for row in self.report if row.status == status)


class RowError(BadRequest):
    """One row's failure, naming its column."""

    def __init__(self, message: str, column: str) -> None:
        super().__init__(message, fields={column: message})


# ------------------------------------------------------------------------------ reading the file


def read_file(upload: BinaryIO) -> bytes:
    content = upload.read(MAX_BYTES + 1)
    if len(content) > MAX_BYTES:
        size = len(content)
        while chunk := upload.read(64 * 1024):
            size += len(chunk)
        message = TOO_BIG.format(size=f"{size / MEGABYTE:.1f}")
        raise BadRequest(message, fields={"file": message})
    return content


def _is_xlsx(content: bytes) -> bool:
    if not content.startswith(b"PK\x03\x04"):
        return False
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            return "xl/workbook.xml" in archive.namelist()
    except zipfile.BadZipFile:
        return False


def _xlsx_rows(content: bytes) -> Iterator[list[Any]]:
    from openpyxl import load_workbook  # type: ignore[import-untyped]

    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        if sum(info.file_size for info in archive.infolist()) > MAX_UNPACKED_BYTES:
            raise BadRequest(UNREADABLE_XLSX, fields={"file": UNREADABLE_XLSX})
    try:
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as exc:
        raise BadRequest(UNREADABLE_XLSX, fields={"file": UNREADABLE_XLSX}) from exc
    try:
        sheet = workbook.worksheets[0] if workbook.worksheets else None
        if sheet is None:
            return
        for values in sheet.iter_rows(values_only=True):
            yield list(values)
    finally:
        workbook.close()


def _csv_rows(content: bytes) -> Iterator[list[Any]]:
    if b"\0" in content:
        raise BadRequest(WRONG_TYPE, fields={"file": WRONG_TYPE})
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BadRequest(NOT_UTF8, fields={"file": NOT_UTF8}) from exc
    first_line = text.split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=first_line.count)
    yield from csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)


def parse(content: bytes) -> list[tuple[int, dict[str, str]]]:
    """The data rows as (row number, {column: text}); blank rows are skipped. 400 for a file that
    is neither CSV nor XLSX, has no usable header, or too many rows."""
    if not content.strip():
        raise BadRequest(EMPTY, fields={"file": EMPTY})
    rows = _xlsx_rows(content) if _is_xlsx(content) else _csv_rows(content)
    header: list[str] | None = None
    parsed: list[tuple[int, dict[str, str]]] = []
    for number, values in enumerate(rows, start=1):
        cells = ["" if value is None else str(value).strip() for value in values]
        if not any(cells):
            continue
        if header is None:
            header = [cell.lower().replace(" ", "_") for cell in cells]
            unknown = [name for name in header if name and name not in COLUMNS]
            if "kind" not in header or "name" not in header:
                raise BadRequest(MISSING_COLUMNS, fields={"file": MISSING_COLUMNS})
            if unknown:
                message = UNKNOWN_COLUMNS.format(names=", ".join(unknown))
                raise BadRequest(message, fields={"file": message})
            continue
        if len(parsed) >= MAX_ROWS:
            raise BadRequest(TOO_MANY_ROWS, fields={"file": TOO_MANY_ROWS})
        parsed.append((number, {name: cells[i] if i < len(cells) else "" for i, name in enumerate(header) if name}))
    if not parsed:
        raise BadRequest(EMPTY, fields={"file": EMPTY})
    return parsed


# ------------------------------------------------------------------------------ applying the rows


def _bool(value: str) -> bool | None:
    text = value.strip().lower()
    if not text:
        return None
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    raise RowError(BAD_BOOL, "is_active")


def _id(value: str) -> int | None:
    text = value.strip()
    if not text:
        return None
    try:
        number = float(text)  # a spreadsheet's whole numbers may read "12.0"
    except ValueError as exc:
        raise RowError(BAD_ID, "id") from exc
    if not number.is_integer() or not 1 <= number <= 2**31 - 1:
        raise RowError(BAD_ID, "id")
    return int(number)


def _ru(cells: dict[str, str]) -> dict[str, str] | None:
    value = cells.get("name_ru", "")
    return {"ru": value} if value else None


def _category_id(db: Session, name: str, column: str = "category") -> int:
    if not name:
        raise RowError(NO_CATEGORY, column)
    found = db.scalar(select(Category.id).where(func.lower(Category.name) == name.lower()))
    if found is None:
        raise RowError(UNKNOWN_CATEGORY.format(name=name), column)
    return found


def _apply_category(db: Session, cells: dict[str, str], row_id: int | None) -> tuple[RowStatus, int]:
    name, active = cells["name"], _bool(cells.get("is_active", ""))
    existing = row_id or db.scalar(select(Category.id).where(func.lower(Category.name) == name.strip().lower()))
    if existing is None:
        category = admin.create_category(
            db,
            name=name,
            translations=_ru(cells),
            image_search=None,
            source_image_search=None,
            position=None,
            is_active=active is not False,
        )
        return "created", category.id
    category = admin.update_category(
        db,
        category_id=existing,
        name=name,
        translations=_ru(cells),
        image_search=None,
        source_image_search=None,
        position=None,
        is_active=active,
    )
    return "updated", category.id


def _apply_subcategory(db: Session, cells: dict[str, str], row_id: int | None) -> tuple[RowStatus, int]:
    name, active = cells["name"], _bool(cells.get("is_active", ""))
    category_name = cells.get("category", "")
    if row_id is not None:
        category_id = _category_id(db, category_name) if category_name else None
        subcategory = admin.update_subcategory(
            db, subcategory_id=row_id, category_id=category_id, name=name, translations=_ru(cells), is_active=active
        )
        return "updated", subcategory.id
    category_id = _category_id(db, category_name)
    existing = db.scalar(
        select(Subcategory.id).where(
            Subcategory.category_id == category_id, func.lower(Subcategory.name) == name.strip().lower()
        )
    )
    if existing is None:
        subcategory = admin.create_subcategory(
            db, category_id=category_id, name=name, translations=_ru(cells), is_active=active is not False
        )
        return "created", subcategory.id
    subcategory = admin.update_subcategory(
        db, subcategory_id=existing, category_id=None, name=name, translations=_ru(cells), is_active=active
    )
    return "updated", subcategory.id


def _topic(db: Session, cells: dict[str, str]) -> tuple[TagTopicType, int] | None:
    type_text = cells.get("topic_type", "").strip().lower().replace(" ", "_") or None
    topic_name = cells.get("topic", "").strip()
    if type_text is None and not topic_name:
        return None
    try:
        topic_type = TagTopicType(type_text or TagTopicType.category.value)
    except ValueError as exc:
        raise RowError(BAD_TOPIC_TYPE, "topic_type") from exc
    if not topic_name:
        raise RowError(NO_TOPIC, "topic")
    model: type[Category] | type[MediaType] = Category if topic_type == TagTopicType.category else MediaType
    found = db.scalar(select(model.id).where(func.lower(model.name) == topic_name.lower()))
    if found is None:
        label = "category" if topic_type == TagTopicType.category else "media type"
        raise RowError(UNKNOWN_TOPIC.format(kind=label, name=topic_name), "topic")
    return topic_type, found


def _apply_tag(db: Session, cells: dict[str, str], row_id: int | None) -> tuple[RowStatus, int]:
    name, active = cells["name"], _bool(cells.get("is_active", ""))
    description = cells.get("description") if cells.get("description") else None
    topic = _topic(db, cells)
    if row_id is not None:
        tag = admin.update_tag(
            db,
            tag_id=row_id,
            name=name,
            description=description,
            topic_type=topic[0] if topic else None,
            topic_id=topic[1] if topic else None,
            translations=_ru(cells),
            is_active=active,
        )
        return "updated", tag.id
    if topic is None:
        raise RowError(NO_TOPIC, "topic")
    existing = db.scalar(
        select(Tag.id).where(
            Tag.topic_type == topic[0], Tag.topic_id == topic[1], Tag.name_lower == name.strip().lower()
        )
    )
    if existing is None:
        tag = admin.create_tag(
            db,
            name=name,
            description=description,
            topic_type=topic[0],
            topic_id=topic[1],
            translations=_ru(cells),
            is_active=active is not False,
        )
        return "created", tag.id
    tag = admin.update_tag(
        db,
        tag_id=existing,
        name=name,
        description=description,
        topic_type=None,
        topic_id=None,
        translations=_ru(cells),
        is_active=active,
    )
    return "updated", tag.id


APPLY = {"category": _apply_category, "subcategory": _apply_subcategory, "tag": _apply_tag}
# A service names its fields by the body's names; the file's columns differ in a few.
COLUMN_OF = {"camera_name": "name", "category_id": "category", "topic_id": "topic", "translations.ru": "name_ru"}


def _apply_row(db: Session, cells: dict[str, str]) -> tuple[str, RowStatus, int]:
    kind = cells.get("kind", "").strip().lower()
    if kind not in KINDS:
        raise RowError(BAD_KIND, "kind")
    row_id = _id(cells.get("id", ""))
    status, entity_id = APPLY[kind](db, cells, row_id)
    return kind, status, entity_id


def apply(db: Session, content: bytes, *, dry_run: bool) -> BatchResult:
    """Apply every row of the file in one savepoint, or none of them (see the module's doc)."""
    rows = parse(content)
    result = BatchResult(applied=False, dry_run=dry_run)
    outer = db.begin_nested()
    try:
        for number, cells in rows:
            row_savepoint = db.begin_nested()
            try:
                kind, status, entity_id = _apply_row(db, cells)
                row_savepoint.commit()
                result.report.append(
                    RowReport(row=number, status=status, message=status.capitalize(), kind=kind, id=entity_id)
                )
            except AppError as exc:
                row_savepoint.rollback()
                column = next(iter(exc.fields), None)
                result.report.append(
                    RowReport(
                        row=number,
                        status="error",
                        message=exc.message,
                        field=COLUMN_OF.get(column, column) if column else None,
                        kind=cells.get("kind") or None,
                    )
                )
        if dry_run or result.count("error"):
            outer.rollback()
            for row in result.report:
                if row.status != "error":
                    row.message = f"Would be {row.status}"
                    row.id = row.id if row.status == "updated" else None
        else:
            outer.commit()
            result.applied = True
    except BaseException:
        if outer.is_active:
            outer.rollback()
        raise
    return result
