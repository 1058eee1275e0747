"""Which ads are served and who manages one: the one rule the service, the index documents
(app/search/documents.py) and the serving (app/ads/serving.py) share.

An ad is served when its owner keeps it `active`, an admin `approved` it, and the owner's account is
in good standing (the tours' rule, app/tours/queries.py). Its owner and admins manage it and see it
whatever its state; everyone else sees only served ads.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, and_
from sqlalchemy.orm import Session

from app.ads.models import Ad, AdApprovalState, AdStatus
from app.core.errors import NotFound
from app.tours.queries import in_good_standing, in_good_standing_clause
from app.users.models import User

NOT_FOUND_MESSAGE = "Ad not found"


def published_clause() -> ColumnElement[bool]:
    return and_(Ad.status == AdStatus.active, Ad.approval_state == AdApprovalState.approved)


def served_clause() -> ColumnElement[bool]:
    """`is_served` as one clause on `ads` (the owner's part is an EXISTS on the owner's row)."""
    return and_(published_clause(), Ad.owner.has(in_good_standing_clause()))


def is_served(ad: Ad) -> bool:
    return ad.status == AdStatus.active and ad.approval_state == AdApprovalState.approved and in_good_standing(ad.owner)


def can_manage(viewer: User | None, ad: Ad) -> bool:
    return viewer is not None and (viewer.is_admin or viewer.id == ad.user_id)


def visible_ad(session: Session, *, viewer: User | None, ad_id: int) -> Ad:
    """An ad the viewer may see: a served one, or any of their own (admins: any); else 404."""
    ad = session.get(Ad, ad_id)
    if ad is None or not (is_served(ad) or can_manage(viewer, ad)):
        raise NotFound(NOT_FOUND_MESSAGE)
    return ad
