"""Spec §7 Auth: sign-up, sign-in, tokens, sign-out, sessions and activities, password reset and the
abuse limits (spec §4 "Guest to signed in", §5 "Account", §8)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.core.db import utcnow
from app.core.security import decode_token, issue_guest_token
from app.core.settings import get_settings
from app.notifications.models import OutgoingMail
from app.users.models import PasswordResetToken, SessionActivity, User, UserSession
from tests import factories

PASSWORD = "Secret1!"


@pytest.fixture(autouse=True)
def fresh_limits() -> Iterator[None]:
    reset_rate_limits()
    yield
    reset_rate_limits()


def sign_up_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "auth_system": "Email",
        "email": "ada@example.com",
        "password": PASSWORD,
        "repeat_password": PASSWORD,
        "first_name": "Ada",
        "last_name": "Lovelace",
        "platform_username": "ada.lovelace",
        "phone_number": "4915112345678",
        "consent_emails": True,
    }
    return {**body, **overrides}


def sign_in(client: TestClient, email: str, password: str = PASSWORD) -> Any:
    return client.post("/v2/users/sign-in", json={"auth_system": "Email", "email": email, "password": password})


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# ----------------------------------------------------------------------------------------- sign-up


def test_sign_up_creates_a_signed_in_account_with_a_hashed_password(client: TestClient, db: Session) -> None:
    response = client.post("/v2/users/sign-up", json=sign_up_body())
    assert response.status_code == 201
    body = response.json()
    assert body["message"] == "Account created" and body["creatorId"] is None and body["is_admin"] is False
    claims = decode_token(body["user_jwt"])
    assert claims.user_id == body["userid"] and claims.is_admin is False and claims.roles == []
    user = db.get(User, body["userid"])
    assert user is not None and user.email == "ada@example.com" and user.platform_username == "ada.lovelace"
    assert user.password_hash and user.password_hash.startswith("$argon2id$") and PASSWORD not in user.password_hash
    assert user.phone == "4915112345678" and user.consent_emails is True
    activity = db.scalars(select(SessionActivity).where(SessionActivity.userid == user.id)).one()
    assert activity.activity_code == "Sign up" and activity.session_id == body["session_id"]


def test_post_users_creates_an_account_without_a_token(client: TestClient) -> None:
    response = client.post("/v2/users", json=sign_up_body(email="grace@example.com", platform_username="grace.h"))
    assert response.status_code == 201 and response.json()["user_jwt"]


def test_sign_up_keeps_the_guest_history(client: TestClient, db: Session) -> None:
    guest = client.post("/v2/users/guest-token", json={"guest_id": "guest-abc"}).json()
    started = client.post("/v2/sessions/", headers=bearer(guest["user_jwt"])).json()
    client.post(
        "/v2/sessions/session-activities",
        json={"activity_code": "Creator Profile", "owner_id": 7, "session_id": started["session_id"]},
        headers=bearer(guest["user_jwt"]),
    )
    response = client.post("/v2/users/sign-up", json=sign_up_body(token=guest["user_jwt"]))
    assert response.status_code == 201
    userid = response.json()["userid"]
    guest_session = db.get(UserSession, started["session_id"])
    assert guest_session is not None and guest_session.user_id == userid
    codes = set(db.scalars(select(SessionActivity.activity_code).where(SessionActivity.userid == userid)))
    assert codes == {"Creator Profile", "Sign up"}


def test_sign_up_with_an_unusable_guest_token_is_207(client: TestClient) -> None:
    response = client.post("/v2/users/sign-up", json=sign_up_body(token="not-a-token"))
    assert response.status_code == 207
    assert response.json()["user_jwt"] and "guest history" in response.json()["message"]


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"email": "not-an-email"}, "email", "Invalid email"),
        ({"password": "Ab1!"}, "password", "Password must be 6 to 16 characters long"),
        ({"password": "Abcdefgh1!Abcdefgh1!"}, "password", "Password must be 6 to 16 characters long"),
        (
            {"password": "abcdef1"},
            "password",
            "Password must contain at least one digit, one Latin letter and one of !@#$%^&*",
        ),
        ({"password": "Secret1!é"}, "password", "Input correct symbols"),
        ({"password": "Secret 1!"}, "password", "Input correct symbols"),
        ({"repeat_password": "Secret2!"}, "repeat_password", "Passwords do not match"),
        ({"phone_number": "+49 151"}, "phone_number", "Phone number must contain digits only"),
        ({"first_name": "Ada99"}, "first_name", "Invalid first name"),
        ({"last_name": ""}, "last_name", "This field is required"),
        ({"platform_username": "abcd"}, "platform_username", "Username is too short"),
        ({"platform_username": "a" * 26}, "platform_username", "Username is too long"),
        (
            {"platform_username": "ada lovelace"},
            "platform_username",
            "Username may contain only Latin letters, digits, periods, underscores and hyphens",
        ),
        ({"platform_username": "shit_happens"}, "platform_username", "Username must not contain inappropriate words"),
        ({"platform_username": None}, "platform_username", "This field is required"),
    ],
)
def test_sign_up_validation_is_400_with_the_spec_messages(
    client: TestClient, overrides: dict[str, Any], field: str, message: str
) -> None:
    response = client.post("/v2/users/sign-up", json=sign_up_body(**overrides))
    assert response.status_code == 400
    assert response.json()["fields"][field] == message


def test_sign_up_accepts_the_username_as_first_and_last_name(client: TestClient, db: Session) -> None:
    body = sign_up_body(username="Anne-Marie O'Neil")
    del body["first_name"], body["last_name"]
    response = client.post("/v2/users/sign-up", json=body)
    assert response.status_code == 201
    user = db.get(User, response.json()["userid"])
    assert user is not None and (user.first_name, user.last_name) == ("Anne-Marie", "O'Neil")


def test_sign_up_refuses_a_taken_email_or_username_with_409(client: TestClient, db: Session) -> None:
    factories.user(db, email="ada@example.com", platform_username="Ada.Lovelace")
    db.commit()
    taken_email = client.post("/v2/users/sign-up", json=sign_up_body(platform_username="someone.else"))
    assert taken_email.status_code == 409
    assert taken_email.json()["fields"] == {"email": "This email is already taken"}
    # Usernames are unique whatever their case.
    taken_name = client.post("/v2/users/sign-up", json=sign_up_body(email="ADA2@example.com"))
    assert taken_name.status_code == 409
    assert taken_name.json()["message"] == "This username is already taken"


# ----------------------------------------------------------------------------------------- sign-in


def test_sign_in_answers_a_token_and_records_session_and_activity(client: TestClient, db: Session) -> None:
    user = factories.user(db, email="ada@example.com", roles=["CM"])
    owned = factories.creator(db, user)
    db.commit()
    response = client.post(
        "/v2/users/sign-in", json={"auth_system": "Email", "email": " ADA@example.com ", "password": PASSWORD}
    )
    assert response.status_code == 200
    body = response.json()
    assert body["userid"] == user.id and body["creatorId"] == owned.id and body["roles"] == ["CM"]
    claims = decode_token(body["user_jwt"])
    assert (claims.user_id, claims.creator_id, claims.roles, claims.is_admin) == (user.id, owned.id, ["CM"], False)
    session_row = db.get(UserSession, body["session_id"])
    assert session_row is not None and session_row.user_id == user.id and session_row.ended_at is None
    activity = db.scalars(select(SessionActivity).where(SessionActivity.session_id == body["session_id"])).one()
    assert activity.activity_code == "Sign in"


@pytest.mark.parametrize(("email", "password"), [("ada@example.com", "Wrong1!x"), ("nobody@example.com", PASSWORD)])
def test_wrong_or_unknown_credentials_are_refused(client: TestClient, db: Session, email: str, password: str) -> None:
    factories.user(db, email="ada@example.com")
    db.commit()
    response = sign_in(client, email, password)
    assert response.status_code == 400 and response.json()["message"] == "Incorrect email or password"


def test_missing_credentials_name_the_fields(client: TestClient) -> None:
    response = client.post("/v2/users/sign-in", json={"auth_system": "Email"})
    assert response.status_code == 400
    assert response.json()["fields"] == {"email": "This field is required", "password": "This field is required"}


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ({"is_deleted": True}, "User Deleted"),
        ({"is_active": False}, "This account is not active. Please write to support."),
        ({"user_active": False}, "This account is not active. Please write to support."),
    ],
)
def test_deleted_drafted_or_blocked_accounts_get_the_spec_notice(
    client: TestClient, db: Session, state: dict[str, Any], message: str
) -> None:
    factories.user(db, email="ada@example.com", **state)
    db.commit()
    response = sign_in(client, "ada@example.com")
    assert response.status_code == 403 and response.json()["message"] == message
    # Without the right password nothing about the account's state is told.
    assert sign_in(client, "ada@example.com", "Wrong1!x").json()["message"] == "Incorrect email or password"


# ------------------------------------------------------------------------------------------ tokens


def test_guest_token_keeps_the_guest_id(client: TestClient) -> None:
    first = client.post("/v2/users/guest-token", json={"guest_id": "browser-1"}).json()
    assert first["guest_id"] == "browser-1"
    assert decode_token(first["user_jwt"]).kind == "guest"
    renewed = client.post("/v2/users/guest-token", json={"prior_token": first["user_jwt"]}).json()
    assert renewed["guest_id"] == "browser-1"
    fresh = client.post("/v2/users/guest-token", json={}).json()
    assert len(fresh["guest_id"]) == 32
    bad = client.post("/v2/users/guest-token", json={"guest_id": "no spaces allowed"})
    assert bad.status_code == 400


def test_update_token_renews_an_expired_token(client: TestClient, db: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    user = factories.user(db, admin=True)
    db.commit()
    monkeypatch.setattr(get_settings(), "jwt_ttl_minutes", -5)
    expired = factories.token_for(user)
    assert client.get("/v2/users/", headers=bearer(expired)).status_code == 401
    monkeypatch.setattr(get_settings(), "jwt_ttl_minutes", 60)
    response = client.post("/v2/users/update-token", json={"userid": user.id, "prior_token": expired})
    assert response.status_code == 200
    renewed = response.json()["user_jwt"]
    assert decode_token(renewed).is_admin is True
    assert client.get("/v2/users/", headers=bearer(renewed)).json()["userid"] == user.id


def test_update_token_refuses_other_users_guests_and_revoked_tokens(client: TestClient, db: Session) -> None:
    user, other = factories.user(db), factories.user(db)
    db.commit()
    token = factories.token_for(user)
    assert client.post("/v2/users/update-token", json={"userid": other.id, "prior_token": token}).status_code == 401
    guest = issue_guest_token("g1")
    assert client.post("/v2/users/update-token", json={"userid": user.id, "prior_token": guest}).status_code == 401
    junk = client.post("/v2/users/update-token", json={"userid": user.id, "prior_token": "junk"})
    assert junk.status_code == 401
    user.token_version += 1  # what drafting and password resets do
    db.commit()
    revoked = client.post("/v2/users/update-token", json={"userid": user.id, "prior_token": token})
    assert revoked.status_code == 401 and "not active" in revoked.json()["message"]


def test_update_token_refuses_tokens_older_than_the_renewal_window(
    client: TestClient, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = factories.user(db)
    db.commit()
    token = factories.token_for(user)
    monkeypatch.setattr(get_settings(), "token_renewal_days", -1)
    response = client.post("/v2/users/update-token", json={"userid": user.id, "prior_token": token})
    assert (
        response.status_code == 401 and response.json()["message"] == "Your session has expired. Please sign in again."
    )


# ---------------------------------------------------------------------------- sign-out and sessions


def test_sign_out_ends_the_session_and_records_it(client: TestClient, db: Session) -> None:
    factories.user(db, email="ada@example.com")
    db.commit()
    signed_in = sign_in(client, "ada@example.com").json()
    response = client.post("/v2/users/sign-out", headers=bearer(signed_in["user_jwt"]))
    assert response.status_code == 200 and response.json()["message"] == "Logout Successful"
    ended = db.get(UserSession, signed_in["session_id"])
    assert ended is not None and ended.ended_at is not None
    codes = list(
        db.scalars(
            select(SessionActivity.activity_code)
            .where(SessionActivity.session_id == signed_in["session_id"])
            .order_by(SessionActivity.id)
        )
    )
    assert codes == ["Sign in", "Sign out"]
    assert client.post("/v2/users/sign-out").status_code == 401


def test_session_activities_take_the_spec_codes_for_the_caller_only(client: TestClient, db: Session) -> None:
    user, other = factories.user(db), factories.user(db)
    db.commit()
    headers = factories.bearer(user)
    started = client.post("/v2/sessions/", headers=headers).json()
    for code in ("Creator Profile", "Follow", "Unfollow"):
        body = {"userid": user.id, "activity_code": code, "owner_id": "12", "session_id": started["session_id"]}
        response = client.post("/v2/sessions/session-activities", json=body, headers=headers)
        assert response.status_code == 200 and response.json()["activity_code"] == code
    unknown = {"userid": user.id, "activity_code": "Sign in"}
    assert client.post("/v2/sessions/session-activities", json=unknown, headers=headers).status_code == 400
    foreign = {"userid": other.id, "activity_code": "Follow"}
    assert client.post("/v2/sessions/session-activities", json=foreign, headers=headers).status_code == 400
    assert client.post("/v2/sessions/session-activities", json={"activity_code": "Follow"}).status_code == 401
    rows = db.scalars(select(SessionActivity).where(SessionActivity.userid == user.id)).all()
    assert len(rows) == 3 and {row.owner_id for row in rows} == {"12"}


# ---------------------------------------------------------------------------------- password reset


def _reset_link(db: Session, email: str) -> str:
    db.expire_all()
    mail = db.scalars(
        select(OutgoingMail).where(OutgoingMail.to_address == email).order_by(OutgoingMail.id.desc())
    ).first()
    assert mail is not None and mail.template == "reset_password"
    match = re.search(r"/resetpassword\?token=([A-Za-z0-9_-]+)", mail.body_text)
    assert match is not None
    return match.group(1)


def test_password_reset_by_mail_end_to_end(client: TestClient, db: Session) -> None:
    user = factories.user(db, email="ada@example.com")
    db.commit()
    old_token = factories.token_for(user)
    answer = client.post("/v2/users/request_reset_password", json={"email": "ADA@example.com"})
    assert answer.status_code == 200
    token = _reset_link(db, "ada@example.com")
    stored = db.scalars(select(PasswordResetToken)).one()
    assert token not in stored.token_hash  # only a hash is kept
    check = client.get("/v2/users/reset-pass-token", params={"token": token})
    assert check.status_code == 200 and check.json() == {"valid": True, "email": "ada@example.com"}

    mismatch = {"token": token, "password": "Newpass1!", "repeat_password": "Newpass2!"}
    assert client.post("/v2/users/change-password", json=mismatch).json()["fields"] == {
        "repeat_password": "Passwords do not match"
    }
    changed = client.post(
        "/v2/users/change-password", json={"token": token, "password": "Newpass1!", "repeat_password": "Newpass1!"}
    )
    assert changed.status_code == 200
    assert sign_in(client, "ada@example.com", "Newpass1!").status_code == 200
    assert sign_in(client, "ada@example.com", PASSWORD).status_code == 400
    # Single use, and every token from before the reset is revoked.
    again = client.post(
        "/v2/users/change-password", json={"token": token, "password": "Other1!x", "repeat_password": "Other1!x"}
    )
    assert again.status_code == 400 and again.json()["message"] == "This reset link is invalid or has expired"
    assert client.get("/v2/users/reset-pass-token", params={"token": token}).status_code == 400
    assert client.get("/v2/users/", headers=bearer(old_token)).status_code == 401


def test_reset_links_expire(client: TestClient, db: Session) -> None:
    factories.user(db, email="ada@example.com")
    db.commit()
    client.post("/v2/users/request_reset_password", json={"email": "ada@example.com"})
    token = _reset_link(db, "ada@example.com")
    row = db.scalars(select(PasswordResetToken)).one()
    row.expires_at = utcnow() - timedelta(seconds=1)
    db.commit()
    response = client.get("/v2/users/reset-pass-token", params={"token": token})
    assert response.status_code == 400 and response.json()["message"] == "This reset link is invalid or has expired"


def test_reset_request_tells_nothing_about_unknown_or_social_accounts(client: TestClient, db: Session) -> None:
    social = factories.user(db, email="social@example.com", auth_system="google", user_system_id="g-1")
    social.password_hash = None
    db.commit()
    known = client.post("/v2/users/request_reset_password", json={"email": "social@example.com"})
    unknown = client.post("/v2/users/request_reset_password", json={"email": "nobody@example.com"})
    assert known.status_code == unknown.status_code == 200 and known.json() == unknown.json()
    assert db.scalars(select(OutgoingMail)).all() == []


def test_signed_in_password_change_needs_the_old_password(client: TestClient, db: Session) -> None:
    user = factories.user(db, email="ada@example.com")
    db.commit()
    headers = factories.bearer(user)
    body = {"old_password": "Wrong1!x", "password": "Newpass1!", "repeat_password": "Newpass1!"}
    wrong = client.post("/v2/users/change-password", json=body, headers=headers)
    assert wrong.status_code == 400 and wrong.json()["fields"] == {"old_password": "The current password is wrong"}
    weak = client.post(
        "/v2/users/change-password", json={**body, "old_password": PASSWORD, "password": "weak"}, headers=headers
    )
    assert weak.status_code == 400 and "password" in weak.json()["fields"]
    changed = client.post("/v2/users/change-password", json={**body, "old_password": PASSWORD}, headers=headers)
    assert changed.status_code == 200
    # This client keeps working with the token it got back; older tokens are revoked.
    assert client.get("/v2/users/", headers=bearer(changed.json()["user_jwt"])).status_code == 200
    assert client.get("/v2/users/", headers=headers).status_code == 401
    assert client.post("/v2/users/change-password", json=body).status_code == 401


# ------------------------------------------------------------------------------------- rate limits


def test_sign_in_is_limited_per_account(client: TestClient, db: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(get_settings(), "sign_in_failures_per_account", "3/minute")
    factories.user(db, email="ada@example.com")
    db.commit()
    statuses = [sign_in(client, "ada@example.com", "Wrong1!x").status_code for _ in range(3)]
    assert statuses == [400, 400, 400]
    # Locked: even the right password is not checked until the window frees a slot.
    limited = sign_in(client, "ADA@example.com")
    assert limited.status_code == 429
    assert re.fullmatch(r"Too many attempts\. Please try again in \d+ seconds\.", limited.json()["message"])
    # Another account from the same address is still served.
    assert sign_in(client, "other@example.com").status_code == 400


def test_a_429_says_when_to_retry(client: TestClient, db: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(get_settings(), "sign_in_failures_per_account", "2/minute")
    for _ in range(2):
        sign_in(client, "ada@example.com", "Wrong1!x")
    limited = sign_in(client, "ada@example.com", "Wrong1!x")
    assert limited.status_code == 429
    retry_after = limited.headers["retry-after"]
    # Seconds until the oldest failure leaves the one-minute window, as the message says.
    assert retry_after.isdigit() and 1 <= int(retry_after) <= 60
    assert f"in {retry_after} seconds" in limited.json()["message"]
    monkeypatch.setattr(get_settings(), "auth_rate_limit_per_ip", "1/hour")
    reset_rate_limits()
    client.post("/v2/users/request_reset_password", json={"email": "a@example.com"})
    flood = client.post("/v2/users/request_reset_password", json={"email": "b@example.com"})
    assert flood.status_code == 429 and 3000 < int(flood.headers["retry-after"]) <= 3600
    assert re.fullmatch(r"Too many attempts\. Please try again in 60 minutes\.", flood.json()["message"])


def test_only_failed_sign_ins_count_against_an_account(
    client: TestClient, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "sign_in_failures_per_account", "3/minute")
    factories.user(db, email="ada@example.com")
    db.commit()
    for _ in range(3):
        assert sign_in(client, "ada@example.com", "Wrong1!x").status_code == 400
        assert sign_in(client, "ada@example.com", "Wrong1!x").status_code == 400
        # Signing in forgives the typos before it: the owner is never locked out by their own success.
        assert sign_in(client, "ada@example.com").status_code == 200


def test_a_locked_account_does_not_lock_out_its_neighbours(
    client: TestClient, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Somebody behind a shared address (an office, a carrier NAT) keeps hammering a locked account:
    the others behind that address still sign in, as long as the address stays under its flood limit."""
    settings = get_settings()
    monkeypatch.setattr(settings, "sign_in_failures_per_account", "3/minute")
    monkeypatch.setattr(settings, "auth_rate_limit_per_ip", "10/minute")
    factories.user(db, email="ada@example.com")
    factories.user(db, email="bob@example.com")
    db.commit()
    assert [sign_in(client, "ada@example.com", "Wrong1!x").status_code for _ in range(3)] == [400, 400, 400]
    hammering = [sign_in(client, "ada@example.com", "Wrong1!x") for _ in range(12)]
    assert {response.status_code for response in hammering} == {429}
    assert sign_in(client, "bob@example.com").status_code == 200
    # The flood guard still holds: seven more guesses at other accounts use up the address's ten.
    assert [sign_in(client, f"u{n}@example.com").status_code for n in range(7)] == [400] * 6 + [429]


def test_sign_in_sign_up_and_reset_are_limited_per_ip(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(get_settings(), "auth_rate_limit_per_ip", "2/minute")
    assert [sign_in(client, f"u{n}@example.com").status_code for n in range(3)] == [400, 400, 429]
    bodies = [sign_up_body(email=f"n{n}@example.com", platform_username=f"newuser{n}") for n in range(3)]
    assert [client.post("/v2/users/sign-up", json=body).status_code for body in bodies] == [201, 201, 429]
    resets = [client.post("/v2/users/request_reset_password", json={"email": "a@example.com"}) for _ in range(3)]
    assert [response.status_code for response in resets] == [200, 200, 429]
