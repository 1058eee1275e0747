"""Spec §5 "Account": the server's own checks of account fields, with the messages users read.

Each `check_*` returns the message of the first rule a value breaks, or None when it passes, so a
form can collect every failing field at once (`raise_for_fields`).
"""

from __future__ import annotations

import re

from better_profanity import profanity  # type: ignore[import-untyped]
from email_validator import EmailNotValidError, validate_email
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.errors import BadRequest, Conflict
from app.users.models import User

REQUIRED = "This field is required"
INVALID_EMAIL = "Invalid email"
EMAIL_TAKEN = "This email is already taken"
PASSWORD_LENGTH = "Password must be 6 to 16 characters long"
PASSWORD_SYMBOLS = "Input correct symbols"
PASSWORD_STRENGTH = "Password must contain at least one digit, one Latin letter and one of !@#$%^&*"
PASSWORDS_DIFFER = "Passwords do not match"
PHONE_DIGITS = "Phone number must contain digits only"
INVALID_FIRST_NAME = "Invalid first name"
INVALID_LAST_NAME = "Invalid last name"
USERNAME_TOO_SHORT = "Username is too short"
USERNAME_TOO_LONG = "Username is too long"
USERNAME_CHARACTERS = "Username may contain only Latin letters, digits, periods, underscores and hyphens"
USERNAME_PROFANITY = "Username must not contain inappropriate words"
USERNAME_TAKEN = "This username is already taken"
EMAIL_NOT_EDITABLE = "Email cannot be changed for accounts that sign in with Google or Facebook"

PASSWORD_MIN, PASSWORD_MAX = 6, 16
USERNAME_MIN, USERNAME_MAX = 5, 25
# Spec §9 "Username check starts above 4 characters": shorter names are not looked up at all.
USERNAME_CHECK_FROM = 5
PHONE_MAX_DIGITS = 20
NAME_MAX = 100

PASSWORD_SPECIALS = "!@#$%^&*"
_PASSWORD_ALPHABET = re.compile(r"^[A-Za-z0-9!@#$%^&*]+$")
_USERNAME_ALPHABET = re.compile(r"^[A-Za-z0-9._-]+$")
# Letters of any script, joined by single spaces, hyphens, apostrophes or periods ("Anne-Marie", "O'Neil").
_NAME = re.compile(r"^[^\W\d_]+(?:[ '.\-][^\W\d_]+)*\.?$")


def normalise_email(email: str) -> str:
    return email.strip().lower()


def check_email_format(email: str | None) -> str | None:
    if not email or not email.strip():
        return REQUIRED
    try:
        validate_email(email.strip(), check_deliverability=False)
    except EmailNotValidError:
        return INVALID_EMAIL
    return None


def check_password(password: str | None) -> str | None:
    if not password:
        return REQUIRED
    if not _PASSWORD_ALPHABET.match(password):
        return PASSWORD_SYMBOLS
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        return PASSWORD_LENGTH
    has_digit = any(char.isdigit() for char in password)
    has_letter = any(char.isalpha() for char in password)
    has_special = any(char in PASSWORD_SPECIALS for char in password)
    if not (has_digit and has_letter and has_special):
        return PASSWORD_STRENGTH
    return None


def check_passwords_match(password: str | None, repeat_password: str | None) -> str | None:
    if repeat_password is None:
        return None  # the form did not send a repeat field (e.g. one-click sign-up)
    return None if password == repeat_password else PASSWORDS_DIFFER


def check_phone(phone: str | None) -> str | None:
    if not phone:
        return None  # optional (spec §3: for SMS notifications)
    if not phone.isascii() or not phone.isdigit() or len(phone) > PHONE_MAX_DIGITS:
        return PHONE_DIGITS
    return None


def check_name(name: str | None, message: str) -> str | None:
    if not name or not name.strip():
        return REQUIRED
    stripped = name.strip()
    if len(stripped) > NAME_MAX or not _NAME.match(stripped) or profanity.contains_profanity(stripped):
        return message
    return None


def has_profanity(text: str) -> bool:
    # The word list matches whole words; separators a username may use are read as word breaks.
    return bool(profanity.contains_profanity(re.sub(r"[._-]+", " ", text)))


def check_platform_username_format(username: str | None) -> str | None:
    if not username:
        return REQUIRED
    if len(username) < USERNAME_MIN:
        return USERNAME_TOO_SHORT
    if len(username) > USERNAME_MAX:
        return USERNAME_TOO_LONG
    if not _USERNAME_ALPHABET.match(username):
        return USERNAME_CHARACTERS
    if has_profanity(username):
        return USERNAME_PROFANITY
    return None


def platform_username_taken(session: Session, username: str, *, current: str | None = None) -> bool:
    """Spec §5: looked up only above 4 characters and, when editing, only if it differs from the
    current name. Case-insensitive, so "Anna.Tours" cannot pose as "anna.tours"."""
    if len(username) < USERNAME_CHECK_FROM:
        return False
    if current is not None and username.lower() == current.lower():
        return False
    statement = select(User.id).where(func.lower(User.platform_username) == username.lower()).limit(1)
    return session.scalar(statement) is not None


def email_taken(session: Session, email: str, *, current_user_id: int | None = None) -> bool:
    statement = select(User.id).where(User.email == normalise_email(email))
    if current_user_id is not None:
        statement = statement.where(User.id != current_user_id)
    return session.scalar(statement.limit(1)) is not None


def raise_for_fields(failures: dict[str, str | None]) -> None:
    """400 naming every failing field; the message is the first failure, as the form shows it."""
    fields = {field: message for field, message in failures.items() if message}
    if fields:
        raise BadRequest(next(iter(fields.values())), fields=fields)


def raise_if_taken(session: Session, *, email: str | None, username: str | None, user: User | None = None) -> None:
    """409 (spec §8 account save: the server's message) when the email or platform username belongs
    to another account."""
    fields: dict[str, str] = {}
    if email and email_taken(session, email, current_user_id=user.id if user else None):
        fields["email"] = EMAIL_TAKEN
    current_username = user.platform_username if user else None
    if username and platform_username_taken(session, username, current=current_username):
        fields["platform_username"] = USERNAME_TAKEN
    if fields:
        raise Conflict(next(iter(fields.values())), fields=fields)
