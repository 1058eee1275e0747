"""Tokens and passwords.

Tokens are HS256 JWTs. A user token carries the user id, `is_admin`, roles and the creator id
(spec §4: admin status and creator identity come from token claims); a guest token carries the
guest id. `ver` is the user's token_version, bumped to revoke every token of a drafted account.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Literal

import jwt
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from pydantic import BaseModel, ConfigDict, Field

from app.core.settings import get_settings

ALGORITHM = "HS256"
_hasher = PasswordHasher()


class TokenClaims(BaseModel):
    model_config = ConfigDict(frozen=True)

    sub: str
    kind: Literal["user", "guest"]
    is_admin: bool = False
    roles: list[str] = Field(default_factory=list)
    creator_id: int | None = None
    guest_id: str | None = None
    ver: int = 0
    exp: int
    iat: int

    @property
    def user_id(self) -> int | None:
        return int(self.sub) if self.kind == "user" else None


class InvalidToken(Exception):
    pass


def _encode(claims: dict[str, object], ttl: timedelta) -> str:
    now = datetime.now(UTC)
    payload = {**claims, "iat": int(now.timestamp()), "exp": int((now + ttl).timestamp())}
    return jwt.encode(payload, get_settings().resolved_jwt_secret(), algorithm=ALGORITHM)


def issue_user_token(
    *, user_id: int, is_admin: bool, roles: list[str], creator_id: int | None, token_version: int
) -> str:
    claims: dict[str, object] = {
        "sub": str(user_id),
        "kind": "user",
        "is_admin": is_admin,
        "roles": roles,
        "creator_id": creator_id,
        "ver": token_version,
    }
    return _encode(claims, timedelta(minutes=get_settings().jwt_ttl_minutes))


def issue_guest_token(guest_id: str) -> str:
    claims: dict[str, object] = {"sub": f"guest:{guest_id}", "kind": "guest", "guest_id": guest_id}
    return _encode(claims, timedelta(days=30))


def decode_token(token: str, *, verify_exp: bool = True) -> TokenClaims:
    """Decode and verify a token; `verify_exp=False` lets renewal accept an expired prior token."""
    if not verify_exp:
        return _verify(get_settings().resolved_jwt_secret(), token, verify_exp=False)
    claims = _verified(get_settings().resolved_jwt_secret(), token)
    # What a cached verification does not cover: the time has moved on. (PyJWT's own test.)
    if claims.exp <= time.time():
        raise InvalidToken("Signature has expired")
    return claims


@lru_cache(maxsize=4096)
def _verified(secret: str, token: str) -> TokenClaims:
    """A client sends the same token with every call until it renews it: verify it once. Only good
    tokens are kept (an exception is never cached); the key holds the secret, so a token signed
    with another one never matches. The claims are frozen, safe to share between requests."""
    return _verify(secret, token, verify_exp=True)


def _verify(secret: str, token: str, *, verify_exp: bool) -> TokenClaims:
    try:
        payload = jwt.decode(
            token,
            secret,
            algorithms=[ALGORITHM],
            options={"verify_exp": verify_exp, "require": ["exp", "iat", "sub"]},
        )
    except jwt.PyJWTError as exc:
        raise InvalidToken(str(exc)) from exc
    return TokenClaims.model_validate(payload)


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    if not password_hash:
        return False
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False
