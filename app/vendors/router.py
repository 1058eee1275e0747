"""Spec §7 Vendors (/v2/vendors/): the hosts, host requests and their approval, 3D-capture vendor API
credentials, group subscriptions and the admins' figures."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request, Response

from app.auth.rate_limit import check_rate_limit, client_ip
from app.core import daily_series
from app.core.access import public
from app.core.deps import AdminUser, CreatorUser, CurrentUser, DbSession
from app.core.errors import error_responses
from app.core.settings import get_settings
from app.core.types import DbId, DbInt
from app.tours import link_lookup
from app.vendors import approvals, credentials, hosts, service
from app.vendors.matterport import get_capture_vendor_api
from app.vendors.models import Vendor, VendorCredential, VendorGroupSubscriber
from app.vendors.ports import CaptureVendorApi
from app.vendors.schemas import (
    ChangeStatusAnswer,
    ChangeStatusIn,
    CredentialAnswer,
    CredentialIn,
    CredentialList,
    CredentialOut,
    GroupSubscriberAnswer,
    GroupSubscriberIn,
    GroupSubscriberList,
    GroupSubscriberOut,
    HostApprovalItemOut,
    HostApprovalItems,
    HostDecisionAnswer,
    HostDecisionIn,
    HostRequestAnswer,
    HostRequestIn,
    HostRequestKind,
    HostRequestList,
    HostRequestOut,
    MatterportTypeAnswer,
    MatterportTypeIn,
    MatterportTypeOut,
    MessageAnswer,
    NamedRef,
    VendorAdminList,
    VendorAdminOut,
    VendorChoiceList,
    VendorChoiceOut,
    VendorDeleted,
    VendorList,
    VendorMediaTypesList,
    VendorMediaTypesOut,
    VendorOut,
    VendorStats,
    VendorStatsAnswer,
    VendorTourCount,
)

router = APIRouter(prefix="/v2/vendors", tags=["vendors"])

CaptureApi = Annotated[CaptureVendorApi, Depends(get_capture_vendor_api)]


def get_host_resolver() -> hosts.Resolver:
    """How a requested host name is resolved (a dependency, so tests can answer for names of their own)."""
    return link_lookup.system_resolver


def get_address_policy() -> link_lookup.AddressPolicy:
    """The link lookup's address policy: a host must point where the lookup may fetch."""
    return link_lookup.AddressPolicy.from_settings(get_settings().discover_allowed_networks)


# ------------------------------------------------------------------------------------------- hosts


@router.get("/", response_model=VendorList, dependencies=[Depends(public)])
def list_vendors(db: DbSession) -> VendorList:
    """The approved hosts everyone may choose, in the dictionary's order (spec §3 Vendor)."""
    return VendorList(data=[vendor_out(vendor) for vendor in service.public_hosts(db)])


CREATED_PENDING: dict[int | str, dict[str, Any]] = {
    201: {"model": HostRequestAnswer, "description": "Filed: the host waits for an administrator's approval"}
}


@router.post("/", response_model=HostRequestAnswer, responses={**CREATED_PENDING, **error_responses(409)})
def create_vendor(
    body: HostRequestIn,
    user: CreatorUser,
    db: DbSession,
    response: Response,
    resolver: Annotated[hosts.Resolver, Depends(get_host_resolver)],
    policy: Annotated[link_lookup.AddressPolicy, Depends(get_address_policy)],
) -> HostRequestAnswer:
    """Spec §2 "custom provider request": ask for a host. `is_custom` true (the default) asks for the
    caller's own host (a custom provider, with `parent_vendor_id` an alternative version of that host,
    e.g. its white-label edition under the caller's domain); false suggests a host for everyone.
    The link heading and the sample tour write the host name as `{host}` (spec §5).

    201: filed; it waits for an administrator (who is mailed), and the owner may already use a custom
    host for new tours. 200: an administrator's request, approved at once. 400 names every failing
    field (a host name that is not a public DNS name, or that points to a private network, is refused);
    409 when a host of that name exists."""
    filed = service.request_host(db, user, body, resolver=resolver, policy=policy)
    if filed.applied:
        return HostRequestAnswer(message="The host has been created", data=host_request_out(filed.view))
    response.status_code = 201
    return HostRequestAnswer(
        message="Your request has been sent: an administrator will review it", data=host_request_out(filed.view)
    )


@router.delete("/", response_model=VendorDeleted, responses=error_responses(403, 404, 409))
def delete_vendor(
    user: CurrentUser, db: DbSession, vendor_id: Annotated[DbId, Query(description="The host to delete")]
) -> VendorDeleted:
    """Delete a host: its owner a custom host (a request still waiting is withdrawn), an admin any
    host. 409 while tours are on it."""
    service.delete_host(db, user, vendor_id)
    return VendorDeleted(message="The host has been deleted", vendor_id=vendor_id)


@router.get("/allowed-vendors", response_model=VendorChoiceList)
def allowed_vendors(user: CurrentUser, db: DbSession) -> VendorChoiceList:
    """The hosts the caller may choose in the media form: the public ones, then the caller's own
    custom hosts, approved or still waiting (`status`)."""
    return VendorChoiceList(data=[vendor_choice_out(vendor) for vendor in service.allowed_hosts(db, user)])


@router.get(
    "/media-types",
    response_model=VendorMediaTypesList,
    responses=error_responses(404),
    dependencies=[Depends(public)],
)
def vendor_media_types(
    db: DbSession,
    vendor_id: Annotated[DbId | None, Query(description="One host; every public host when absent")] = None,
) -> VendorMediaTypesList:
    """What tours on each host can be, most common first: the media form preselects the first."""
    answer = service.media_types_of(db, vendor_id)
    return VendorMediaTypesList(
        data=[
            VendorMediaTypesOut(
                vendor_id=vendor.id,
                vendor_name=vendor.name,
                media_types=[NamedRef(id=item.id, name=item.name) for item in media_types],
            )
            for vendor, media_types in answer
        ]
    )


@router.get("/own-vendors", response_model=HostRequestList)
def own_vendors(user: CurrentUser, db: DbSession) -> HostRequestList:
    """Every host the caller asked for, newest first, with what became of it (`status`)."""
    return HostRequestList(data=[host_request_out(view) for view in service.own_requests(db, user)])


@router.get("/moderation-vendors", response_model=VendorAdminList)
def moderation_vendors(
    _admin: AdminUser,
    db: DbSession,
    status: Literal["all", "approved", "pending", "rejected", "inactive"] = Query("all"),
    is_custom: bool | None = Query(None, description="Only custom hosts (true) or only public ones (false)"),
    search: str | None = Query(None, max_length=100, description="Part of the name, case-insensitive"),
    limit: int = Query(50, ge=1, le=200),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> VendorAdminList:
    """The providers moderation tab: every host, those waiting first, with owner and tour count."""
    rows, total = service.moderation_hosts(
        db, status=status, is_custom=is_custom, search=search, limit=limit, offset=offset
    )
    return VendorAdminList(data=[vendor_admin_out(row) for row in rows], total_items=total, limit=limit, offset=offset)


@router.get("/admin-stats", response_model=VendorStatsAnswer)
def admin_stats(
    _admin: AdminUser,
    db: DbSession,
    date_from: date | None = Query(None, description=daily_series.DATE_FROM_DESCRIPTION),
    date_to: date | None = Query(None, description=daily_series.DATE_TO_DESCRIPTION),
) -> VendorStatsAnswer:
    """The hosts by status and kind, what waits, and how many hosts were created on each day of the range."""
    first, last = daily_series.day_range(date_from, date_to)
    figures = service.statistics(db)
    return VendorStatsAnswer(
        data=VendorStats(
            total=figures.total,
            by_status=figures.by_status,
            public=figures.public,
            custom=figures.custom,
            pending_requests=figures.pending_requests,
            connected_accounts=figures.connected_accounts,
            group_subscribers=figures.group_subscribers,
            tours_by_vendor=[
                VendorTourCount(vendor_id=vendor_id, vendor_name=name, tours=count)
                for vendor_id, name, count in figures.tours_by_vendor
            ],
            daily=service.hosts_per_day(db, first, last),
        )
    )


@router.put("/change-status", response_model=ChangeStatusAnswer, responses=error_responses(404, 409))
def change_status(body: ChangeStatusIn, _admin: AdminUser, db: DbSession) -> ChangeStatusAnswer:
    """Withdraw a host (inactive: no longer offered for new tours; its tours stay) or offer it again.
    409 for a host still waiting for its decision or rejected (approval-items decides those)."""
    vendor = service.change_status(db, body.vendor_id, body.status)
    message = "The host is offered again" if body.status == "approved" else "The host has been withdrawn"
    return ChangeStatusAnswer(message=message, data=vendor_admin_out(service.admin_rows(db, [vendor])[0]))


# -------------------------------------------------------------------------------- approval items


@router.get("/approval-items", response_model=HostApprovalItems)
def list_approval_items(
    _admin: AdminUser,
    db: DbSession,
    kind: HostRequestKind | None = Query(None),
    status: Literal["pending", "approved", "rejected", "all"] = Query("pending"),
    limit: int = Query(20, ge=1, le=100),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> HostApprovalItems:
    """Host requests waiting for (or given) a decision, oldest first."""
    views, total = approvals.list_items(db, kind=kind, status=status, limit=limit, offset=offset)
    return HostApprovalItems(
        data=[approval_item_out(view) for view in views], total_items=total, limit=limit, offset=offset
    )


@router.put("/approval-items", response_model=HostDecisionAnswer, responses=error_responses(404, 409))
def decide_approval_item(body: HostDecisionIn, admin: AdminUser, db: DbSession) -> HostDecisionAnswer:
    """Approve (the host becomes usable: by its owner for a custom host, by everyone otherwise) or
    reject; the requester is told by mail. 409 when it was decided already."""
    approve = body.action == "approve"
    view = approvals.decide(db, admin=admin, item_id=body.id, approve=approve, note=body.review_note)
    return HostDecisionAnswer(message="Approved" if approve else "Rejected", data=approval_item_out(view))


# ----------------------------------------------------------------------------------- credentials


@router.get("/credentials", response_model=CredentialList, responses=error_responses(404))
def get_credentials(
    user: CreatorUser,
    db: DbSession,
    userid: Annotated[DbId | None, Query(description="Whose; the caller's by default (admins: anyone's)")] = None,
) -> CredentialList:
    """The caller's saved vendor API tokens, masked (only the last 4 characters show)."""
    return CredentialList(data=[credential_out(row) for row in credentials.list_credentials(db, user, userid)])


@router.post("/credentials", response_model=CredentialAnswer, responses=error_responses(404, 429, 503))
def post_credentials(
    request: Request, body: CredentialIn, user: CreatorUser, db: DbSession, api: CaptureApi
) -> CredentialAnswer:
    """Connect the 3D-capture vendor (Matterport): the token id (`key`) and secret are checked with
    Matterport first, then stored encrypted; saving again replaces them. 400 on `key` and `secret`
    when Matterport does not accept them; 503 when Matterport cannot be reached (nothing is saved)."""
    # Each call makes this server call the vendor: counted per user and per IP like the link lookup.
    check_rate_limit("vendor-api", ip=client_ip(request), account=f"user:{user.id}")
    saved = credentials.save_credentials(
        db, api, user, userid=body.userid, vendor_id=body.vendor, key=body.key, secret=body.secret
    )
    message = "Your Matterport token has been replaced" if saved.replaced else "Your Matterport account is connected"
    return CredentialAnswer(message=message, data=credential_out(saved.credential))


@router.delete("/credentials", response_model=MessageAnswer, responses=error_responses(404))
def delete_credentials(
    user: CreatorUser,
    db: DbSession,
    userid: Annotated[DbId | None, Query(description="Whose; the caller's by default (admins: anyone's)")] = None,
    vendor: Annotated[DbId | None, Query(description="The vendor's id; Matterport by default")] = None,
) -> MessageAnswer:
    """Forget the saved token (404 when none is saved)."""
    credentials.delete_credentials(db, user, userid=userid, vendor_id=vendor)
    return MessageAnswer(message="Your Matterport token has been removed")


@router.post("/matterport-type", response_model=MatterportTypeAnswer, responses=error_responses(429, 503))
def matterport_type(
    request: Request, body: MatterportTypeIn, user: CreatorUser, db: DbSession, api: CaptureApi
) -> MatterportTypeAnswer:
    """Validate a Matterport model (`vendor_key`: its id or a link to it) with the caller's saved
    token: its name, visibility and state, and the media type its tours get. 400 on `vendor_key`
    when it is not a model id, no token is saved, the token no longer works or the account has no
    such model; 503 when Matterport cannot be reached."""
    check_rate_limit("vendor-api", ip=client_ip(request), account=f"user:{user.id}")
    found = credentials.model_type(db, api, user, body.vendor_key)
    return MatterportTypeAnswer(
        message="The model has been found",
        data=MatterportTypeOut(
            vendor_key=found.model_id,
            name=found.name,
            visibility=found.visibility,
            state=found.state,
            media_type_id=found.media_type.id if found.media_type is not None else None,
            media_type=found.media_type.name if found.media_type is not None else None,
        ),
    )


# ------------------------------------------------------------------------------ group subscribers


@router.get("/group-subscribers", response_model=GroupSubscriberList)
def get_group_subscribers(
    user: CurrentUser,
    db: DbSession,
    group_name: str | None = Query(None, max_length=100),
    userid: Annotated[DbId | None, Query(description="Admins: one user's subscriptions")] = None,
    limit: int = Query(50, ge=1, le=200),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> GroupSubscriberList:
    """The groups of hosts the caller follows; an admin sees every subscriber (of a group, or of a user)."""
    who = userid if user.is_admin else user.id
    rows, total = service.subscriptions(db, user_id=who, group_name=group_name, limit=limit, offset=offset)
    return GroupSubscriberList(
        data=[subscriber_out(row, name) for row, name in rows], total_items=total, limit=limit, offset=offset
    )


@router.post("/group-subscribers", response_model=GroupSubscriberAnswer)
def post_group_subscriber(body: GroupSubscriberIn, user: CurrentUser, db: DbSession) -> GroupSubscriberAnswer:
    """Follow a group of hosts (e.g. "3D capture"): a mail comes when a new host of it is offered.
    Following again changes nothing. 400 for a group no approved host is in."""
    row, created = service.subscribe(db, user, body.group_name)
    message = f"You follow {row.group_name}" if created else f"You already follow {row.group_name}"
    return GroupSubscriberAnswer(message=message, data=subscriber_out(row, user.platform_username))


@router.delete("/group-subscribers", response_model=GroupSubscriberAnswer)
def delete_group_subscriber(
    user: CurrentUser, db: DbSession, group_name: Annotated[str, Query(min_length=1, max_length=100)]
) -> GroupSubscriberAnswer:
    """Stop following a group; stopping twice changes nothing."""
    removed = service.unsubscribe(db, user, group_name)
    message = f"You no longer follow {group_name.strip()}" if removed else f"You do not follow {group_name.strip()}"
    return GroupSubscriberAnswer(message=message, data=None)


# ---------------------------------------------------------------------------------------- shaping


def vendor_out(vendor: Vendor) -> VendorOut:
    return VendorOut(**_vendor_fields(vendor))


def _vendor_fields(vendor: Vendor) -> dict[str, Any]:
    return {
        "vendor_id": vendor.id,
        "vendor_name": vendor.name,
        "link_header": vendor.link_header,
        "group_name": vendor.group_name,
        "preview_picture_required": vendor.preview_picture_required,
        "is_white_label": vendor.is_white_label,
        "website": vendor.website,
        "link_pattern": vendor.link_pattern,
        "embed_template": vendor.embed_template,
        "embed_kind": vendor.embed_kind.value,
    }


def vendor_choice_out(vendor: Vendor) -> VendorChoiceOut:
    return VendorChoiceOut(
        **_vendor_fields(vendor),
        is_custom=vendor.is_custom,
        status=vendor.status.value,
        parent_vendor_id=vendor.parent_vendor_id,
    )


def vendor_admin_out(row: service.AdminVendorRow) -> VendorAdminOut:
    vendor = row.vendor
    return VendorAdminOut(
        **_vendor_fields(vendor),
        is_custom=vendor.is_custom,
        status=vendor.status.value,
        parent_vendor_id=vendor.parent_vendor_id,
        userid=vendor.owner_user_id,
        platform_username=row.owner_username,
        tours=row.tours,
        created_at=vendor.created_at,
    )


def host_request_out(view: service.HostRequestView) -> HostRequestOut:
    request = view.request
    return HostRequestOut(
        vendor_id=request.vendor_id,
        vendor_name=request.name,
        host=request.host,
        link_header=request.link_heading,
        sample_tour=request.sample_tour,
        alternate_version_name=request.alternate_version_name,
        parent_vendor_id=request.parent_vendor_id,
        is_custom=view.is_custom,
        kind=view.kind.value,  # type: ignore[arg-type]  # one of the four host kinds by construction
        status=view.status,  # type: ignore[arg-type]
        tours=view.tours,
        created_at=request.created_at,
    )


def approval_item_out(view: approvals.ItemView) -> HostApprovalItemOut:
    item = view.item
    return HostApprovalItemOut(
        id=item.id,
        kind=item.kind.value,  # type: ignore[arg-type]  # the queries keep to the host kinds
        status=item.status.value,
        userid=item.submitted_by_user_id,
        platform_username=view.requester.platform_username if view.requester is not None else None,
        request=host_request_out(view.request) if view.request is not None else None,
        created_at=item.created_at,
        reviewed_at=item.reviewed_at,
        reviewed_by=item.reviewed_by_user_id,
        review_note=item.review_note,
    )


def credential_out(row: VendorCredential) -> CredentialOut:
    key, secret = credentials.masked(row)
    return CredentialOut(
        id=row.id,
        userid=row.user_id,
        vendor=NamedRef(id=row.vendor.id, name=row.vendor.name),
        key=key,
        secret=secret,
        created_at=row.created_at,
        checked_at=row.checked_at,
    )


def subscriber_out(row: VendorGroupSubscriber, platform_username: str | None) -> GroupSubscriberOut:
    return GroupSubscriberOut(
        userid=row.user_id, platform_username=platform_username, group_name=row.group_name, created_at=row.created_at
    )
