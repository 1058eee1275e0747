"""Wire shapes of the Users calls (spec §7 Users; field names as spec §3 "Current user")."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, Field, field_validator

from app.users.models import MAX_INTERESTS, AuthSystem, User, default_guide_steps, default_user_settings

MAX_GUIDE_STEPS = 50
MAX_SETTINGS_KEYS = 30


def _lowercase(value: object) -> object:
    return value.strip().lower() if isinstance(value, str) else value


# The client sends "Email", "Google", "Facebook" as often as the lowercase values.
AuthSystemField = Annotated[AuthSystem, BeforeValidator(_lowercase)]


class CurrentUserOut(BaseModel):
    userid: int
    email: str
    first_name: str
    last_name: str
    username: str
    phone: str | None
    platform_username: str | None
    user_settings: dict[str, Any]
    auth_system: AuthSystem
    user_system_id: str | None
    creatorId: int | None  # noqa: N815 - wire name
    profile_img: str | None
    is_active: bool
    user_active: bool
    is_admin: bool
    roles: list[str]
    potential_creator: bool
    guide_steps: dict[str, Any]
    consent_emails: bool
    trusted: bool
    editing_creator_pending: bool
    profile_edit_pending: bool
    tour_edit_pending: bool


class UserParams(BaseModel):
    """The account fields a user edits in settings; absent fields stay as they are."""

    email: str | None = None
    first_name: str | None = None
    last_name: str | None = None
    phone: str | None = Field(default=None, description="Digits only; empty string clears it.")
    platform_username: str | None = None
    user_settings: dict[str, Any] | None = None
    consent_emails: bool | None = None

    @field_validator("user_settings")
    @classmethod
    def _bounded_settings(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is not None and len(value) > MAX_SETTINGS_KEYS:
            raise ValueError(f"At most {MAX_SETTINGS_KEYS} settings")
        return value


class UserParamsUpdate(BaseModel):
    userid: int | None = Field(default=None, description="Whose account; absent means the caller's own.")
    params: UserParams


class UserParamsAnswer(BaseModel):
    message: str
    data: CurrentUserOut
    pending_fields: list[str] = Field(default_factory=list, description="Fields waiting for an admin's approval.")


class FieldCheckAnswer(BaseModel):
    valid: bool
    fields: dict[str, str] = Field(default_factory=dict, description="Failing field → the message to show.")
    platform_username_available: bool | None = None
    email_available: bool | None = None


class ExistingAnswer(BaseModel):
    username_exists: bool | None = None
    email_exists: bool | None = None


class ProfileImageAnswer(BaseModel):
    path: str
    message: str = ""
    pending: bool = False


class InterestIn(BaseModel):
    category_id: int | None = None


class InterestsUpdate(BaseModel):
    interests: list[InterestIn] = Field(max_length=MAX_INTERESTS * 5)


class InterestOut(BaseModel):
    category_id: int
    name: str
    position: int


class InterestsAnswer(BaseModel):
    data: list[InterestOut]


class GuideStepsBody(BaseModel):
    guide_steps: dict[str, bool | int | str | None]

    @field_validator("guide_steps")
    @classmethod
    def _bounded(cls, value: dict[str, Any]) -> dict[str, Any]:
        if len(value) > MAX_GUIDE_STEPS or any(len(key) > 64 for key in value):
            raise ValueError(f"At most {MAX_GUIDE_STEPS} steps with names up to 64 characters")
        if "completeGuide" in value and not isinstance(value["completeGuide"], bool):
            raise ValueError("completeGuide must be true or false")
        return value


class GuideStepsAnswer(BaseModel):
    guide_steps: dict[str, Any]


class UserSearchItem(BaseModel):
    userid: int
    platform_username: str | None
    username: str
    email: str
    creatorId: int | None  # noqa: N815 - wire name


class UserSearchPage(BaseModel):
    data: list[UserSearchItem]
    total_items: int


class UserSearchAnswer(BaseModel):
    data: UserSearchPage


class UserGroupOut(BaseModel):
    id: str
    name: str
    count: int


class UserGroupsAnswer(BaseModel):
    data: list[UserGroupOut]


class ActivateDeactivateBody(BaseModel):
    userid: int
    is_active: bool


class AccountAnswer(BaseModel):
    message: str
    data: CurrentUserOut


class MessageAnswer(BaseModel):
    message: str


def current_user_out(user: User) -> CurrentUserOut:
    creator = user.creator
    return CurrentUserOut(
        userid=user.id,
        email=user.email,
        first_name=user.first_name,
        last_name=user.last_name,
        username=user.username,
        phone=user.phone,
        platform_username=user.platform_username,
        user_settings={**default_user_settings(), **(user.user_settings or {})},
        auth_system=user.auth_system,
        user_system_id=user.user_system_id,
        creatorId=creator.id if creator is not None and creator.is_active else None,
        profile_img=user.profile_img,
        is_active=user.is_active,
        user_active=user.user_active,
        is_admin=user.is_admin,
        roles=list(user.roles or []),
        potential_creator=user.potential_creator,
        guide_steps={**default_guide_steps(), **(user.guide_steps or {})},
        consent_emails=user.consent_emails,
        trusted=user.trusted,
        editing_creator_pending=user.editing_creator_pending,
        profile_edit_pending=user.profile_edit_pending,
        tour_edit_pending=user.tour_edit_pending,
    )
