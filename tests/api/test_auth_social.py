"""Social sign-in (spec §3 auth_system, §8 social errors) against a local fake Google and Facebook
that speak the providers' wire formats over HTTP (tests/fakes/providers.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.auth.social import jwks_cache
from app.core.settings import get_settings
from app.users.models import AuthSystem, User
from tests import factories
from tests.fakes.providers import (
    FACEBOOK_APP_ID,
    FACEBOOK_APP_SECRET,
    GOOGLE_CLIENT_ID,
    FacebookUser,
    FakeProviders,
    start_fake_providers,
)


@pytest.fixture(scope="module")
def fake_server() -> Iterator[FakeProviders]:
    fake = start_fake_providers()
    yield fake
    fake.close()


@pytest.fixture
def providers(fake_server: FakeProviders, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeProviders]:
    settings = get_settings()
    monkeypatch.setattr(settings, "google_client_id", GOOGLE_CLIENT_ID)
    monkeypatch.setattr(settings, "google_jwks_url", f"{fake_server.base_url}/google/certs")
    monkeypatch.setattr(settings, "facebook_app_id", FACEBOOK_APP_ID)
    monkeypatch.setattr(settings, "facebook_app_secret", FACEBOOK_APP_SECRET)
    monkeypatch.setattr(settings, "facebook_graph_url", f"{fake_server.base_url}/facebook")
    jwks_cache.clear()
    fake_server.hits.clear()
    fake_server.facebook_tokens.clear()
    reset_rate_limits()
    yield fake_server
    jwks_cache.clear()


def one_click(client: TestClient, auth_system: str, token: str, **extra: Any) -> Any:
    return client.post("/v2/users/signup-oneclick", json={"auth_system": auth_system, "provider_token": token, **extra})


def social_sign_in(client: TestClient, auth_system: str, token: str, **extra: Any) -> Any:
    return client.post("/v2/users/sign-in", json={"auth_system": auth_system, "provider_token": token, **extra})


# ------------------------------------------------------------------------------------------ Google


def test_google_one_click_sign_up_then_sign_in(client: TestClient, db: Session, providers: FakeProviders) -> None:
    token = providers.google_id_token("g-100", "Grace@Example.com")
    created = one_click(client, "Google", token)
    assert created.status_code == 201
    user = db.get(User, created.json()["userid"])
    assert user is not None
    assert (user.auth_system, user.user_system_id, user.email) == (AuthSystem.google, "g-100", "grace@example.com")
    assert (user.first_name, user.last_name, user.password_hash) == ("Grace", "Hopper", None)
    assert user.platform_username == "grace"  # derived from the email

    again = one_click(client, "google", providers.google_id_token("g-100", "grace@example.com"))
    assert again.status_code == 200 and again.json()["userid"] == user.id and again.json()["user_jwt"]
    signed_in = social_sign_in(client, "google", providers.google_id_token("g-100", "grace@example.com"))
    assert signed_in.status_code == 200 and signed_in.json()["userid"] == user.id
    # The keys were fetched once and served from the cache afterwards.
    assert providers.hits["/google/certs"] == 1


def test_google_sign_up_form_takes_the_typed_fields_but_the_providers_email(
    client: TestClient, db: Session, providers: FakeProviders
) -> None:
    body = {
        "auth_system": "Google",
        "provider_token": providers.google_id_token("g-7", "real@example.com"),
        "user_system_id": "g-7",
        "email": "typed@example.com",
        "first_name": "Amazing",
        "last_name": "Grace",
        "platform_username": "amazing.grace",
    }
    response = client.post("/v2/users/sign-up", json=body)
    assert response.status_code == 201
    user = db.get(User, response.json()["userid"])
    assert user is not None and user.email == "real@example.com" and user.platform_username == "amazing.grace"
    assert (user.first_name, user.last_name) == ("Amazing", "Grace")


def test_google_sign_in_without_an_account_asks_to_sign_up(client: TestClient, providers: FakeProviders) -> None:
    response = social_sign_in(client, "google", providers.google_id_token("g-unknown", "x@example.com"))
    assert response.status_code == 404
    assert response.json()["message"] == "No account is linked to this sign-in. Please sign up first."


@pytest.mark.parametrize(
    ("token_args", "reason"),
    [
        ({"audience": "someone-elses-app"}, "Audience"),
        ({"issuer": "https://evil.example.com"}, "issuer"),
        ({"expires_in": -3600}, "expired"),
        ({"email_verified": False}, "no verified email"),
        ({"key": rsa.generate_private_key(65537, 2048)}, "Signature verification failed"),
    ],
)
def test_google_tokens_are_verified(
    client: TestClient, providers: FakeProviders, token_args: dict[str, Any], reason: str
) -> None:
    token = providers.google_id_token("g-1", "grace@example.com", **token_args)
    response = one_click(client, "google", token)
    assert response.status_code == 400
    assert response.json()["message"] == "Google sign-in failed"
    assert reason.lower() in response.json()["fields"]["provider_token"].lower()


def test_a_claimed_subject_must_match_the_verified_one(
    client: TestClient, db: Session, providers: FakeProviders
) -> None:
    factories.user(db, auth_system="google", user_system_id="g-1")
    db.commit()
    token = providers.google_id_token("g-1", "grace@example.com")
    response = social_sign_in(client, "google", token, user_system_id="g-2")
    assert response.status_code == 400


def test_rotated_google_keys_are_fetched_again(client: TestClient, providers: FakeProviders) -> None:
    assert one_click(client, "google", providers.google_id_token("g-1", "one@example.com")).status_code == 201
    providers.rotate_google_key()
    jwks_cache._entries = {url: (keys, expires, 0.0) for url, (keys, expires, _) in jwks_cache._entries.items()}
    response = one_click(client, "google", providers.google_id_token("g-2", "two@example.com"))
    assert response.status_code == 201
    assert providers.hits["/google/certs"] == 2


def test_google_off_answers_the_spec_message(
    client: TestClient, providers: FakeProviders, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "google_client_id", "")
    response = one_click(client, "google", providers.google_id_token("g-1", "grace@example.com"))
    assert response.status_code == 400 and response.json()["message"] == "GoogleAuth not initialized"


def test_unreachable_provider_is_a_502(
    client: TestClient, providers: FakeProviders, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "google_jwks_url", "http://127.0.0.1:9/certs")
    response = one_click(client, "google", providers.google_id_token("g-1", "grace@example.com"))
    assert response.status_code == 502


# ---------------------------------------------------------------------------------------- Facebook


def test_facebook_one_click_sign_up_and_sign_in(client: TestClient, db: Session, providers: FakeProviders) -> None:
    token = providers.facebook_token(FacebookUser("fb-55", "Linus@Example.com", "Linus", "Torvalds"))
    created = one_click(client, "Facebook", token, platform_username="linus.t", consent_emails=True)
    assert created.status_code == 201
    user = db.get(User, created.json()["userid"])
    assert user is not None
    assert (user.auth_system, user.user_system_id, user.email) == (AuthSystem.facebook, "fb-55", "linus@example.com")
    assert (user.platform_username, user.consent_emails) == ("linus.t", True)
    assert social_sign_in(client, "facebook", token).json()["userid"] == user.id


def test_facebook_account_without_email_must_type_one(
    client: TestClient, db: Session, providers: FakeProviders
) -> None:
    token = providers.facebook_token(FacebookUser("fb-9", None, "Ken", "Thompson"))
    body = {"auth_system": "facebook", "provider_token": token, "platform_username": "ken.thompson"}
    missing = client.post("/v2/users/sign-up", json=body)
    assert missing.status_code == 400 and missing.json()["fields"] == {"email": "This field is required"}
    created = client.post("/v2/users/sign-up", json={**body, "email": "ken@example.com"})
    assert created.status_code == 201


@pytest.mark.parametrize(
    "facebook_user",
    [
        FacebookUser("fb-1", "a@example.com", "A", "B", app_id="another-app"),
        FacebookUser("fb-1", "a@example.com", "A", "B", valid=False),
    ],
)
def test_facebook_tokens_for_other_apps_or_invalid_ones_are_refused(
    client: TestClient, providers: FakeProviders, facebook_user: FacebookUser
) -> None:
    response = one_click(client, "facebook", providers.facebook_token(facebook_user))
    assert response.status_code == 400 and response.json()["message"] == "fbError"


def test_unknown_facebook_token_and_wrong_app_secret_are_refused(
    client: TestClient, providers: FakeProviders, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert one_click(client, "facebook", "EAAB-never-issued").json()["message"] == "fbError"
    token = providers.facebook_token(FacebookUser("fb-2", "b@example.com", "B", "C"))
    monkeypatch.setattr(get_settings(), "facebook_app_secret", "wrong-secret")
    response = one_click(client, "facebook", token)
    assert response.status_code == 400 and response.json()["message"] == "fbError"


def test_facebook_off_is_an_fb_error(
    client: TestClient, providers: FakeProviders, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "facebook_app_id", "")
    token = providers.facebook_token(FacebookUser("fb-3", "c@example.com", "C", "D"))
    response = one_click(client, "facebook", token)
    assert response.status_code == 400
    assert response.json() | {"request_id": None} == {
        "message": "fbError",
        "fields": {"provider_token": "Facebook sign-in is not configured"},
        "request_id": None,
    }


# ------------------------------------------------------------------------------------ account rules


def test_social_accounts_cannot_change_their_email(client: TestClient, providers: FakeProviders) -> None:
    created = one_click(client, "google", providers.google_id_token("g-1", "grace@example.com")).json()
    headers = {"Authorization": f"Bearer {created['user_jwt']}"}
    response = client.put("/v2/users/user-params", json={"params": {"email": "new@example.com"}}, headers=headers)
    assert response.status_code == 400
    assert response.json()["fields"] == {
        "email": "Email cannot be changed for accounts that sign in with Google or Facebook"
    }
    password = client.post(
        "/v2/users/change-password",
        json={"old_password": "x", "password": "Secret1!", "repeat_password": "Secret1!"},
        headers=headers,
    )
    assert password.status_code == 400


def test_social_sign_up_refuses_an_email_held_by_another_account(
    client: TestClient, db: Session, providers: FakeProviders
) -> None:
    factories.user(db, email="grace@example.com")
    db.commit()
    response = one_click(client, "google", providers.google_id_token("g-1", "grace@example.com"))
    assert response.status_code == 409 and response.json()["fields"] == {"email": "This email is already taken"}


def test_drafted_social_account_gets_the_notice(client: TestClient, db: Session, providers: FakeProviders) -> None:
    factories.user(db, auth_system="google", user_system_id="g-1", is_active=False)
    db.commit()
    response = social_sign_in(client, "google", providers.google_id_token("g-1", "grace@example.com"))
    assert response.status_code == 403
    assert response.json()["message"] == "This account is not active. Please write to support."
