"""Wire shapes of the Users calls (spec §7 Users; field names as spec §3 "Current user")."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, Field, field_validator

from app.core.daily_series import DailySeries
from app.core.timestamps import UtcDateTime
from app.core.types import DbId, DbInt
from app.users.models import (
    MAX_INTERESTS,
    AccountState,
    AuthSystem,
    BetaTesterAnswer,
    User,
    default_guide_steps,
    default_user_settings,
)

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
    userid: DbId | None = Field(default=None, description="Whose account; absent means the caller's own.")
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
    category_id: DbId | None = None


class InterestsUpdate(BaseModel):
    interests: list[InterestIn] = Field(max_length=MAX_INTERESTS * 5)


class InterestOut(BaseModel):
    category_id: int
    name: str
    position: int


class InterestsAnswer(BaseModel):
    data: list[InterestOut]


class GuideStepsBody(BaseModel):
    guide_steps: dict[str, bool | DbInt | str | None]

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
    userid: DbId
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


# ------------------------------------------------------------------------- admin: user moderation

StateFilter = Literal["all", "active", "drafted", "blocked", "deleted"]
RoleFilter = Literal["admin", "cm", "creator", "potential_creator", "user"]
ModerationSorting = Literal["newest", "oldest", "name"]


class ModerationUserOut(BaseModel):
    userid: int
    email: str
    username: str
    first_name: str
    last_name: str
    platform_username: str | None
    profile_img: str | None
    creatorId: int | None  # noqa: N815 - wire name
    auth_system: AuthSystem
    is_admin: bool
    roles: list[str]
    trusted: bool
    potential_creator: bool
    is_active: bool
    user_active: bool
    is_deleted: bool
    state: AccountState = Field(description="deleted, drafted (is_active false), blocked (user_active false) or active")
    tours_count: int = Field(description="Every tour the account owns, drafts included")
    editing_creator_pending: bool
    profile_edit_pending: bool
    tour_edit_pending: bool
    created_at: UtcDateTime
    last_sign_in_at: UtcDateTime | None


class ModerationUsersAnswer(BaseModel):
    data: list[ModerationUserOut]
    total_items: int
    limit: int
    offset: int


# --------------------------------------------------------------------------- admin: approval items

UserApprovalKind = Literal["new_user", "user_profile_edit", "profile_image"]
ApprovalStatusFilter = Literal["pending", "approved", "rejected", "all"]


class ApprovalUserOut(BaseModel):
    userid: int
    email: str
    username: str
    platform_username: str | None
    profile_img: str | None
    is_active: bool
    user_active: bool
    is_deleted: bool


class ApprovalItemOut(BaseModel):
    id: int
    kind: UserApprovalKind
    status: Literal["pending", "approved", "rejected"]
    userid: int | None
    user: ApprovalUserOut | None
    pending: dict[str, Any] = Field(description="The proposed values, by field")
    current: dict[str, Any] = Field(description="The account's values of the same fields today")
    created_at: UtcDateTime
    reviewed_at: UtcDateTime | None
    reviewed_by: int | None
    review_note: str | None


class ApprovalItemsAnswer(BaseModel):
    data: list[ApprovalItemOut]
    total_items: int
    limit: int
    offset: int


class ApprovalDecision(BaseModel):
    id: DbId
    action: Literal["approve", "reject"]
    review_note: str | None = Field(default=None, max_length=1000, description="Mailed to the user with the decision")


class ApprovalDecisionAnswer(BaseModel):
    message: str
    data: ApprovalItemOut


# ------------------------------------------------------------------------- admin: usage and stats


class ActivityCodeCount(BaseModel):
    activity_code: str
    count: int


class ApiStatisticTotals(BaseModel):
    sessions: int = Field(description="Sessions started (POST /v2/sessions/ and sign-ins)")
    user_sessions: int
    guest_sessions: int
    active_users: int = Field(description="Distinct accounts that recorded at least one activity")
    activities: int = Field(description="Session activities recorded")


class ApiStatisticDay(ApiStatisticTotals):
    date: str = Field(description="The UTC day, YYYY-MM-DD")
    by_code: dict[str, int] = Field(description="Activities of the day per activity_code")


class ApiStatistic(BaseModel):
    date_from: date
    date_to: date
    totals: ApiStatisticTotals
    activity_codes: list[ActivityCodeCount] = Field(description="Activities per code over the range, most first")
    days: list[ApiStatisticDay] = Field(description="Every day of the range, oldest first, zeros included")


class ApiStatisticAnswer(BaseModel):
    data: ApiStatistic


class UserStats(BaseModel):
    total: int = Field(description="Accounts not deleted")
    active: int
    drafted: int
    blocked: int
    deleted: int
    creators: int = Field(description="Accounts with an active creator profile")
    potential_creators: int
    admins: int
    content_managers: int
    beta_testers: int
    new_last_7_days: int
    new_last_30_days: int
    daily: DailySeries = Field(description="Accounts created per UTC day of the asked range")


class UserStatsAnswer(BaseModel):
    data: UserStats


# ------------------------------------------------------------------------ admin: account settings


class AdminUserSettingsOut(BaseModel):
    userid: int
    is_admin: bool
    roles: list[str]
    trusted: bool
    potential_creator: bool
    is_active: bool = Field(description="Read only here: drafting goes through admin-user-activate-deactivate")
    user_active: bool = Field(description="False blocks the account")
    editing_creator_pending: bool
    profile_edit_pending: bool
    tour_edit_pending: bool


class AdminUserSettingsUpdate(BaseModel):
    """What an admin changes on an account; absent fields stay as they are."""

    userid: DbId
    is_admin: bool | None = None
    roles: list[str] | None = Field(default=None, max_length=10, description='Known roles: "CM"')
    trusted: bool | None = None
    potential_creator: bool | None = None
    user_active: bool | None = None
    editing_creator_pending: bool | None = None
    profile_edit_pending: bool | None = None
    tour_edit_pending: bool | None = None


class AdminUserSettingsAnswer(BaseModel):
    message: str = ""
    data: AdminUserSettingsOut


# ------------------------------------------------------------------------------------ beta testers

CreatesTours = Literal["yes", "no", "planning"]
TourCount = Literal["none", "1-10", "11-50", "51-200", "more than 200"]
BetaText = Annotated[str, Field(max_length=1000)]


class BetaTesterAnswers(BaseModel):
    """The questionnaire's 9 questions (spec §3); every one is required except `camera`."""

    creates_tours: CreatesTours | None = Field(default=None, description="Do you create virtual tours?")
    camera: BetaText | None = Field(default=None, description="Which camera or capture device do you use? (optional)")
    industry: BetaText | None = Field(default=None, description="Which industry do you work in?")
    tour_count: TourCount | None = Field(default=None, description="How many tours have you published?")
    hosting_platforms: BetaText | None = Field(default=None, description="Where are your tours hosted?")
    use_case: BetaText | None = Field(default=None, description="What would you use TourAtlas for?")
    country: BetaText | None = Field(default=None, description="Where are you based?")
    heard_from: BetaText | None = Field(default=None, description="How did you hear about TourAtlas?")
    feedback_frequency: BetaText | None = Field(default=None, description="How often could you give us feedback?")


class BetaTesterOut(BaseModel):
    id: int
    userid: int
    email: str
    username: str
    platform_username: str | None
    answers: BetaTesterAnswers
    created_at: UtcDateTime


class BetaTesterSaved(BaseModel):
    message: str
    data: BetaTesterOut


class OwnBetaAnswers(BaseModel):
    """The caller's own answers; `data` is null before the questionnaire was answered."""

    data: BetaTesterOut | None


class BetaTestersAnswer(BaseModel):
    data: list[BetaTesterOut]
    total_items: int
    limit: int
    offset: int


# -------------------------------------------------------------------- admin: transfer, mail, images


class VtTransferBody(BaseModel):
    from_userid: DbId
    to_userid: DbId
    tours: list[str] | None = Field(
        default=None, max_length=1000, description="Tour guids to move; absent means every tour of from_userid"
    )


class VtTransferResult(BaseModel):
    transferred: int
    tours: list[str]


class VtTransferAnswer(BaseModel):
    message: str
    data: VtTransferResult


class SentMail(BaseModel):
    mail_id: int
    to_address: str


class SentMailAnswer(BaseModel):
    message: str
    data: SentMail


class BugImageAnswer(BaseModel):
    path: str
    content_type: str
    message: str


def moderation_user_out(user: User, tours_count: int) -> ModerationUserOut:
    creator = user.creator
    return ModerationUserOut(
        userid=user.id,
        email=user.email,
        username=user.username,
        first_name=user.first_name,
        last_name=user.last_name,
        platform_username=user.platform_username,
        profile_img=user.profile_img,
        creatorId=creator.id if creator is not None and creator.is_active else None,
        auth_system=user.auth_system,
        is_admin=user.is_admin,
        roles=list(user.roles or []),
        trusted=user.trusted,
        potential_creator=user.potential_creator,
        is_active=user.is_active,
        user_active=user.user_active,
        is_deleted=user.is_deleted,
        state=user.account_state,
        tours_count=tours_count,
        editing_creator_pending=user.editing_creator_pending,
        profile_edit_pending=user.profile_edit_pending,
        tour_edit_pending=user.tour_edit_pending,
        created_at=user.created_at,
        last_sign_in_at=user.last_sign_in_at,
    )


def admin_settings_out(user: User) -> AdminUserSettingsOut:
    return AdminUserSettingsOut(
        userid=user.id,
        is_admin=user.is_admin,
        roles=list(user.roles or []),
        trusted=user.trusted,
        potential_creator=user.potential_creator,
        is_active=user.is_active,
        user_active=user.user_active,
        editing_creator_pending=user.editing_creator_pending,
        profile_edit_pending=user.profile_edit_pending,
        tour_edit_pending=user.tour_edit_pending,
    )


def approval_user_out(user: User) -> ApprovalUserOut:
    return ApprovalUserOut(
        userid=user.id,
        email=user.email,
        username=user.username,
        platform_username=user.platform_username,
        profile_img=user.profile_img,
        is_active=user.is_active,
        user_active=user.user_active,
        is_deleted=user.is_deleted,
    )


def beta_tester_out(row: BetaTesterAnswer, user: User) -> BetaTesterOut:
    return BetaTesterOut(
        id=row.id,
        userid=user.id,
        email=user.email,
        username=user.username,
        platform_username=user.platform_username,
        answers=BetaTesterAnswers.model_validate(row.answers or {}),
        created_at=row.created_at,
    )
