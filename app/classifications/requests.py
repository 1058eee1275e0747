"""Category requests (spec §4 "Pending approval items": category request; §7 GET and PUT
/v2/categories/approval-items).

A user who adds or edits a tour in new category mode files a `category_request` item (app/tours:
payload {category, subcategory, tour_guid}); the tour keeps its chosen category meanwhile.

- `apply_category_request(session, item)`: the category (found by name in any language, else
  created) and the subcategory under it (likewise) exist afterwards, and the tour the request came
  with moves into them. Names are checked like an admin's own (unique in each language, no orphans).
- `reject_category_request(session, item, reason)`: the dictionaries and the tour stay as they are.

Both are the domain's part of a decision; `decide` around them claims the item (409 when decided
already), records who, when and why, mails the owner and pushes the queue change to the admins.
Both are registered with the moderation registry below, so the unified PUT /v2/pending/approval-items
decides category requests too.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.classifications import admin
from app.classifications.models import Category, DictionaryKind, DictionaryName, Subcategory
from app.core.errors import BadRequest
from app.moderation import decisions, registry
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.tours import service as tours
from app.users.models import User

KINDS = (ApprovalKind.category_request,)
NOT_A_CATEGORY_REQUEST = "This item is not a category request"
NO_CATEGORY_NAME = "The request names no category"

MAILS: dict[bool, tuple[str, str]] = {
    True: (
        "Your category request is approved",
        "An administrator has approved the category you asked for: {names}. Your tour is filed under it now.",
    ),
    False: (
        "Your category request was not approved",
        "An administrator has not approved the category you asked for: {names}. Your tour keeps its category.",
    ),
}


def _names(item: ApprovalItem) -> tuple[str, str | None]:
    payload = item.payload or {}
    category = " ".join(str(payload.get("category") or "").split())
    subcategory = " ".join(str(payload.get("subcategory") or "").split()) or None
    return category, subcategory


def _requested(item: ApprovalItem) -> str:
    category, subcategory = _names(item)
    return f"“{category}” / “{subcategory}”" if subcategory else f"“{category}”"


def _category_named(session: Session, name: str) -> Category | None:
    """The category with this name in English or any other language (case-insensitive)."""
    found = session.scalar(select(Category).where(func.lower(Category.name) == name.lower()))
    if found is not None:
        return found
    translated = session.scalar(
        select(DictionaryName.entity_id).where(
            DictionaryName.kind == DictionaryKind.category, DictionaryName.name_lower == name.lower()
        )
    )
    return session.get(Category, translated) if translated is not None else None


def _subcategory_named(session: Session, category_id: int, name: str) -> Subcategory | None:
    found = session.scalar(
        select(Subcategory).where(Subcategory.category_id == category_id, func.lower(Subcategory.name) == name.lower())
    )
    if found is not None:
        return found
    translated = session.scalar(
        select(DictionaryName.entity_id).where(
            DictionaryName.kind == DictionaryKind.subcategory,
            DictionaryName.scope == str(category_id),
            DictionaryName.name_lower == name.lower(),
        )
    )
    return session.get(Subcategory, translated) if translated is not None else None


def apply_category_request(session: Session, item: ApprovalItem) -> None:
    """Make the requested category (and subcategory) exist and active, and file the tour under them."""
    if item.kind != ApprovalKind.category_request:
        raise BadRequest(NOT_A_CATEGORY_REQUEST, fields={"id": NOT_A_CATEGORY_REQUEST})
    category_name, subcategory_name = _names(item)
    if not category_name:
        raise BadRequest(NO_CATEGORY_NAME, fields={"id": NO_CATEGORY_NAME})
    category = _category_named(session, category_name)
    if category is None:
        category = admin.create_category(
            session,
            name=category_name,
            translations=None,
            image_search=None,
            source_image_search=None,
            position=None,
            is_active=True,
        )
    elif not category.is_active:
        admin.update_category(
            session,
            category_id=category.id,
            name=None,
            translations=None,
            image_search=None,
            source_image_search=None,
            position=None,
            is_active=True,
        )
    subcategory = None
    if subcategory_name:
        subcategory = _subcategory_named(session, category.id, subcategory_name)
        if subcategory is None:
            subcategory = admin.create_subcategory(
                session, category_id=category.id, name=subcategory_name, translations=None, is_active=True
            )
        elif not subcategory.is_active:
            admin.update_subcategory(
                session,
                subcategory_id=subcategory.id,
                category_id=None,
                name=None,
                translations=None,
                is_active=True,
            )
    guid = (item.payload or {}).get("tour_guid")
    if isinstance(guid, str) and guid:
        tours.move_to_category(
            session, guid=guid, category_id=category.id, subcategory_id=subcategory.id if subcategory else None
        )


def reject_category_request(session: Session, item: ApprovalItem, reason: str | None) -> None:
    """A rejected request changes no dictionary and no tour: the tour keeps the category it was
    given. Only the item's kind is checked; the reason is the decision's (recorded and mailed by it)."""
    if item.kind != ApprovalKind.category_request:
        raise BadRequest(NOT_A_CATEGORY_REQUEST, fields={"id": NOT_A_CATEGORY_REQUEST})
    del session, reason


def list_items(session: Session, *, status: str, limit: int, offset: int) -> tuple[list[ApprovalItem], int]:
    """One page of category requests, oldest first (the queue is worked from its head)."""
    statement = select(ApprovalItem).where(ApprovalItem.kind == ApprovalKind.category_request)
    if status != "all":
        statement = statement.where(ApprovalItem.status == ApprovalStatus(status))
    total = session.scalar(select(func.count()).select_from(statement.subquery())) or 0
    page = session.scalars(statement.order_by(ApprovalItem.created_at, ApprovalItem.id).limit(limit).offset(offset))
    return list(page), total


def decide(session: Session, *, admin_user: User, item_id: int, approve: bool, note: str | None) -> ApprovalItem:
    """PUT approval-items: one pending request decided through the one approval path (claim, apply
    or keep, record, mail the owner, push the queue change)."""
    return decisions.decide(session, admin=admin_user, item_id=item_id, approve=approve, note=note, kinds=KINDS)


def _approve(session: Session, item: ApprovalItem, _admin: User) -> None:
    apply_category_request(session, item)


def _reject(session: Session, item: ApprovalItem, _admin: User) -> None:
    reject_category_request(session, item, item.review_note)


def _mail(item: ApprovalItem, approved: bool) -> registry.Mail:
    subject, body = MAILS[approved]
    return registry.Mail(subject, body.format(names=_requested(item)))


def _summary(session: Session, item: ApprovalItem) -> registry.Summary:
    requester = item.submitted_by
    return registry.Summary(
        title=_requested(item), username=requester.platform_username if requester is not None else None
    )


def _versions(session: Session, item: ApprovalItem) -> registry.Versions:
    """The category the tour has now (when it came with one) against the names asked for."""
    payload = dict(item.payload or {})
    guid = payload.get("tour_guid")
    found = tours.tours_by_guids(session, [guid]) if isinstance(guid, str) and guid else []
    current = None
    if found:
        tour = found[0]
        current = {"tour_guid": tour.guid, "category_id": tour.category_id, "subcategory_id": tour.subcategory_id}
    return registry.Versions(current=current, proposed=payload)


registry.register(
    ApprovalKind.category_request,
    registry.KindHandler(approve=_approve, reject=_reject, mail=_mail, summary=_summary, versions=_versions),
)


def existing_category_id(session: Session, name: str) -> int | None:
    """The category a request's name already names (in any language), if any: approving then only
    files the tour under it."""
    name = " ".join(name.split())
    category = _category_named(session, name) if name else None
    return category.id if category is not None else None
