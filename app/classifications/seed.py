"""Loading the built-in dictionaries (app/classifications/dictionaries.py: categories and
subcategories, media types, capture devices, hosts, rank sources, tags, billing plans and the
platform configuration) into a database.

Part of every start (`python -m app.cli setup`, `make run`, the compose `migrate` service), demo or
not: `load_dictionaries` inserts, through the ORM, the rows missing by natural key (names), so it
runs every time and never overwrites what administrators changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.classifications import dictionaries as builtin


def load_dictionaries(session: Session) -> dict[str, int]:
    """Insert the built-in dictionary rows that are missing; returns how many rows each kind gained."""
    import app.models  # noqa: F401 - maps every table, so relationships between the models resolve

    added = {
        "categories": _add_categories(session),
        "subcategories": _add_subcategories(session),
        "media_types": _add_media_types(session),
        "capture_devices": _add_capture_devices(session),
        "vendors": _add_vendors(session),
        "rank_sources": _add_rank_sources(session),
        "tags": _add_tags(session),
        "billing_plans": _add_billing_plans(session),
        "platform_config": _add_platform_config(session),
    }
    session.flush()
    return added


def _pairs(result: Iterable[Any]) -> dict[Any, Any]:
    """A two-column result as a dict from the first column to the second."""
    return {key: value for key, value in result}


def _existing(session: Session, column: Any) -> set[Any]:
    return set(session.scalars(select(column)))


def _seeded(session: Session, kind: str) -> set[str]:
    from app.classifications.models import SeededEntry

    return set(session.scalars(select(SeededEntry.key).where(SeededEntry.kind == kind)))


def _note_seeded(session: Session, kind: str, keys: Iterable[str]) -> None:
    from app.classifications.models import SeededEntry

    session.add_all(SeededEntry(kind=kind, key=key) for key in dict.fromkeys(keys))


def _category_ids_by_builtin_name(session: Session) -> dict[str, int]:
    """Built-in category name → row id, found by slug (which stays when an admin renames it)."""
    from app.classifications.models import Category

    by_slug = _pairs(session.execute(select(Category.slug, Category.id)))
    return {spec.name: by_slug[spec.slug] for spec in builtin.CATEGORIES if spec.slug in by_slug}


def _media_type_ids_by_builtin_name(session: Session) -> dict[str, int]:
    from app.classifications.models import MediaType

    by_slug = _pairs(session.execute(select(MediaType.slug, MediaType.id)))
    return {spec.name: by_slug[spec.slug] for spec in builtin.MEDIA_TYPES if spec.slug in by_slug}


# Every dictionary an administrator edits is seeded once per entry: an entry placed (or found) before
# is recorded in seeded_entries and never inserted again, so a renamed entry does not come back.


def _add_categories(session: Session) -> int:
    from app.classifications.models import Category, ImageSource

    seeded = _seeded(session, "category")
    known_names = _existing(session, Category.name)
    known_slugs = _existing(session, Category.slug)
    todo = [spec for spec in builtin.CATEGORIES if spec.name not in seeded]
    missing = [spec for spec in todo if spec.name not in known_names and spec.slug not in known_slugs]
    session.add_all(
        Category(
            name=spec.name,
            slug=spec.slug,
            image_search=spec.icon,
            source_image_search=ImageSource.local,
            position=builtin.CATEGORIES.index(spec),
            is_active=True,
        )
        for spec in missing
    )
    _note_seeded(session, "category", (spec.name for spec in todo))
    session.flush()
    return len(missing)


def _add_subcategories(session: Session) -> int:
    from app.classifications.models import Subcategory

    seeded = _seeded(session, "subcategory")
    category_ids = _category_ids_by_builtin_name(session)
    known = {
        (category_id, name) for category_id, name in session.execute(select(Subcategory.category_id, Subcategory.name))
    }
    todo = [
        (spec.name, name)
        for spec in builtin.CATEGORIES
        if spec.name in category_ids
        for name in spec.subcategories
        if f"{spec.name}/{name}" not in seeded
    ]
    rows = [
        Subcategory(category_id=category_ids[category], name=name)
        for category, name in todo
        if (category_ids[category], name) not in known
    ]
    session.add_all(rows)
    _note_seeded(session, "subcategory", (f"{category}/{name}" for category, name in todo))
    return len(rows)


def _add_media_types(session: Session) -> int:
    from app.classifications.models import MediaType

    seeded = _seeded(session, "media_type")
    known_names = _existing(session, MediaType.name)
    known_slugs = _existing(session, MediaType.slug)
    todo = [spec for spec in builtin.MEDIA_TYPES if spec.name not in seeded]
    rows = [
        MediaType(name=spec.name, slug=spec.slug, is_360=spec.is_360)
        for spec in todo
        if spec.name not in known_names and spec.slug not in known_slugs
    ]
    session.add_all(rows)
    _note_seeded(session, "media_type", (spec.name for spec in todo))
    session.flush()
    return len(rows)


def _add_capture_devices(session: Session) -> int:
    from app.classifications.models import CaptureDevice

    seeded = _seeded(session, "capture_device")
    known = _existing(session, CaptureDevice.camera_name)
    todo = [spec for spec in builtin.CAPTURE_DEVICES if spec.name not in seeded]
    rows = [CaptureDevice(camera_name=spec.name) for spec in todo if spec.name not in known]
    session.add_all(rows)
    _note_seeded(session, "capture_device", (spec.name for spec in todo))
    return len(rows)


def _add_vendors(session: Session) -> int:
    from app.vendors.models import EmbedKind, Vendor, VendorStatus

    known = _existing(session, Vendor.name)
    rows = [
        Vendor(
            name=spec.name,
            slug=spec.slug,
            link_header=spec.link_header,
            link_pattern=spec.link_pattern,
            embed_template=spec.embed_template,
            embed_kind=EmbedKind(spec.embed_kind),
            group_name=spec.group_name,
            preview_picture_required=spec.preview_picture_required,
            is_white_label=spec.is_white_label,
            is_custom=False,
            status=VendorStatus.approved,
            website=spec.website,
            position=position,
        )
        for position, spec in enumerate(builtin.VENDORS)
        if spec.name not in known
    ]
    session.add_all(rows)
    return len(rows)


def _add_rank_sources(session: Session) -> int:
    from app.classifications.models import RankSource

    known = _existing(session, RankSource.name)
    rows = [RankSource(name=name) for name in builtin.RANK_SOURCES if name not in known]
    session.add_all(rows)
    return len(rows)


def _add_tags(session: Session) -> int:
    from app.classifications.models import Tag, TagTopicType

    seeded = _seeded(session, "tag")
    topic_ids = {
        builtin.TOPIC_CATEGORY: _category_ids_by_builtin_name(session),
        builtin.TOPIC_MEDIA_TYPE: _media_type_ids_by_builtin_name(session),
    }
    known = {
        (name, str(topic_type), topic_id)
        for name, topic_type, topic_id in session.execute(select(Tag.name, Tag.topic_type, Tag.topic_id))
    }
    rows, placed = [], []
    for spec in builtin.TAGS:
        key = f"{spec.topic_type}:{spec.topic_name}/{spec.name}"
        topic_id = topic_ids[spec.topic_type].get(spec.topic_name)
        if topic_id is None or key in seeded:
            continue
        placed.append(key)
        if (spec.name, spec.topic_type, topic_id) in known:
            continue
        rows.append(
            Tag(
                name=spec.name,
                name_lower=spec.name.lower(),
                description=spec.description,
                is_active=True,
                topic_type=TagTopicType(spec.topic_type),
                topic_id=topic_id,
            )
        )
    session.add_all(rows)
    _note_seeded(session, "tag", placed)
    return len(rows)


def _add_billing_plans(session: Session) -> int:
    from app.billing.models import BillingPlan, PlanInterval

    known = _existing(session, BillingPlan.plan_name)
    rows = [
        BillingPlan(
            plan_name=spec.plan_name,
            active=spec.active,
            description=spec.description,
            cost=spec.cost,
            discount_cost=spec.discount_cost,
            currency=spec.currency,
            is_indefinite_trial=spec.is_indefinite_trial,
            interval=PlanInterval(spec.interval),
            trial_period_days=spec.trial_period_days,
            features=[feature.as_json() for feature in spec.features],
            position=position,
        )
        for position, spec in enumerate(builtin.BILLING_PLANS)
        if spec.plan_name not in known
    ]
    session.add_all(rows)
    return len(rows)


def _add_platform_config(session: Session) -> int:
    from app.platform.models import PLATFORM_CONFIG_ID, PlatformConfig

    if session.get(PlatformConfig, PLATFORM_CONFIG_ID) is not None:
        return 0
    defaults = builtin.PLATFORM_DEFAULTS
    session.add(
        PlatformConfig(
            id=PLATFORM_CONFIG_ID,
            restrict_access=defaults.restrict_access,
            images_approval=defaults.images_approval,
            gui_version=defaults.gui_version,
        )
    )
    return 1
