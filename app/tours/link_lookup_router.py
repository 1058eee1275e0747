"""GET /v2/virtualtours/discover (spec §7 Media): the Add media form's link lookup.

A router of its own, which the tours domain's router (app/tours/router.py) includes before the
calls whose `GET /{id}` would otherwise take `/discover` for a tour id.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, Field

from app.auth.rate_limit import check_rate_limit, client_ip
from app.core.deps import CurrentUser, DbSession, GeocoderDep
from app.core.errors import error_responses
from app.core.settings import get_settings
from app.tours import link_lookup as lookup

router = APIRouter(prefix="/v2/virtualtours", tags=["tours"])


class OpenGraphOut(BaseModel):
    image: str = Field(description="absolute http(s) URL of the preview image; empty when the page has none")
    description: str
    title: str


class DiscoverHost(BaseModel):
    vendor_id: int
    vendor_name: str
    is_white_label: bool
    status: str = Field(description="approved, or pending while it waits for an administrator")


class DiscoverData(BaseModel):
    OpenGraph: OpenGraphOut  # the spec's wire name
    address_id: str | None = Field(None, description="a locations id (GET /v2/locations/get-address reads it)")
    address_str: str | None = None
    host: DiscoverHost | None = Field(
        None,
        description="the caller's own custom host the link is on (spec §2 white-label host hint): the form "
        "offers it as the host",
    )


class DiscoverOut(BaseModel):
    data: DiscoverData


def get_fetcher() -> lookup.SafeFetcher:
    """The fetcher with this deployment's address policy (a dependency, so tests can swap it)."""
    return lookup.SafeFetcher(policy=lookup.AddressPolicy.from_settings(get_settings().discover_allowed_networks))


@router.get("/discover", response_model=DiscoverOut, responses=error_responses(429))
def discover(
    request: Request,
    user: CurrentUser,
    db: DbSession,
    geocoder: GeocoderDep,
    fetcher: Annotated[lookup.SafeFetcher, Depends(get_fetcher)],
    url: Annotated[str, Query(min_length=1, max_length=lookup.MAX_URL_LENGTH)],
    vendor_name: Annotated[str | None, Query(max_length=100)] = None,
) -> DiscoverOut:
    """Title, description and preview image of a provider's tour page, and its address when the page
    names a place, and `host` when the link is on one of the caller's own custom hosts (the
    white-label host hint). Errors are 400 on `url` (blocked address, not reachable, not a page,
    nothing found, not the chosen host's format — naming the caller's own host when the link is on
    it) or `vendor_name` (unknown host)."""
    # Each call makes this server fetch a page: counted per user and per IP like sign-in attempts.
    check_rate_limit("discover", ip=client_ip(request), account=f"user:{user.id}")
    found = lookup.discover(db, geocoder, fetcher, url=url, vendor_name=vendor_name, user_id=user.id)
    host = found.host
    return DiscoverOut(
        data=DiscoverData(
            OpenGraph=OpenGraphOut(image=found.image, description=found.description, title=found.title),
            address_id=found.address_id,
            address_str=found.address_str,
            host=DiscoverHost(
                vendor_id=host.id, vendor_name=host.name, is_white_label=host.is_white_label, status=host.status.value
            )
            if host is not None
            else None,
        )
    )
