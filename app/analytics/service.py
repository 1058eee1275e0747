"""Analytics: recording events (the functions other domains call) and answering the creators'
analytics calls from the rollups plus the live part.

Reading a range: the caller's days are local days of an IANA time zone; their midnights are
quarter-hour boundaries in UTC, so the range is the buckets [lo, hi). Buckets below the rollups'
watermark W come from the rollup tables, buckets from W on from the events table (the live part:
at most a few minutes of events, plus today's current quarter hour). A bucket's local day is
`(bucket * 900 + offset) / 86400` with the zone's offset at that bucket: the offsets of the range
(a daylight-saving change or two a year) are found here and written into the SQL as a CASE, so
both databases group by local day with integer arithmetic and no time-zone support of their own.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import or_, select, text
from sqlalchemy.orm import Session

from app.ads.models import Ad
from app.analytics.models import BUCKET_SECONDS, BUCKETS_PER_DAY, EventKind, RollupState
from app.analytics.recorder import record
from app.analytics.rollup import STATE_NAME
from app.core.errors import BadRequest, Forbidden, NotFound
from app.creators.models import Creator
from app.tours.models import Tour
from app.users.models import User

MAX_DAYS = 366
DEFAULT_DAYS = 30
DEFAULT_TIME_ZONE = "UTC"
EARLIEST_DAY = date(2000, 1, 1)
LATEST_DAY = date(2199, 12, 31)
DAY_SECONDS = 86400
EPOCH_DAY = date(1970, 1, 1)

CREATOR_NOT_FOUND = "Creator not found"
CREATOR_REQUIRED = "Name the creator: creator_id or user_id"
NOT_YOUR_ANALYTICS = "You can only see your own analytics"

TOUR_KINDS = {EventKind.view: "views", EventKind.like: "likes", EventKind.save: "saves", EventKind.share: "shares"}


# ------------------------------------------------------------------------------------------ recording


def record_tour_event(
    db: Session,
    tour: Tour,
    kind: EventKind,
    *,
    value: int = 1,
    user_id: int | None = None,
    viewer_key: str | None = None,
) -> None:
    """A view, like, save or share of a tour (value -1 for an unlike / unsave), after commit."""
    record(db, kind, value=value, tour_id=tour.id, creator_id=tour.creator_id, user_id=user_id, viewer_key=viewer_key)


def record_follow(db: Session, creator_id: int, *, user_id: int, value: int = 1) -> None:
    """A follow of a creator (value -1 for an unfollow), after commit."""
    record(db, EventKind.follow, value=value, creator_id=creator_id, user_id=user_id, viewer_key=f"u:{user_id}")


def _ad_creator_id(db: Session, ad: Ad) -> int | None:
    if ad.creator_id is not None:
        return ad.creator_id
    return db.scalar(select(Creator.id).where(Creator.user_id == ad.user_id))


def record_ad_impression(db: Session, ad: Ad, *, user_id: int | None = None, viewer_key: str | None = None) -> None:
    """An ad was shown (the ads code calls this once per counted impression), after commit."""
    record(
        db,
        EventKind.ad_impression,
        ad_id=ad.id,
        creator_id=_ad_creator_id(db, ad),
        user_id=user_id,
        viewer_key=viewer_key,
    )


def record_ad_click(db: Session, ad: Ad, *, user_id: int | None = None, viewer_key: str | None = None) -> None:
    """An ad's link was followed, after commit."""
    record(
        db, EventKind.ad_click, ad_id=ad.id, creator_id=_ad_creator_id(db, ad), user_id=user_id, viewer_key=viewer_key
    )


# ------------------------------------------------------------------------------------------- ranges


@dataclass(frozen=True)
class Window:
    """A creator's range of local days, as buckets, and how to tell a bucket's local day."""

    creator: CreatorRef
    first: date
    last: date
    zone_name: str
    lo: int
    hi: int
    mid: int  # the watermark, within [lo, hi]: rollups below, events from here on
    day_sql: str

    def range_fields(self) -> dict[str, Any]:
        return {
            "creator_id": self.creator.id,
            "date_from": self.first,
            "date_to": self.last,
            "time_zone": self.zone_name,
        }

    def days(self) -> list[date]:
        return [self.first + timedelta(days=offset) for offset in range((self.last - self.first).days + 1)]


def parse_zone(name: str | None) -> tuple[str, ZoneInfo]:
    zone_name = (name or DEFAULT_TIME_ZONE).strip()
    message = "Unknown time zone: use an IANA name such as Europe/Berlin"
    if not zone_name or len(zone_name) > 64 or zone_name.startswith(("/", ".")) or ".." in zone_name:
        raise BadRequest(message, fields={"time_zone": message})
    try:
        return zone_name, ZoneInfo(zone_name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise BadRequest(message, fields={"time_zone": message}) from None


def day_range(zone: ZoneInfo, date_from: date | None, date_to: date | None) -> tuple[date, date]:
    """The local days asked for: by default the last 30 up to today (in the zone); at most 366."""
    last = date_to or datetime.now(zone).date()
    first = date_from or last - timedelta(days=DEFAULT_DAYS - 1)
    for name, value in (("date_from", first), ("date_to", last)):
        if not EARLIEST_DAY <= value <= LATEST_DAY:
            message = f"Dates run from {EARLIEST_DAY.isoformat()} to {LATEST_DAY.isoformat()}"
            raise BadRequest(message, fields={name: message})
    if first > last:
        message = "date_from must not be after date_to"
        raise BadRequest(message, fields={"date_from": message})
    if (last - first).days + 1 > MAX_DAYS:
        message = f"Ask for at most {MAX_DAYS} days at a time"
        raise BadRequest(message, fields={"date_from": message})
    return first, last


def local_midnight_bucket(day: date, zone: ZoneInfo) -> int:
    """The bucket starting at the zone's midnight of `day` (a midnight a clock change skips starts
    the day at the first instant that exists)."""
    moment = datetime.combine(day, time.min, tzinfo=zone)
    return int(moment.astimezone(UTC).timestamp()) // BUCKET_SECONDS


def _offset(zone: ZoneInfo, bucket: int) -> int:
    moment = datetime.fromtimestamp(bucket * BUCKET_SECONDS, UTC).astimezone(zone)
    offset = moment.utcoffset()
    return int(offset.total_seconds()) if offset is not None else 0


def zone_offsets(zone: ZoneInfo, lo: int, hi: int) -> list[tuple[int, int]]:
    """(first bucket, UTC offset in seconds) for each stretch of [lo, hi) with one offset. Probed
    once a day; a change is found to the bucket by bisection (changes fall on bucket boundaries)."""
    stretches = [(lo, _offset(zone, lo))]
    bucket = lo
    while bucket < hi:
        following = min(bucket + BUCKETS_PER_DAY, hi)
        if following < hi:
            offset = _offset(zone, following)
            if offset != stretches[-1][1]:
                low, high = bucket, following
                while high - low > 1:
                    middle = (low + high) // 2
                    if _offset(zone, middle) == stretches[-1][1]:
                        low = middle
                    else:
                        high = middle
                stretches.append((high, _offset(zone, high)))
        bucket = following
    return stretches


def day_expression(stretches: list[tuple[int, int]]) -> str:
    """SQL for a bucket's local day number (days since 1970-01-01). Only integers we computed go
    into the text."""
    if len(stretches) == 1:
        offset_sql = str(int(stretches[0][1]))
    else:
        whens = " ".join(
            f"WHEN bucket < {int(start)} THEN {int(previous[1])}"
            for previous, (start, _offset_value) in itertools.pairwise(stretches)
        )
        offset_sql = f"CASE {whens} ELSE {int(stretches[-1][1])} END"
    return f"((bucket * {BUCKET_SECONDS} + {offset_sql}) / {DAY_SECONDS})"


@dataclass(frozen=True)
class CreatorRef:
    id: int
    user_id: int


def resolve_creator(db: Session, caller: User, creator_id: int | None, user_id: int | None) -> tuple[CreatorRef, int]:
    """The creator whose analytics are asked (one's own, or for admins any named by creator_id or
    user_id) and the rollups' watermark, in one query."""
    if creator_id is None and user_id is None:
        condition = Creator.user_id == caller.id
    elif creator_id is not None:
        condition = Creator.id == creator_id
    else:
        condition = Creator.user_id == user_id
    mark = select(RollupState.watermark).where(RollupState.name == STATE_NAME).scalar_subquery()
    row = db.execute(select(Creator.id, Creator.user_id, mark).where(condition)).one_or_none()
    if row is None and creator_id is None and user_id is None:
        raise BadRequest(CREATOR_REQUIRED, fields={"creator_id": CREATOR_REQUIRED})
    if row is None or (user_id is not None and row.user_id != user_id):
        if not caller.is_admin:
            raise Forbidden(NOT_YOUR_ANALYTICS)
        raise NotFound(CREATOR_NOT_FOUND)
    if row.user_id != caller.id and not caller.is_admin:
        raise Forbidden(NOT_YOUR_ANALYTICS)
    return CreatorRef(int(row.id), int(row.user_id)), int(row[2] or 0)


def window(
    db: Session,
    caller: User,
    *,
    creator_id: int | None = None,
    user_id: int | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
    time_zone: str | None = None,
) -> Window:
    zone_name, zone = parse_zone(time_zone)
    creator, mark = resolve_creator(db, caller, creator_id, user_id)
    first, last = day_range(zone, date_from, date_to)
    lo = local_midnight_bucket(first, zone)
    hi = local_midnight_bucket(last + timedelta(days=1), zone)
    mid = min(max(mark, lo), hi)
    return Window(creator, first, last, zone_name, lo, hi, mid, day_expression(zone_offsets(zone, lo, hi)))


# ------------------------------------------------------------------------------------------ reading


def _case(kind: str) -> str:
    return f"CASE WHEN kind = '{kind}' THEN value ELSE 0 END"


CREATOR_COLUMNS = ("views", "likes", "saves", "shares", "follows", "impressions", "clicks")
_CREATOR_LIVE = (
    f"{_case('view')}, {_case('like')}, {_case('save')}, {_case('share')}, {_case('follow')}, "
    f"{_case('ad_impression')}, {_case('ad_click')}"
)


def creator_days(db: Session, win: Window) -> dict[date, dict[str, int]]:
    """Every day of the range with the creator's counts per kind (zeros included)."""
    columns = ", ".join(CREATOR_COLUMNS)
    sums = ", ".join(f"SUM({name})" for name in CREATOR_COLUMNS)
    statement = f"""
        SELECT day, {sums} FROM (
            SELECT {win.day_sql} AS day, {columns} FROM analytics_creator_rollups
            WHERE creator_id = :creator AND bucket >= :lo AND bucket < :mid
            UNION ALL
            SELECT {win.day_sql} AS day, {_CREATOR_LIVE} FROM analytics_events
            WHERE creator_id = :creator AND bucket >= :mid AND bucket < :hi
        ) AS counted GROUP BY day
    """
    rows = db.execute(text(statement), {"creator": win.creator.id, "lo": win.lo, "mid": win.mid, "hi": win.hi}).all()
    counted = {EPOCH_DAY + timedelta(days=int(row[0])): row[1:] for row in rows}
    result: dict[date, dict[str, int]] = {}
    for day in win.days():
        values = counted.get(day)
        result[day] = {name: int(values[index] or 0) if values else 0 for index, name in enumerate(CREATOR_COLUMNS)}
    return result


def totals_of(days: dict[date, dict[str, int]]) -> dict[str, int]:
    return {name: sum(counts[name] for counts in days.values()) for name in CREATOR_COLUMNS}


def tour_day_split(win: Window) -> dict[str, int]:
    """Where the per-tour table reads what: the tour rollups hold whole UTC days that ended before the
    watermark (days [day_lo, day_hi)); the events give the rest of the range, the part of a local day
    before the first whole UTC day ([lo, head_end)) and everything from the last one on ([tail_start, hi)).
    Without a whole UTC day inside, the events give it all."""
    day_lo = -(-win.lo // BUCKETS_PER_DAY)
    day_hi = win.mid // BUCKETS_PER_DAY
    if day_lo >= day_hi:
        return {"day_lo": 0, "day_hi": 0, "head_end": win.hi, "tail_start": win.hi}
    return {
        "day_lo": day_lo,
        "day_hi": day_hi,
        "head_end": day_lo * BUCKETS_PER_DAY,
        "tail_start": day_hi * BUCKETS_PER_DAY,
    }


def tour_rows(db: Session, win: Window, *, limit: int, offset: int) -> tuple[list[dict[str, Any]], int]:
    """The creator's tours with their counts in the range, most viewed first, and how many tours."""
    live = ", ".join(f"{_case(kind.value)} AS {name}" for kind, name in TOUR_KINDS.items())
    events = f"""
                SELECT tour_id, {live} FROM analytics_events
                WHERE creator_id = :creator AND tour_id IS NOT NULL"""
    statement = f"""
        SELECT t.guid, t.title, t.preview_picture, t.status,
               COALESCE(c.views, 0), COALESCE(c.likes, 0), COALESCE(c.saves, 0), COALESCE(c.shares, 0)
        FROM tours AS t LEFT JOIN (
            SELECT tour_id, SUM(views) AS views, SUM(likes) AS likes, SUM(saves) AS saves, SUM(shares) AS shares
            FROM (
                SELECT tour_id, views, likes, saves, shares FROM analytics_tour_rollups
                WHERE creator_id = :creator AND day >= :day_lo AND day < :day_hi
                UNION ALL {events} AND bucket >= :lo AND bucket < :head_end
                UNION ALL {events} AND bucket >= :tail_start AND bucket < :hi
            ) AS counted GROUP BY tour_id
        ) AS c ON c.tour_id = t.id
        WHERE t.creator_id = :creator
        ORDER BY COALESCE(c.views, 0) DESC, t.id
        LIMIT :limit OFFSET :offset
    """
    params = {"creator": win.creator.id, "lo": win.lo, "hi": win.hi, "limit": limit, "offset": offset}
    params.update(tour_day_split(win))
    rows = [
        {
            "id": guid,
            "title": title,
            "preview_picture": picture,
            "status": str(getattr(status, "value", status)),
            "views": int(views),
            "likes": int(likes),
            "saves": int(saves),
            "shared": int(shares),
        }
        for guid, title, picture, status, views, likes, saves, shares in db.execute(text(statement), params)
    ]
    total = db.scalar(text("SELECT COUNT(*) FROM tours WHERE creator_id = :creator"), {"creator": win.creator.id})
    return rows, int(total or 0)


def ad_rows(db: Session, win: Window, *, limit: int, offset: int) -> tuple[list[dict[str, Any]], int]:
    """The creator's ads (theirs by creator or by owner) with impressions and clicks in the range."""
    owned = or_(Ad.creator_id == win.creator.id, Ad.user_id == win.creator.user_id)
    ad_ids = select(Ad.id).where(owned)
    total = len(db.scalars(ad_ids).all())
    statement = f"""
        SELECT a.guid, a.title, a.preview_picture, a.status, COALESCE(c.impressions, 0), COALESCE(c.clicks, 0)
        FROM ads AS a LEFT JOIN (
            SELECT ad_id, SUM(impressions) AS impressions, SUM(clicks) AS clicks FROM (
                SELECT ad_id, impressions, clicks FROM analytics_ad_rollups
                WHERE creator_id = :creator AND bucket >= :lo AND bucket < :mid
                UNION ALL
                SELECT ad_id, {_case("ad_impression")} AS impressions, {_case("ad_click")} AS clicks
                FROM analytics_events
                WHERE creator_id = :creator AND ad_id IS NOT NULL AND bucket >= :mid AND bucket < :hi
            ) AS counted GROUP BY ad_id
        ) AS c ON c.ad_id = a.id
        WHERE a.creator_id = :creator OR a.user_id = :owner
        ORDER BY COALESCE(c.impressions, 0) DESC, a.id
        LIMIT :limit OFFSET :offset
    """
    params = {
        "creator": win.creator.id,
        "owner": win.creator.user_id,
        "lo": win.lo,
        "mid": win.mid,
        "hi": win.hi,
        "limit": limit,
        "offset": offset,
    }
    rows = [
        {
            "id": guid,
            "title": title,
            "preview_picture": picture,
            "status": str(getattr(status, "value", status)),
            "impressions": int(impressions),
            "clicks": int(clicks),
        }
        for guid, title, picture, status, impressions, clicks in db.execute(text(statement), params)
    ]
    return rows, total
