"""The one approval model's registry: for every kind of approval item (spec §4 "Pending approval
items"), the owning domain says how an approval applies and how a rejection keeps the published
version, whose item it is, whether what it is about is still there, what the owner reads by mail and
how the item is shown. Moderation decides (app/moderation/decisions.py) by calling these functions;
it never writes another domain's tables itself.

A domain registers its kinds when its approvals module is imported (`register(kind, handler)`).
HANDLER_MODULES is the list of those modules: `handler_for` loads them first, so the registry is
complete whichever entry point (the app, a worker, the CLI, a test) asks.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from app.moderation.models import ApprovalItem, ApprovalKind

if TYPE_CHECKING:
    from app.users.models import User

HANDLER_MODULES = (
    "app.users.approvals",
    "app.creators.approvals",
    "app.vendors.approvals",
    "app.tours.approvals",
    "app.classifications.requests",
    "app.ads.approvals",
)


@dataclass(frozen=True, slots=True)
class Summary:
    """What a queue row shows without more calls (GET /v2/pending/approval-items `summary`)."""

    title: str | None = None
    username: str | None = None
    preview_picture: str | None = None
    link: str | None = None


@dataclass(frozen=True, slots=True)
class Versions:
    """The published version as its domain shows it (None: nothing is published yet) and the change."""

    current: dict[str, Any] | None
    proposed: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Mail:
    subject: str
    body: str


Apply = Callable[[Session, ApprovalItem, "User"], None]


def keep_published(_session: Session, _item: ApprovalItem, _admin: User) -> None:
    """A rejection that needs nothing changed: the published version simply stays."""
    return None


def _default_owner(session: Session, item: ApprovalItem) -> User | None:
    return item.submitted_by


def _never_withdrawn(_session: Session, _item: ApprovalItem) -> bool:
    return False


def _item_id(item: ApprovalItem) -> int | str:
    return item.id


@dataclass(frozen=True, slots=True)
class KindHandler:
    """How one kind is decided. `approve` applies the pending change, `reject` keeps the published
    version (both in the caller's transaction, both may raise a domain error such as a 409 for a name
    taken meanwhile); `withdrawn` says the thing is gone or was taken back (approving it is a 409);
    `mail` is the owner's mail for an outcome (the admin's reason is added after it; None: nothing
    worth telling, e.g. a tour audited and found fine)."""

    approve: Apply
    reject: Apply
    mail: Callable[[ApprovalItem, bool], Mail | None]
    summary: Callable[[Session, ApprovalItem], Summary]
    versions: Callable[[Session, ApprovalItem], Versions]
    owner: Callable[[Session, ApprovalItem], User | None] = field(default=_default_owner)
    withdrawn: Callable[[Session, ApprovalItem], bool] = field(default=_never_withdrawn)
    # What the moderation push names as the item's `id` (the tours name the tour's guid).
    subject: Callable[[ApprovalItem], int | str] = field(default=_item_id)
    # When set, an admin deciding on their own submission gets a 400 with this message.
    own_message: str | None = None
    # Runs once the decision is recorded on the item (bookkeeping that counts the pending items).
    after_decision: Callable[[Session, ApprovalItem], None] | None = None


_HANDLERS: dict[ApprovalKind, KindHandler] = {}
_loaded = False


def register(kind: ApprovalKind, handler: KindHandler) -> None:
    """Called once per kind by the owning domain's approvals module (on import)."""
    _HANDLERS[kind] = handler


def _load() -> None:
    global _loaded
    if not _loaded:
        for module in HANDLER_MODULES:
            importlib.import_module(module)
        _loaded = True


def handler_for(kind: ApprovalKind) -> KindHandler | None:
    _load()
    return _HANDLERS.get(kind)


def registered_kinds() -> tuple[ApprovalKind, ...]:
    _load()
    return tuple(kind for kind in ApprovalKind if kind in _HANDLERS)
