"""Spec §5 "Account" rules at their edges (the API tests cover how they reach the wire)."""

from __future__ import annotations

import pytest

from app.users import validation as rules


@pytest.mark.parametrize("password", ["Abcde1!", "a1!aaa", "Z9@" + "x" * 13, "1a!", "pass1" + "!@#$%^&*"[:1]])
def test_passwords_within_the_rules(password: str) -> None:
    expected = None if 6 <= len(password) <= 16 else rules.PASSWORD_LENGTH
    assert rules.check_password(password) == expected


@pytest.mark.parametrize("special", list("!@#$%^&*"))
def test_each_allowed_special_character(special: str) -> None:
    assert rules.check_password(f"abc12{special}") is None


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("", rules.REQUIRED),
        ("abcdef!", rules.PASSWORD_STRENGTH),  # no digit
        ("123456!", rules.PASSWORD_STRENGTH),  # no letter
        ("abc1234", rules.PASSWORD_STRENGTH),  # no special
        ("abc123!(", rules.PASSWORD_SYMBOLS),  # ( is not allowed
        ("пароль1!", rules.PASSWORD_SYMBOLS),  # noqa: RUF001 - Cyrillic on purpose: Latin letters only
        ("a" * 16 + "1!", rules.PASSWORD_LENGTH),
    ],
)
def test_passwords_breaking_the_rules(password: str, message: str) -> None:
    assert rules.check_password(password) == message


@pytest.mark.parametrize(
    ("username", "message"),
    [
        ("abcde", None),
        ("a" * 25, None),
        ("Ada.Love_lace-1", None),
        ("abcd", rules.USERNAME_TOO_SHORT),
        ("a" * 26, rules.USERNAME_TOO_LONG),
        ("ada~love", rules.USERNAME_CHARACTERS),
        ("адаlove", rules.USERNAME_CHARACTERS),  # noqa: RUF001 - Cyrillic on purpose
        ("bitch-please", rules.USERNAME_PROFANITY),
        ("grass.hopper", None),  # a clean word that merely contains a bad one is fine
    ],
)
def test_platform_usernames(username: str, message: str | None) -> None:
    assert rules.check_platform_username_format(username) == message


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("Ada", True),
        ("Anne-Marie", True),
        ("O'Neil", True),
        ("José María", True),
        ("Жанна", True),
        ("Jr.", True),
        ("R2D2", False),
        ("Ada_", False),
        ("  ", False),
        ("x" * 101, False),
    ],
)
def test_names(name: str, valid: bool) -> None:
    assert (rules.check_name(name, rules.INVALID_FIRST_NAME) is None) is valid


@pytest.mark.parametrize(
    ("phone", "valid"),
    [
        (None, True),
        ("", True),
        ("0049151", True),
        ("+49151", False),
        ("12 34", False),
        ("١٢٣", False),
        ("1" * 21, False),
    ],
)
def test_phones(phone: str | None, valid: bool) -> None:
    assert (rules.check_phone(phone) is None) is valid


def test_repeat_password_is_checked_only_when_sent() -> None:
    assert rules.check_passwords_match("Abc12!", None) is None
    assert rules.check_passwords_match("Abc12!", "Abc12!") is None
    assert rules.check_passwords_match("Abc12!", "abc12!") == rules.PASSWORDS_DIFFER
