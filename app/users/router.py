"""Spec §7 Users: the current user, account settings, checks, profile image, interests, guide,
search, groups, account states and deletion, and the admin's calls (moderation list, approval
items, statistics, per-account settings, beta testers, tour transfer, mail to a user)."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Depends, File, Query, Request, Response, UploadFile

from app.auth.rate_limit import check_rate_limit, client_ip
from app.core import daily_series
from app.core.access import public, unrestricted
from app.core.deps import AdminUser, CMUser, CurrentUser, DbSession, OptionalUser
from app.core.errors import NotFound, error_responses
from app.core.types import DbId, DbInt
from app.moderation.models import ApprovalItem
from app.users import admin as admin_service
from app.users import approvals, beta, images
from app.users import service as users
from app.users.models import User
from app.users.schemas import (
    AccountAnswer,
    ActivateDeactivateBody,
    ActivityCodeCount,
    AdminUserSettingsAnswer,
    AdminUserSettingsUpdate,
    ApiStatistic,
    ApiStatisticAnswer,
    ApiStatisticDay,
    ApiStatisticTotals,
    ApprovalDecision,
    ApprovalDecisionAnswer,
    ApprovalItemOut,
    ApprovalItemsAnswer,
    ApprovalStatusFilter,
    BetaTesterAnswers,
    BetaTestersAnswer,
    BetaTesterSaved,
    BugImageAnswer,
    CurrentUserOut,
    ExistingAnswer,
    FieldCheckAnswer,
    GuideStepsAnswer,
    GuideStepsBody,
    InterestOut,
    InterestsAnswer,
    InterestsUpdate,
    MessageAnswer,
    ModerationSorting,
    ModerationUsersAnswer,
    OwnBetaAnswers,
    ProfileImageAnswer,
    RoleFilter,
    SentMail,
    SentMailAnswer,
    StateFilter,
    UserApprovalKind,
    UserGroupOut,
    UserGroupsAnswer,
    UserParamsAnswer,
    UserParamsUpdate,
    UserSearchAnswer,
    UserSearchItem,
    UserSearchPage,
    UserStats,
    UserStatsAnswer,
    VtTransferAnswer,
    VtTransferBody,
    VtTransferResult,
    admin_settings_out,
    approval_user_out,
    beta_tester_out,
    current_user_out,
    moderation_user_out,
)

router = APIRouter(prefix="/v2/users", tags=["users"])

SAVED = "Your account has been saved"
PENDING = "Your changes are saved; some of them wait for an administrator's approval"


@router.get("/", response_model=CurrentUserOut)
def get_current_user(user: CurrentUser) -> CurrentUserOut:
    return current_user_out(user)


@router.get("/user-params", response_model=CurrentUserOut, responses=error_responses(404))
def get_user_params(user: CurrentUser, db: DbSession, userid: DbId | None = Query(None)) -> CurrentUserOut:
    return current_user_out(users.resolve_target(db, user, userid))


@router.put(
    "/user-params",
    response_model=UserParamsAnswer,
    responses={201: {"model": UserParamsAnswer}, **error_responses(404, 409)},
)
def update_user_params(
    body: UserParamsUpdate, user: CurrentUser, db: DbSession, response: Response
) -> UserParamsAnswer:
    """200 saved; 201 saved except the fields in pending_fields, which wait for approval; 409 with the
    server's message (email or username taken, an earlier edit still pending); 400 with fields."""
    target = users.resolve_target(db, user, body.userid)
    pending = users.update_params(db, user=target, editor=user, params=body.params)
    response.status_code = 201 if pending else 200
    return UserParamsAnswer(
        message=PENDING if pending else SAVED, data=current_user_out(target), pending_fields=pending
    )


@router.get(
    "/users-info-check",
    response_model=FieldCheckAnswer,
    dependencies=[Depends(unrestricted)],
    responses=error_responses(429),
)
def users_info_check(
    request: Request,
    db: DbSession,
    user: OptionalUser,
    platform_username: str | None = Query(None, max_length=64),
    email: str | None = Query(None, max_length=320),
) -> FieldCheckAnswer:
    """The sign-up and settings forms' live check of a platform username and/or email (spec §5):
    format, profanity, and availability (usernames only from 5 characters and, for a signed-in
    caller, only when different from their current one)."""
    check_rate_limit("lookup", ip=client_ip(request))
    fields, username_available, email_available = users.check_fields(
        db, platform_username=platform_username, email=email, current=user
    )
    return FieldCheckAnswer(
        valid=not fields,
        fields=fields,
        platform_username_available=username_available,
        email_available=email_available,
    )


@router.get(
    "/get_existed_usernames_emails",
    response_model=ExistingAnswer,
    dependencies=[Depends(unrestricted)],
    responses=error_responses(429),
)
def existing_usernames_emails(
    request: Request,
    db: DbSession,
    username: str | None = Query(None, max_length=64),
    user_email: str | None = Query(None, max_length=320),
) -> ExistingAnswer:
    check_rate_limit("lookup", ip=client_ip(request))
    username_exists, email_exists = users.existing_username_or_email(db, username=username, email=user_email)
    return ExistingAnswer(username_exists=username_exists, email_exists=email_exists)


@router.get(
    "/profile-image", response_model=ProfileImageAnswer, dependencies=[Depends(public)], responses=error_responses(404)
)
def get_profile_image(user: OptionalUser, image: str | None = Query(None, max_length=512)) -> ProfileImageAnswer:
    """The served path of a profile image (by name), or of the caller's own; 404 'Image not found'."""
    wanted = image or (user.profile_img if user else None)
    if not wanted:
        raise NotFound(images.IMAGE_NOT_FOUND)
    return ProfileImageAnswer(path=images.public_path(wanted))


@router.post("/profile-image", response_model=ProfileImageAnswer, responses={201: {"model": ProfileImageAnswer}})
def upload_profile_image(
    user: CurrentUser, db: DbSession, response: Response, image: UploadFile = File(...)
) -> ProfileImageAnswer:
    """JPG, PNG or WEBP up to 2 MB. 200 in use; 201 waiting for approval (images_approval on)."""
    path = images.store_image(images.read_upload(image.file))
    pending = images.set_profile_image(db, user=user, editor=user, path=path)
    response.status_code = 201 if pending else 200
    message = "Your profile image waits for approval" if pending else "Your profile image has been saved"
    return ProfileImageAnswer(path=path, message=message, pending=pending)


def _interests(db: DbSession, user: CurrentUser) -> InterestsAnswer:
    return InterestsAnswer(
        data=[
            InterestOut(category_id=category.id, name=category.name, position=interest.position)
            for interest, category in users.list_interests(db, user)
        ]
    )


@router.get("/user-interests", response_model=InterestsAnswer)
def get_user_interests(user: CurrentUser, db: DbSession) -> InterestsAnswer:
    return _interests(db, user)


@router.put("/user-interests", response_model=InterestsAnswer)
def put_user_interests(body: InterestsUpdate, user: CurrentUser, db: DbSession) -> InterestsAnswer:
    users.set_interests(db, user, [item.category_id for item in body.interests])
    return _interests(db, user)


@router.get("/user-guide-steps", response_model=GuideStepsAnswer)
def get_guide_steps(user: CurrentUser) -> GuideStepsAnswer:
    return GuideStepsAnswer(guide_steps=current_user_out(user).guide_steps)


@router.post("/user-guide-steps", response_model=GuideStepsAnswer)
def post_guide_steps(body: GuideStepsBody, user: CurrentUser) -> GuideStepsAnswer:
    return GuideStepsAnswer(guide_steps=users.merge_guide_steps(user, body.guide_steps))


@router.get("/search-users", response_model=UserSearchAnswer)
def search_users(
    _staff: CMUser,
    db: DbSession,
    searchPattern: str = Query(min_length=1, max_length=100),  # noqa: N803 - wire name
    limit: int = Query(20, ge=1, le=100),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> UserSearchAnswer:
    """Admins and content managers pick the account they add media for (spec §6)."""
    rows, total = users.search_users(db, searchPattern, limit=limit, offset=offset)
    items = [
        UserSearchItem(
            userid=row.id,
            platform_username=row.platform_username,
            username=row.username,
            email=row.email,
            creatorId=row.creator.id if row.creator is not None else None,
        )
        for row in rows
    ]
    return UserSearchAnswer(data=UserSearchPage(data=items, total_items=total))


@router.get("/user-groups", response_model=UserGroupsAnswer)
def user_groups(_admin: AdminUser, db: DbSession) -> UserGroupsAnswer:
    """The groups an admin can address (notifications to users), with their sizes."""
    return UserGroupsAnswer(
        data=[UserGroupOut(id=group_id, name=name, count=count) for group_id, name, count in users.user_groups(db)]
    )


@router.post("/admin-user-activate-deactivate", response_model=AccountAnswer, responses=error_responses(404))
def activate_deactivate(body: ActivateDeactivateBody, staff: CMUser, db: DbSession) -> AccountAnswer:
    """Drafting (is_active false) is for admins; reactivation also for content managers (spec §4)."""
    target = users.get_user(db, body.userid)
    users.set_account_active(db, admin=staff, user=target, is_active=body.is_active)
    message = "The account is active; its tours wait in drafts" if body.is_active else "The account is drafted"
    return AccountAnswer(message=message, data=current_user_out(target))


@router.delete("/", response_model=MessageAnswer, responses=error_responses(404))
def delete_user(user: CurrentUser, db: DbSession, user_id: DbId | None = Query(None)) -> MessageAnswer:
    """Delete one's own account, or (admins) any account."""
    target = users.resolve_target(db, user, user_id)
    users.delete_account(db, target)
    return MessageAnswer(message="User Deleted")


# ------------------------------------------------------------------------------------ admin: users


@router.get("/get-moderation-users", response_model=ModerationUsersAnswer)
def get_moderation_users(
    _admin: AdminUser,
    db: DbSession,
    searchPattern: str | None = Query(None, max_length=100),  # noqa: N803 - wire name
    state: StateFilter = Query("all", description="all (not deleted), active, drafted, blocked or deleted"),
    role: RoleFilter | None = Query(None),
    sorting: ModerationSorting = Query("newest"),
    limit: int = Query(20, ge=1, le=100),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> ModerationUsersAnswer:
    """The admin's list of accounts to moderate (activate, deactivate, settings)."""
    page, tour_counts, total = admin_service.moderation_users(
        db, pattern=searchPattern, state=state, role=role, sorting=sorting, limit=limit, offset=offset
    )
    return ModerationUsersAnswer(
        data=[moderation_user_out(user, tour_counts.get(user.id, 0)) for user in page],
        total_items=total,
        limit=limit,
        offset=offset,
    )


@router.get("/admin-stats", response_model=UserStatsAnswer)
def get_admin_stats(
    _admin: AdminUser,
    db: DbSession,
    date_from: date | None = Query(None, description=daily_series.DATE_FROM_DESCRIPTION),
    date_to: date | None = Query(None, description=daily_series.DATE_TO_DESCRIPTION),
) -> UserStatsAnswer:
    """The accounts by state and role, and how many joined on each day of the range."""
    first, last = daily_series.day_range(date_from, date_to)
    return UserStatsAnswer(
        data=UserStats(**admin_service.user_stats(db), daily=admin_service.joined_per_day(db, first, last))
    )


@router.get("/get-api-statistic", response_model=ApiStatisticAnswer)
def get_api_statistic(
    _admin: AdminUser,
    db: DbSession,
    date_from: date | None = Query(None, description="First UTC day (default: 29 days before date_to)"),
    date_to: date | None = Query(None, description="Last UTC day (default: today)"),
    activity_code: str | None = Query(None, max_length=64, description="Only this activity code"),
) -> ApiStatisticAnswer:
    """Platform usage per UTC day: sessions started (accounts and guests), session activities per
    code, distinct active accounts. At most 366 days per call."""
    first, last = admin_service.statistic_range(date_from, date_to)
    usage = admin_service.api_usage(db, first, last, activity_code)
    return ApiStatisticAnswer(data=api_statistic_out(usage))


@router.get("/admin-user-settings", response_model=AdminUserSettingsAnswer, responses=error_responses(404))
def get_admin_user_settings(
    _admin: AdminUser, db: DbSession, userid: Annotated[DbId, Query()]
) -> AdminUserSettingsAnswer:
    return AdminUserSettingsAnswer(data=admin_settings_out(users.get_user(db, userid)))


@router.post("/admin-user-settings", response_model=AdminUserSettingsAnswer, responses=error_responses(404))
def post_admin_user_settings(body: AdminUserSettingsUpdate, admin: AdminUser, db: DbSession) -> AdminUserSettingsAnswer:
    target = users.get_user(db, body.userid)
    changes = body.model_dump(exclude_unset=True, exclude_none=True, exclude={"userid"})
    admin_service.update_settings(db, admin=admin, user=target, changes=changes)
    return AdminUserSettingsAnswer(message="The user's settings have been saved", data=admin_settings_out(target))


@router.get("/send-mail", response_model=SentMailAnswer, responses=error_responses(404))
def send_mail(
    _admin: AdminUser,
    db: DbSession,
    userid: Annotated[DbId, Query()],
    subject: str = Query(min_length=1, max_length=200),
    text: str = Query(min_length=1, max_length=5000),
) -> SentMailAnswer:
    """An admin's mail to one account, through the mail port (stored, or SMTP when configured)."""
    mail = admin_service.send_mail(db, user=users.get_user(db, userid), subject=subject, text=text)
    return SentMailAnswer(message="The mail has been sent", data=SentMail(mail_id=mail.id, to_address=mail.to_address))


@router.put("/vt-transfer", response_model=VtTransferAnswer, responses=error_responses(404))
def vt_transfer(body: VtTransferBody, _admin: AdminUser, db: DbSession) -> VtTransferAnswer:
    """Move every tour (or the listed ones) of one account to another; the giving account may be
    a deleted one (its tours find a new home), the receiving one must be active."""
    source = users.get_user(db, body.from_userid, include_deleted=True)
    target = users.get_user(db, body.to_userid)
    moved = users.transfer_tours(db, source=source, target=target, guids=body.tours)
    return VtTransferAnswer(
        message=f"{len(moved)} tours transferred", data=VtTransferResult(transferred=len(moved), tours=moved)
    )


# -------------------------------------------------------------------------- admin: approval items


@router.get("/approval-items", response_model=ApprovalItemsAnswer)
def list_approval_items(
    _admin: AdminUser,
    db: DbSession,
    kind: UserApprovalKind | None = Query(None),
    status: ApprovalStatusFilter = Query("pending"),
    limit: int = Query(20, ge=1, le=100),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> ApprovalItemsAnswer:
    """New users, user profile edits and profile images waiting for (or given) a decision."""
    page, accounts, total = approvals.list_items(db, kind=kind, status=status, limit=limit, offset=offset)
    data = [
        approval_item_out(item, accounts.get(item.entity_id) if item.entity_id is not None else None) for item in page
    ]
    return ApprovalItemsAnswer(data=data, total_items=total, limit=limit, offset=offset)


@router.put("/approval-items", response_model=ApprovalDecisionAnswer, responses=error_responses(404, 409))
def decide_approval_item(body: ApprovalDecision, admin: AdminUser, db: DbSession) -> ApprovalDecisionAnswer:
    """Approve (apply the change) or reject (drop it); the user is told by mail. 409 when it was
    decided already, or when an approved name has been taken meanwhile."""
    approve = body.action == "approve"
    item = approvals.decide(db, admin=admin, item_id=body.id, approve=approve, note=body.review_note)
    user = db.get(User, item.entity_id) if item.entity_id is not None else None
    return ApprovalDecisionAnswer(message="Approved" if approve else "Rejected", data=approval_item_out(item, user))


# ------------------------------------------------------------------------- beta testers, bug image


@router.get("/beta-tester", response_model=OwnBetaAnswers)
def get_own_beta_answers(user: CurrentUser, db: DbSession) -> OwnBetaAnswers:
    """The caller's questionnaire answers, to prefill the form; null data before the first answer."""
    row = beta.own_answers(db, user)
    return OwnBetaAnswers(data=beta_tester_out(row, user) if row is not None else None)


@router.post("/beta-tester", response_model=BetaTesterSaved)
def post_beta_tester(body: BetaTesterAnswers, user: CurrentUser, db: DbSession) -> BetaTesterSaved:
    row = beta.save_answers(db, user, body)
    return BetaTesterSaved(message="Thank you for your answers", data=beta_tester_out(row, user))


@router.get("/get-beta-testers", response_model=BetaTestersAnswer)
def get_beta_testers(
    _admin: AdminUser,
    db: DbSession,
    searchPattern: str | None = Query(None, max_length=100),  # noqa: N803 - wire name
    limit: int = Query(20, ge=1, le=100),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> BetaTestersAnswer:
    rows, total = beta.list_beta_testers(db, pattern=searchPattern, limit=limit, offset=offset)
    return BetaTestersAnswer(
        data=[beta_tester_out(answer, user) for answer, user in rows], total_items=total, limit=limit, offset=offset
    )


@router.post("/bug-image", response_model=BugImageAnswer, responses=error_responses(429))
def upload_bug_image(request: Request, user: CurrentUser, image: UploadFile = File(...)) -> BugImageAnswer:
    """A screenshot for a bug report: JPG, PNG or WEBP up to 2 MB. The answer's path goes into the
    bug report."""
    check_rate_limit("bug-image", ip=client_ip(request), account=str(user.id))
    stored = images.store_bug_image(images.read_upload(image.file))
    return BugImageAnswer(path=stored.path, content_type=stored.content_type, message="The image has been uploaded")


# --------------------------------------------------------------------------------------- shaping


def approval_item_out(item: ApprovalItem, user: User | None) -> ApprovalItemOut:
    pending, current = approvals.describe(item, user)
    return ApprovalItemOut(
        id=item.id,
        # The queries keep to the users' kinds, so the value is one of UserApprovalKind.
        kind=item.kind.value,  # type: ignore[arg-type]
        status=item.status.value,
        userid=item.entity_id,
        user=approval_user_out(user) if user is not None else None,
        pending=pending,
        current=current,
        created_at=item.created_at,
        reviewed_at=item.reviewed_at,
        reviewed_by=item.reviewed_by_user_id,
        review_note=item.review_note,
    )


def _usage_figures(usage: admin_service.DayUsage) -> dict[str, int]:
    return {
        "sessions": usage.sessions,
        "user_sessions": usage.user_sessions,
        "guest_sessions": usage.guest_sessions,
        "active_users": usage.active_users,
        "activities": usage.activities,
    }


def api_statistic_out(usage: admin_service.ApiUsage) -> ApiStatistic:
    return ApiStatistic(
        date_from=usage.date_from,
        date_to=usage.date_to,
        totals=ApiStatisticTotals(**_usage_figures(usage.totals)),
        activity_codes=[ActivityCodeCount(activity_code=code, count=count) for code, count in usage.activity_codes],
        days=[
            ApiStatisticDay(date=day, by_code=dict(figures.by_code), **_usage_figures(figures))
            for day, figures in usage.days.items()
        ],
    )
