"""Sign-in, sign-up, tokens, sessions and password reset (spec §4 "Guest to signed in", §7 Auth).

Tokens are JWTs (app/core/security.py) whose claims carry the user id, is_admin, roles, the creator
id and the account's token_version; bumping the version (drafting, deleting, a password reset)
revokes every token of the account at once.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import IntEnum
from functools import lru_cache

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.auth.schemas import OneClickSignUpBody, SignInBody, SignUpBody
from app.auth.social import SocialIdentity, verify_social_token
from app.core.db import utcnow
from app.core.errors import BadRequest, NotFound, Unauthorized
from app.core.security import (
    InvalidToken,
    TokenClaims,
    decode_token,
    hash_password,
    issue_guest_token,
    issue_user_token,
    verify_password,
)
from app.core.settings import get_settings
from app.notifications.mailer import queue_mail
from app.users import service as users
from app.users import validation as rules
from app.users.models import AuthSystem, Guest, PasswordResetToken, SessionActivity, User, UserSession

WRONG_CREDENTIALS = "Incorrect email or password"
NO_SOCIAL_ACCOUNT = "No account is linked to this sign-in. Please sign up first."
INVALID_RESET_LINK = "This reset link is invalid or has expired"
RESET_MAIL_SENT = "If an account exists for this email, we have sent a link to reset its password."
SOCIAL_HAS_NO_PASSWORD = "Accounts that sign in with Google or Facebook have no password here"
SESSION_EXPIRED = "Your session has expired. Please sign in again."
_GUEST_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")

# Activities the server records itself, and the ones a client may record (spec §4, §7 sessions).
SIGN_IN, SIGN_OUT, SIGN_UP = "Sign in", "Sign out", "Sign up"
CLIENT_ACTIVITY_CODES = frozenset({"Creator Profile", "Follow", "Unfollow", "Save", "Undo save"})


class SignUpStatus(IntEnum):
    """Spec §4: sign-up succeeds with 200, 201 or 207."""

    existing_account = 200  # a social identity that already has an account: signed in, nothing created
    created = 201
    created_without_guest_history = 207  # created, but the guest token was unusable: its history stays behind


@dataclass(frozen=True)
class SignedIn:
    user: User
    token: str
    session_id: int | None


@dataclass(frozen=True)
class SignUpResult:
    status: SignUpStatus
    signed_in: SignedIn


@dataclass(frozen=True)
class ClientInfo:
    ip: str | None
    user_agent: str | None


# ------------------------------------------------------------------------------------------ tokens


def creator_id_of(user: User) -> int | None:
    return user.creator.id if user.creator is not None and user.creator.is_active else None


def token_for(user: User) -> str:
    return issue_user_token(
        user_id=user.id,
        is_admin=user.is_admin,
        roles=list(user.roles or []),
        creator_id=creator_id_of(user),
        token_version=user.token_version,
    )


def _as_utc(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes; every stored time is UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def renew_user_token(session: Session, *, userid: int, prior_token: str) -> str:
    """update-token: a fresh token for the holder of a prior (possibly expired) token of this user,
    as long as the account is usable and the token was not revoked."""
    try:
        claims = decode_token(prior_token, verify_exp=False)
    except InvalidToken as exc:
        raise Unauthorized("Invalid or expired token") from exc
    if claims.user_id is None or claims.user_id != userid:
        raise Unauthorized("Invalid or expired token")
    issued = datetime.fromtimestamp(claims.iat, tz=UTC)
    if utcnow() - issued > timedelta(days=get_settings().token_renewal_days):
        raise Unauthorized(SESSION_EXPIRED)
    user = session.get(User, userid)
    if user is None or user.is_deleted:
        raise Unauthorized(users.ACCOUNT_DELETED)
    if claims.ver != user.token_version or not user.is_active or not user.user_active:
        raise Unauthorized(users.ACCOUNT_DEACTIVATED)
    return token_for(user)


def guest_token(session: Session, *, guest_id: str | None, prior_token: str | None) -> tuple[str, str]:
    """guest-token: keep the browser's guest id (from the body or the prior guest token), or make one."""
    guest_id = guest_id or _guest_id_from(prior_token) or uuid.uuid4().hex
    if not _GUEST_ID.match(guest_id):
        raise BadRequest("Invalid guest id", fields={"guest_id": "Invalid guest id"})
    guest = session.scalar(select(Guest).where(Guest.guest_id == guest_id))
    now = utcnow()
    if guest is None:
        session.add(Guest(guest_id=guest_id, created_at=now, last_seen_at=now))
    else:
        guest.last_seen_at = now
    session.flush()
    return issue_guest_token(guest_id), guest_id


def _guest_id_from(prior_token: str | None) -> str | None:
    if not prior_token:
        return None
    try:
        claims = decode_token(prior_token, verify_exp=False)
    except InvalidToken:
        return None
    return claims.guest_id if claims.kind == "guest" else None


# ----------------------------------------------------------------------------------------- sign-in


@lru_cache
def _decoy_hash() -> str:
    return hash_password(secrets.token_urlsafe(16))


def sign_in(session: Session, body: SignInBody, client: ClientInfo) -> SignedIn:
    if body.auth_system == AuthSystem.email:
        user = _password_account(session, body.email, body.password)
    else:
        identity = verify_social_token(body.auth_system, body.provider_token)
        _check_claimed_subject(body.user_system_id, identity)
        found = users.find_by_social_identity(session, identity.auth_system, identity.subject)
        if found is None:
            raise NotFound(NO_SOCIAL_ACCOUNT)
        user = found
    # The state is told only to whoever proved they own the account.
    users.refuse_unusable_account(user)
    return _open_session(session, user, SIGN_IN, client)


def _password_account(session: Session, email: str | None, password: str | None) -> User:
    rules.raise_for_fields(
        {"email": None if email else rules.REQUIRED, "password": None if password else rules.REQUIRED}
    )
    assert email is not None and password is not None
    user = users.find_by_email(session, email)
    if user is None or user.auth_system != AuthSystem.email:
        verify_password(_decoy_hash(), password)  # same work either way: timing tells nothing
        raise BadRequest(WRONG_CREDENTIALS)
    if not verify_password(user.password_hash, password):
        raise BadRequest(WRONG_CREDENTIALS)
    return user


def _check_claimed_subject(claimed: str | None, identity: SocialIdentity) -> None:
    if claimed and claimed != identity.subject:
        raise BadRequest("The sign-in does not match this account", fields={"user_system_id": "Does not match"})


def _open_session(session: Session, user: User, activity: str, client: ClientInfo) -> SignedIn:
    user.last_sign_in_at = utcnow()
    opened = start_session(session, user_id=user.id, guest_id=None, client=client)
    record_activity(session, user_id=user.id, code=activity, session_id=opened.id)
    return SignedIn(user=user, token=token_for(user), session_id=opened.id)


# ----------------------------------------------------------------------------------------- sign-up


def sign_up(session: Session, body: SignUpBody, client: ClientInfo) -> SignUpResult:
    if body.auth_system == AuthSystem.email:
        account = _email_account(session, body)
    else:
        identity = verify_social_token(body.auth_system, body.provider_token)
        _check_claimed_subject(body.user_system_id, identity)
        existing = users.find_by_social_identity(session, identity.auth_system, identity.subject)
        if existing is not None:
            return _existing_social_account(session, existing, client)
        account = _social_account(session, body, identity)
    return _create(session, account, body.token, client)


def sign_up_one_click(session: Session, body: OneClickSignUpBody, client: ClientInfo) -> SignUpResult:
    if body.auth_system == AuthSystem.email:
        raise BadRequest("One-click sign-up needs Google or Facebook", fields={"auth_system": "Choose a provider"})
    identity = verify_social_token(body.auth_system, body.provider_token)
    existing = users.find_by_social_identity(session, identity.auth_system, identity.subject)
    if existing is not None:
        return _existing_social_account(session, existing, client)
    email = _social_email(identity, None)
    username = body.platform_username or users.suggest_platform_username(
        session, email, f"{identity.first_name}.{identity.last_name}"
    )
    first_name = identity.first_name or email.split("@")[0]
    rules.raise_for_fields({"platform_username": rules.check_platform_username_format(username)})
    rules.raise_if_taken(session, email=email, username=username)
    account = users.NewAccount(
        email=email,
        first_name=first_name[: rules.NAME_MAX],
        last_name=identity.last_name[: rules.NAME_MAX],
        auth_system=identity.auth_system,
        platform_username=username,
        user_system_id=identity.subject,
        consent_emails=body.consent_emails,
    )
    return _create(session, account, body.token, client)


def _names(body: SignUpBody) -> tuple[str, str]:
    if body.first_name is not None or body.last_name is not None:
        return (body.first_name or "").strip(), (body.last_name or "").strip()
    first, _, last = (body.username or "").strip().partition(" ")
    return first, last.strip()


def _email_account(session: Session, body: SignUpBody) -> users.NewAccount:
    first_name, last_name = _names(body)
    rules.raise_for_fields(
        {
            "email": rules.check_email_format(body.email),
            "password": rules.check_password(body.password),
            "repeat_password": rules.check_passwords_match(body.password, body.repeat_password),
            "first_name": rules.check_name(first_name, rules.INVALID_FIRST_NAME),
            "last_name": rules.check_name(last_name, rules.INVALID_LAST_NAME),
            "phone_number": rules.check_phone(body.phone_number),
            "platform_username": rules.check_platform_username_format(body.platform_username),
        }
    )
    assert body.email is not None and body.platform_username is not None
    rules.raise_if_taken(session, email=body.email, username=body.platform_username)
    return users.NewAccount(
        email=rules.normalise_email(body.email),
        first_name=first_name,
        last_name=last_name,
        auth_system=AuthSystem.email,
        platform_username=body.platform_username,
        password=body.password,
        phone=body.phone_number or None,
        consent_emails=body.consent_emails,
    )


def _social_email(identity: SocialIdentity, typed_email: str | None) -> str:
    """The provider's email wins (spec §5: not editable for social accounts); a Facebook account
    without one must type it."""
    email = identity.email or typed_email
    rules.raise_for_fields({"email": rules.check_email_format(email)})
    assert email is not None
    return rules.normalise_email(email)


def _social_account(session: Session, body: SignUpBody, identity: SocialIdentity) -> users.NewAccount:
    typed_first, typed_last = _names(body)
    first_name, last_name = typed_first or identity.first_name, typed_last or identity.last_name
    email = _social_email(identity, body.email)
    rules.raise_for_fields(
        {
            "first_name": rules.check_name(first_name, rules.INVALID_FIRST_NAME),
            "last_name": rules.check_name(last_name, rules.INVALID_LAST_NAME),
            "phone_number": rules.check_phone(body.phone_number),
            "platform_username": rules.check_platform_username_format(body.platform_username),
        }
    )
    assert body.platform_username is not None
    rules.raise_if_taken(session, email=email, username=body.platform_username)
    return users.NewAccount(
        email=email,
        first_name=first_name,
        last_name=last_name,
        auth_system=identity.auth_system,
        platform_username=body.platform_username,
        phone=body.phone_number or None,
        user_system_id=identity.subject,
        consent_emails=body.consent_emails,
    )


def _existing_social_account(session: Session, user: User, client: ClientInfo) -> SignUpResult:
    users.refuse_unusable_account(user)
    return SignUpResult(SignUpStatus.existing_account, _open_session(session, user, SIGN_IN, client))


def _create(
    session: Session, account: users.NewAccount, guest_token_value: str | None, client: ClientInfo
) -> SignUpResult:
    user = users.create_user(session, account)
    kept_history = _adopt_guest_history(session, user, guest_token_value)
    status = SignUpStatus.created if kept_history else SignUpStatus.created_without_guest_history
    return SignUpResult(status, _open_session(session, user, SIGN_UP, client))


def _adopt_guest_history(session: Session, user: User, guest_token_value: str | None) -> bool:
    """The guest's sessions and activities become the new user's. False when a guest token was sent
    but is unusable (207); no token at all is fine."""
    if not guest_token_value:
        return True
    guest_id = _guest_id_from(guest_token_value)
    if guest_id is None:
        return False
    session_ids = select(UserSession.id).where(UserSession.guest_id == guest_id, UserSession.user_id.is_(None))
    session.execute(
        update(SessionActivity)
        .where(SessionActivity.session_id.in_(session_ids), SessionActivity.userid.is_(None))
        .values(userid=user.id)
    )
    session.execute(
        update(UserSession)
        .where(UserSession.guest_id == guest_id, UserSession.user_id.is_(None))
        .values(user_id=user.id)
    )
    return True


# ---------------------------------------------------------------------------------------- sessions


def start_session(session: Session, *, user_id: int | None, guest_id: str | None, client: ClientInfo) -> UserSession:
    opened = UserSession(
        user_id=user_id,
        guest_id=guest_id,
        started_at=utcnow(),
        ip=client.ip,
        user_agent=(client.user_agent or "")[:512] or None,
    )
    session.add(opened)
    session.flush()
    return opened


def record_activity(
    session: Session,
    *,
    user_id: int | None,
    code: str,
    text: str | None = None,
    owner_id: str | None = None,
    session_id: int | None = None,
) -> SessionActivity:
    activity = SessionActivity(
        session_id=session_id,
        userid=user_id,
        activity_code=code,
        activity_text=text,
        owner_id=owner_id,
        created_at=utcnow(),
    )
    session.add(activity)
    session.flush()
    return activity


def record_client_activity(
    session: Session,
    *,
    caller: TokenClaims,
    body_userid: int | None,
    code: str,
    text: str | None,
    owner_id: str | None,
    session_id: int | None,
) -> SessionActivity:
    """POST session-activities: what the client reports (spec §7 codes Creator Profile, Follow, Unfollow)."""
    if code not in CLIENT_ACTIVITY_CODES:
        message = "Unknown activity code"
        raise BadRequest(message, fields={"activity_code": message})
    if body_userid is not None and body_userid != caller.user_id:
        raise BadRequest("userid must be the signed-in user", fields={"userid": "Not the signed-in user"})
    if session_id is not None and not _owns_session(session, caller, session_id):
        session_id = None  # a stale or foreign session id: keep the activity, drop the link
    return record_activity(
        session, user_id=caller.user_id, code=code, text=text, owner_id=owner_id, session_id=session_id
    )


def _owns_session(session: Session, caller: TokenClaims, session_id: int) -> bool:
    row = session.get(UserSession, session_id)
    if row is None:
        return False
    return row.user_id == caller.user_id if caller.user_id is not None else row.guest_id == caller.guest_id


def sign_out(session: Session, user: User, session_id: int | None) -> None:
    """Ends the given session (or the user's latest open one) and records 'Sign out'."""
    statement = select(UserSession).where(UserSession.user_id == user.id, UserSession.ended_at.is_(None))
    if session_id is not None:
        statement = statement.where(UserSession.id == session_id)
    opened = session.scalar(statement.order_by(UserSession.started_at.desc(), UserSession.id.desc()).limit(1))
    if opened is not None:
        opened.ended_at = utcnow()
    record_activity(session, user_id=user.id, code=SIGN_OUT, session_id=opened.id if opened else None)


# ---------------------------------------------------------------------------------- password reset


def _hash_reset_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def request_password_reset(session: Session, email: str) -> None:
    """Mail a single-use, expiring link to /resetpassword. Says nothing about whether the account
    exists: the answer is the same either way."""
    user = users.find_by_email(session, email) if rules.check_email_format(email) is None else None
    if user is None or user.auth_system != AuthSystem.email or user.is_deleted:
        return
    token = secrets.token_urlsafe(32)
    settings = get_settings()
    session.add(
        PasswordResetToken(
            user_id=user.id,
            token_hash=_hash_reset_token(token),
            expires_at=utcnow() + timedelta(minutes=settings.password_reset_ttl_minutes),
            created_at=utcnow(),
        )
    )
    link = f"{settings.public_url.rstrip('/')}/resetpassword?token={token}"
    queue_mail(
        session,
        to_address=user.email,
        subject="Reset your TourAtlas password",
        body_text=_reset_mail_text(user, link, settings.password_reset_ttl_minutes),
        template="reset_password",
    )


def _reset_mail_text(user: User, link: str, ttl_minutes: int) -> str:
    return (
        f"Hello {user.first_name or user.platform_username},\n\n"
        "Someone asked to reset the password of your TourAtlas account. "
        f"Open this link within {ttl_minutes} minutes to choose a new one:\n\n{link}\n\n"
        "The link works once. If you did not ask for it, ignore this mail: your password stays as it is.\n"
    )


def usable_reset_token(session: Session, token: str) -> tuple[PasswordResetToken, User]:
    row = session.scalar(select(PasswordResetToken).where(PasswordResetToken.token_hash == _hash_reset_token(token)))
    if row is None or row.used_at is not None or _as_utc(row.expires_at) <= utcnow():
        raise BadRequest(INVALID_RESET_LINK, fields={"token": INVALID_RESET_LINK})
    user = session.get(User, row.user_id)
    if user is None or user.is_deleted:
        raise BadRequest(INVALID_RESET_LINK, fields={"token": INVALID_RESET_LINK})
    return row, user


def reset_password(session: Session, *, token: str, password: str | None, repeat_password: str | None) -> User:
    """Set a new password from a reset link. The link (and every other open link of the account)
    is spent, and every token of the account is revoked: whoever had access is signed out."""
    _row, user = usable_reset_token(session, token)
    _check_new_password(password, repeat_password)
    assert password is not None
    now = utcnow()
    session.execute(
        update(PasswordResetToken)
        .where(PasswordResetToken.user_id == user.id, PasswordResetToken.used_at.is_(None))
        .values(used_at=now)
    )
    user.password_hash = hash_password(password)
    user.token_version += 1
    session.flush()
    return user


def change_password(
    session: Session, *, user: User, old_password: str | None, password: str | None, repeat_password: str | None
) -> str:
    """A signed-in password change; returns a fresh token, since every older one is revoked."""
    if user.auth_system != AuthSystem.email:
        raise BadRequest(SOCIAL_HAS_NO_PASSWORD)
    rules.raise_for_fields({"old_password": None if old_password else rules.REQUIRED})
    assert old_password is not None
    if not verify_password(user.password_hash, old_password):
        raise BadRequest("The current password is wrong", fields={"old_password": "The current password is wrong"})
    _check_new_password(password, repeat_password)
    assert password is not None
    user.password_hash = hash_password(password)
    user.token_version += 1
    session.flush()
    return token_for(user)


def _check_new_password(password: str | None, repeat_password: str | None) -> None:
    rules.raise_for_fields(
        {
            "password": rules.check_password(password),
            "repeat_password": rules.check_passwords_match(password, repeat_password),
        }
    )
