"""The Mailchimp adapter of the mailing-list port, over httpx (Marketing API v3).

`{base}` is https://<dc>.api.mailchimp.com/3.0, the data centre being the API key's suffix after the
last '-' (MAILCHIMP_API_URL overrides it; tests point it at a local fake). HTTP Basic auth with any
user name and the API key as password. The calls used:
- `GET /ping` → `{"health_status": "Everything's Chimpy!"}`;
- `GET /lists/{list_id}` → `{"id", "name", "stats": {"member_count"}}`;
- `GET /lists/{list_id}/members?count=&offset=` → `{"members": [{"id", "email_address", "status",
  "merge_fields": {"FNAME", "LNAME"}}], "total_items"}`;
- `POST /lists/{list_id}` with `{"members": [...], "update_existing": true}` (batch subscribe or
  unsubscribe, at most 500) → `{"new_members", "updated_members", "errors": [{"email_address", "error"}]}`.
Errors are problem documents (`{"title", "status", "detail"}`): 401 for a bad key, 404 for an unknown
list, 429 when throttled (Mailchimp allows 10 simultaneous connections), 5xx for outages; 429 and
5xx are retried with a doubling wait (honouring Retry-After).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn

import httpx

from app.core.errors import BadRequest
from app.core.settings import APP_VERSION, Settings, get_settings
from app.mailing.port import (
    ListInfo,
    ListMember,
    MailingListError,
    MailingListProvider,
    MailingListRefused,
    MailingListUnreachable,
    MembersPage,
    MemberUpsert,
    UpsertReport,
)

logger = logging.getLogger("touratlas.mailing.mailchimp")

ATTEMPTS = 4
MAX_RETRY_WAIT_SECONDS = 30.0
NOT_CONFIGURED = "The mailing list is not configured: set MAILCHIMP_API_KEY and MAILCHIMP_LIST_ID."


def subscriber_hash(email: str) -> str:
    """Mailchimp's member id: the MD5 of the lower-cased address."""
    return hashlib.md5(email.strip().lower().encode(), usedforsecurity=False).hexdigest()


def base_url(api_key: str, configured_url: str) -> str:
    if configured_url:
        return configured_url.rstrip("/")
    data_centre = api_key.rsplit("-", 1)[-1] if "-" in api_key else "us1"
    return f"https://{data_centre}.api.mailchimp.com/3.0"


class MailchimpApi:
    def __init__(
        self,
        *,
        api_key: str,
        list_id: str,
        url: str,
        timeout_s: float,
        retry_base_s: float,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._list_id = list_id
        self._retry_base_s = retry_base_s
        self._sleep = sleep
        self._client = httpx.Client(
            base_url=base_url(api_key, url),
            auth=("touratlas", api_key),
            timeout=timeout_s,
            headers={"Accept": "application/json", "User-Agent": f"TourAtlas/{APP_VERSION}"},
            # The base URL is configured, not user input, but a redirect could carry the key elsewhere.
            follow_redirects=False,
        )

    def close(self) -> None:
        self._client.close()

    def ping(self) -> str:
        return str(self._call("GET", "/ping").get("health_status") or "")

    def list_info(self) -> ListInfo:
        body = self._call("GET", f"/lists/{self._list_id}", params={"fields": "id,name,stats.member_count"})
        stats = _mapping(body.get("stats"))
        return ListInfo(
            list_id=str(body.get("id") or self._list_id),
            name=str(body.get("name") or ""),
            member_count=_int(stats.get("member_count")),
        )

    def members(self, *, count: int, offset: int) -> MembersPage:
        body = self._call(
            "GET",
            f"/lists/{self._list_id}/members",
            params={
                "count": count,
                "offset": offset,
                "fields": "members.id,members.email_address,members.status,members.merge_fields,total_items",
            },
        )
        raw = body.get("members")
        if not isinstance(raw, list):
            raise MailingListError("The mailing-list provider answered without a members list.")
        return MembersPage(
            members=[_member(item) for item in raw if isinstance(item, dict) and item.get("email_address")],
            total_items=_int(body.get("total_items")),
        )

    def upsert(self, members: Sequence[MemberUpsert]) -> UpsertReport:
        payload = {
            "members": [
                {
                    "email_address": member.email,
                    "status": member.status,
                    "merge_fields": {"FNAME": member.first_name, "LNAME": member.last_name},
                }
                for member in members
            ],
            "update_existing": True,
        }
        body = self._call("POST", f"/lists/{self._list_id}", json=payload)
        written: dict[str, str] = {}
        for key in ("new_members", "updated_members"):
            for item in body.get(key) or []:
                if isinstance(item, dict) and item.get("email_address"):
                    email = str(item["email_address"]).lower()
                    written[email] = str(item.get("id") or subscriber_hash(email))
        rejected = {
            str(item.get("email_address", "")).lower(): str(item.get("error") or "refused")
            for item in body.get("errors") or []
            if isinstance(item, dict)
        }
        return UpsertReport(written=written, rejected=rejected)

    def _call(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        for attempt in range(1, ATTEMPTS + 1):
            response = self._send(method, path, **kwargs)
            if response is not None and response.status_code != 429 and response.status_code < 500:
                return _body(response)
            if attempt < ATTEMPTS:
                self._sleep(self._wait(attempt, response))
        status = response.status_code if response is not None else "no answer"
        raise MailingListUnreachable(f"The mailing-list provider kept failing ({status}); try again later.")

    def _send(self, method: str, path: str, **kwargs: Any) -> httpx.Response | None:
        try:
            return self._client.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            # Not the exception's text: it may carry the URL and account.
            logger.warning("Mailchimp unreachable: %s", exc.__class__.__name__)
            return None

    def _wait(self, attempt: int, response: httpx.Response | None) -> float:
        retry_after = response.headers.get("Retry-After", "") if response is not None else ""
        if retry_after.isdigit():
            return min(float(retry_after), MAX_RETRY_WAIT_SECONDS)
        return min(self._retry_base_s * 2.0 ** (attempt - 1), MAX_RETRY_WAIT_SECONDS)


def _body(response: httpx.Response) -> dict[str, Any]:
    try:
        body = response.json()
    except ValueError:
        body = None
    if response.status_code in (401, 403):
        raise MailingListRefused("The mailing-list provider refused the API key.")
    if response.status_code == 404:
        raise MailingListRefused("The mailing-list provider does not know this list id.")
    if response.status_code >= 400:
        detail = body.get("detail") if isinstance(body, dict) else None
        raise MailingListError(f"The mailing-list provider answered {response.status_code}: {detail or 'no detail'}")
    if not isinstance(body, dict):
        raise MailingListError("The mailing-list provider answered with an unexpected body.")
    return body


def _member(item: dict[str, Any]) -> ListMember:
    fields = _mapping(item.get("merge_fields"))
    email = str(item["email_address"]).strip().lower()
    return ListMember(
        email=email,
        status=str(item.get("status") or ""),
        first_name=str(fields.get("FNAME") or ""),
        last_name=str(fields.get("LNAME") or ""),
        provider_id=str(item.get("id") or subscriber_hash(email)),
    )


def _mapping(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


def is_configured(settings: Settings) -> bool:
    return bool(settings.mailchimp_api_key and settings.mailchimp_list_id)


def open_provider(settings: Settings | None = None) -> MailchimpApi:
    """The configured adapter; without one a 400 naming the missing settings (a 5xx would say the
    server failed, when it is the platform's set-up that asks for something it cannot do)."""
    settings = settings or get_settings()
    if not is_configured(settings):
        raise BadRequest(NOT_CONFIGURED)
    return MailchimpApi(
        api_key=settings.mailchimp_api_key,
        list_id=settings.mailchimp_list_id,
        url=settings.mailchimp_api_url,
        timeout_s=settings.mailing_http_timeout_seconds,
        retry_base_s=settings.mailing_retry_base_seconds,
    )


def require_configured() -> None:
    """A dependency for calls that need the list but not a provider at once (starting a sync)."""
    if not is_configured(get_settings()):
        raise BadRequest(NOT_CONFIGURED)


class UnconfiguredProvider:
    """Stands in while the mailing list is not configured: every call is the 400 saying so. The
    request's dependency does not refuse by itself, so a bad query parameter is still named first."""

    def _refuse(self) -> NoReturn:
        raise BadRequest(NOT_CONFIGURED)

    def ping(self) -> str:
        self._refuse()

    def list_info(self) -> ListInfo:
        self._refuse()

    def members(self, *, count: int, offset: int) -> MembersPage:
        self._refuse()

    def upsert(self, members: Sequence[MemberUpsert]) -> UpsertReport:
        self._refuse()

    def close(self) -> None:
        return None


def get_mailing_provider() -> Iterator[MailingListProvider]:
    """The provider for one request (a FastAPI dependency: a test can swap it)."""
    provider: MailingListProvider = open_provider() if is_configured(get_settings()) else UnconfiguredProvider()
    try:
        yield provider
    finally:
        provider.close()
