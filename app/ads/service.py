"""Ads (spec §3 Ad card, §4 "ads and ad edits wait for approval", §5 media form rules where they apply,
§6 "Creator: add tours and ads", admins on a user's behalf; §7 Ads): adding and editing under the
rules, the owner's tasks (activate, deactivate, approve), deleting, reading, the owner's lists and
counts, likes / saves / shares exact under concurrency (the engagement building blocks of
app/engagement/service.py), and impressions and clicks counted in ONE place each
(`count_impression`, `count_click`).

Who sees and manages an ad is app/ads/queries.py's rule. A new ad of anyone but an admin waits as a
'new ad' approval item; an edit of an approved ad waits as an 'ad edit' item while the published
version stays (app/ads/approvals.py decides both through the one approval model). Every change
records an `index.ad` outbox entry (the feed's Sponsored cards follow after the commit) and, with
embeddings on, asks the worker for the ad's embedding. Services never commit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import ColumnElement, bindparam, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, object_session

from app.ads import queries
from app.ads.models import MAX_TAGS_PER_AD, Ad, AdApprovalState, AdEngagement, AdEngagementKind, AdStatus, AdTag
from app.ads.queries import NOT_FOUND_MESSAGE, can_manage, served_clause
from app.ads.queries import visible_ad as visible_ad  # re-exported: the router reads it here
from app.ads.schemas import (
    AdCardOut,
    AdCountersOut,
    AdCounts,
    AdOut,
    AdsPage,
    AdTagOut,
    AdTagsAnswer,
    AdTaskName,
    AdUpdate,
    AdUserStatus,
    AdWrite,
    LinkExistsAnswer,
)
from app.analytics import service as analytics
from app.classifications.models import Rank, RankEntityType, Tag
from app.core import outbox_topics
from app.core.db import DirectRead, utcnow
from app.core.errors import BadRequest, Conflict, Forbidden, NotFound
from app.core.settings import get_settings
from app.core.tasks import submit_after_commit
from app.core.types import DB_INT_MAX
from app.engagement.service import Viewer, delete_rows, insert_if_absent, step
from app.moderation import decisions, pending_edits
from app.moderation import service as moderation
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.tours import images
from app.tours.schemas import TagOut
from app.tours.service import as_utc, count_rows, escape_like
from app.users import owners
from app.users.models import User
from app.users.validation import has_profanity, raise_for_fields

# The task that computes ads' embeddings (app/ads/tasks.py); services submit it by this name.
EMBED_ADS_TASK = "embeddings.ads"

NOT_YOURS = "You can only manage your own ads"
ADMINS_ONLY = "Administrators only"
ADDED = "Your ad has been added"
ADDED_PENDING = "Your ad has been added and waits for an administrator's approval"
UPDATED = "Your ad has been updated"
EDIT_PENDING = "Your changes are saved and wait for an administrator's approval; the published ad stays until then"

LINK_REQUIRED = "Link is required"
LINK_HTTPS = "The link must start with https://"
LINK_EXISTS = "Error: Link already exists"
TITLE_REQUIRED = "Title is required"
INVALID_TITLE = "Invalid Title"
INVALID_DESCRIPTION = "Invalid description"
TOO_MANY_TAGS = f"At most {MAX_TAGS_PER_AD} tags"
UNKNOWN_TAGS = "Unknown tags"
IMAGE_REQUIRED = "Image are required"
IMAGE_NOT_FOUND = "The image was not found: upload it again"
IMAGE_LINK = "The image must be an uploaded image or an https:// address"
CANNOT_SAVE_OWN = "You cannot save your own ad"

AD_KINDS = (ApprovalKind.new_ad, ApprovalKind.ad_edit)
# The approval items' entity_type of an ad.
AD = "ad"
# An impression or click without a page-view id counts once per viewer per UTC day.
DAY = timedelta(days=1)

_HTTPS_URL = re.compile(r"^https://[^\s/?#]+\.[^\s/?#]+(?:[/?#]\S*)?$", re.IGNORECASE)


# ------------------------------------------------------------------------------ lookups and access


def ad_id_of(text: str) -> int:
    """The ad id in `/{id}`: a word or a number beyond the ids is an ad that does not exist (404)."""
    if not text.isascii() or not text.isdigit() or not 0 < int(text) <= DB_INT_MAX:
        raise NotFound(NOT_FOUND_MESSAGE)
    return int(text)


def ad_by_id(session: Session, ad_id: int) -> Ad:
    ad = session.get(Ad, ad_id)
    if ad is None:
        raise NotFound(NOT_FOUND_MESSAGE)
    return ad


def managed_ad(session: Session, *, editor: User, ad_id: int) -> Ad:
    ad = ad_by_id(session, ad_id)
    if not can_manage(editor, ad):
        raise Forbidden(NOT_YOURS)
    return ad


def ad_by_link(session: Session, link: str) -> Ad | None:
    return session.scalar(select(Ad).where(Ad.link == link.strip()))


def link_exists(session: Session, *, viewer: User, link: str) -> LinkExistsAnswer:
    ad = ad_by_link(session, link)
    if ad is None:
        return LinkExistsAnswer(exists=False)
    return LinkExistsAnswer(exists=True, id=ad.id if queries.is_served(ad) or can_manage(viewer, ad) else None)


def owner_visible_to(session: Session, *, viewer: User, userid: int) -> User:
    """The account whose ads a call manages: one's own, or any for an admin."""
    allowed = viewer.is_admin or viewer.id == userid
    return owners.managed_owner(session, viewer=viewer, userid=userid, allowed=allowed, not_yours=NOT_YOURS)


def _owner_for_add(session: Session, editor: User, userid: int | None) -> User:
    return owners.owner_for_add(
        session,
        editor=editor,
        userid=userid,
        may_add_for_others=editor.is_admin,
        refusal="Only administrators add ads for other accounts",
    )


# ------------------------------------------------------------------------------ the form rules


@dataclass(frozen=True, slots=True)
class CheckedAd:
    title: str
    description: str | None
    link: str
    preview_picture: str
    tag_ids: list[int]

    def content(self) -> dict[str, Any]:
        """The form's content as column values (JSON-ready: an ad edit keeps it in its approval item)."""
        return {
            "title": self.title,
            "description": self.description,
            "link": self.link,
            "preview_picture": self.preview_picture,
            "tag_ids": self.tag_ids,
        }


def _clean(text: str | None) -> str | None:
    stripped = (text or "").strip()
    return stripped or None


def _check_preview(value: str | None, current: Ad | None) -> str | None:
    if not value:
        return IMAGE_REQUIRED
    if current is not None and value == current.preview_picture:
        return None
    if value.startswith("/uploads/"):
        return None if images.is_stored_preview(value) else IMAGE_NOT_FOUND
    return None if _HTTPS_URL.match(value) else IMAGE_LINK


def _check_tags(session: Session, body: AdWrite, failures: dict[str, str | None]) -> list[int]:
    tag_ids = list(dict.fromkeys(tag.id for tag in body.tags))
    if len(tag_ids) > MAX_TAGS_PER_AD:
        failures["tags"] = TOO_MANY_TAGS
        return []
    active = (
        set(session.scalars(select(Tag.id).where(Tag.id.in_(tag_ids), Tag.is_active.is_(True)))) if tag_ids else set()
    )
    if any(tag_id not in active for tag_id in tag_ids):
        failures["tags"] = UNKNOWN_TAGS
        return []
    return tag_ids


def check_form(session: Session, body: AdWrite, *, current: Ad | None) -> CheckedAd:
    """Spec §5 where it applies to an ad: link required, https, (unique: the caller's 409); title
    required and free of profanity; description free of profanity; at most 10 known tags; a preview
    picture (an ad has one, spec §3) that is an upload of the image pipeline or an https address.
    Every failing field is named at once; the first failure is the message."""
    failures: dict[str, str | None] = {}
    link, title, description = _clean(body.link), _clean(body.title), _clean(body.description)
    if not link:
        failures["link"] = LINK_REQUIRED
    elif not _HTTPS_URL.match(link):
        failures["link"] = LINK_HTTPS
    failures["title"] = TITLE_REQUIRED if not title else INVALID_TITLE if has_profanity(title) else None
    failures["description"] = INVALID_DESCRIPTION if description and has_profanity(description) else None
    tag_ids = _check_tags(session, body, failures)
    preview_picture = _clean(body.preview_picture)
    failures["preview_picture"] = _check_preview(preview_picture, current)
    raise_for_fields(failures)
    assert link and title and preview_picture
    return CheckedAd(title=title, description=description, link=link, preview_picture=preview_picture, tag_ids=tag_ids)


def _refuse_taken_link(session: Session, link: str, ad: Ad | None) -> None:
    other = ad_by_link(session, link)
    if other is not None and (ad is None or other.id != ad.id):
        raise Conflict(LINK_EXISTS, fields={"link": LINK_EXISTS})


def flush_unique_link(session: Session) -> None:
    """The link is unique in the table too: an ad added meanwhile under the same link is a 409."""
    try:
        with session.begin_nested():
            session.flush()
    except IntegrityError as exc:
        raise Conflict(LINK_EXISTS, fields={"link": LINK_EXISTS}) from exc


# ------------------------------------------------------------------------------ content


def current_content(ad: Ad, keys: Sequence[str]) -> dict[str, Any]:
    return pending_edits.current_content(ad, keys)


def apply_changes(ad: Ad, changes: dict[str, Any]) -> None:
    pending_edits.apply_changes(ad, changes, _tag_link)


def _tag_link(tag_id: int, position: int) -> AdTag:
    return AdTag(tag_id=tag_id, position=position)


# ------------------------------------------------------------------------------ approval items


def pending_item(session: Session, kind: ApprovalKind, ad_id: int) -> ApprovalItem | None:
    return pending_edits.pending_item(session, kind, AD, ad_id)


def _file_new_ad(session: Session, ad: Ad, submitter: User) -> None:
    payload = {"ad_id": ad.id, "title": ad.title}
    pending_edits.file_once(session, ApprovalKind.new_ad, AD, ad.id, payload, submitter)


def _file_edit(session: Session, ad: Ad, submitter: User, changes: dict[str, Any]) -> None:
    payload = {"ad_id": ad.id, "title": changes.get("title", ad.title), "changes": changes}
    pending_edits.file_edit(session, ApprovalKind.ad_edit, AD, ad.id, payload, submitter)


def in_queue(ad: Ad) -> bool:
    """The moderation queue holds active ads waiting for approval (a pending draft is not asked for yet)."""
    return ad.status == AdStatus.active and ad.approval_state == AdApprovalState.pending


def push_queue(session: Session, kind: ApprovalKind, ad: Ad, action: str) -> None:
    item_id = pending_edits.latest_item_id(session, kind, AD, ad.id)
    moderation.announce_queue_change(session, kind=kind, subject=item_id or ad.id, action=action, item_id=item_id)


def edit_pending_ids(session: Session, ad_ids: Sequence[int]) -> set[int]:
    return pending_edits.pending_entity_ids(session, ApprovalKind.ad_edit, AD, ad_ids)


# ------------------------------------------------------------------------------ after every change


def record_change(session: Session, ad: Ad) -> None:
    """After any change to an ad: the index follows (outbox) and, with embeddings on, the worker
    computes the ad's embedding once this commits (skipped when its text is unchanged)."""
    session.flush()
    session.expire(ad, ["tags"])
    outbox_topics.ad_changed(session, ad.id)
    if get_settings().embeddings_enabled:
        submit_after_commit(session, EMBED_ADS_TASK, ids=[ad.id])


# ------------------------------------------------------------------------------ saving


@dataclass
class SaveResult:
    status: int
    message: str
    ad: Ad | None
    viewer: User
    pending: bool = False
    fields: dict[str, str] = field(default_factory=dict)


def add_ad(session: Session, *, editor: User, body: AdWrite, owner: User | None = None) -> SaveResult:
    """POST / and on-behalf-of. An admin's ad is approved at once; every other ad waits (spec §4)."""
    owner = owner or _owner_for_add(session, editor, body.userid)
    owners.check_active(owner)
    form = check_form(session, body, current=None)
    _refuse_taken_link(session, form.link, None)
    approved = editor.is_admin
    ad = Ad(
        user_id=owner.id,
        creator_id=owner.creator.id if owner.creator is not None else None,
        created_by_user_id=editor.id,
        status=AdStatus.active if body.is_active else AdStatus.draft,
        approval_state=AdApprovalState.approved if approved else AdApprovalState.pending,
        is_featured=False,
        views=0,
        likes=0,
        saves=0,
        shared=0,
        clicks=0,
    )
    apply_changes(ad, form.content())
    session.add(ad)
    flush_unique_link(session)
    if not approved:
        _file_new_ad(session, ad, editor)
    record_change(session, ad)
    if in_queue(ad):
        push_queue(session, ApprovalKind.new_ad, ad, "added")
    return SaveResult(201, ADDED if approved else ADDED_PENDING, ad, editor, pending=not approved)


def edit_ad(session: Session, *, editor: User, ad_id: int, body: AdUpdate) -> SaveResult:
    """PUT {id} without a task. An approved ad of a non-admin keeps its published version while the
    edit waits as an 'ad edit' (answer 200); otherwise the change applies at once (201). A rejected
    ad edited goes back to the queue. Draft or active is the owner's choice and applies at once."""
    ad = managed_ad(session, editor=editor, ad_id=ad_id)
    if (body.is_featured is not None or body.featured_order is not None) and not editor.is_admin:
        raise Forbidden(ADMINS_ONLY)
    form = check_form(session, body, current=ad)
    _refuse_taken_link(session, form.link, ad)
    was_queued = in_queue(ad)
    changes = pending_edits.changes_of(ad, form.content())
    ad.status = AdStatus.active if body.is_active else AdStatus.draft
    if body.is_featured is not None:
        ad.is_featured = body.is_featured
    if body.featured_order is not None:
        ad.featured_order = body.featured_order
    waits = bool(changes) and not editor.is_admin and ad.approval_state == AdApprovalState.approved
    if waits:
        _file_edit(session, ad, editor, changes)
    else:
        apply_changes(ad, changes)
        flush_unique_link(session)
        if ad.approval_state == AdApprovalState.rejected and changes and not editor.is_admin:
            ad.approval_state = AdApprovalState.pending
            _file_new_ad(session, ad, editor)
    record_change(session, ad)
    _push_queue_moves(session, ad, was_queued, "removed")
    if waits:
        push_queue(session, ApprovalKind.ad_edit, ad, "added")
        return SaveResult(200, EDIT_PENDING, ad, editor, pending=True)
    return SaveResult(201, UPDATED, ad, editor, pending=ad.approval_state == AdApprovalState.pending)


def _push_queue_moves(session: Session, ad: Ad, was_queued: bool, action_when_left: str) -> None:
    action = pending_edits.queue_move(was_queued, in_queue(ad), action_when_left)
    if action is not None:
        push_queue(session, ApprovalKind.new_ad, ad, action)


def run_task(session: Session, *, editor: User, ad_id: int, task: AdTaskName) -> tuple[Ad, str]:
    """PUT {id} with a task: activate (publish), deactivate (move to drafts) or approve (admins;
    through the one approval model, so the owner is mailed)."""
    if task == AdTaskName.approve and not editor.is_admin:
        raise Forbidden(ADMINS_ONLY)
    ad = managed_ad(session, editor=editor, ad_id=ad_id)
    was_queued = in_queue(ad)
    if task == AdTaskName.approve:
        item = pending_item(session, ApprovalKind.new_ad, ad.id)
        if item is not None and ad.status == AdStatus.active:
            decisions.decide(session, admin=editor, item_id=item.id, approve=True, note=None, kinds=AD_KINDS)
            return ad, "The ad has been approved"
        approve_ad(session, ad, editor)
        message = "The ad has been approved"
    elif task == AdTaskName.activate:
        ad.status = AdStatus.active
        message = _activation_message(ad)
    else:
        ad.status = AdStatus.draft
        message = "The ad has been moved to drafts"
    record_change(session, ad)
    _push_queue_moves(session, ad, was_queued, "approved" if task == AdTaskName.approve else "removed")
    return ad, message


def approve_ad(session: Session, ad: Ad, admin: User) -> None:
    """Approve a pending ad and close its 'new ad' item (when one is still open)."""
    ad.approval_state = AdApprovalState.approved
    item = pending_item(session, ApprovalKind.new_ad, ad.id)
    if item is not None:
        pending_edits.record_decision(item, admin, ApprovalStatus.approved, None)


def _activation_message(ad: Ad) -> str:
    if ad.approval_state == AdApprovalState.pending:
        return "The ad is active and waits for an administrator's approval"
    if ad.approval_state == AdApprovalState.rejected:
        return "The ad was not approved: edit it to send it for approval again"
    return "The ad is active"


def _delete_ads(session: Session, ads: Sequence[Ad]) -> None:
    """Delete ads, their approval items and ranks; tags, engagement and embeddings go by cascade."""
    if not ads:
        return
    ids = [ad.id for ad in ads]
    queued_items = [
        item.id for ad in ads if in_queue(ad) and (item := pending_item(session, ApprovalKind.new_ad, ad.id))
    ]
    pending_edits.delete_items(session, AD, ids, AD_KINDS)
    # Ranks point at ads without a foreign key (one table for tours, creators and ads).
    session.execute(delete(Rank).where(Rank.entity_type == RankEntityType.ad, Rank.entity_id.in_(ids)))
    for ad in ads:
        session.delete(ad)
    session.flush()
    for ad_id in ids:
        outbox_topics.ad_changed(session, ad_id)
    for item_id in queued_items:
        moderation.announce_queue_change(
            session, kind=ApprovalKind.new_ad, subject=item_id, action="deleted", item_id=item_id
        )


def delete_ad(session: Session, *, editor: User, ad_id: int) -> None:
    _delete_ads(session, [managed_ad(session, editor=editor, ad_id=ad_id)])


def delete_user_ads(session: Session, owner: User) -> int:
    ads = list(session.scalars(select(Ad).where(Ad.user_id == owner.id)))
    _delete_ads(session, ads)
    return len(ads)


# ------------------------------------------------------------------------------ reading


def ad_out(ad: Ad, viewer: User | None, *, edit_pending: bool | None = None) -> AdOut:
    if edit_pending is None:
        session = object_session(ad)
        edit_pending = session is not None and bool(edit_pending_ids(session, [ad.id]))
    return AdOut(
        id=ad.id,
        guid=ad.guid,
        user_id=ad.user_id,
        platform_username=ad.owner.platform_username,
        title=ad.title,
        description=ad.description,
        link=ad.link,
        preview_picture=ad.preview_picture,
        preview_picture_large=images.large_path_of(ad.preview_picture),
        tags=[TagOut(id=tag.id, name=tag.name) for tag in ad.tags],
        status=ad.status,
        approval_state=ad.approval_state,
        edit_pending=edit_pending,
        is_featured=ad.is_featured,
        featured_order=ad.featured_order,
        views=ad.views,
        clicks=ad.clicks,
        likes=ad.likes,
        saves=ad.saves,
        shared=ad.shared,
        created_date=as_utc(ad.created_at),
        updated_date=as_utc(ad.updated_at),
        is_owned=viewer is not None and viewer.id == ad.user_id,
    )


def card_of(ad: Ad) -> AdCardOut:
    return AdCardOut(id=ad.id, title=ad.title, preview_picture=ad.preview_picture, link=ad.link, user_id=ad.user_id)


def _status_clause(status: AdUserStatus) -> ColumnElement[bool] | None:
    if status is AdUserStatus.active:
        return Ad.status == AdStatus.active
    if status is AdUserStatus.draft:
        return Ad.status == AdStatus.draft
    if status is AdUserStatus.pending:
        return Ad.approval_state == AdApprovalState.pending
    if status is AdUserStatus.rejected:
        return Ad.approval_state == AdApprovalState.rejected
    return None


def user_ads_page(
    session: Session,
    *,
    owner: User,
    viewer: User,
    status: AdUserStatus,
    search: str | None,
    limit: int,
    offset: int,
) -> AdsPage:
    """GET user/{user_id}: Manage Ads, the owner's ads in every state, newest first."""
    statement = select(Ad).where(Ad.user_id == owner.id)
    clause = _status_clause(status)
    if clause is not None:
        statement = statement.where(clause)
    if search and search.strip():
        statement = statement.where(Ad.title.ilike(f"%{escape_like(search.strip())}%", escape="\\"))
    total = count_rows(session, statement)
    ads = list(session.scalars(statement.order_by(Ad.created_at.desc(), Ad.id.desc()).limit(limit).offset(offset)))
    edits = edit_pending_ids(session, [ad.id for ad in ads])
    return AdsPage(
        data=[ad_out(ad, viewer, edit_pending=ad.id in edits) for ad in ads],
        total_items=total,
        limit=limit,
        offset=offset,
    )


def ad_counts(session: Session, owner: User) -> AdCounts:
    """GET counts/{user_id}: the owner's ads by state."""
    rows = session.execute(
        select(Ad.status, Ad.approval_state, Ad.is_featured, func.count())
        .where(Ad.user_id == owner.id)
        .group_by(Ad.status, Ad.approval_state, Ad.is_featured)
    ).all()
    return AdCounts(
        total=sum(count for *_, count in rows),
        active=sum(count for status, _state, _featured, count in rows if status == AdStatus.active),
        draft=sum(count for status, _state, _featured, count in rows if status == AdStatus.draft),
        pending=sum(count for _status, state, _featured, count in rows if state == AdApprovalState.pending),
        rejected=sum(count for _status, state, _featured, count in rows if state == AdApprovalState.rejected),
        featured=sum(count for _status, _state, featured, count in rows if featured),
    )


def featured_ads(session: Session, limit: int) -> list[AdCardOut]:
    """GET featured-ads: the served ads admins featured, in their order (unplaced ones last, newest first)."""
    ads = session.scalars(
        select(Ad)
        .where(served_clause(), Ad.is_featured.is_(True))
        .order_by(Ad.featured_order.is_(None), Ad.featured_order, Ad.created_at.desc(), Ad.id.desc())
        .limit(limit)
    )
    return [card_of(ad) for ad in ads]


def user_ad_tags(session: Session, user_id: int) -> AdTagsAnswer:
    """GET user/ad-tags/{user_id}: the tags of a user's served ads, most used first."""
    used = func.count(AdTag.ad_id)
    rows = session.execute(
        select(Tag.id, Tag.name, used)
        .join(AdTag, AdTag.tag_id == Tag.id)
        .join(Ad, Ad.id == AdTag.ad_id)
        .where(Ad.user_id == user_id, served_clause(), Tag.is_active.is_(True))
        .group_by(Tag.id, Tag.name)
        .order_by(used.desc(), Tag.name)
    ).all()
    return AdTagsAnswer(data=[AdTagOut(id=tag_id, name=name, ad_count=int(count)) for tag_id, name, count in rows])


# ------------------------------------------------------------------------------ engagement


def counters(session: Session, ad_id: int) -> AdCountersOut:
    row = session.execute(select(Ad.id, Ad.views, Ad.clicks, Ad.likes, Ad.saves, Ad.shared).where(Ad.id == ad_id)).one()
    return AdCountersOut(id=row[0], views=row[1], clicks=row[2], likes=row[3], saves=row[4], shared=row[5])


def _move_counters(session: Session, ad_id: int, **deltas: int) -> AdCountersOut:
    """One UPDATE of the ad's counters on the locked row (`likes = likes + 1`, floored at 0)."""
    values = {name: step(getattr(Ad, name), delta) for name, delta in deltas.items()}
    row = session.execute(
        update(Ad)
        .where(Ad.id == ad_id)
        .values(**values)
        .returning(Ad.id, Ad.views, Ad.clicks, Ad.likes, Ad.saves, Ad.shared)
        .execution_options(synchronize_session=False)
    ).one()
    return AdCountersOut(id=row[0], views=row[1], clicks=row[2], likes=row[3], saves=row[4], shared=row[5])


def _flag(session: Session, ad_id: int, user: User | None, kind: AdEngagementKind) -> bool:
    if user is None:
        return False
    return (
        session.scalar(
            select(AdEngagement.id).where(
                AdEngagement.ad_id == ad_id, AdEngagement.user_id == user.id, AdEngagement.kind == kind
            )
        )
        is not None
    )


def user_flags(session: Session, ad_id: int, user: User | None) -> tuple[bool, bool]:
    return _flag(session, ad_id, user, AdEngagementKind.like), _flag(session, ad_id, user, AdEngagementKind.save)


def _toggle(session: Session, ad: Ad, user: User, kind: AdEngagementKind, on: bool) -> bool:
    """Insert (ON CONFLICT DO NOTHING on the one-like-or-save index) or delete the user's row; True
    when a row really changed, so a parallel duplicate never moves the counter."""
    if on:
        values = {"ad_id": ad.id, "user_id": user.id, "kind": kind.value, "created_at": utcnow()}
        return insert_if_absent(session, AdEngagement, values)
    statement = delete(AdEngagement).where(
        AdEngagement.ad_id == ad.id, AdEngagement.user_id == user.id, AdEngagement.kind == kind
    )
    return delete_rows(session, statement) > 0


def set_like(session: Session, user: User, ad_id: int, like: bool) -> tuple[AdCountersOut, bool]:
    """POST post_likes: like or unlike; idempotent per user, exact under concurrency."""
    ad = visible_ad(session, viewer=user, ad_id=ad_id)
    if not _toggle(session, ad, user, AdEngagementKind.like, like):
        return counters(session, ad.id), like
    return _move_counters(session, ad.id, likes=1 if like else -1), like


def set_save(session: Session, user: User, ad_id: int, save: bool) -> tuple[AdCountersOut, bool]:
    """POST post_saves: save or unsave; idempotent per user; not one's own ad."""
    ad = visible_ad(session, viewer=user, ad_id=ad_id)
    if save and ad.user_id == user.id:
        raise BadRequest(CANNOT_SAVE_OWN, fields={"id": CANNOT_SAVE_OWN})
    if not _toggle(session, ad, user, AdEngagementKind.save, save):
        return counters(session, ad.id), save
    return _move_counters(session, ad.id, saves=1 if save else -1), save


def record_share(session: Session, ad_id: int, *, viewer: Viewer) -> AdCountersOut:
    """POST post_shares: anyone may share; every share counts."""
    ad = visible_ad(session, viewer=viewer.user, ad_id=ad_id)
    session.add(
        AdEngagement(
            ad_id=ad.id,
            user_id=viewer.user.id if viewer.user else None,
            guest_id=None if viewer.user else viewer.guest_id,
            viewer_key=viewer.key,
            kind=AdEngagementKind.share,
            created_at=utcnow(),
        )
    )
    session.flush()
    return _move_counters(session, ad.id, shared=1)


def _page_view_key(page_view: str | None) -> str:
    """The client's page-view id; without one, the UTC day (one count per viewer per day)."""
    return page_view or f"day:{utcnow().date().isoformat()}"


def _count_once(session: Session, ad: Ad, viewer: Viewer, page_view: str | None, kind: AdEngagementKind) -> bool:
    return insert_if_absent(
        session,
        AdEngagement,
        {
            "ad_id": ad.id,
            "user_id": viewer.user.id if viewer.user else None,
            "guest_id": None if viewer.user else viewer.guest_id,
            "viewer_key": viewer.key,
            "page_view": _page_view_key(page_view),
            "kind": kind.value,
            "created_at": utcnow(),
        },
    )


def count_impression(session: Session, ad: Ad, viewer: Viewer, page_view: str | None) -> bool:
    """THE place an ad impression is counted (GET show/{ad_id}): once per viewer per page view (the
    unique key turns a re-render's repeat into a no-op); `views` moves in the same transaction.
    Returns whether this impression counted."""
    if not _count_once(session, ad, viewer, page_view, AdEngagementKind.view):
        return False
    _move_counters(session, ad.id, views=1)
    analytics.record_ad_impression(session, ad, user_id=_user_id(viewer), viewer_key=viewer.key)
    return True


def count_click(session: Session, ad: Ad, viewer: Viewer, page_view: str | None) -> tuple[int, bool]:
    """THE place an ad click is counted (POST click/{ad_id}): once per viewer per page view (a double
    click counts once). Returns the ad's clicks and whether this one counted."""
    if not _count_once(session, ad, viewer, page_view, AdEngagementKind.click):
        return counters(session, ad.id).clicks, False
    clicks = _move_counters(session, ad.id, clicks=1).clicks
    analytics.record_ad_click(session, ad, user_id=_user_id(viewer), viewer_key=viewer.key)
    return clicks, True


def _user_id(viewer: Viewer) -> int | None:
    return viewer.user.id if viewer.user is not None else None


def show(session: Session, ad_id: int, viewer: Viewer, page_view: str | None) -> tuple[Ad, bool]:
    """GET show/{ad_id}: the served ad's card, its impression counted (owners and admins may look at
    their unserved ads; those views are not impressions)."""
    ad = visible_ad(session, viewer=viewer.user, ad_id=ad_id)
    if not queries.is_served(ad):
        return ad, False
    return ad, count_impression(session, ad, viewer, page_view)


def click(session: Session, ad_id: int, viewer: Viewer, page_view: str | None) -> tuple[Ad, int, bool]:
    ad = visible_ad(session, viewer=viewer.user, ad_id=ad_id)
    if not queries.is_served(ad):
        return ad, ad.clicks, False
    clicks, counted = count_click(session, ad, viewer, page_view)
    return ad, clicks, counted


def recent_impressions(session: Session, viewer_key: str, ad_ids: Sequence[int], since_days: int = 1) -> dict[int, int]:
    """How many impressions of each of these ads the viewer had in the last day (the frequency cap)."""
    if not ad_ids:
        return {}
    since = utcnow() - DAY * since_days
    wanted = set(ad_ids)
    rows = _RECENT_IMPRESSIONS.rows(session, {"viewer_key": viewer_key, "since": since})
    return {ad_id: int(count) for ad_id, count in rows if ad_id in wanted}


# Built once, of the table's columns: every feed page with a Sponsored slot asks it (the frequency
# cap), and building the statement (or running one of ORM attributes) cost more than running it.
# Every ad the viewer saw that day, not `ad_id IN (the 200 candidates)`: a viewer sees few ads a day
# (the index on viewer_key, created_at finds them), and an expanding IN renders its SQL on each call.
_engagements = AdEngagement.__table__.c
_RECENT_IMPRESSIONS = DirectRead(
    select(_engagements.ad_id, func.count())
    .where(
        _engagements.viewer_key == bindparam("viewer_key"),
        _engagements.created_at >= bindparam("since"),
        _engagements.kind == AdEngagementKind.view,
    )
    .group_by(_engagements.ad_id)
)
