"""Names of dictionary rows in every language (spec §1: English and Russian have catalogues).

A row's own `name` (`camera_name` for a capture device) is its English name; other languages live in
`dictionary_names`, one row per (kind, row, language). Names are unique in each language within
their scope, case-insensitively: categories, media types and capture devices among their kind, a
subcategory within its category, a tag within its topic. English names are checked against the rows
themselves (app/classifications/admin.py), other languages here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.classifications.models import DictionaryKind, DictionaryName
from app.core.errors import BadRequest, Conflict
from app.core.locale import DEFAULT_LOCALE, SUPPORTED_LOCALES

TRANSLATED_LOCALES = tuple(locale for locale in SUPPORTED_LOCALES if locale != DEFAULT_LOCALE)
UNKNOWN_LANGUAGE = f"Names can be given in {', '.join(SUPPORTED_LOCALES)}"
NAME_REQUIRED = "Enter a name"
NAME_TOO_LONG = "A name is at most {maximum} characters"
NAME_CONTROL = "A name cannot contain line breaks or control characters"
NAME_TAKEN = "{label} “{name}” already exists"

LABELS: dict[DictionaryKind, str] = {
    DictionaryKind.category: "A category named",
    DictionaryKind.subcategory: "A subcategory of this category named",
    DictionaryKind.media_type: "A media type named",
    DictionaryKind.capture_device: "A capture device named",
    DictionaryKind.tag: "A tag of this topic named",
}
MAX_LENGTHS: dict[DictionaryKind, int] = {
    DictionaryKind.category: 100,
    DictionaryKind.subcategory: 100,
    DictionaryKind.media_type: 100,
    DictionaryKind.capture_device: 200,
    DictionaryKind.tag: 100,
}


@dataclass(frozen=True, slots=True)
class Owner:
    """The row a name belongs to: its kind, id and uniqueness scope."""

    kind: DictionaryKind
    entity_id: int
    scope: str = ""


def clean_name(kind: DictionaryKind, value: str | None, field: str) -> str:
    """A name as stored: trimmed, inner runs of spaces folded; 400 naming `field` when unusable."""
    name = " ".join((value or "").split())
    if not name:
        raise BadRequest(NAME_REQUIRED, fields={field: NAME_REQUIRED})
    if len(name) > MAX_LENGTHS[kind]:
        message = NAME_TOO_LONG.format(maximum=MAX_LENGTHS[kind])
        raise BadRequest(message, fields={field: message})
    if any(ord(char) < 32 or ord(char) == 127 for char in (value or "").strip()):
        raise BadRequest(NAME_CONTROL, fields={field: NAME_CONTROL})
    return name


def taken(kind: DictionaryKind, name: str, field: str) -> Conflict:
    message = NAME_TAKEN.format(label=LABELS[kind], name=name)
    return Conflict(message, fields={field: message})


def check_language(language: str, field: str = "language") -> str:
    language = language.strip().lower()
    if language not in SUPPORTED_LOCALES:
        raise BadRequest(UNKNOWN_LANGUAGE, fields={field: UNKNOWN_LANGUAGE})
    return language


def translations_of(db: Session, kind: DictionaryKind, ids: Iterable[int]) -> dict[int, dict[str, str]]:
    """Row id → {language: name} for the languages other than English."""
    wanted = list(set(ids))
    found: dict[int, dict[str, str]] = {}
    if not wanted:
        return found
    rows = db.execute(
        select(DictionaryName.entity_id, DictionaryName.language, DictionaryName.name).where(
            DictionaryName.kind == kind, DictionaryName.entity_id.in_(wanted)
        )
    )
    for entity_id, language, name in rows:
        found.setdefault(entity_id, {})[language] = name
    return found


def localized_names(db: Session, kind: DictionaryKind, ids: Sequence[int], locale: str) -> dict[int, str]:
    """Row id → its name in `locale`, for the rows that have one (English is the row's own name)."""
    if locale == DEFAULT_LOCALE or not ids:
        return {}
    return {
        entity_id: name
        for entity_id, name in db.execute(
            select(DictionaryName.entity_id, DictionaryName.name).where(
                DictionaryName.kind == kind,
                DictionaryName.language == locale,
                DictionaryName.entity_id.in_(list(set(ids))),
            )
        )
    }


def set_translation(db: Session, owner: Owner, language: str, value: str | None, *, field: str) -> None:
    """Give a row its name in a language other than English; an empty value removes it. 409 when
    another row of the scope has that name in that language."""
    existing = db.scalar(
        select(DictionaryName).where(
            DictionaryName.kind == owner.kind,
            DictionaryName.entity_id == owner.entity_id,
            DictionaryName.language == language,
        )
    )
    if value is None or not value.strip():
        if existing is not None:
            db.delete(existing)
        return
    name = clean_name(owner.kind, value, field)
    clash = db.scalar(
        select(DictionaryName.entity_id).where(
            DictionaryName.kind == owner.kind,
            DictionaryName.scope == owner.scope,
            DictionaryName.language == language,
            DictionaryName.name_lower == name.lower(),
            DictionaryName.entity_id != owner.entity_id,
        )
    )
    if clash is not None:
        raise taken(owner.kind, name, field)
    if existing is None:
        db.add(
            DictionaryName(kind=owner.kind, entity_id=owner.entity_id, language=language, scope=owner.scope, name=name)
        )
    else:
        existing.name = name
        existing.scope = owner.scope


def set_translations(db: Session, owner: Owner, translations: dict[str, str] | None) -> None:
    """Every name of a body's `translations` ({language: name}, English excluded: it is `name`)."""
    for language, value in (translations or {}).items():
        field = f"translations.{language}"
        code = check_language(language, field)
        if code == DEFAULT_LOCALE:
            message = "The English name is the row's own name"
            raise BadRequest(message, fields={field: message})
        set_translation(db, owner, code, value, field=field)


def move_scope(db: Session, owner: Owner) -> None:
    """The row moved to another scope (a subcategory to another category, a tag to another topic):
    its names follow, and must be free there too."""
    for row in db.scalars(
        select(DictionaryName).where(DictionaryName.kind == owner.kind, DictionaryName.entity_id == owner.entity_id)
    ):
        if row.scope == owner.scope:
            continue
        clash = db.scalar(
            select(DictionaryName.entity_id).where(
                DictionaryName.kind == owner.kind,
                DictionaryName.scope == owner.scope,
                DictionaryName.language == row.language,
                DictionaryName.name_lower == row.name_lower,
                DictionaryName.entity_id != owner.entity_id,
            )
        )
        if clash is not None:
            raise taken(owner.kind, row.name, f"translations.{row.language}")
        row.scope = owner.scope
