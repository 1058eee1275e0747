"""The Matterport adapter of the 3D-capture vendor port, over httpx.

Matterport's Model API is GraphQL: `POST {MATTERPORT_API_URL}` (https://api.matterport.com/api/models/graph)
with HTTP Basic auth of the API token id and secret and a JSON body `{"query", "variables"}`. A token
it does not accept is a 401 before the GraphQL layer; query errors come back as 200 with a top-level
`errors` list (`message`, `extensions.code`), and a model the account cannot see as `data.model: null`
and/or an error coded `not.found`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import httpx

from app.core.settings import APP_VERSION, get_settings
from app.vendors.ports import CredentialsRefused, ModelInfo, ModelNotFound, VendorApiError, VendorUnreachable

logger = logging.getLogger("touratlas.vendors.matterport")

# The smallest query the token must be allowed to run: the account's model search, one result.
CHECK_QUERY = 'query checkCredentials { models(query: "*", pageSize: 1) { totalResults } }'
MODEL_QUERY = "query getModel($modelId: ID!) { model(id: $modelId) { id name visibility state } }"
NOT_FOUND_CODES = frozenset({"not.found", "NOT_FOUND"})
UNAUTHORIZED_CODES = frozenset({"request.unauthorized", "UNAUTHORIZED", "not.authorized", "FORBIDDEN"})


class MatterportApi:
    def __init__(self, url: str, *, timeout_s: float, client: httpx.Client | None = None) -> None:
        self._url = url
        self._client = client or httpx.Client(
            timeout=timeout_s,
            headers={"Accept": "application/json", "User-Agent": f"TourAtlas/{APP_VERSION}"},
            # The endpoint is configured, not user input, but a redirect could carry the token elsewhere.
            follow_redirects=False,
        )

    def close(self) -> None:
        self._client.close()

    def check_credentials(self, key: str, secret: str) -> None:
        data = self._graphql(key, secret, CHECK_QUERY, {})
        if not isinstance(data.get("models"), dict):
            raise VendorApiError("Matterport answered the credential check without a models result")

    def model(self, key: str, secret: str, model_id: str) -> ModelInfo:
        data = self._graphql(key, secret, MODEL_QUERY, {"modelId": model_id})
        model = data.get("model")
        if not isinstance(model, dict) or not model.get("id"):
            raise ModelNotFound(model_id)
        return ModelInfo(
            id=str(model["id"]),
            name=str(model.get("name") or ""),
            visibility=_text(model.get("visibility")),
            state=_text(model.get("state")),
        )

    def _graphql(self, key: str, secret: str, query: str, variables: dict[str, Any]) -> dict[str, Any]:
        try:
            response = self._client.post(self._url, json={"query": query, "variables": variables}, auth=(key, secret))
        except httpx.HTTPError as exc:
            # The exception text is not logged: it is of no use to the user and may name the account.
            logger.warning("Matterport unreachable: %s", exc.__class__.__name__)
            raise VendorUnreachable("Matterport cannot be reached") from None
        if response.status_code in (401, 403):
            raise CredentialsRefused("Matterport refused the token")
        if response.status_code == 429 or response.status_code >= 500:
            raise VendorUnreachable(f"Matterport answered {response.status_code}")
        if response.status_code != 200:
            raise VendorApiError(f"Matterport answered {response.status_code}")
        try:
            payload = response.json()
        except ValueError:
            raise VendorApiError("Matterport answered with invalid JSON") from None
        if not isinstance(payload, dict):
            raise VendorApiError("Matterport answered with an unexpected body")
        _raise_for_errors(payload.get("errors"))
        data = payload.get("data")
        if not isinstance(data, dict):
            raise VendorApiError("Matterport answered without data")
        return data


def _raise_for_errors(errors: object) -> None:
    if not isinstance(errors, list) or not errors:
        return
    codes = {str((error.get("extensions") or {}).get("code", "")) for error in errors if isinstance(error, dict)}
    if codes & UNAUTHORIZED_CODES:
        raise CredentialsRefused("Matterport refused the token")
    if codes & NOT_FOUND_CODES:
        raise ModelNotFound("not found")
    first = errors[0].get("message") if isinstance(errors[0], dict) else None
    raise VendorApiError(f"Matterport answered an error: {first or 'unknown'}")


def _text(value: object) -> str | None:
    return str(value) if value is not None else None


def get_capture_vendor_api() -> Iterator[MatterportApi]:
    """The adapter for the 3D-capture vendor, for one request (a FastAPI dependency: a test can swap it)."""
    settings = get_settings()
    api = MatterportApi(settings.matterport_api_url, timeout_s=settings.vendor_http_timeout_seconds)
    try:
        yield api
    finally:
        api.close()
