"""Which tours the public sees, and who else may see one (spec §4 "Media", §4 "User account", §6).

The one rule, written once, in two forms that must agree (tests/api/test_visibility_rule.py pins
both): a predicate for a loaded `Tour` (`is_listed`, `is_visible`) and a SQL clause for
`select(...).where(...)` (`listed_clause`, `visible_clause`).

- **Listed** (what guests, other users and the search index see): the tour is *published* — `active`
  (the owner's choice) and `approved` (moderation's) — and its owner is *in good standing*: not
  drafted (`is_active`), not blocked (`user_active`), not deleted.
- **Managed** by a viewer: its owner and admins manage a tour, and so does the content manager who
  added it on the owner's behalf (POST on-behalf-of). A content manager has no other extra sight:
  spec §6 gives the role two more fields on the media form, nothing else.
- **Visible** to a viewer: listed, or managed by that viewer. Anything else answers the not-found
  text, as an unknown guid does, so a hidden tour's existence does not leak.
- **Discoverable** (feeds, the map, search, recommendations and the counts they show, the Featured
  feed): listed and `public`. An *unlisted* tour (its owner's choice, `visibility`) is listed all the
  same: its page opens for anyone with the link, and its owner's pages (the creator page's grid and
  map, featured tours, the creator's tags) list it to every visitor; discovery never shows it.

Counting one owner's tours (a creator's vt_count) needs only `published_clause()`: the owner's
standing is the same for every one of them, and the creator card is itself listed only while it is
good (a blocked creator keeps the count it had, ready for the day it is unblocked).
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, and_, false, or_, select, true
from sqlalchemy.orm import Session

from app.core.errors import NotFound
from app.tours.models import ApprovalState, Tour, TourStatus, TourVisibility
from app.users.models import User

NOT_FOUND_MESSAGE = "Unfortunately this Virtual Tour could not be found..."


# ------------------------------------------------------------------------------ listed


def is_published(tour: Tour) -> bool:
    return tour.status == TourStatus.active and tour.approval_state == ApprovalState.approved


def published_clause() -> ColumnElement[bool]:
    return and_(Tour.status == TourStatus.active, Tour.approval_state == ApprovalState.approved)


def in_good_standing(owner: User) -> bool:
    """The account may show content: not drafted, not blocked, not deleted."""
    return owner.is_active and owner.user_active and not owner.is_deleted


def in_good_standing_clause() -> ColumnElement[bool]:
    """`in_good_standing` on the columns of `users` (for a statement that joins the owner itself)."""
    return and_(User.is_active.is_(True), User.user_active.is_(True), User.is_deleted.is_(False))


def is_listed(tour: Tour) -> bool:
    return is_published(tour) and in_good_standing(tour.owner)


def listed_clause() -> ColumnElement[bool]:
    """`is_listed` as one clause on `tours`: the owner's part is an EXISTS on the owner's row, so a
    statement need not join `users` (and one that does is not confused by it)."""
    return and_(published_clause(), Tour.owner.has(in_good_standing_clause()))


def is_discoverable(tour: Tour) -> bool:
    return is_listed(tour) and tour.visibility == TourVisibility.public


def discoverable_clause() -> ColumnElement[bool]:
    """`is_discoverable` as one clause on `tours`."""
    return and_(listed_clause(), Tour.visibility == TourVisibility.public)


# ------------------------------------------------------------------------------ managed and visible


def can_manage_tours_of(viewer: User, owner_id: int) -> bool:
    """Whose tours a viewer manages as a whole (the manage-media dashboard, counts, saved tours):
    one's own, or anybody's for an admin."""
    return viewer.is_admin or viewer.id == owner_id


def can_manage(viewer: User | None, tour: Tour) -> bool:
    if viewer is None:
        return False
    added_for_the_owner = viewer.is_content_manager and tour.created_by_user_id == viewer.id
    return can_manage_tours_of(viewer, tour.user_id) or added_for_the_owner


def managed_clause(viewer: User | None) -> ColumnElement[bool]:
    if viewer is None:
        return false()
    if viewer.is_admin:
        return true()
    own = Tour.user_id == viewer.id
    return or_(own, Tour.created_by_user_id == viewer.id) if viewer.is_content_manager else own


def is_visible(tour: Tour, viewer: User | None) -> bool:
    return is_listed(tour) or can_manage(viewer, tour)


def visible_clause(viewer: User | None) -> ColumnElement[bool]:
    return or_(listed_clause(), managed_clause(viewer))


def visible_tour(session: Session, *, viewer: User | None, guid: str) -> Tour:
    """The tour with this guid when the viewer may see it; else the not-found answer an unknown guid gets."""
    tour = session.scalar(select(Tour).where(Tour.guid == guid))
    if tour is None or not is_visible(tour, viewer):
        raise NotFound(NOT_FOUND_MESSAGE)
    return tour
