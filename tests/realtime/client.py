"""HTTP helpers of the distributed tests: the calls a browser makes."""

from __future__ import annotations

from typing import Any

import httpx

PASSWORD = "Secret1!"  # tests/factories.py's default


def sign_in(base: str, email: str) -> str:
    answer = httpx.post(
        f"{base}/v2/users/sign-in", json={"auth_system": "Email", "email": email, "password": PASSWORD}, timeout=10
    )
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["user_jwt"]
    return token


def guest_token(base: str, guest_id: str) -> str:
    answer = httpx.post(f"{base}/v2/users/guest-token", json={"guest_id": guest_id}, timeout=10)
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["user_jwt"]
    return token


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def feed(base: str, **params: Any) -> dict[str, Any]:
    answer = httpx.get(
        f"{base}/v2/user-recomendations/filtered-grid", params={"mode": "media", "limit": 48, **params}, timeout=10
    )
    assert answer.status_code == 200, answer.text
    page: dict[str, Any] = answer.json()
    return page


def card(page: dict[str, Any], guid: str) -> dict[str, Any] | None:
    return next((card for card in page["data"] if card.get("guid") == guid), None)
