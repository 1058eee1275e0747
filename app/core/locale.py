"""The languages the server speaks (spec §1: English and Russian), chosen from Accept-Language."""

from __future__ import annotations

SUPPORTED_LOCALES = ("en", "ru")
DEFAULT_LOCALE = "en"


def locale_of(accept_language: str | None) -> str:
    """The caller's language among those with catalogues, else English."""
    for part in (accept_language or "").split(","):
        language = part.split(";")[0].strip().lower()[:2]
        if language in SUPPORTED_LOCALES:
            return language
    return DEFAULT_LOCALE
