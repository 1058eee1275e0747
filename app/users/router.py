"""Spec §7 Users: the current user, account settings, checks, profile image, interests, guide,
search, groups, account states and deletion."""

from __future__ import annotations

from fastapi import APIRouter, File, Query, Request, Response, UploadFile

from app.auth.rate_limit import check_rate_limit, client_ip
from app.core.deps import AdminUser, CMUser, CurrentUser, DbSession, OptionalUser
from app.core.errors import NotFound
from app.users import images
from app.users import service as users
from app.users.schemas import (
    AccountAnswer,
    ActivateDeactivateBody,
    CurrentUserOut,
    ExistingAnswer,
    FieldCheckAnswer,
    GuideStepsAnswer,
    GuideStepsBody,
    InterestOut,
    InterestsAnswer,
    InterestsUpdate,
    MessageAnswer,
    ProfileImageAnswer,
    UserGroupOut,
    UserGroupsAnswer,
    UserParamsAnswer,
    UserParamsUpdate,
    UserSearchAnswer,
    UserSearchItem,
    UserSearchPage,
    current_user_out,
)

router = APIRouter(prefix="/v2/users", tags=["users"])

SAVED = "Your account has been saved"
PENDING = "Your changes are saved; some of them wait for an administrator's approval"


@router.get("/", response_model=CurrentUserOut)
def get_current_user(user: CurrentUser) -> CurrentUserOut:
    return current_user_out(user)


@router.get("/user-params", response_model=CurrentUserOut)
def get_user_params(user: CurrentUser, db: DbSession, userid: int | None = Query(None)) -> CurrentUserOut:
    return current_user_out(users.resolve_target(db, user, userid))


@router.put("/user-params", response_model=UserParamsAnswer, responses={201: {"model": UserParamsAnswer}})
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


@router.get("/users-info-check", response_model=FieldCheckAnswer)
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


@router.get("/get_existed_usernames_emails", response_model=ExistingAnswer)
def existing_usernames_emails(
    request: Request,
    db: DbSession,
    username: str | None = Query(None, max_length=64),
    user_email: str | None = Query(None, max_length=320),
) -> ExistingAnswer:
    check_rate_limit("lookup", ip=client_ip(request))
    username_exists, email_exists = users.existing_username_or_email(db, username=username, email=user_email)
    return ExistingAnswer(username_exists=username_exists, email_exists=email_exists)


@router.get("/profile-image", response_model=ProfileImageAnswer)
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
    content = image.file.read(images.MAX_IMAGE_BYTES + 1)
    path = images.store_image(content)
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
    offset: int = Query(0, ge=0),
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


@router.post("/admin-user-activate-deactivate", response_model=AccountAnswer)
def activate_deactivate(body: ActivateDeactivateBody, staff: CMUser, db: DbSession) -> AccountAnswer:
    """Drafting (is_active false) is for admins; reactivation also for content managers (spec §4)."""
    target = users.get_user(db, body.userid)
    users.set_account_active(db, admin=staff, user=target, is_active=body.is_active)
    message = "The account is active; its tours wait in drafts" if body.is_active else "The account is drafted"
    return AccountAnswer(message=message, data=current_user_out(target))


@router.delete("/", response_model=MessageAnswer)
def delete_user(user: CurrentUser, db: DbSession, user_id: int | None = Query(None)) -> MessageAnswer:
    """Delete one's own account, or (admins) any account."""
    target = users.resolve_target(db, user, user_id)
    users.delete_account(db, target)
    return MessageAnswer(message="User Deleted")
