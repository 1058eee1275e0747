"""Release notes (spec §3 "Release", §7 release-notes): saving with the 'Version ' prefix rule, the
items by type, deleting, and the version notice a newly published release sends to every open page
(app/realtime/version.py)."""

from __future__ import annotations

import re

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from app.core.errors import BadRequest, NotFound
from app.realtime.version import announce_in
from app.releases.models import VERSION_PREFIX, Release, ReleaseItem, ReleaseItemType
from app.releases.schemas import VERSION_MAX, FacebookPostBody, ReleaseIn

_PREFIX_WORD = re.compile(rf"^{VERSION_PREFIX.strip()}(?:\s+|$)", re.IGNORECASE)
RELEASE_NOT_FOUND = "Release not found"
REQUIRED = "This field is required"
VERSION_TOO_LONG = f"A version number has at most {VERSION_MAX} characters"
# The wire list of each item type (spec §3 wire names).
LISTS: dict[str, ReleaseItemType] = {
    "listNewItems": ReleaseItemType.new,
    "listImprovedItems": ReleaseItemType.improved,
    "listFixedItems": ReleaseItemType.fixed,
    "listComingSoonItems": ReleaseItemType.coming_soon,
}


def with_prefix(version: str) -> str:
    """Spec §3: 'Version ' is prefixed when missing (any case: 'version 2.4' becomes 'Version 2.4')."""
    number = version_number(version)
    return f"{VERSION_PREFIX}{number}"


def version_number(version: str) -> str:
    """The number alone: 'Version 2.4' and ' version  2.4 ' both give '2.4'; 'Version' alone gives ''."""
    return _PREFIX_WORD.sub("", " ".join(version.split()))


def _check(body: ReleaseIn) -> None:
    failures: dict[str, str] = {}
    if not body.releaseName.strip():
        failures["releaseName"] = REQUIRED
    number = version_number(body.releaseVersion)
    if not number:
        failures["releaseVersion"] = REQUIRED
    elif len(number) > VERSION_MAX:
        failures["releaseVersion"] = VERSION_TOO_LONG
    for wire_name in LISTS:
        for index, item in enumerate(getattr(body, wire_name)):
            if not item.title.strip():
                failures[f"{wire_name}.{index}.title"] = REQUIRED
    if failures:
        raise BadRequest(next(iter(failures.values())), fields=failures)


def list_releases(session: Session, *, limit: int, offset: int) -> tuple[list[Release], int]:
    """Newest first (date, then time, then id)."""
    total = session.scalar(select(func.count()).select_from(Release)) or 0
    rows = session.scalars(
        select(Release)
        .options(selectinload(Release.items))
        .order_by(Release.release_date.desc(), Release.release_time.desc(), Release.id.desc())
        .limit(limit)
        .offset(offset)
    ).all()
    return list(rows), total


def get_release(session: Session, release_id: int) -> Release:
    release = session.get(Release, release_id)
    if release is None:
        raise NotFound(RELEASE_NOT_FOUND)
    return release


def save_release(session: Session, body: ReleaseIn) -> Release:
    """Create a release, or replace an existing one's content and items (the edit mode saves it whole)."""
    _check(body)
    release = get_release(session, body.id) if body.id is not None else Release()
    release.name = body.releaseName.strip()
    release.version = with_prefix(body.releaseVersion)
    release.release_date = body.releaseDate
    release.release_time = body.releaseTime
    release.items = [
        ReleaseItem(
            item_type=item_type,
            title=item.title.strip(),
            description=(item.description or "").strip() or None,
            position=position,
        )
        for wire_name, item_type in LISTS.items()
        for position, item in enumerate(getattr(body, wire_name))
    ]
    session.add(release)
    session.flush()
    return release


def is_newest(session: Session, release: Release) -> bool:
    newest, _total = list_releases(session, limit=1, offset=0)
    return bool(newest) and newest[0].id == release.id


def announce(session: Session, release: Release) -> str:
    """The existing version notice, with the release's number: open pages built as another version
    offer the reload. In the release's own transaction, so the notice goes out only if it is saved."""
    return announce_in(session, version_number(release.version))


def delete_release(session: Session, release_id: int) -> None:
    session.delete(get_release(session, release_id))
    session.flush()


def facebook_text(body: FacebookPostBody) -> str:
    """The post: the release's title, version and date, then each non-empty list under its heading."""
    lines = [f"{body.release_name.strip()} — {with_prefix(body.release_version)} ({body.release_date.isoformat()})"]
    sections = (
        ("New", body.list_new),
        ("Improved", body.list_improved),
        ("Fixed", body.list_fixed),
        ("Coming Soon", body.list_coming_soon),
    )
    for heading, entries in sections:
        kept = [entry.strip() for entry in entries if entry.strip()]
        if kept:
            lines += ["", f"{heading}:"] + [f"• {entry}" for entry in kept]
    return "\n".join(lines)


def check_facebook_body(body: FacebookPostBody) -> None:
    failures = {
        "release_name": REQUIRED if not body.release_name.strip() else None,
        "release_version": REQUIRED if not version_number(body.release_version) else None,
    }
    missing = {name: message for name, message in failures.items() if message}
    if missing:
        raise BadRequest(next(iter(missing.values())), fields=missing)
