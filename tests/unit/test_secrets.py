"""Secrets outside development (issue 12 part 9a): a deployment refuses to start with a missing or
placeholder JWT_SECRET or a missing ENCRYPTION_KEY, naming the variable and how to make one; the
embedded default (development) still generates them under DATA_DIR."""

from __future__ import annotations

import base64
import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.core.settings import InsecureSettingsError, Settings

ROOT = Path(__file__).resolve().parents[2]
JWT = secrets.token_urlsafe(48)
FERNET = base64.urlsafe_b64encode(os.urandom(32)).decode()


@pytest.fixture(autouse=True)
def _no_secrets_in_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("ENVIRONMENT", "JWT_SECRET", "ENCRYPTION_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))


def settings(**values: Any) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg] - pydantic-settings' own argument


def refusal(**values: Any) -> str:
    with pytest.raises(InsecureSettingsError) as refused:
        settings(**values)
    return str(refused.value)


def test_development_generates_missing_secrets_under_the_data_dir(tmp_path: Path) -> None:
    development = settings()
    assert development.environment == "development"
    assert len(development.resolved_jwt_secret()) >= 32
    assert (tmp_path / "data" / "jwt_secret").exists()
    assert len(base64.urlsafe_b64decode(development.resolved_encryption_key())) == 32


@pytest.mark.parametrize("environment", ["production", "staging"])
def test_a_deployment_without_jwt_secret_refuses_to_start(environment: str) -> None:
    message = refusal(environment=environment, encryption_key=FERNET)
    assert "JWT_SECRET is not set" in message and "secrets.token_urlsafe" in message
    assert "ENCRYPTION_KEY" not in message


@pytest.mark.parametrize("placeholder", ["change-me-in-production", "changethis", "CHANGEME", " secret "])
def test_a_placeholder_jwt_secret_is_refused(placeholder: str) -> None:
    message = refusal(environment="production", jwt_secret=placeholder, encryption_key=FERNET)
    assert "JWT_SECRET is a placeholder" in message and "secrets.token_urlsafe" in message


def test_a_short_jwt_secret_is_refused() -> None:
    message = refusal(environment="production", jwt_secret="x" * 31, encryption_key=FERNET)
    assert "JWT_SECRET is 31 characters; at least 32" in message


def test_a_deployment_without_encryption_key_refuses_to_start() -> None:
    message = refusal(environment="production", jwt_secret=JWT)
    assert "ENCRYPTION_KEY is not set" in message and "Fernet.generate_key()" in message
    assert "JWT_SECRET" not in message.split("Give every process")[0]


def test_both_missing_are_named_at_once() -> None:
    message = refusal(environment="production")
    assert "JWT_SECRET is not set" in message and "ENCRYPTION_KEY is not set" in message


@pytest.mark.parametrize("environment", ["development", "production"])
def test_an_encryption_key_that_is_not_a_fernet_key_is_refused_everywhere(environment: str) -> None:
    message = refusal(environment=environment, jwt_secret=JWT, encryption_key="not-a-key")
    assert "ENCRYPTION_KEY is not a Fernet key" in message and "not-a-key" not in message


def test_a_deployment_with_both_secrets_starts_and_uses_them(tmp_path: Path) -> None:
    production = settings(environment="production", jwt_secret=JWT, encryption_key=FERNET)
    assert production.resolved_jwt_secret() == JWT and production.resolved_encryption_key() == FERNET
    assert not (tmp_path / "data" / "jwt_secret").exists()  # nothing generated


def test_the_command_line_stops_with_the_message(tmp_path: Path) -> None:
    """What an operator sees: `python -m app.cli setup` (compose's migrate service) exits non-zero
    before touching anything, saying what to set."""
    env = {key: value for key, value in os.environ.items() if key not in ("JWT_SECRET", "ENCRYPTION_KEY")}
    env.update({"ENVIRONMENT": "production", "JWT_SECRET": "change-me-in-production", "DATA_DIR": str(tmp_path)})
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "setup"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode != 0
    assert "JWT_SECRET is a placeholder" in done.stderr and "ENCRYPTION_KEY is not set" in done.stderr
    assert "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []  # no database, no generated secret
