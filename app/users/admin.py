"""The admin's side of accounts (spec §6 Admin "users (activate, deactivate, settings, stats)"):
the moderation list, per-account settings, account statistics, API usage and mail to a user.

Services never commit: the request's session commits once (app/core/db.py).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Select, Text, cast, func, select
from sqlalchemy.orm import Session, selectinload

from app.core import daily_series
from app.core.db import utcnow
from app.core.errors import BadRequest
from app.creators.models import Creator
from app.notifications.mailer import queue_mail
from app.notifications.models import OutgoingMail
from app.tours.models import Tour
from app.users import service as users
from app.users.models import CONTENT_MANAGER_ROLE, BetaTesterAnswer, SessionActivity, User, UserSession

KNOWN_ROLES = frozenset({CONTENT_MANAGER_ROLE})
UNKNOWN_ROLE = f"Unknown role; known roles: {', '.join(sorted(KNOWN_ROLES))}"
OWN_ADMIN_RIGHTS = "You cannot remove your own administrator rights"
OWN_BLOCK = "You cannot block your own account"
MAX_STATISTIC_DAYS = daily_series.MAX_DAYS
DEFAULT_STATISTIC_DAYS = daily_series.DEFAULT_DAYS
ADMIN_MAIL_TEMPLATE = "admin_message"


# ------------------------------------------------------------------------------ moderation list


def _state_condition(state: str) -> ColumnElement[bool] | None:
    not_deleted = User.is_deleted.is_(False)
    conditions: dict[str, ColumnElement[bool] | None] = {
        "all": not_deleted,
        "active": not_deleted & User.is_active.is_(True) & User.user_active.is_(True),
        "drafted": not_deleted & User.is_active.is_(False),
        "blocked": not_deleted & User.is_active.is_(True) & User.user_active.is_(False),
        "deleted": User.is_deleted.is_(True),
    }
    return conditions[state]


def _has_creator_profile() -> ColumnElement[bool]:
    return select(Creator.id).where(Creator.user_id == User.id, Creator.is_active.is_(True)).exists()


def is_content_manager() -> ColumnElement[bool]:
    # roles is a JSON list; the tag is matched on its serialised form, which works on both databases.
    return func.coalesce(cast(User.roles, Text), "").like(f'%"{CONTENT_MANAGER_ROLE}"%')


def _role_condition(role: str) -> ColumnElement[bool]:
    conditions: dict[str, ColumnElement[bool]] = {
        "admin": User.is_admin.is_(True),
        "cm": is_content_manager(),
        "creator": _has_creator_profile(),
        "potential_creator": User.potential_creator.is_(True),
        "user": User.is_admin.is_(False) & ~_has_creator_profile(),
    }
    return conditions[role]


def moderation_users(
    session: Session, *, pattern: str | None, state: str, role: str | None, sorting: str, limit: int, offset: int
) -> tuple[list[User], dict[int, int], int]:
    """GET get-moderation-users: one page of accounts, each with the number of tours it owns, and
    the total matching."""
    statement = select(User)
    state_condition = _state_condition(state)
    if state_condition is not None:
        statement = statement.where(state_condition)
    if pattern and pattern.strip():
        statement = statement.where(users.matches_pattern(pattern))
    if role:
        statement = statement.where(_role_condition(role))
    total = session.scalar(select(func.count()).select_from(statement.subquery())) or 0
    order = {
        "newest": (User.created_at.desc(), User.id.desc()),
        "oldest": (User.created_at.asc(), User.id.asc()),
        "name": (func.lower(User.first_name + " " + User.last_name), User.id),
    }[sorting]
    page = session.scalars(
        statement.options(selectinload(User.creator)).order_by(*order).limit(limit).offset(offset)
    ).all()
    return list(page), _tour_counts(session, [user.id for user in page]), total


def _tour_counts(session: Session, user_ids: list[int]) -> dict[int, int]:
    if not user_ids:
        return {}
    statement = select(Tour.user_id, func.count()).where(Tour.user_id.in_(user_ids)).group_by(Tour.user_id)
    return {user_id: count for user_id, count in session.execute(statement).all()}


# ----------------------------------------------------------------------------------- statistics


def _count(session: Session, statement: Select[Any]) -> int:
    return session.scalar(select(func.count()).select_from(statement.subquery())) or 0


def joined_per_day(session: Session, first: date, last: date) -> daily_series.DailySeries:
    """GET admin-stats `daily`: accounts created on each day of the range (deleted ones included:
    they joined then)."""
    return daily_series.daily_counts(session, User.created_at, first, last)


def user_stats(session: Session) -> dict[str, int]:
    """GET admin-stats: the accounts by state and role, and how many joined lately."""
    now = utcnow()
    kept = select(User.id).where(User.is_deleted.is_(False))

    def where(*conditions: ColumnElement[bool]) -> int:
        return _count(session, kept.where(*conditions))

    return {
        "total": _count(session, kept),
        "active": where(User.is_active.is_(True), User.user_active.is_(True)),
        "drafted": where(User.is_active.is_(False)),
        "blocked": where(User.is_active.is_(True), User.user_active.is_(False)),
        "deleted": _count(session, select(User.id).where(User.is_deleted.is_(True))),
        "creators": where(_has_creator_profile()),
        "potential_creators": where(User.potential_creator.is_(True)),
        "admins": where(User.is_admin.is_(True)),
        "content_managers": where(is_content_manager()),
        "beta_testers": where(select(BetaTesterAnswer.id).where(BetaTesterAnswer.user_id == User.id).exists()),
        "new_last_7_days": where(User.created_at >= now - timedelta(days=7)),
        "new_last_30_days": where(User.created_at >= now - timedelta(days=30)),
    }


@dataclass
class DayUsage:
    sessions: int = 0
    user_sessions: int = 0
    guest_sessions: int = 0
    active_users: int = 0
    activities: int = 0
    by_code: dict[str, int] = field(default_factory=dict)


@dataclass
class ApiUsage:
    date_from: date
    date_to: date
    totals: DayUsage
    activity_codes: list[tuple[str, int]]
    days: dict[str, DayUsage]


def statistic_range(date_from: date | None, date_to: date | None) -> tuple[date, date]:
    """The UTC days asked for: by default the last 30 days up to today; at most 366 days."""
    return daily_series.day_range(date_from, date_to)


def _utc_day(session: Session, column: Any) -> ColumnElement[str]:
    return daily_series.utc_day(session, column)


def api_usage(session: Session, first: date, last: date, activity_code: str | None = None) -> ApiUsage:
    """GET get-api-statistic: what the platform records of its use, per UTC day — sessions started
    (by accounts and by guests), session activities per code, and the distinct accounts active.
    `activity_code` narrows the activity figures to one code."""
    start = datetime.combine(first, time.min, tzinfo=UTC)
    end = datetime.combine(last + timedelta(days=1), time.min, tzinfo=UTC)
    days = {(first + timedelta(days=offset)).isoformat(): DayUsage() for offset in range((last - first).days + 1)}
    _add_sessions(session, days, start, end)
    activity_filter = [SessionActivity.created_at >= start, SessionActivity.created_at < end]
    if activity_code:
        activity_filter.append(SessionActivity.activity_code == activity_code)
    _add_activities(session, days, activity_filter)
    totals = DayUsage(
        sessions=sum(day.sessions for day in days.values()),
        user_sessions=sum(day.user_sessions for day in days.values()),
        guest_sessions=sum(day.guest_sessions for day in days.values()),
        activities=sum(day.activities for day in days.values()),
        active_users=session.scalar(select(func.count(func.distinct(SessionActivity.userid))).where(*activity_filter))
        or 0,
    )
    by_code: dict[str, int] = defaultdict(int)
    for day in days.values():
        for code, count in day.by_code.items():
            by_code[code] += count
    ranked = sorted(by_code.items(), key=lambda pair: (-pair[1], pair[0]))
    return ApiUsage(date_from=first, date_to=last, totals=totals, activity_codes=ranked, days=days)


def _add_sessions(session: Session, days: dict[str, DayUsage], start: datetime, end: datetime) -> None:
    day = _utc_day(session, UserSession.started_at)
    statement = (
        select(day, UserSession.user_id.is_not(None), func.count())
        .where(UserSession.started_at >= start, UserSession.started_at < end)
        .group_by(day, UserSession.user_id.is_not(None))
    )
    for day_text, by_user, count in session.execute(statement).all():
        usage = days.get(str(day_text))
        if usage is None:
            continue
        usage.sessions += count
        if by_user:
            usage.user_sessions += count
        else:
            usage.guest_sessions += count


def _add_activities(session: Session, days: dict[str, DayUsage], conditions: list[ColumnElement[bool]]) -> None:
    day = _utc_day(session, SessionActivity.created_at)
    per_code = (
        select(day, SessionActivity.activity_code, func.count())
        .where(*conditions)
        .group_by(day, SessionActivity.activity_code)
    )
    for day_text, code, count in session.execute(per_code).all():
        if (usage := days.get(str(day_text))) is not None:
            usage.by_code[code] = count
            usage.activities += count
    per_day_users = select(day, func.count(func.distinct(SessionActivity.userid))).where(*conditions).group_by(day)
    for day_text, count in session.execute(per_day_users).all():
        if (usage := days.get(str(day_text))) is not None:
            usage.active_users = count


# ------------------------------------------------------------------------------ account settings


def update_settings(session: Session, *, admin: User, user: User, changes: dict[str, Any]) -> None:
    """POST admin-user-settings: roles, trust, creator intent, blocking and the approval flags.
    An admin cannot lock themself out (own admin rights, own block)."""
    _check_settings(admin, user, changes)
    for name, value in changes.items():
        setattr(user, name, sorted(set(value)) if name == "roles" else value)
    if "trusted" in changes and user.creator is not None:
        # Tours and creator edits read the creator's flag: one answer to "is this person trusted".
        user.creator.trusted = changes["trusted"]
    session.flush()


def _check_settings(admin: User, user: User, changes: dict[str, Any]) -> None:
    if unknown := set(changes.get("roles") or ()) - KNOWN_ROLES:
        raise BadRequest(UNKNOWN_ROLE, fields={"roles": f"{UNKNOWN_ROLE} (not {', '.join(sorted(unknown))})"})
    if user.id == admin.id and changes.get("is_admin") is False:
        raise BadRequest(OWN_ADMIN_RIGHTS, fields={"is_admin": OWN_ADMIN_RIGHTS})
    if user.id == admin.id and changes.get("user_active") is False:
        raise BadRequest(OWN_BLOCK, fields={"user_active": OWN_BLOCK})


# ----------------------------------------------------------------------------------- mail a user


def send_mail(session: Session, *, user: User, subject: str, text: str) -> OutgoingMail:
    """GET send-mail: an admin's message to one account, through the mail port."""
    failures = {"subject": subject.strip() == "", "text": text.strip() == ""}
    if fields := {name: "This field is required" for name, empty in failures.items() if empty}:
        raise BadRequest(next(iter(fields.values())), fields=fields)
    return queue_mail(
        session, to_address=user.email, subject=subject.strip(), body_text=text.strip(), template=ADMIN_MAIL_TEMPLATE
    )
