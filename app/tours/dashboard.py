"""The owner's side of tours beyond a single tour (spec §3, §4 "Media", §7 `/v2/virtualtours/`): the
manage-media dashboard (`user/{userid}`: the owner's tours by state, filtered and sorted, and
`counts/{user_id}`), the featured tours (a creator's up to 10 in their order, or the platform's
Featured feed for admins) and the daily featured submission (`send-tour-today`, one a day).

Who may look at whose tours, and the tours themselves, come from `service`. Services never commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Select, case, delete, func, select
from sqlalchemy.orm import Session

from app.core import outbox_topics
from app.core.db import utcnow
from app.core.errors import Conflict, Forbidden, NotFound, field_error
from app.core.settings import get_settings
from app.creators.models import MAX_FEATURED_TOURS, CreatorFeaturedTour
from app.notifications.mailer import queue_mail
from app.tours import rules
from app.tours.models import ApprovalState, DailyFeaturedSubmission, Tour, TourStatus, TourVisibility
from app.tours.queries import is_discoverable, published_clause
from app.tours.schemas import (
    FeaturedScope,
    FeaturedToursBody,
    TourCounts,
    TourTodayBody,
    UserTourSort,
    UserToursPage,
    UserTourStatus,
)
from app.tours.service import (
    ADMINS_ONLY,
    NOT_YOURS,
    clean_text,
    count_rows,
    edit_pending_ids,
    escape_like,
    managed_tour,
    owner_visible_to,
    tour_out,
    tours_by_guids,
)
from app.users.models import User
from app.users.validation import has_profanity

TOO_MANY_FEATURED = "You can't add more than 10 featured locations"
ALREADY_SUBMITTED_TODAY = "You have already submitted a tour today: come back tomorrow"
ONLY_LISTED = "Only published public tours can be featured"
ONLY_OWN_SUBMITTED = "You can submit only your own tours"


# ------------------------------------------------------------------------------ the owner's dashboard


@dataclass(frozen=True, slots=True)
class UserToursQuery:
    status: UserTourStatus
    sort: UserTourSort
    descending: bool
    vendor_id: int | None
    category_id: int | None
    subcategory_id: int | None
    search: str | None
    limit: int
    offset: int


STATUS_CLAUSES = {
    UserTourStatus.active: (published_clause(),),
    UserTourStatus.pending: (Tour.status == TourStatus.active, Tour.approval_state == ApprovalState.pending),
    UserTourStatus.rejected: (Tour.status == TourStatus.active, Tour.approval_state == ApprovalState.rejected),
    UserTourStatus.draft: (Tour.status == TourStatus.draft,),
    UserTourStatus.unlisted: (Tour.visibility == TourVisibility.unlisted,),
}


def user_tours_page(session: Session, *, owner: User, viewer: User, query: UserToursQuery) -> UserToursPage:
    statement = select(Tour).where(Tour.user_id == owner.id, *STATUS_CLAUSES.get(query.status, ()))
    if query.vendor_id is not None:
        statement = statement.where(Tour.vendor_id == query.vendor_id)
    if query.category_id is not None:
        statement = statement.where(Tour.category_id == query.category_id)
    if query.subcategory_id is not None:
        statement = statement.where(Tour.subcategory_id == query.subcategory_id)
    if query.search and query.search.strip():
        statement = statement.where(Tour.title.ilike(f"%{escape_like(query.search.strip())}%", escape="\\"))
    total = count_rows(session, statement)
    tours = list(session.scalars(_ordered(statement, owner, query).limit(query.limit).offset(query.offset)))
    edits = edit_pending_ids(session, [tour.id for tour in tours])
    return UserToursPage(
        data=[tour_out(tour, viewer, edit_pending=tour.id in edits) for tour in tours],
        total_items=total,
        limit=query.limit,
        offset=query.offset,
    )


def _ordered(statement: Select[Any], owner: User, query: UserToursQuery) -> Select[Any]:
    if query.sort == UserTourSort.by_title:
        title = func.lower(Tour.title)
        return statement.order_by(title.desc() if query.descending else title.asc(), Tour.id)
    created = Tour.created_at.desc() if query.descending else Tour.created_at.asc()
    if query.sort == UserTourSort.by_date:
        return statement.order_by(created, Tour.id.desc())
    # Featured first, in the creator's order (drag ordering), then the rest by date.
    creator_id = owner.creator.id if owner.creator is not None else -1
    slot = (
        select(CreatorFeaturedTour.position)
        .where(CreatorFeaturedTour.creator_id == creator_id, CreatorFeaturedTour.tour_id == Tour.id)
        .scalar_subquery()
    )
    return statement.order_by(case((slot.is_(None), 1), else_=0), slot, created, Tour.id.desc())


def tour_counts(session: Session, owner: User) -> TourCounts:
    rows = session.execute(
        select(Tour.status, Tour.approval_state, func.count())
        .where(Tour.user_id == owner.id)
        .group_by(Tour.status, Tour.approval_state)
    ).all()
    counts = {state: 0 for state in UserTourStatus}
    for status, approval, count in rows:
        if status == TourStatus.draft:
            counts[UserTourStatus.draft] += count
        else:
            counts[UserTourStatus(approval.value if approval != ApprovalState.approved else "active")] += count
    featured = 0
    if owner.creator is not None:
        featured = int(
            session.scalar(
                select(func.count())
                .select_from(CreatorFeaturedTour)
                .where(CreatorFeaturedTour.creator_id == owner.creator.id)
            )
            or 0
        )
    return TourCounts(
        total=sum(count for _status, _approval, count in rows),
        active=counts[UserTourStatus.active],
        draft=counts[UserTourStatus.draft],
        pending=counts[UserTourStatus.pending],
        rejected=counts[UserTourStatus.rejected],
        featured=featured,
        unlisted=int(
            session.scalar(
                select(func.count())
                .select_from(Tour)
                .where(Tour.user_id == owner.id, Tour.visibility == TourVisibility.unlisted)
            )
            or 0
        ),
    )


# ------------------------------------------------------------------------------ featured tours


def set_featured_tours(session: Session, *, editor: User, body: FeaturedToursBody) -> list[str]:
    if body.scope == FeaturedScope.platform:
        if not editor.is_admin:
            raise Forbidden(ADMINS_ONLY)
        return _set_platform_featured(session, body.tours)
    owner = owner_visible_to(session, viewer=editor, userid=body.userid if body.userid is not None else editor.id)
    creator = owner.creator
    if creator is None:
        raise NotFound("Creator profile not found")
    guids = list(dict.fromkeys(body.tours))
    if len(guids) > MAX_FEATURED_TOURS:
        raise field_error("tours", TOO_MANY_FEATURED)
    tours = tours_by_guids(session, guids)
    if any(tour.user_id != owner.id for tour in tours):
        raise Forbidden(NOT_YOURS)
    if any(tour.status != TourStatus.active for tour in tours):
        raise field_error("tours", "Drafts cannot be featured")
    session.execute(delete(CreatorFeaturedTour).where(CreatorFeaturedTour.creator_id == creator.id))
    session.add_all(
        CreatorFeaturedTour(creator_id=creator.id, tour_id=tour.id, position=position)
        for position, tour in enumerate(tours)
    )
    session.flush()
    session.expire(creator, ["featured_tours"])
    outbox_topics.creator_changed(session, creator.id)
    return guids


def _set_platform_featured(session: Session, guids: Sequence[str]) -> list[str]:
    """The Featured feed: exactly these listed tours, in this order."""
    wanted = list(dict.fromkeys(guids))
    tours = tours_by_guids(session, wanted)
    if any(not is_discoverable(tour) for tour in tours):  # the Featured feed is discovery
        raise field_error("tours", ONLY_LISTED)
    keep = {tour.id for tour in tours}
    for tour in session.scalars(select(Tour).where(Tour.is_featured.is_(True))):
        if tour.id not in keep:
            tour.is_featured, tour.featured_order = False, None
            outbox_topics.tour_changed(session, tour.id)
    for position, tour in enumerate(tours, start=1):
        tour.is_featured, tour.featured_order = True, position
        outbox_topics.tour_changed(session, tour.id)
    session.flush()
    return wanted


def submit_tour_today(session: Session, *, user: User, body: TourTodayBody) -> DailyFeaturedSubmission:
    """Spec §3 Daily featured submission: one a day per user, of a listed tour of one's own (an
    admin too submits only their own). The administrators are mailed in the same transaction."""
    tour = managed_tour(session, editor=user, guid=body.guid)
    if tour.user_id != user.id:
        raise Forbidden(ONLY_OWN_SUBMITTED)
    if not is_discoverable(tour):  # featured on the platform: an unlisted tour would be shown to all
        raise field_error("guid", "Only published public tours can be submitted")
    description = clean_text(body.description)
    if description and has_profanity(description):
        raise field_error("description", "Invalid Description")
    links = {name: value.strip() for name, value in body.social_links.model_dump().items() if value and value.strip()}
    for name, value in links.items():
        if not value.lower().startswith("https://"):
            raise field_error(name, rules.WEBSITE_HTTPS)
    midnight = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    already = session.scalar(
        select(func.count())
        .select_from(DailyFeaturedSubmission)
        .where(DailyFeaturedSubmission.user_id == user.id, DailyFeaturedSubmission.created_at >= midnight)
    )
    if already:
        raise Conflict(ALREADY_SUBMITTED_TODAY)
    submission = DailyFeaturedSubmission(
        user_id=user.id,
        tour_id=tour.id,
        description=description,
        social_links=links,
        consent_creator_mention=body.consent,
        created_at=utcnow(),
        status=ApprovalState.pending,
    )
    session.add(submission)
    session.flush()
    _mail_admins_about(session, user=user, tour=tour, submission=submission)
    return submission


def _mail_admins_about(session: Session, *, user: User, tour: Tour, submission: DailyFeaturedSubmission) -> None:
    """Tell every active administrator what was submitted, so one can feature it."""
    admins = session.scalars(
        select(User).where(User.is_admin.is_(True), User.is_active.is_(True), User.is_deleted.is_(False))
    ).all()
    who = user.platform_username or user.email
    link = f"{get_settings().public_url.rstrip('/')}/virtualtours/{tour.guid}"
    links = [f"  {name}: {value}" for name, value in sorted(submission.social_links.items())] or ["  none"]
    lines = [
        f"{who} submits a tour to the daily featured-tour programme:",
        "",
        f"Tour: {tour.title}",
        f"Link: {link}",
        f"Description: {submission.description or 'none'}",
        "Social links:",
        *links,
        f"May be mentioned as the creator: {'yes' if submission.consent_creator_mention else 'no'}",
    ]
    for admin in admins:
        queue_mail(
            session,
            to_address=admin.email,
            subject=f"Daily featured tour submitted: {tour.title}",
            body_text="\n".join(lines),
            template="tours.daily_featured_submission",
        )
