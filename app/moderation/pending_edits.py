"""The mechanics of "a published item with a pending edit" (spec §4), shared by the domains whose
items work that way (tours, ads): the item's form content as column values, the changes an edit
makes, applying them (tags kept as ordered links), and the approval items about one item (filing a
new item's approval once, filing or replacing its one pending edit, finding them, closing one,
deleting them with the item), and the parts of their approval kinds' handlers that read the same
(`Published`: the item an approval item is about, its owner, its summary, both versions of an edit).

Each domain's service calls these with its own model and approval kinds, so the service stays the
only code that decides when its tables change; what differs (payloads, messages, who is trusted,
what follows a change) stays in the domain.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from sqlalchemy import delete, func, inspect, select
from sqlalchemy.orm import Session

from app.core.db import utcnow
from app.core.errors import Conflict
from app.moderation import registry
from app.moderation.models import ApprovalItem, ApprovalKind, ApprovalStatus
from app.users.models import User

TAG_IDS = "tag_ids"


class TagLink(Protocol):
    """A row linking an item to one of its tags, in the order the owner chose."""

    tag_id: int
    position: int


class Tagged(Protocol):
    """An item whose content includes ordered tag links (Tour.tag_links, Ad.tag_links)."""

    @property
    def tag_links(self) -> list[Any]: ...


class Publishable(Tagged, Protocol):
    """What the approval queue shows of an item (Tour, Ad)."""

    @property
    def id(self) -> int: ...
    @property
    def title(self) -> str: ...
    @property
    def link(self) -> str: ...
    @property
    def preview_picture(self) -> str | None: ...
    @property
    def owner(self) -> User: ...


ItemT = TypeVar("ItemT", bound=Publishable)


# ------------------------------------------------------------------------------ content


def current_content(item: Tagged, keys: Sequence[str]) -> dict[str, Any]:
    """The published values of these content keys (`tag_ids`: the tag ids in order)."""
    return {key: [link.tag_id for link in item.tag_links] if key == TAG_IDS else getattr(item, key) for key in keys}


def changes_of(item: Tagged, content: dict[str, Any]) -> dict[str, Any]:
    """The part of the form's content that differs from what is published."""
    current = current_content(item, list(content))
    return {key: value for key, value in content.items() if current[key] != value}


def apply_changes(item: Tagged, changes: dict[str, Any], new_link: Callable[[int, int], Any]) -> None:
    """Write the changes onto the item; `new_link(tag_id, position)` makes the model's tag link."""
    for key, value in changes.items():
        if key == TAG_IDS:
            _set_tags(item, value, new_link)
        else:
            setattr(item, key, value)


def _set_tags(item: Tagged, tag_ids: Sequence[int], new_link: Callable[[int, int], Any]) -> None:
    """Keep the links still wanted (a delete and re-insert of one key would collide in one flush)."""
    wanted = {tag_id: position for position, tag_id in enumerate(tag_ids)}
    for link in list(item.tag_links):
        if link.tag_id in wanted:
            link.position = wanted.pop(link.tag_id)
        else:
            item.tag_links.remove(link)
    for tag_id, position in wanted.items():
        item.tag_links.append(new_link(tag_id, position))


# ------------------------------------------------------------------------------ approval items


def pending_item(session: Session, kind: ApprovalKind, entity_type: str, entity_id: int) -> ApprovalItem | None:
    return session.scalar(
        select(ApprovalItem).where(
            ApprovalItem.kind == kind,
            ApprovalItem.entity_type == entity_type,
            ApprovalItem.entity_id == entity_id,
            ApprovalItem.status == ApprovalStatus.pending,
        )
    )


def file_item(
    session: Session, kind: ApprovalKind, entity_type: str, entity_id: int, payload: dict[str, Any], submitter: User
) -> None:
    """A new pending item about one row."""
    session.add(
        ApprovalItem(
            kind=kind,
            status=ApprovalStatus.pending,
            entity_type=entity_type,
            entity_id=entity_id,
            payload=payload,
            submitted_by_user_id=submitter.id,
            created_at=utcnow(),
        )
    )


def file_once(
    session: Session, kind: ApprovalKind, entity_type: str, entity_id: int, payload: dict[str, Any], submitter: User
) -> None:
    """A new item's approval: filed unless one is waiting already."""
    if pending_item(session, kind, entity_type, entity_id) is None:
        file_item(session, kind, entity_type, entity_id, payload, submitter)


def file_edit(
    session: Session, kind: ApprovalKind, entity_type: str, entity_id: int, payload: dict[str, Any], submitter: User
) -> None:
    """One pending edit per item: a newer edit replaces the proposal (on top of what is published)."""
    item = pending_item(session, kind, entity_type, entity_id)
    if item is None:
        file_item(session, kind, entity_type, entity_id, payload, submitter)
    else:
        item.payload = payload
        item.submitted_by_user_id = submitter.id


def pending_entity_ids(session: Session, kind: ApprovalKind, entity_type: str, entity_ids: Sequence[int]) -> set[int]:
    """Which of these rows have an item of this kind still waiting (e.g. `edit_pending`)."""
    if not entity_ids:
        return set()
    rows = session.scalars(
        select(ApprovalItem.entity_id).where(
            ApprovalItem.kind == kind,
            ApprovalItem.status == ApprovalStatus.pending,
            ApprovalItem.entity_type == entity_type,
            ApprovalItem.entity_id.in_(entity_ids),
        )
    )
    return {entity_id for entity_id in rows if entity_id is not None}


def latest_item_id(session: Session, kind: ApprovalKind, entity_type: str, entity_id: int) -> int | None:
    """The newest item of this kind about the row, whatever its status (flushed first: one filed
    just now counts); None once the row's items went with it."""
    session.flush()
    return session.scalar(
        select(ApprovalItem.id)
        .where(ApprovalItem.entity_type == entity_type, ApprovalItem.entity_id == entity_id, ApprovalItem.kind == kind)
        .order_by(ApprovalItem.id.desc())
        .limit(1)
    )


def queue_move(was_queued: bool, now_queued: bool, action_when_left: str) -> str | None:
    """What a change did to the moderation queue: "added" when the item entered it,
    `action_when_left` when it left it, None when neither."""
    if now_queued and not was_queued:
        return "added"
    if was_queued and not now_queued:
        return action_when_left
    return None


def record_decision(item: ApprovalItem, admin: User, status: ApprovalStatus, note: str | None) -> None:
    """Mark an approval item decided, by whom and when."""
    item.status = status
    item.reviewed_by_user_id = admin.id
    item.reviewed_at = utcnow()
    item.review_note = note


def delete_items(session: Session, entity_type: str, entity_ids: Sequence[int], kinds: Iterable[ApprovalKind]) -> None:
    """Every item of these kinds about these rows (the rows are being deleted)."""
    session.execute(
        delete(ApprovalItem).where(
            ApprovalItem.entity_type == entity_type,
            ApprovalItem.entity_id.in_(entity_ids),
            ApprovalItem.kind.in_(list(kinds)),
        )
    )


# ------------------------------------------------------------------------------ deciding


def refuse_taken_link(
    item: Publishable, changes: dict[str, Any], by_link: Callable[[str], Publishable | None], message: str
) -> None:
    """Approving an edit whose new link another item took meanwhile is a 409."""
    link = changes.get("link")
    if isinstance(link, str) and link != item.link:
        other = by_link(link)
        if other is not None and other.id != item.id:
            raise Conflict(message, fields={"link": message})


@dataclass(frozen=True, slots=True)
class Published(Generic[ItemT]):
    """One domain's published items as their approval kinds see them: `model` rows named by
    `entity_type` in the items, a new one filed as `new_kind`, an edit as `edit_kind`; `shown` is the
    item's JSON as the domain answers it; `hidden` are content keys an edit carries but does not show
    (derived columns)."""

    model: type[ItemT]
    entity_type: str
    new_kind: ApprovalKind
    edit_kind: ApprovalKind
    shown: Callable[[ItemT], dict[str, Any]]
    hidden: tuple[str, ...] = ()

    @property
    def kinds(self) -> tuple[ApprovalKind, ApprovalKind]:
        return self.new_kind, self.edit_kind

    def item_of(self, session: Session, approval: ApprovalItem) -> ItemT | None:
        if approval.entity_type != self.entity_type or approval.entity_id is None:
            return None
        return session.get(self.model, approval.entity_id)

    def items_of(self, session: Session, approvals: Sequence[ApprovalItem]) -> dict[int, ItemT]:
        """The items these approval items are about, by id (gone ones missing)."""
        ids = [approval.entity_id for approval in approvals if approval.entity_id]
        key = inspect(self.model).primary_key[0]
        return {item.id: item for item in session.scalars(select(self.model).where(key.in_(ids)))}

    def owner(self, session: Session, approval: ApprovalItem) -> User | None:
        item = self.item_of(session, approval)
        return item.owner if item is not None else approval.submitted_by

    def proposed(self, approval: ApprovalItem) -> dict[str, Any]:
        """The changes an edit proposes, as shown."""
        changes = dict((approval.payload or {}).get("changes") or {})
        for key in self.hidden:
            changes.pop(key, None)
        return changes

    def summary(self, session: Session, approval: ApprovalItem) -> registry.Summary:
        item = self.item_of(session, approval)
        if item is None:
            return registry.Summary(title=(approval.payload or {}).get("title"))
        proposed = self.proposed(approval)
        return registry.Summary(
            title=proposed.get("title") or item.title,
            username=item.owner.platform_username,
            preview_picture=proposed.get("preview_picture") or item.preview_picture,
            link=proposed.get("link") or item.link,
        )

    def new_versions(self, session: Session, approval: ApprovalItem) -> registry.Versions:
        """A new item: nothing published yet; the item as it would be (the payload once it is gone)."""
        item = self.item_of(session, approval)
        return registry.Versions(
            current=None, proposed=self.shown(item) if item is not None else dict(approval.payload or {})
        )

    def edit_versions(self, session: Session, approval: ApprovalItem) -> registry.Versions:
        item = self.item_of(session, approval)
        proposed = self.proposed(approval)
        return registry.Versions(current=current_content(item, list(proposed)) if item else None, proposed=proposed)

    def edit_withdrawn(self, session: Session, approval: ApprovalItem) -> bool:
        """An edit is withdrawn only with its item (a draft keeps its published version)."""
        return self.item_of(session, approval) is None

    def queue_row(self, approval: ApprovalItem, item: ItemT | None) -> tuple[dict[str, Any], dict[str, Any]]:
        """An approval-items row's `changes` (an edit's; none for a new item) and their `current` values."""
        proposed = self.proposed(approval) if approval.kind == self.edit_kind else {}
        return proposed, current_content(item, list(proposed)) if item is not None else {}


# ------------------------------------------------------------------------------ statistics


@dataclass(frozen=True, slots=True)
class StateCounts:
    """How many items there are of each (status, approval state), for the admin statistics."""

    rows: Sequence[tuple[str, str, int]]

    def total(self, status: str | None = None, state: str | None = None) -> int:
        """Items of this status and approval state (None: any)."""
        return sum(
            count
            for row_status, row_state, count in self.rows
            if (status is None or row_status == status) and (state is None or row_state == state)
        )


def state_counts(session: Session, status: Any, approval_state: Any) -> StateCounts:
    """The counts of one model's (status, approval state) columns."""
    rows = session.execute(select(status, approval_state, func.count()).group_by(status, approval_state)).all()
    return StateCounts([(row_status, row_state, int(count)) for row_status, row_state, count in rows])


def pending_count(session: Session, kind: ApprovalKind) -> int:
    """Items of this kind waiting (e.g. the edits waiting for an admin)."""
    statement = select(func.count()).select_from(ApprovalItem)
    return int(
        session.scalar(statement.where(ApprovalItem.kind == kind, ApprovalItem.status == ApprovalStatus.pending)) or 0
    )
