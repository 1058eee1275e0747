"""Secrets at rest: Fernet (AES-128-CBC with HMAC-SHA256) under `Settings.resolved_encryption_key()`.

Used for the vendor API keys and secrets users store (spec §6: vendor API credentials); a leaked
database dump alone does not reveal them.
"""

from __future__ import annotations

from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken

from app.core.settings import get_settings


class SecretDecryptionError(ValueError):
    """The ciphertext was not made with the current key, or was altered."""


@lru_cache(maxsize=4)
def _fernet(key: str) -> Fernet:
    return Fernet(key.encode())


def _current_fernet() -> Fernet:
    # Keyed by the key itself, so a changed setting (tests, rotation) never reuses a stale cipher.
    return _fernet(get_settings().resolved_encryption_key())


def encrypt_secret(plaintext: str) -> bytes:
    return _current_fernet().encrypt(plaintext.encode("utf-8"))


def decrypt_secret(ciphertext: bytes) -> str:
    try:
        return _current_fernet().decrypt(bytes(ciphertext)).decode("utf-8")
    except InvalidToken as exc:
        raise SecretDecryptionError("stored secret cannot be decrypted with the configured key") from exc
