"""The tours' approval kinds in the one approval model (app/moderation/registry.py): a new virtual
tour (approving lists it, rejecting keeps it out of the feed) and a VT edit (approving applies the
proposed changes to the published tour, a link taken meanwhile being a 409; rejecting keeps the
published version). Every change goes through the tours' after-change steps (`record_change`: the
outbox carries it to the index, vt_count follows)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.core.errors import Conflict
from app.moderation import registry
from app.moderation.models import ApprovalItem, ApprovalKind
from app.tours import rules
from app.tours.models import ApprovalState, Tour, TourStatus
from app.tours.service import (
    apply_changes,
    approve_tour,
    current_content,
    flush_unique_link,
    record_change,
    sync_edit_flag,
    tour_by_link,
    tour_out,
)
from app.users.models import User


def tour_of(session: Session, item: ApprovalItem) -> Tour | None:
    return session.get(Tour, item.entity_id) if item.entity_type == "tour" and item.entity_id is not None else None


def _owner(session: Session, item: ApprovalItem) -> User | None:
    tour = tour_of(session, item)
    return tour.owner if tour is not None else item.submitted_by


def _guid(item: ApprovalItem) -> int | str:
    guid = (item.payload or {}).get("guid")
    return str(guid) if guid else item.id


def proposed_changes(item: ApprovalItem) -> dict[str, Any]:
    changes = dict((item.payload or {}).get("changes") or {})
    changes.pop("link_normalised", None)
    return changes


def _summary(session: Session, item: ApprovalItem) -> registry.Summary:
    tour = tour_of(session, item)
    proposed = proposed_changes(item)
    payload = item.payload or {}
    if tour is None:
        return registry.Summary(title=payload.get("title"))
    return registry.Summary(
        title=proposed.get("title") or tour.title,
        username=tour.owner.platform_username,
        preview_picture=proposed.get("preview_picture") or tour.preview_picture,
        link=proposed.get("link") or tour.link,
    )


def _tour_json(tour: Tour) -> dict[str, Any]:
    return tour_out(tour, None).model_dump(mode="json")


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


def _new_tour_versions(session: Session, item: ApprovalItem) -> registry.Versions:
    tour = tour_of(session, item)
    return registry.Versions(current=None, proposed=_tour_json(tour) if tour else dict(item.payload or {}))


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


def _edit_withdrawn(session: Session, item: ApprovalItem) -> bool:
    return tour_of(session, item) is None


def _approve_edit(session: Session, item: ApprovalItem, _admin: User) -> None:
    tour = tour_of(session, item)
    assert tour is not None
    changes = dict((item.payload or {}).get("changes") or {})
    link = changes.get("link")
    if isinstance(link, str) and link != tour.link:
        other = tour_by_link(session, link)
        if other is not None and other.id != tour.id:
            raise Conflict(rules.LINK_NOT_UNIQUE, fields={"link": rules.LINK_NOT_UNIQUE})
    apply_changes(tour, changes)
    flush_unique_link(session)


def _after_edit_decision(session: Session, item: ApprovalItem) -> None:
    tour = tour_of(session, item)
    if tour is None:
        return
    sync_edit_flag(session, tour.user_id)
    record_change(session, tour)


def _edit_versions(session: Session, item: ApprovalItem) -> registry.Versions:
    tour = tour_of(session, item)
    proposed = proposed_changes(item)
    return registry.Versions(current=current_content(tour, list(proposed)) if tour else None, proposed=proposed)


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
        summary=_summary,
        versions=_audit_versions,
        owner=_owner,
        withdrawn=_edit_withdrawn,
        subject=_guid,
    ),
)
registry.register(
    ApprovalKind.new_virtual_tour,
    registry.KindHandler(
        approve=_approve_new_tour,
        reject=_reject_new_tour,
        mail=_new_tour_mail,
        summary=_summary,
        versions=_new_tour_versions,
        owner=_owner,
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
        summary=_summary,
        versions=_edit_versions,
        owner=_owner,
        withdrawn=_edit_withdrawn,
        subject=_guid,
        after_decision=_after_edit_decision,
    ),
)
