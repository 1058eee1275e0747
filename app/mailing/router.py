"""Spec §7 "mailing-list sync": GET ping, GET members-diff, POST members-sync (admins only), plus
GET members-sync for the page to read a run's progress when it opens (then pushed: `mailing:sync`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, TypeVar

from fastapi import APIRouter, Depends, Query

from app.core.deps import AdminUser, DbSession
from app.core.errors import AppError, error_responses
from app.mailing import service
from app.mailing.mailchimp import get_mailing_provider, require_configured
from app.mailing.port import MailingListError, MailingListProvider
from app.mailing.schemas import DiffParams, DiffSide, MembersDiffOut, PersonOut, PingOut, SyncStateOut
from app.mailing.service import Person

router = APIRouter(prefix="/v2/mailing-list", tags=["mailing"])

Provider = Annotated[MailingListProvider, Depends(get_mailing_provider)]
Page = Annotated[DiffParams, Query()]
# 400: the mailing list is not configured; 503: the provider cannot be reached or refuses.
PROVIDER_ERRORS = error_responses(400, 503)
T = TypeVar("T")


def _asking_provider(call: Callable[[], T]) -> T:
    """A provider failure is the admin's to read: 503 with the adapter's message."""
    try:
        return call()
    except MailingListError as exc:
        raise AppError(str(exc), status_code=503) from None


@router.get("/ping", response_model=PingOut, responses=PROVIDER_ERRORS)
def ping(_admin: AdminUser, provider: Provider) -> PingOut:
    """The provider answers, accepts the key and knows the list."""
    health = _asking_provider(provider.ping)
    info = _asking_provider(provider.list_info)
    return PingOut(health_status=health, list_id=info.list_id, list_name=info.name, member_count=info.member_count)


def _side(people: list[Person], page: DiffParams) -> DiffSide:
    shown = people[page.offset : page.offset + page.limit]
    return DiffSide(
        total_items=len(people),
        data=[PersonOut(email=p.email, first_name=p.first_name, last_name=p.last_name) for p in shown],
    )


@router.get("/members-diff", response_model=MembersDiffOut, responses=PROVIDER_ERRORS)
def members_diff(db: DbSession, _admin: AdminUser, provider: Provider, page: Page) -> MembersDiffOut:
    """Consenting users missing from the list, and subscribed members who are no consenting user;
    both sides paged by the same limit and offset."""
    diff = _asking_provider(lambda: service.compute_diff(db, provider))
    return MembersDiffOut(
        to_subscribe=_side(diff.to_subscribe, page),
        to_unsubscribe=_side(diff.to_unsubscribe, page),
        consenting=diff.consenting,
        subscribed=diff.subscribed,
        in_step=not diff.to_subscribe and not diff.to_unsubscribe,
        limit=page.limit,
        offset=page.offset,
    )


@router.post("/members-sync", response_model=SyncStateOut, status_code=202, responses=PROVIDER_ERRORS)
def members_sync(
    db: DbSession, admin: AdminUser, _configured: Annotated[None, Depends(require_configured)]
) -> SyncStateOut:
    """Start a sync in the background, or resume the one a failure or a lost worker interrupted; a
    sync already running is answered as it is (asking twice starts nothing twice). Its progress is
    pushed to the admins as `mailing:sync` events."""
    return SyncStateOut(data=service.start_sync(db, admin.id))


@router.get("/members-sync", response_model=SyncStateOut)
def members_sync_state(db: DbSession, _admin: AdminUser) -> SyncStateOut:
    """The latest sync's progress (null before the first): what a page reads when it opens or its
    realtime connection comes back; meanwhile `mailing:sync` pushes bring the changes."""
    run = service.latest_run(db)
    return SyncStateOut(data=service.run_out(run) if run else None)
