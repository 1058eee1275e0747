"""The ads' approval kinds in the one approval model (app/moderation/registry.py; spec §4: ads and ad
edits wait for approval): a new ad (approving serves it, rejecting keeps it out of the feed) and an
ad edit (approving applies the proposed changes to the published ad, a link taken meanwhile being a
409; rejecting keeps the published version). The owner is mailed either way (decisions.decide);
every change goes through the ads' after-change step (`record_change`: the outbox carries it to the
index)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.ads.models import Ad, AdApprovalState, AdStatus
from app.ads.service import (
    AD,
    LINK_EXISTS,
    ad_by_link,
    ad_out,
    apply_changes,
    approve_ad,
    flush_unique_link,
    record_change,
)
from app.moderation import pending_edits, registry
from app.moderation.models import ApprovalItem, ApprovalKind
from app.users.models import User


def _ad_json(ad: Ad) -> dict[str, Any]:
    return ad_out(ad, None).model_dump(mode="json")


ADS = pending_edits.Published(Ad, AD, ApprovalKind.new_ad, ApprovalKind.ad_edit, shown=_ad_json)
ad_of = ADS.item_of


def _title(item: ApprovalItem) -> str:
    return str((item.payload or {}).get("title") or "your ad")


# ------------------------------------------------------------------------------ new ad


def _new_ad_withdrawn(session: Session, item: ApprovalItem) -> bool:
    """Deleted, or taken back to the owner's drafts."""
    ad = ad_of(session, item)
    return ad is None or ad.status == AdStatus.draft


def _approve_new_ad(session: Session, item: ApprovalItem, admin: User) -> None:
    ad = ad_of(session, item)
    assert ad is not None  # decisions.decide never applies a withdrawn item
    approve_ad(session, ad, admin)
    record_change(session, ad)


def _reject_new_ad(session: Session, item: ApprovalItem, _admin: User) -> None:
    ad = ad_of(session, item)
    assert ad is not None
    ad.approval_state = AdApprovalState.rejected
    record_change(session, ad)


def _new_ad_mail(item: ApprovalItem, approved: bool) -> registry.Mail:
    if approved:
        return registry.Mail(
            "Your ad is approved",
            f'An administrator has approved "{_title(item)}": it is shown as a Sponsored card on TourAtlas now.',
        )
    return registry.Mail(
        "Your ad was not approved",
        f'An administrator has not approved "{_title(item)}", so it is not shown. '
        "You can edit it under Manage Ads to send it for approval again.",
    )


# ------------------------------------------------------------------------------ ad edit


def _approve_edit(session: Session, item: ApprovalItem, _admin: User) -> None:
    ad = ad_of(session, item)
    assert ad is not None
    changes = ADS.proposed(item)
    pending_edits.refuse_taken_link(ad, changes, lambda link: ad_by_link(session, link), LINK_EXISTS)
    apply_changes(ad, changes)
    flush_unique_link(session)
    record_change(session, ad)


def _edit_mail(item: ApprovalItem, approved: bool) -> registry.Mail:
    if approved:
        return registry.Mail(
            "Your ad changes are approved",
            f'An administrator has approved the changes to "{_title(item)}"; they are live now.',
        )
    return registry.Mail(
        "Your ad changes were not approved",
        f'An administrator has not approved the changes to "{_title(item)}"; the published version stays.',
    )


def _subject(item: ApprovalItem) -> int | str:
    return item.id


registry.register(
    ApprovalKind.new_ad,
    registry.KindHandler(
        approve=_approve_new_ad,
        reject=_reject_new_ad,
        mail=_new_ad_mail,
        summary=ADS.summary,
        versions=ADS.new_versions,
        owner=ADS.owner,
        withdrawn=_new_ad_withdrawn,
        subject=_subject,
    ),
)
registry.register(
    ApprovalKind.ad_edit,
    registry.KindHandler(
        approve=_approve_edit,
        reject=registry.keep_published,
        mail=_edit_mail,
        summary=ADS.summary,
        versions=ADS.edit_versions,
        owner=ADS.owner,
        withdrawn=ADS.edit_withdrawn,
        subject=_subject,
    ),
)
