"""Accounts and what belongs to them (spec §3 "Current user", "Interests", "Session activity", §4 "User account").

An account has three independent switches: `is_active` (False = drafted: the account, its creator
profile, custom hosts and tours are deactivated), `user_active` (False = blocked by an admin) and
`is_deleted` (soft delete, `deleted_at` says when). JSON columns are replaced, never mutated in place,
so SQLAlchemy notices the change.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol

from sqlalchemy import JSON, Enum, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from app.core.db import Base, TimestampMixin, utcnow

if TYPE_CHECKING:
    from app.creators.models import Creator

MAX_INTERESTS = 20
CONTENT_MANAGER_ROLE = "CM"
AccountState = Literal["active", "drafted", "blocked", "deleted"]


class AuthSystem(enum.StrEnum):
    email = "email"
    google = "google"
    facebook = "facebook"


def default_user_settings() -> dict[str, Any]:
    return {"imageScale": 10, "bgColor": "white"}


def default_guide_steps() -> dict[str, Any]:
    return {"completeGuide": False}


class User(TimestampMixin, Base):
    __tablename__ = "users"
    __table_args__ = (UniqueConstraint("auth_system", "user_system_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(320), unique=True)
    # Null for accounts that only ever signed in through a social provider.
    password_hash: Mapped[str | None] = mapped_column(String(255))
    first_name: Mapped[str] = mapped_column(String(100), default="")
    last_name: Mapped[str] = mapped_column(String(100), default="")
    phone: Mapped[str | None] = mapped_column(String(32))
    platform_username: Mapped[str | None] = mapped_column(String(64), unique=True)
    auth_system: Mapped[AuthSystem] = mapped_column(
        Enum(AuthSystem, native_enum=False, validate_strings=True, length=16), default=AuthSystem.email
    )
    # The social provider's subject id; unique per provider (constraint above).
    user_system_id: Mapped[str | None] = mapped_column(String(255))
    is_admin: Mapped[bool] = mapped_column(default=False, index=True)
    roles: Mapped[list[str]] = mapped_column(JSON, default=list)
    potential_creator: Mapped[bool] = mapped_column(default=False)
    is_active: Mapped[bool] = mapped_column(default=True, index=True)
    user_active: Mapped[bool] = mapped_column(default=True, index=True)
    is_deleted: Mapped[bool] = mapped_column(default=False)
    deleted_at: Mapped[datetime | None]
    user_settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=default_user_settings)
    guide_steps: Mapped[dict[str, Any]] = mapped_column(JSON, default=default_guide_steps)
    profile_img: Mapped[str | None] = mapped_column(String(512))
    consent_emails: Mapped[bool] = mapped_column(default=False)
    trusted: Mapped[bool] = mapped_column(default=False)
    editing_creator_pending: Mapped[bool] = mapped_column(default=False)
    profile_edit_pending: Mapped[bool] = mapped_column(default=False)
    tour_edit_pending: Mapped[bool] = mapped_column(default=False)
    token_version: Mapped[int] = mapped_column(default=0)
    # {"center": [lng, lat], "bbox": [...], "text": "..."} as answered by user-location-by-coords.
    last_location: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    last_sign_in_at: Mapped[datetime | None]

    creator: Mapped[Creator | None] = relationship(back_populates="user", uselist=False)
    interests: Mapped[list[UserInterest]] = relationship(
        back_populates="user", order_by="UserInterest.position", cascade="all, delete-orphan", passive_deletes=True
    )

    @validates("email")
    def _lowercase_email(self, _key: str, email: str) -> str:
        # Emails are unique case-insensitively; storing them lowercased lets a plain unique index enforce it.
        return email.strip().lower()

    @property
    def username(self) -> str:
        """The display name of spec §3: first and last name joined by a space."""
        return " ".join(part for part in (self.first_name, self.last_name) if part)

    @property
    def is_content_manager(self) -> bool:
        return CONTENT_MANAGER_ROLE in (self.roles or [])

    @property
    def account_state(self) -> AccountState:
        """deleted, drafted, blocked or active: the first of the three switches that is off."""
        if self.is_deleted:
            return "deleted"
        if not self.is_active:
            return "drafted"
        return "active" if self.user_active else "blocked"


class UserRef(Protocol):
    """What the feed reads of its signed-in caller: a loaded `User`, or the `SignedInUser` that the
    feed reads instead (app/core/deps.signed_in_user), a row of two columns rather than an ORM object
    of thirty, on the hottest call."""

    @property
    def id(self) -> int: ...

    @property
    def last_location(self) -> dict[str, Any] | None: ...


@dataclass(frozen=True, slots=True)
class SignedInUser:
    """A signed-in caller whose account was checked (app/core/deps.signed_in_user): a `UserRef`."""

    id: int
    last_location: dict[str, Any] | None


class UserInterest(Base):
    """One of the user's up to MAX_INTERESTS categories, in the user's order."""

    __tablename__ = "user_interests"
    __table_args__ = (UniqueConstraint("user_id", "category_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # The unique constraint leads with user_id, so it also serves lookups by user.
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    category_id: Mapped[int] = mapped_column(ForeignKey("categories.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(default=0)

    user: Mapped[User] = relationship(back_populates="interests")


class Guest(Base):
    """A visitor without an account, known by the id its browser generated (spec §4)."""

    __tablename__ = "guests"

    id: Mapped[int] = mapped_column(primary_key=True)
    guest_id: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class UserSession(Base):
    """A sign-in session (POST /v2/sessions/); a guest session has only guest_id."""

    __tablename__ = "user_sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    guest_id: Mapped[str | None] = mapped_column(String(64), index=True)
    started_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    ended_at: Mapped[datetime | None]
    ip: Mapped[str | None] = mapped_column(String(64))
    user_agent: Mapped[str | None] = mapped_column(String(512))


class SessionActivity(Base):
    """What a user did, e.g. 'Sign in', 'Follow', 'Save'; owner_id names the creator or tour acted on."""

    __tablename__ = "session_activities"
    __table_args__ = (Index("ix_session_activities_activity_code_created_at", "activity_code", "created_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int | None] = mapped_column(ForeignKey("user_sessions.id", ondelete="SET NULL"), index=True)
    userid: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    activity_code: Mapped[str] = mapped_column(String(64))
    activity_text: Mapped[str | None] = mapped_column(String(1000))
    owner_id: Mapped[str | None] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class PasswordResetToken(Base):
    """Only the hash of the emailed token is stored, so a leaked table cannot reset passwords."""

    __tablename__ = "password_reset_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(128), unique=True)
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class BetaTesterAnswer(Base):
    """The beta-tester questionnaire: question key → answer for its 9 questions."""

    __tablename__ = "beta_tester_answers"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    answers: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
