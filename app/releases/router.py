"""Spec §7 Releases: release notes (GET for everybody, POST and DELETE for admins) and the admins'
Facebook post of a release."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from app.core.access import public
from app.core.deps import AdminUser, DbSession
from app.core.errors import error_responses
from app.core.types import DbId, DbInt
from app.releases import service, social
from app.releases.models import Release, ReleaseItemType
from app.releases.schemas import (
    FacebookPostAnswer,
    FacebookPostBody,
    ReleaseDeleted,
    ReleaseIn,
    ReleaseItemOut,
    ReleaseOut,
    ReleasesAnswer,
    ReleaseSaved,
)

# Two prefixes of §7 in one domain router: /v2/releases and /v2/facebook-post.
router = APIRouter(tags=["releases"])
NOTES = "/v2/releases/release-notes"


@router.get(NOTES, response_model=ReleasesAnswer, dependencies=[Depends(public)])
def list_release_notes(
    db: DbSession,
    limit: int = Query(20, ge=1, le=100),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> ReleasesAnswer:
    """The Updates page: releases newest first."""
    rows, total = service.list_releases(db, limit=limit, offset=offset)
    return ReleasesAnswer(data=[release_out(row) for row in rows], total_items=total, limit=limit, offset=offset)


@router.post(NOTES, response_model=ReleaseSaved, responses=error_responses(404))
def save_release_note(body: ReleaseIn, _admin: AdminUser, db: DbSession) -> ReleaseSaved:
    """Create a release (no id) or replace one; the newest release tells every open page its version."""
    release = service.save_release(db, body)
    announced = service.announce(db, release) if body.announce and service.is_newest(db, release) else None
    return ReleaseSaved(message="The release has been saved", data=release_out(release), announced_version=announced)


@router.delete(NOTES, response_model=ReleaseDeleted, responses=error_responses(404))
def delete_release_note(release_id: Annotated[DbId, Query()], _admin: AdminUser, db: DbSession) -> ReleaseDeleted:
    service.delete_release(db, release_id)
    return ReleaseDeleted(message="The release has been deleted", release_id=release_id)


@router.post("/v2/facebook-post/", response_model=FacebookPostAnswer, responses=error_responses(503))
def post_to_facebook(body: FacebookPostBody, _admin: AdminUser) -> FacebookPostAnswer:
    """Announce a release on the platform's Facebook page."""
    service.check_facebook_body(body)
    post_id = social.configured_poster().post(service.facebook_text(body))
    return FacebookPostAnswer(message="The release has been posted to Facebook", post_id=post_id)


def release_out(release: Release) -> ReleaseOut:
    def items(item_type: ReleaseItemType) -> list[ReleaseItemOut]:
        return [
            ReleaseItemOut(id=item.id, title=item.title, type=item.item_type, description=item.description)
            for item in release.items
            if item.item_type == item_type
        ]

    return ReleaseOut(
        id=release.id,
        releaseName=release.name,
        releaseVersion=release.version,
        releaseDate=release.release_date,
        releaseTime=release.release_time,
        listNewItems=items(ReleaseItemType.new),
        listImprovedItems=items(ReleaseItemType.improved),
        listFixedItems=items(ReleaseItemType.fixed),
        listComingSoonItems=items(ReleaseItemType.coming_soon),
    )
