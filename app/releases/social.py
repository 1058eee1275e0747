"""The social-post port (spec §7 POST facebook-post): a release announced on the platform's Facebook
page. `SocialPoster` is the port; `GraphPagePoster` is the adapter over httpx speaking the Graph API
(`POST {graph}/{page-id}/feed` with `message` and the page's access token, answering `{"id": ...}`).
Tests point `facebook_page_graph_url` at a local fake (tests/fakes/facebook_graph.py)."""

from __future__ import annotations

from typing import Protocol

import httpx

from app.core.errors import AppError
from app.core.settings import get_settings

NOT_CONFIGURED = "Posting to Facebook is not configured"
UNREACHABLE = "Facebook could not be reached; try again later"
REFUSED = "Facebook refused the post: {reason}"


class SocialPostFailed(AppError):
    status_code = 503


class SocialPoster(Protocol):
    def post(self, message: str) -> str:
        """Publish `message`; returns the network's id of the post."""
        ...


class GraphPagePoster:
    def __init__(self, *, graph_url: str, page_id: str, access_token: str, timeout_seconds: float) -> None:
        self._feed_url = f"{graph_url.rstrip('/')}/{page_id}/feed"
        self._access_token = access_token
        self._timeout = timeout_seconds

    def post(self, message: str) -> str:
        try:
            with httpx.Client(timeout=self._timeout, follow_redirects=False) as client:
                answer = client.post(self._feed_url, data={"message": message, "access_token": self._access_token})
        except httpx.HTTPError as error:
            raise SocialPostFailed(UNREACHABLE) from error
        body = _json_or_empty(answer)
        if answer.status_code != 200 or not isinstance(body.get("id"), str):
            raise SocialPostFailed(REFUSED.format(reason=_graph_reason(body, answer.status_code)))
        return str(body["id"])


def _json_or_empty(answer: httpx.Response) -> dict[str, object]:
    try:
        body = answer.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _graph_reason(body: dict[str, object], status: int) -> str:
    """The Graph API's own words (`{"error": {"message": ...}}`), else the HTTP status."""
    error = body.get("error")
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return str(error["message"])[:200]
    return f"HTTP {status}"


def configured_poster() -> SocialPoster:
    settings = get_settings()
    if not settings.facebook_page_id or not settings.facebook_page_access_token:
        raise SocialPostFailed(NOT_CONFIGURED)
    return GraphPagePoster(
        graph_url=settings.facebook_page_graph_url,
        page_id=settings.facebook_page_id,
        access_token=settings.facebook_page_access_token,
        timeout_seconds=settings.social_http_timeout_seconds,
    )
