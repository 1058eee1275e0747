"""Small builders for rows the tests need. They add through the ORM and record the index outbox
entries a service would, so the index follows as it does in production."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy.orm import Session

from app.classifications.models import Category, MediaType, Subcategory, Tag, TagTopicType
from app.core import security
from app.core.outbox import add_outbox
from app.core.security import issue_user_token
from app.creators.models import Creator
from app.tours.models import ApprovalState, Tour, TourStatus, TourTag
from app.users.models import User
from app.vendors.models import Vendor, VendorStatus

_sequence = itertools.count(1)


@lru_cache
def hash_password(password: str) -> str:
    """Argon2 costs ~0.2 s of CPU on purpose, and the tests make thousands of accounts with a handful
    of passwords: each password is hashed once per process (a hash is a valid one for any account)."""
    return security.hash_password(password)


def user(db: Session, *, admin: bool = False, roles: list[str] | None = None, **fields: Any) -> User:
    number = next(_sequence)
    row = User(
        email=fields.pop("email", f"user{number}@example.com"),
        password_hash=hash_password(fields.pop("password", "Secret1!")),
        first_name=fields.pop("first_name", "Test"),
        last_name=fields.pop("last_name", f"User{number}"),
        platform_username=fields.pop("platform_username", f"tester{number:04d}"),
        is_admin=admin,
        roles=roles or [],
        **fields,
    )
    db.add(row)
    db.flush()
    return row


def token_for(row: User, creator_id: int | None = None) -> str:
    return issue_user_token(
        user_id=row.id,
        is_admin=row.is_admin,
        roles=list(row.roles or []),
        creator_id=creator_id,
        token_version=row.token_version,
    )


def creator(db: Session, owner: User, **fields: Any) -> Creator:
    row = Creator(user_id=owner.id, creator_name=fields.pop("creator_name", f"Creator {owner.id}"), **fields)
    db.add(row)
    db.flush()
    add_outbox(db, "index.creator", row.id, {})
    return row


def category(db: Session, name: str, subcategories: tuple[str, ...] = ()) -> Category:
    row = Category(name=name, slug=name.lower().replace(" ", "-"))
    db.add(row)
    db.flush()
    for sub in subcategories:
        db.add(Subcategory(name=sub, category_id=row.id))
    db.flush()
    return row


def media_type(db: Session, name: str) -> MediaType:
    row = MediaType(name=name, slug=name.lower().replace(" ", "-"))
    db.add(row)
    db.flush()
    return row


def vendor(db: Session, name: str, pattern: str = r"^https://example\.com/.+$") -> Vendor:
    row = Vendor(name=name, slug=name.lower(), link_pattern=pattern, status=VendorStatus.approved)
    db.add(row)
    db.flush()
    return row


def tag(db: Session, name: str, category_row: Category) -> Tag:
    row = Tag(name=name, topic_type=TagTopicType.category, topic_id=category_row.id)
    db.add(row)
    db.flush()
    add_outbox(db, "index.tag", row.id, {})
    return row


def tour(
    db: Session,
    owner: User,
    *,
    category_row: Category,
    media_type_row: MediaType,
    vendor_row: Vendor,
    tags: tuple[Tag, ...] = (),
    age_days: float = 0,
    **fields: Any,
) -> Tour:
    number = next(_sequence)
    link = fields.pop("link", f"https://example.com/tour/{number}")
    row = Tour(
        user_id=owner.id,
        vendor_id=vendor_row.id,
        media_type_id=media_type_row.id,
        category_id=category_row.id,
        title=fields.pop("title", f"Tour {number}"),
        description=fields.pop("description", "A walk through a place"),
        link=link,
        link_normalised=link.lower(),
        status=fields.pop("status", TourStatus.active),
        approval_state=fields.pop("approval_state", ApprovalState.approved),
        created_at=datetime.now(UTC) - timedelta(days=age_days),
        **fields,
    )
    db.add(row)
    db.flush()
    for position, tag_row in enumerate(tags):
        db.add(TourTag(tour_id=row.id, tag_id=tag_row.id, position=position))
    add_outbox(db, "index.tour", row.id, {})
    db.flush()
    return row


def bearer(row: User, creator_id: int | None = None) -> dict[str, str]:
    """The Authorization header of a signed-in user."""
    return {"Authorization": f"Bearer {token_for(row, creator_id)}"}


@dataclass
class Catalog:
    """One category, media type and vendor: enough to add tours."""

    category: Category
    media_type: MediaType
    vendor: Vendor

    def tour(self, db: Session, owner: User, **fields: Any) -> Tour:
        return tour(
            db, owner, category_row=self.category, media_type_row=self.media_type, vendor_row=self.vendor, **fields
        )


def catalog(db: Session) -> Catalog:
    return Catalog(
        category=category(db, "Museums"), media_type=media_type(db, "360 photo"), vendor=vendor(db, "Example")
    )
