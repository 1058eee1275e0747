"""After-commit callbacks: the one way a service says "once this transaction commits, do X" (start a
background task, push a realtime event, drop a cache, remove a file).

A callback queued on a session runs once, right after the session's outermost transaction commits,
and never if that transaction rolls back. Inside a savepoint (`begin_nested`) a callback belongs to
the savepoint: rolling the savepoint back drops it, releasing the savepoint hands it to the
enclosing transaction. Callbacks run in the order they were queued; one that raises is logged and
the others still run (the commit has happened: there is nothing left to undo).

Work that must survive a crash between the commit and the callback belongs in the outbox
(app/core/outbox.py), which commits with the change; these callbacks are for what may be lost
(a realtime push, a nudge to a worker that a periodic sweep repeats anyway).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import event
from sqlalchemy.orm import Session, SessionTransaction

logger = logging.getLogger("touratlas.after_commit")

Callback = Callable[[], object]

_QUEUE_KEY = "touratlas_after_commit"


@dataclass(slots=True)
class _Queued:
    callback: Callback
    # The innermost transaction open when it was queued (None: no transaction had begun yet, so it
    # belongs to whichever outermost transaction comes next).
    transaction: SessionTransaction | None
    # Queued at most once per transaction under one key (e.g. one outbox dispatch however many
    # flushes write the outbox).
    key: str | None
    description: str


def after_commit(session: Session, callback: Callback, *, key: str | None = None, description: str = "") -> None:
    """Run `callback()` once this session's outermost transaction commits; dropped on rollback.
    With `key`, a second callback under the same key is ignored while the first is still queued."""
    queue = _queue(session)
    transaction = session.get_nested_transaction() or session.get_transaction()
    # A same-key callback still queued is enough: it belongs to this transaction, an enclosing one or
    # a savepoint since released into one of them (a rolled-back savepoint took its callbacks along),
    # so it runs whenever this one would.
    if key is not None and any(queued.key == key for queued in queue):
        return
    queue.append(_Queued(callback, transaction, key, description or key or _name_of(callback)))


def discard_pending(session: Session) -> None:
    """Forget everything queued on this session (tests and tools that commit rows for a worker
    process to pick up, without this process acting on them)."""
    session.info.pop(_QUEUE_KEY, None)


def pending_count(session: Session) -> int:
    return len(session.info.get(_QUEUE_KEY, ()))


def _queue(session: Session) -> list[_Queued]:
    queue: list[_Queued] = session.info.setdefault(_QUEUE_KEY, [])
    return queue


def _name_of(callback: Callback) -> str:
    return getattr(callback, "__qualname__", None) or repr(callback)


def _belongs_to(queued: _Queued, ended: SessionTransaction) -> bool:
    """Whether `queued` was queued in `ended` or in a savepoint inside it."""
    if queued.transaction is None:
        return ended.parent is None
    transaction: SessionTransaction | None = queued.transaction
    while transaction is not None:
        if transaction is ended:
            return True
        transaction = transaction.parent
    return False


@event.listens_for(Session, "after_commit")
def _run_after_commit(session: Session) -> None:
    # Releasing a savepoint fires this event too, while the savepoint is still the current nested
    # transaction: only the outermost commit is a commit.
    if session.in_nested_transaction():
        return
    for queued in session.info.pop(_QUEUE_KEY, []):
        try:
            queued.callback()
        except Exception:
            logger.exception("after-commit callback %s failed", queued.description)


@event.listens_for(Session, "after_soft_rollback")
def _drop_rolled_back(session: Session, previous_transaction: SessionTransaction) -> None:
    # Fired for every rollback, savepoints included: drop what the rolled-back transaction queued.
    queue = session.info.get(_QUEUE_KEY)
    if queue:
        queue[:] = [queued for queued in queue if not _belongs_to(queued, previous_transaction)]


@event.listens_for(Session, "after_transaction_end")
def _drop_with_outermost(session: Session, transaction: SessionTransaction) -> None:
    # An outermost transaction that ends without a commit (closed, or rolled back without a soft
    # rollback event) takes its callbacks with it; after a commit the queue is already empty.
    if transaction.parent is None and not transaction.nested:
        queue = session.info.get(_QUEUE_KEY)
        if queue:
            queue[:] = [queued for queued in queue if not _belongs_to(queued, transaction)]
