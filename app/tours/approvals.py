"""The tours' approval kinds in the one approval model (app/moderation/registry.py): a new virtual
tour (approving lists it, rejecting keeps it out of the feed) and a VT edit (approving applies the
proposed changes to the published tour, a link taken meanwhile being a 409; rejecting keeps the
published version). Every change goes through the tours' after-change steps (`record_change`: the
outbox carries it to the index, vt_count follows)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.moderation import pending_edits, registry
from app.moderation.models import ApprovalItem, ApprovalKind
from app.tours import rules
from app.tours.models import ApprovalState, Tour, TourStatus
from app.tours.service import (
    TOUR,
    apply_changes,
    approve_tour,
    flush_unique_link,
    record_change,
    sync_edit_flag,
    tour_by_link,
    tour_out,
)
from app.users.models import User


def _tour_json(tour: Tour) -> dict[str, Any]:
    return tour_out(tour, None).model_dump(mode="json")


# An edit carries the normalised link with the link (applied with it), but shows the link only.
TOURS = pending_edits.Published(
    Tour, TOUR, ApprovalKind.new_virtual_tour, ApprovalKind.vt_edit, shown=_tour_json, hidden=("link_normalised",)
)
tour_of = TOURS.item_of


def _guid(item: ApprovalItem) -> int | str:
    guid = (item.payload or {}).get("guid")
    return str(guid) if guid else item.id


# ------------------------------------------------------------------------------ new virtual tour


def _new_tour_withdrawn(session: Session, item: ApprovalItem) -> bool:
    """Deleted, or taken back to the owner's drafts (spec §4: pending media can be removed to drafts)."""
    tour = tour_of(session, item)
    return tour is None or tour.status == TourStatus.draft


def _approve_new_tour(session: Session, item: ApprovalItem, admin: User) -> None:
    tour = tour_of(session, item)
    assert tour is not None  # decisions.decide never applies a withdrawn item
    approve_tour(session, tour, admin)
    record_change(session, tour)


def _reject_new_tour(session: Session, item: ApprovalItem, _admin: User) -> None:
    tour = tour_of(session, item)
    assert tour is not None
    tour.approval_state = ApprovalState.rejected
    record_change(session, tour)


def _new_tour_mail(item: ApprovalItem, approved: bool) -> registry.Mail:
    title = (item.payload or {}).get("title") or "your virtual tour"
    if approved:
        return registry.Mail(
            "Your virtual tour is approved",
            f'An administrator has approved "{title}": it is listed on TourAtlas now.',
        )
    return registry.Mail(
        "Your virtual tour was not approved",
        f'An administrator has not approved "{title}", so it is not listed. '
        "You can edit it under My tours to send it for approval again.",
    )


# ------------------------------------------------------------------------------ VT edit


def _approve_edit(session: Session, item: ApprovalItem, _admin: User) -> None:
    tour = tour_of(session, item)
    assert tour is not None
    changes = dict((item.payload or {}).get("changes") or {})  # the normalised link too
    pending_edits.refuse_taken_link(tour, changes, lambda link: tour_by_link(session, link), rules.LINK_NOT_UNIQUE)
    apply_changes(tour, changes)
    flush_unique_link(session)


def _after_edit_decision(session: Session, item: ApprovalItem) -> None:
    tour = tour_of(session, item)
    if tour is None:
        return
    sync_edit_flag(session, tour.user_id)
    record_change(session, tour)


def _edit_mail(item: ApprovalItem, approved: bool) -> registry.Mail:
    if approved:
        return registry.Mail(
            "Your virtual tour changes are approved",
            "An administrator has approved the changes to your virtual tour; they are live now.",
        )
    return registry.Mail(
        "Your virtual tour changes were not approved",
        "An administrator has not approved the changes to your virtual tour; the published version stays.",
    )


# ------------------------------------------------------------------------------ trusted audit


def _audit_passed(_session: Session, _item: ApprovalItem, _admin: User) -> None:
    """Approving an audit only marks the tour audited: it is published already."""
    return None


def _audit_failed(session: Session, item: ApprovalItem, _admin: User) -> None:
    """The tour goes to its owner's drafts (out of the feed); the mailed reason says why."""
    tour = tour_of(session, item)
    assert tour is not None
    tour.status = TourStatus.draft
    record_change(session, tour)


def _audit_versions(session: Session, item: ApprovalItem) -> registry.Versions:
    """Nothing is proposed: the published tour is what is audited."""
    tour = tour_of(session, item)
    return registry.Versions(current=_tour_json(tour) if tour else None, proposed={})


def _audit_mail(item: ApprovalItem, approved: bool) -> registry.Mail | None:
    if approved:
        return None  # audited and found fine: nothing to tell
    title = (item.payload or {}).get("title") or "your virtual tour"
    return registry.Mail(
        "Your virtual tour was moved to drafts",
        f'An administrator reviewed "{title}" after it was published and moved it to your drafts, '
        "so it is not listed for now. You can correct it under My tours and publish it again.",
    )


registry.register(
    ApprovalKind.trusted_audit,
    registry.KindHandler(
        approve=_audit_passed,
        reject=_audit_failed,
        mail=_audit_mail,
        summary=TOURS.summary,
        versions=_audit_versions,
        owner=TOURS.owner,
        withdrawn=TOURS.edit_withdrawn,
        subject=_guid,
    ),
)
registry.register(
    ApprovalKind.new_virtual_tour,
    registry.KindHandler(
        approve=_approve_new_tour,
        reject=_reject_new_tour,
        mail=_new_tour_mail,
        summary=TOURS.summary,
        versions=TOURS.new_versions,
        owner=TOURS.owner,
        withdrawn=_new_tour_withdrawn,
        subject=_guid,
    ),
)
registry.register(
    ApprovalKind.vt_edit,
    registry.KindHandler(
        approve=_approve_edit,
        reject=registry.keep_published,
        mail=_edit_mail,
        summary=TOURS.summary,
        versions=TOURS.edit_versions,
        owner=TOURS.owner,
        withdrawn=TOURS.edit_withdrawn,
        subject=_guid,
        after_decision=_after_edit_decision,
    ),
)
