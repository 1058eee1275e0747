"""Wire shapes of the Auth calls (spec §3 "Sign-up payload" / "Sign-in payload", §7 Auth)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from app.core.types import DbId, DbInt
from app.users.models import AuthSystem
from app.users.schemas import AuthSystemField

PROVIDER_TOKEN_HELP = "Google: the ID token (credential); Facebook: the user access token. Verified by the server."


class SignInBody(BaseModel):
    auth_system: AuthSystemField = AuthSystem.email
    email: str | None = Field(default=None, max_length=320)
    password: str | None = Field(default=None, max_length=128)
    user_system_id: str | None = Field(default=None, max_length=255)
    provider_token: str | None = Field(default=None, max_length=8192, description=PROVIDER_TOKEN_HELP)


class SignUpBody(BaseModel):
    auth_system: AuthSystemField = AuthSystem.email
    email: str | None = Field(default=None, max_length=320)
    password: str | None = Field(default=None, max_length=128)
    repeat_password: str | None = Field(default=None, max_length=128)
    phone_number: str | None = Field(default=None, max_length=64)
    platform_username: str | None = Field(default=None, max_length=64)
    username: str | None = Field(default=None, max_length=201, description="First and last name, space-separated.")
    first_name: str | None = Field(default=None, max_length=200)
    last_name: str | None = Field(default=None, max_length=200)
    consent_emails: bool = False
    token: str | None = Field(default=None, max_length=4096, description="The guest token, to keep its history.")
    user_system_id: str | None = Field(default=None, max_length=255)
    provider_token: str | None = Field(default=None, max_length=8192, description=PROVIDER_TOKEN_HELP)


class OneClickSignUpBody(BaseModel):
    auth_system: AuthSystemField
    provider_token: str = Field(max_length=8192, description=PROVIDER_TOKEN_HELP)
    platform_username: str | None = Field(default=None, max_length=64, description="Derived from the email if absent.")
    consent_emails: bool = False
    token: str | None = Field(default=None, max_length=4096, description="The guest token, to keep its history.")


class AuthAnswer(BaseModel):
    """Sign-in and sign-up answers. Store user_jwt (when present), userid and creatorId."""

    message: str
    userid: int
    user_jwt: str | None
    creatorId: int | None  # noqa: N815 - wire name
    is_admin: bool
    roles: list[str]
    session_id: int | None = None


class GuestTokenBody(BaseModel):
    guest_id: str | None = Field(default=None, max_length=64)
    prior_token: str | None = Field(default=None, max_length=4096)


class GuestTokenAnswer(BaseModel):
    user_jwt: str
    guest_id: str


class UpdateTokenBody(BaseModel):
    userid: DbId
    prior_token: str = Field(max_length=4096)


class TokenAnswer(BaseModel):
    user_jwt: str


class SignOutBody(BaseModel):
    session_id: DbId | None = None


class ResetRequestBody(BaseModel):
    email: str = Field(max_length=320)


class ResetTokenAnswer(BaseModel):
    valid: bool
    email: str


class ChangePasswordBody(BaseModel):
    """With `token` (from the reset mail) no sign-in is needed; without it the caller must be signed
    in and give `old_password`."""

    token: str | None = Field(default=None, max_length=256)
    old_password: str | None = Field(default=None, max_length=128)
    password: str | None = Field(default=None, max_length=128)
    repeat_password: str | None = Field(default=None, max_length=128)


class ChangePasswordAnswer(BaseModel):
    message: str
    user_jwt: str | None = None


class SessionBody(BaseModel):
    guest_id: str | None = Field(default=None, max_length=64)


class SessionAnswer(BaseModel):
    session_id: int


class ActivityBody(BaseModel):
    userid: DbId | None = None
    activity_code: str = Field(min_length=1, max_length=64)
    activity_text: str | None = Field(default=None, max_length=1000)
    owner_id: str | DbInt | None = None
    session_id: DbId | None = None


class ActivityAnswer(BaseModel):
    id: int
    activity_code: str


class MessageAnswer(BaseModel):
    message: str
