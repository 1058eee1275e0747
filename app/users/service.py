"""Accounts: creation, settings, interests, guide, search, groups and the account states of spec §4.

Services never commit: the request's session commits once (app/core/db.py).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Select, Text, cast, delete, func, or_, select, update
from sqlalchemy.orm import Session

from app.ads.models import Ad
from app.classifications.models import Category
from app.core import outbox_topics
from app.core.db import utcnow
from app.core.errors import BadRequest, Conflict, Forbidden, NotFound
from app.core.security import hash_password
from app.creators.models import Creator, CreatorFeaturedTour
from app.moderation.models import ApprovalKind
from app.tours.models import Tour, TourStatus
from app.tours.queries import published_clause
from app.users import approval_queue
from app.users import validation as rules
from app.users.models import (
    CONTENT_MANAGER_ROLE,
    MAX_INTERESTS,
    AuthSystem,
    BetaTesterAnswer,
    User,
    UserInterest,
    default_guide_steps,
    default_user_settings,
)
from app.users.schemas import UserParams
from app.vendors.models import Vendor, VendorStatus

ACCOUNT_DELETED = "User Deleted"
ACCOUNT_DEACTIVATED = "This account is not active. Please write to support."
USER_NOT_FOUND = "User not found"
EDIT_ALREADY_PENDING = "Your previous profile changes are still waiting for approval"
# Fields that appear on public pages (creator cards, the /{creatorName} links): for a creator who
# is not trusted, a change waits for an admin (spec §4 "user profile edit" approval item).
PUBLIC_IDENTITY_FIELDS = ("platform_username",)


# ----------------------------------------------------------------------------------------- lookups


def get_user(session: Session, user_id: int, *, include_deleted: bool = False) -> User:
    user = session.get(User, user_id)
    if user is None or (user.is_deleted and not include_deleted):
        raise NotFound(USER_NOT_FOUND)
    return user


def resolve_target(session: Session, caller: User, userid: int | None) -> User:
    """The account a call is about: the caller's own, or any account for an admin."""
    if userid is None or userid == caller.id:
        return caller
    if not caller.is_admin:
        raise Forbidden("You can only see or change your own account")
    return get_user(session, userid)


def find_by_email(session: Session, email: str) -> User | None:
    return session.scalar(select(User).where(User.email == rules.normalise_email(email)))


def find_by_social_identity(session: Session, auth_system: AuthSystem, subject: str) -> User | None:
    return session.scalar(select(User).where(User.auth_system == auth_system, User.user_system_id == subject))


def refuse_unusable_account(user: User) -> None:
    """Spec §8: a deleted account reads 'User Deleted'; a drafted or blocked one asks to write to support."""
    if user.is_deleted:
        raise Forbidden(ACCOUNT_DELETED)
    if not user.is_active or not user.user_active:
        raise Forbidden(ACCOUNT_DEACTIVATED)


# ---------------------------------------------------------------------------------------- creation


@dataclass(frozen=True)
class NewAccount:
    email: str
    first_name: str
    last_name: str
    auth_system: AuthSystem
    platform_username: str
    password: str | None = None
    phone: str | None = None
    user_system_id: str | None = None
    consent_emails: bool = False


def create_user(session: Session, account: NewAccount) -> User:
    """Insert a validated account (the caller ran the §5 checks, including availability)."""
    now = utcnow()
    user = User(
        email=account.email,
        password_hash=hash_password(account.password) if account.password else None,
        first_name=account.first_name.strip(),
        last_name=account.last_name.strip(),
        phone=account.phone or None,
        platform_username=account.platform_username,
        auth_system=account.auth_system,
        user_system_id=account.user_system_id,
        consent_emails=account.consent_emails,
        roles=[],
        user_settings=default_user_settings(),
        guide_steps=default_guide_steps(),
        created_at=now,
        updated_at=now,
    )
    session.add(user)
    session.flush()
    approval_queue.file_new_user(session, user)
    return user


def suggest_platform_username(session: Session, *seeds: str) -> str:
    """A valid, free platform username derived from the first usable seed (email, names)."""
    base = ""
    for seed in seeds:
        base = re.sub(r"[^A-Za-z0-9._-]", "", seed.split("@")[0])[: rules.USERNAME_MAX - 5].strip("._-")
        if base and not rules.has_profanity(base):
            break
        base = ""
    base = base or "user"
    candidate = base.ljust(rules.USERNAME_MIN, "0")
    while rules.platform_username_taken(session, candidate):
        candidate = f"{base}{secrets.randbelow(10_000):04d}"
    return candidate


# ---------------------------------------------------------------------------------------- settings


def validate_params(session: Session, user: User, params: UserParams) -> dict[str, Any]:
    """The §5 checks of an account edit; returns the fields that actually change."""
    changes = _changed_fields(user, params)
    failures: dict[str, str | None] = {}
    if "email" in changes:
        failures["email"] = (
            rules.EMAIL_NOT_EDITABLE if user.auth_system != AuthSystem.email else rules.check_email_format(params.email)
        )
    if "first_name" in changes:
        failures["first_name"] = rules.check_name(params.first_name, rules.INVALID_FIRST_NAME)
    if "last_name" in changes:
        failures["last_name"] = rules.check_name(params.last_name, rules.INVALID_LAST_NAME)
    if "phone" in changes:
        failures["phone"] = rules.check_phone(params.phone)
    if "platform_username" in changes:
        failures["platform_username"] = rules.check_platform_username_format(params.platform_username)
    rules.raise_for_fields(failures)
    rules.raise_if_taken(session, email=changes.get("email"), username=changes.get("platform_username"), user=user)
    return changes


def _changed_fields(user: User, params: UserParams) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    for field, value in params.model_dump(exclude_unset=True).items():
        if value is None:
            continue
        if field == "email":
            value = rules.normalise_email(value)
        elif isinstance(value, str):
            value = value.strip()
        if field == "user_settings":
            value = {**(user.user_settings or default_user_settings()), **value}
        if value != getattr(user, field):
            changes[field] = value
    return changes


def update_params(session: Session, *, user: User, editor: User, params: UserParams) -> list[str]:
    """Spec §4 "Account save": saves what may be saved now and files the rest for approval.
    Returns the fields that wait (empty: everything was saved)."""
    changes = validate_params(session, user, params)
    pending = _fields_needing_approval(user, editor, changes)
    if pending and user.profile_edit_pending:
        raise Conflict(EDIT_ALREADY_PENDING)
    applied = {field: value for field, value in changes.items() if field not in pending}
    _apply(user, applied)
    if pending:
        _file_profile_edit(session, user, pending)
    session.flush()
    _reindex_public_identity(session, user, applied)
    return sorted(pending)


def _fields_needing_approval(user: User, editor: User, changes: dict[str, Any]) -> dict[str, Any]:
    if editor.is_admin or user.trusted or user.creator is None:
        return {}
    return {field: changes[field] for field in PUBLIC_IDENTITY_FIELDS if field in changes}


def _apply(user: User, changes: dict[str, Any]) -> None:
    for field, value in changes.items():
        # An empty phone clears it; every other field was validated as non-empty.
        setattr(user, field, (value or None) if field == "phone" else value)


def _file_profile_edit(session: Session, user: User, changes: dict[str, Any]) -> None:
    approval_queue.file_item(session, kind=ApprovalKind.user_profile_edit, user=user, payload={"changes": changes})
    user.profile_edit_pending = True


def _reindex_public_identity(session: Session, user: User, applied: dict[str, Any]) -> None:
    # Creator cards carry the platform username: the index must hear about a change.
    if "platform_username" in applied and user.creator is not None:
        outbox_topics.creator_changed(session, user.creator.id)


def apply_profile_edit(session: Session, user: User, changes: dict[str, Any]) -> None:
    """Called by moderation when an admin approves a "user profile edit": re-checks availability
    (someone may have taken the name meanwhile) and applies the changes."""
    rules.raise_if_taken(session, email=changes.get("email"), username=changes.get("platform_username"), user=user)
    _apply(user, changes)
    user.profile_edit_pending = False
    session.flush()
    _reindex_public_identity(session, user, changes)


def check_fields(
    session: Session, *, platform_username: str | None, email: str | None, current: User | None
) -> tuple[dict[str, str], bool | None, bool | None]:
    """The live form check (users-info-check): failing fields, and availability where it was looked up."""
    fields: dict[str, str] = {}
    username_available: bool | None = None
    email_available: bool | None = None
    if platform_username is not None:
        if message := rules.check_platform_username_format(platform_username):
            fields["platform_username"] = message
        if len(platform_username) >= rules.USERNAME_CHECK_FROM:
            current_name = current.platform_username if current else None
            username_available = not rules.platform_username_taken(session, platform_username, current=current_name)
            if not username_available:
                fields.setdefault("platform_username", rules.USERNAME_TAKEN)
    if email is not None:
        if message := rules.check_email_format(email):
            fields["email"] = message
        else:
            email_available = not rules.email_taken(session, email, current_user_id=current.id if current else None)
            if not email_available:
                fields["email"] = rules.EMAIL_TAKEN
    return fields, username_available, email_available


def existing_username_or_email(
    session: Session, *, username: str | None, email: str | None
) -> tuple[bool | None, bool | None]:
    username_exists = None
    if username:
        statement = select(User.id).where(func.lower(User.platform_username) == username.strip().lower())
        username_exists = session.scalar(statement.limit(1)) is not None
    email_exists = rules.email_taken(session, email) if email else None
    return username_exists, email_exists


# --------------------------------------------------------------------------------- interests, guide


INTEREST_REQUIRED = "Choose a category for every interest"
INTEREST_DUPLICATE = "This category is already among your interests"
TOO_MANY_INTERESTS = f"You can't add more than {MAX_INTERESTS} interests"
UNKNOWN_CATEGORY = "This category does not exist"


def list_interests(session: Session, user: User) -> list[tuple[UserInterest, Category]]:
    statement = (
        select(UserInterest, Category)
        .join(Category, Category.id == UserInterest.category_id)
        .where(UserInterest.user_id == user.id)
        .order_by(UserInterest.position)
    )
    return [(interest, category) for interest, category in session.execute(statement).all()]


def set_interests(session: Session, user: User, category_ids: list[int | None]) -> None:
    """Replace the user's interests with these categories, in this order (spec §5: at most 20,
    no duplicates, every row needs a category)."""
    _check_interests(session, category_ids)
    user.interests.clear()
    session.flush()  # the old rows leave before the new ones meet the (user, category) unique key
    for position, category_id in enumerate(category_ids):
        user.interests.append(UserInterest(category_id=category_id, position=position))
    session.flush()


def _check_interests(session: Session, category_ids: list[int | None]) -> None:
    if len(category_ids) > MAX_INTERESTS:
        raise BadRequest(TOO_MANY_INTERESTS, fields={"interests": TOO_MANY_INTERESTS})
    seen: set[int] = set()
    for index, category_id in enumerate(category_ids):
        field = f"interests.{index}.category_id"
        if category_id is None:
            raise BadRequest(INTEREST_REQUIRED, fields={field: INTEREST_REQUIRED})
        if category_id in seen:
            raise BadRequest(INTEREST_DUPLICATE, fields={field: INTEREST_DUPLICATE})
        seen.add(category_id)
    known = set(session.scalars(select(Category.id).where(Category.id.in_(seen), Category.is_active.is_(True))))
    for index, category_id in enumerate(category_ids):
        if category_id not in known:
            raise BadRequest(UNKNOWN_CATEGORY, fields={f"interests.{index}.category_id": UNKNOWN_CATEGORY})


def merge_guide_steps(user: User, steps: dict[str, Any]) -> dict[str, Any]:
    """Record the guide steps walked; the guide is complete once completeGuide is set (spec §4)."""
    merged = {**default_guide_steps(), **(user.guide_steps or {}), **steps}
    user.guide_steps = merged  # a new dict, so the JSON column notices the change
    return merged


# ------------------------------------------------------------------------------- search and groups


def matches_pattern(pattern: str) -> ColumnElement[bool]:
    """Platform username, email or full name contains `pattern`, case-insensitively; LIKE
    wildcards in the pattern are plain characters."""
    escaped = pattern.strip().lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    like = f"%{escaped}%"
    return or_(
        func.lower(User.platform_username).like(like, escape="\\"),
        func.lower(User.email).like(like, escape="\\"),
        func.lower(User.first_name + " " + User.last_name).like(like, escape="\\"),
    )


def search_users(session: Session, pattern: str, *, limit: int, offset: int) -> tuple[list[User], int]:
    """Platform usernames, names and emails containing `pattern` (admins adding media on behalf of
    a user, spec §6). Deleted accounts are left out."""
    statement = select(User).where(User.is_deleted.is_(False), matches_pattern(pattern))
    total = session.scalar(select(func.count()).select_from(statement.subquery())) or 0
    rows = session.scalars(statement.order_by(User.platform_username, User.id).limit(limit).offset(offset)).all()
    return list(rows), total


USER_GROUPS: dict[str, str] = {
    "all": "All users",
    "users": "Users without a creator profile",
    "creators": "Creators",
    "potential_creators": "Potential creators",
    "admins": "Administrators",
    "content_managers": "Content managers",
    "beta_testers": "Beta testers",
}


def user_ids_in_group(group_id: str) -> Select[int]:
    """The ids of the active accounts in a group (notifications to users, spec §6 admin)."""
    statement = select(User.id).where(User.is_deleted.is_(False), User.is_active.is_(True))
    has_creator = select(Creator.id).where(Creator.user_id == User.id).exists()
    conditions = {
        "all": None,
        "users": ~has_creator,
        "creators": has_creator,
        "potential_creators": User.potential_creator.is_(True),
        "admins": User.is_admin.is_(True),
        # roles is a JSON list; the tag is matched on its serialised form, which works on both databases.
        "content_managers": func.coalesce(cast(User.roles, Text), "").like(f'%"{CONTENT_MANAGER_ROLE}"%'),
        "beta_testers": select(BetaTesterAnswer.id).where(BetaTesterAnswer.user_id == User.id).exists(),
    }
    if group_id not in conditions:
        raise NotFound("No such user group")
    condition = conditions[group_id]
    return statement if condition is None else statement.where(condition)


def user_groups(session: Session) -> list[tuple[str, str, int]]:
    return [
        (group_id, name, session.scalar(select(func.count()).select_from(user_ids_in_group(group_id).subquery())) or 0)
        for group_id, name in USER_GROUPS.items()
    ]


# ---------------------------------------------------------------------------------- account states


def draft_account(session: Session, user: User) -> None:
    """Spec §4: drafting deactivates the account, its creator profile, its custom hosts and all its
    tours. Every token it holds stops working at once."""
    user.is_active = False
    user.token_version += 1
    _withdraw_content(session, user)


def reactivate_account(session: Session, user: User) -> None:
    """Spec §4: the account and its creator profile come back; every tour goes to the owner's drafts,
    to be published again one by one; custom hosts withdrawn at drafting are approved again."""
    user.is_active = True
    if user.creator is not None:
        user.creator.is_active = True
    session.execute(
        update(Vendor)
        .where(Vendor.owner_user_id == user.id, Vendor.is_custom.is_(True), Vendor.status == VendorStatus.inactive)
        .values(status=VendorStatus.approved)
    )
    session.execute(update(Tour).where(Tour.user_id == user.id).values(status=TourStatus.draft, updated_at=utcnow()))
    session.flush()
    _reindex_owned(session, user)


def delete_account(session: Session, user: User) -> None:
    """DELETE /v2/users/: the account is marked deleted (signing in then reads 'User Deleted') and
    its public content is withdrawn as for drafting; rows are kept, as the spec deletes nothing else."""
    user.is_deleted = True
    user.deleted_at = utcnow()
    user.token_version += 1
    _withdraw_content(session, user)


def _withdraw_content(session: Session, user: User) -> None:
    if user.creator is not None:
        user.creator.is_active = False
    # Only approved hosts are withdrawn (pending ones are not public), so reactivation knows which to restore.
    session.execute(
        update(Vendor)
        .where(Vendor.owner_user_id == user.id, Vendor.is_custom.is_(True), Vendor.status == VendorStatus.approved)
        .values(status=VendorStatus.inactive)
    )
    session.execute(
        update(Tour)
        .where(Tour.user_id == user.id, Tour.status == TourStatus.active)
        .values(status=TourStatus.draft, updated_at=utcnow())
    )
    session.flush()
    _reindex_owned(session, user)


def _reindex_owned(session: Session, user: User) -> None:
    """Everything of this user the index lists (or no longer lists) is re-evaluated after commit."""
    custom_hosts = select(Vendor.id).where(Vendor.owner_user_id == user.id, Vendor.is_custom.is_(True))
    tour_ids = session.scalars(
        select(Tour.id).where(or_(Tour.user_id == user.id, Tour.vendor_id.in_(custom_hosts)))
    ).all()
    for tour_id in tour_ids:
        outbox_topics.tour_changed(session, tour_id)
    for ad_id in session.scalars(select(Ad.id).where(Ad.user_id == user.id)).all():
        outbox_topics.ad_changed(session, ad_id)
    if user.creator is not None:
        outbox_topics.creator_changed(session, user.creator.id)


def set_account_active(session: Session, *, admin: User, user: User, is_active: bool) -> None:
    if user.id == admin.id and not is_active:
        raise BadRequest("You cannot deactivate your own account")
    if is_active == user.is_active:
        return
    if is_active:
        reactivate_account(session, user)
    else:
        if not admin.is_admin:
            raise Forbidden("Administrators only")
        draft_account(session, user)


# ---------------------------------------------------------------------------------- tour transfer

SAME_ACCOUNT = "Choose two different accounts"
RECEIVER_INACTIVE = "The receiving account is not active"
NO_TOURS_CHOSEN = "Choose at least one tour"
NOT_OWNED = "These tours do not belong to this account"


def transfer_tours(session: Session, *, source: User, target: User, guids: list[str] | None) -> list[str]:
    """PUT vt-transfer: the listed tours of `source` (every one when `guids` is None) become
    `target`'s, under `target`'s creator profile if there is one. Both creators' vt_count follow,
    `source`'s featured list drops the tours, and the index hears about every moved tour."""
    _check_transfer(source, target, guids)
    statement = select(Tour.id, Tour.guid, Tour.creator_id).where(Tour.user_id == source.id)
    if guids is not None:
        statement = statement.where(Tour.guid.in_(set(guids)))
    rows = session.execute(statement).all()
    if guids is not None and (missing := sorted(set(guids) - {row.guid for row in rows})):
        raise BadRequest(NOT_OWNED, fields={"tours": f"{NOT_OWNED}: {', '.join(missing[:20])}"})
    tour_ids = [row.id for row in rows]
    if not tour_ids:
        return []
    target_creator_id = target.creator.id if target.creator is not None else None
    # Featuring is the previous owner's choice and order: the tours arrive unfeatured.
    session.execute(
        update(Tour)
        .where(Tour.id.in_(tour_ids))
        .values(
            user_id=target.id,
            creator_id=target_creator_id,
            is_featured=False,
            featured_order=None,
            updated_at=utcnow(),
        )
    )
    session.execute(delete(CreatorFeaturedTour).where(CreatorFeaturedTour.tour_id.in_(tour_ids)))
    creator_ids = {row.creator_id for row in rows if row.creator_id is not None} | {target_creator_id}
    _recount_listed_tours(session, {creator_id for creator_id in creator_ids if creator_id is not None})
    for tour_id in tour_ids:
        outbox_topics.tour_changed(session, tour_id)
    session.flush()
    session.expire_all()  # the bulk updates bypassed the identity map
    return sorted(row.guid for row in rows)


def _check_transfer(source: User, target: User, guids: list[str] | None) -> None:
    if source.id == target.id:
        raise BadRequest(SAME_ACCOUNT, fields={"to_userid": SAME_ACCOUNT})
    if not target.is_active or not target.user_active:
        raise BadRequest(RECEIVER_INACTIVE, fields={"to_userid": RECEIVER_INACTIVE})
    if guids is not None and not guids:
        raise BadRequest(NO_TOURS_CHOSEN, fields={"tours": NO_TOURS_CHOSEN})


def _recount_listed_tours(session: Session, creator_ids: set[int]) -> None:
    """vt_count is the creator's listed tours: its published ones (app/tours/queries.py), as
    app/tours/service.py and the demo loader count them."""
    for creator_id in sorted(creator_ids):
        listed = (
            select(func.count())
            .select_from(Tour)
            .where(Tour.creator_id == creator_id, published_clause())
            .scalar_subquery()
        )
        session.execute(update(Creator).where(Creator.id == creator_id).values(vt_count=listed))
        outbox_topics.creator_changed(session, creator_id)
