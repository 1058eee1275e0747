"""Link previews of the app's pages (Open Graph / Twitter card tags in index.html, app/core/static.py):
a creator page `/creator/{creatorId}[/{creatorName}]` and a tour page `/virtualtours/{id}` or
`/media/{id}` (frontend/src/app/router.tsx). Only what the public may see is previewed: a hidden
profile or a tour that is not listed gets the plain page, as any unknown path does. An unlisted tour
(public by its link) is previewed: sharing its link is what it is for."""

from __future__ import annotations

import re

from sqlalchemy import select

from app.core.db import get_sessionmaker
from app.core.static import PageMeta
from app.creators import profiles
from app.creators.models import Creator
from app.tours.models import Tour
from app.tours.queries import is_listed

CREATOR_PAGE = re.compile(r"^creator/([1-9][0-9]{0,9})(?:/[^/]*)?/?$")
TOUR_PAGE = re.compile(r"^(?:virtualtours|media)/([A-Za-z0-9_-]{1,64})/?$")
DESCRIPTION_LENGTH = 200


def _short(text: str | None, fallback: str) -> str:
    clean = " ".join((text or "").split()) or fallback
    return clean if len(clean) <= DESCRIPTION_LENGTH else clean[: DESCRIPTION_LENGTH - 1].rstrip() + "…"


def page_meta(path: str) -> PageMeta | None:
    creator_match, tour_match = CREATOR_PAGE.match(path), TOUR_PAGE.match(path)
    if creator_match is None and tour_match is None:
        return None
    with get_sessionmaker()() as db:
        if creator_match is not None:
            creator = db.get(Creator, int(creator_match.group(1)))
            if creator is None or not profiles.is_public(creator):
                return None
            meta = profiles.meta(db, creator.id)
            return PageMeta(title=meta.title, description=meta.description, image=meta.image, kind="profile")
        assert tour_match is not None
        tour = db.scalar(select(Tour).where(Tour.guid == tour_match.group(1)))
        if tour is None or not is_listed(tour):
            return None
        return PageMeta(
            title=tour.title,
            description=_short(tour.description, f"{tour.title}: a virtual tour on TourAtlas"),
            image=tour.preview_picture,
            kind="article",
        )
