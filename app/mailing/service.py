"""Members diff and sync: the users who consented to e-mails against the provider's list.

A user belongs on the list when they consented (`consent_emails`) and their account is active and not
blocked or deleted. The diff has two sides: consenting users the list does not have as subscribed
(to subscribe) and subscribed list members who are no such user (to unsubscribe: Mailchimp keeps an
unsubscribed member, so nobody is deleted and a later consent re-subscribes them).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.db import utcnow
from app.core.tasks import submit_after_commit
from app.mailing.models import MailingListMember, MailingSyncRun, MemberStatus, SyncStatus
from app.mailing.port import SUBSCRIBED, UNSUBSCRIBED, ListMember, MailingListProvider, MemberChange, MemberUpsert
from app.mailing.schemas import SyncRunOut
from app.realtime.events import ADMINS_ROOM, MAILING_SYNC, emit_after_commit
from app.users.models import User

# The provider's page size when reading the whole list (Mailchimp's maximum `count`).
READ_PAGE = 1000
# A running sync whose heartbeat is older than this lost its worker: a new request resumes it.
STALE_AFTER = timedelta(minutes=5)
LOST_WORKER = "The sync stopped answering: its worker was lost. Resume it to continue."
SYNC_TASK = "mailing.sync"


@dataclass(frozen=True, slots=True)
class Person:
    email: str
    first_name: str
    last_name: str


@dataclass(frozen=True, slots=True)
class Change:
    email: str
    status: MemberChange
    first_name: str
    last_name: str


@dataclass(frozen=True, slots=True)
class Diff:
    to_subscribe: list[Person]
    to_unsubscribe: list[Person]
    consenting: int
    subscribed: int

    def changes(self) -> list[Change]:
        """Every change the sync makes, in e-mail order (the order its cursor follows)."""
        changes = [Change(p.email, SUBSCRIBED, p.first_name, p.last_name) for p in self.to_subscribe]
        changes += [Change(p.email, UNSUBSCRIBED, p.first_name, p.last_name) for p in self.to_unsubscribe]
        return sorted(changes, key=lambda change: change.email)


def consenting_users(db: Session) -> dict[str, Person]:
    rows = db.execute(
        select(User.email, User.first_name, User.last_name).where(
            User.consent_emails.is_(True),
            User.is_active.is_(True),
            User.user_active.is_(True),
            User.is_deleted.is_(False),
        )
    )
    return {email: Person(email, first or "", last or "") for email, first, last in rows}


def list_members(provider: MailingListProvider) -> list[ListMember]:
    members: list[ListMember] = []
    while True:
        page = provider.members(count=READ_PAGE, offset=len(members))
        members += page.members
        if not page.members or len(members) >= page.total_items:
            return members


def compute_diff(db: Session, provider: MailingListProvider) -> Diff:
    wanted = consenting_users(db)
    subscribed = {member.email: member for member in list_members(provider) if member.status == SUBSCRIBED}
    to_subscribe = [person for email, person in sorted(wanted.items()) if email not in subscribed]
    to_unsubscribe = [
        Person(email, member.first_name, member.last_name)
        for email, member in sorted(subscribed.items())
        if email not in wanted
    ]
    return Diff(to_subscribe, to_unsubscribe, consenting=len(wanted), subscribed=len(subscribed))


def latest_run(db: Session) -> MailingSyncRun | None:
    return db.scalars(select(MailingSyncRun).order_by(MailingSyncRun.id.desc()).limit(1)).first()


def is_stale(run: MailingSyncRun, now: datetime | None = None) -> bool:
    heartbeat = run.heartbeat_at if run.heartbeat_at.tzinfo else run.heartbeat_at.replace(tzinfo=UTC)
    return (now or utcnow()) - heartbeat > STALE_AFTER


def run_out(run: MailingSyncRun) -> SyncRunOut:
    """A run as the admins read it (GET members-sync, and the MAILING_SYNC push)."""
    # A run whose worker died still says "running" in its row: the admin is told it stopped, and
    # members-sync resumes it.
    lost = run.status == SyncStatus.running and is_stale(run)
    return SyncRunOut(
        run_id=run.id,
        status="failed" if lost else run.status.value,
        total=run.total,
        done=run.done,
        subscribed=run.subscribed,
        unsubscribed=run.unsubscribed,
        rejected=run.rejected,
        error=LOST_WORKER if lost else run.error,
        started_at=run.started_at,
        finished_at=run.finished_at,
    )


def announce(db: Session, run: MailingSyncRun) -> None:
    """Push the run's state to the admins' open pages once this transaction commits (the mailing-list
    page moves its bar with it instead of asking)."""
    db.flush()  # a new run's id and defaults
    emit_after_commit(db, MAILING_SYNC, run_out(run).model_dump(mode="json"), room=ADMINS_ROOM)


def start_sync(db: Session, requested_by: int) -> SyncRunOut:
    """Start a sync in the background, or resume the one a failure or a lost worker interrupted; a
    live one is answered as it is. Every admin's page hears of a start before the task's progress."""
    run, start = run_to_start(db, requested_by)
    if start:
        announce(db, run)
        submit_after_commit(db, SYNC_TASK, run_id=run.id)
    return run_out(run)


def run_to_start(db: Session, requested_by: int) -> tuple[MailingSyncRun, bool]:
    """The run a members-sync request stands for, and whether a task must (re)start it: a live run
    is answered as it is; a failed or abandoned one is resumed from its cursor; else a new one."""
    run = latest_run(db)
    if run is not None and run.status == SyncStatus.running and not is_stale(run):
        return run, False
    if run is not None and run.status != SyncStatus.completed:
        run.status, run.error, run.heartbeat_at, run.finished_at = SyncStatus.running, None, utcnow(), None
        return run, True
    run = MailingSyncRun(requested_by=requested_by, status=SyncStatus.running)
    db.add(run)
    db.flush()
    return run, True


def pending_changes(diff: Diff, cursor: str | None) -> list[Change]:
    """The changes left after the cursor: those before it were made by this run already."""
    return [change for change in diff.changes() if cursor is None or change.email > cursor]


def apply_batch(db: Session, run: MailingSyncRun, provider: MailingListProvider, batch: list[Change]) -> None:
    """Send one batch to the provider, then record it locally and move the cursor past it (the
    caller commits): a crash between the two repeats one idempotent batch, never skips one."""
    report = provider.upsert([MemberUpsert(c.email, c.status, c.first_name, c.last_name) for c in batch])
    now = utcnow()
    for change in batch:
        provider_id = report.written.get(change.email)
        if provider_id is None:
            run.rejected += 1
            continue
        _record_member(db, change, provider_id, now)
        if change.status == SUBSCRIBED:
            run.subscribed += 1
        else:
            run.unsubscribed += 1
    run.done += len(batch)
    run.cursor = batch[-1].email
    run.heartbeat_at = now


def _record_member(db: Session, change: Change, provider_id: str, now: datetime) -> None:
    member = db.scalars(select(MailingListMember).where(MailingListMember.email == change.email)).first()
    if member is None:
        member = MailingListMember(email=change.email)
        db.add(member)
    member.user_id = db.scalar(select(User.id).where(User.email == change.email))
    member.first_name, member.last_name = change.first_name or None, change.last_name or None
    member.status = MemberStatus.subscribed if change.status == SUBSCRIBED else MemberStatus.unsubscribed
    member.provider_id, member.synced_at = provider_id, now
