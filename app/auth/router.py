"""Spec §7 Auth: sign-in, sign-up, tokens, sign-out, password reset, sessions and activities."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query, Request, Response

from app.auth import service
from app.auth.rate_limit import check_rate_limit, client_ip, sign_in_attempt
from app.auth.schemas import (
    ActivityAnswer,
    ActivityBody,
    AuthAnswer,
    ChangePasswordAnswer,
    ChangePasswordBody,
    GuestTokenAnswer,
    GuestTokenBody,
    MessageAnswer,
    OneClickSignUpBody,
    ResetRequestBody,
    ResetTokenAnswer,
    SessionAnswer,
    SessionBody,
    SignInBody,
    SignOutBody,
    SignUpBody,
    TokenAnswer,
    UpdateTokenBody,
)
from app.core.access import unrestricted
from app.core.deps import CurrentUser, DbSession, GuestOrUser, OptionalUser
from app.core.errors import Unauthorized, error_responses
from app.users.models import AuthSystem

account_router = APIRouter(prefix="/v2/users", tags=["auth"])
sessions_router = APIRouter(prefix="/v2/sessions", tags=["sessions"])

SIGN_UP_MESSAGES = {
    service.SignUpStatus.existing_account: "Signed in to your existing account",
    service.SignUpStatus.created: "Account created",
    service.SignUpStatus.created_without_guest_history: "Account created; your guest history was not kept",
}


# Spec §4: sign-up succeeds with 200, 201 or 207; all three carry the same answer.
SIGN_UP_RESPONSES: dict[int | str, dict[str, object]] = {
    200: {"model": AuthAnswer, "description": "A social identity that already had an account: signed in"},
    207: {"model": AuthAnswer, "description": "Created and signed in; the guest token was unusable"},
    # 403: the social identity's existing account is deleted or inactive; 409: email or username taken.
    **error_responses(403, 409, 429),
}


def _client(request: Request) -> service.ClientInfo:
    return service.ClientInfo(ip=client_ip(request), user_agent=request.headers.get("user-agent"))


def _auth_answer(signed_in: service.SignedIn, message: str) -> AuthAnswer:
    user = signed_in.user
    return AuthAnswer(
        message=message,
        userid=user.id,
        user_jwt=signed_in.token,
        creatorId=service.creator_id_of(user),
        is_admin=user.is_admin,
        roles=list(user.roles or []),
        session_id=signed_in.session_id,
    )


def _account_key(auth_system: AuthSystem, email: str | None) -> str | None:
    # Social sign-ins are limited per IP before the provider is asked; their account is not known yet.
    return email if auth_system == AuthSystem.email else None


@account_router.post(
    "/sign-in",
    response_model=AuthAnswer,
    dependencies=[Depends(unrestricted)],
    responses=error_responses(403, 404, 429),
)
def sign_in(body: SignInBody, request: Request, db: DbSession) -> AuthAnswer:
    with sign_in_attempt(ip=client_ip(request), account=_account_key(body.auth_system, body.email)):
        signed_in = service.sign_in(db, body, _client(request))
    return _auth_answer(signed_in, "Signed in")


def _sign_up(body: SignUpBody, request: Request, response: Response, db: DbSession) -> AuthAnswer:
    check_rate_limit("sign-up", ip=client_ip(request), account=_account_key(body.auth_system, body.email))
    result = service.sign_up(db, body, _client(request))
    response.status_code = result.status
    return _auth_answer(result.signed_in, SIGN_UP_MESSAGES[result.status])


@account_router.post(
    "/sign-up",
    response_model=AuthAnswer,
    status_code=201,
    responses=SIGN_UP_RESPONSES,
    dependencies=[Depends(unrestricted)],
)
def sign_up(body: SignUpBody, request: Request, response: Response, db: DbSession) -> AuthAnswer:
    """201 created and signed in; 207 created but the guest token was unusable; 200 a social identity
    that already had an account (signed in). Store user_jwt whenever it is present."""
    return _sign_up(body, request, response, db)


@account_router.post(
    "", response_model=AuthAnswer, status_code=201, responses=SIGN_UP_RESPONSES, dependencies=[Depends(unrestricted)]
)
def create_account(body: SignUpBody, request: Request, response: Response, db: DbSession) -> AuthAnswer:
    """POST /v2/users (no auth): the /create_account page; the same contract as sign-up."""
    return _sign_up(body, request, response, db)


@account_router.post(
    "/signup-oneclick",
    response_model=AuthAnswer,
    status_code=201,
    responses=SIGN_UP_RESPONSES,
    dependencies=[Depends(unrestricted)],
)
def sign_up_one_click(body: OneClickSignUpBody, request: Request, response: Response, db: DbSession) -> AuthAnswer:
    """Sign up with Google or Facebook alone: names and email come from the provider, the platform
    username from the body or, when absent, from the email."""
    check_rate_limit("sign-up", ip=client_ip(request))
    result = service.sign_up_one_click(db, body, _client(request))
    response.status_code = result.status
    return _auth_answer(result.signed_in, SIGN_UP_MESSAGES[result.status])


@account_router.post("/guest-token", response_model=GuestTokenAnswer, dependencies=[Depends(unrestricted)])
def guest_token(body: GuestTokenBody, db: DbSession) -> GuestTokenAnswer:
    token, guest_id = service.guest_token(db, guest_id=body.guest_id, prior_token=body.prior_token)
    return GuestTokenAnswer(user_jwt=token, guest_id=guest_id)


@account_router.post(
    "/update-token", response_model=TokenAnswer, dependencies=[Depends(unrestricted)], responses=error_responses(401)
)
def update_token(body: UpdateTokenBody, db: DbSession) -> TokenAnswer:
    return TokenAnswer(user_jwt=service.renew_user_token(db, userid=body.userid, prior_token=body.prior_token))


@account_router.post("/sign-out", response_model=MessageAnswer)
def sign_out(user: CurrentUser, db: DbSession, body: SignOutBody | None = None) -> MessageAnswer:
    service.sign_out(db, user, body.session_id if body else None)
    return MessageAnswer(message="Logout Successful")


@account_router.post(
    "/request_reset_password",
    response_model=MessageAnswer,
    dependencies=[Depends(unrestricted)],
    responses=error_responses(429),
)
def request_reset_password(body: ResetRequestBody, request: Request, db: DbSession) -> MessageAnswer:
    check_rate_limit("reset", ip=client_ip(request), account=body.email)
    service.request_password_reset(db, body.email)
    return MessageAnswer(message=service.RESET_MAIL_SENT)


@account_router.get(
    "/reset-pass-token",
    response_model=ResetTokenAnswer,
    dependencies=[Depends(unrestricted)],
    responses=error_responses(429),
)
def check_reset_token(
    request: Request, db: DbSession, token: str = Query(min_length=1, max_length=256)
) -> ResetTokenAnswer:
    """The /resetpassword page checks its link before showing the form."""
    check_rate_limit("reset", ip=client_ip(request))
    _row, user = service.usable_reset_token(db, token)
    return ResetTokenAnswer(valid=True, email=user.email)


@account_router.post(
    "/change-password",
    response_model=ChangePasswordAnswer,
    dependencies=[Depends(unrestricted)],
    responses=error_responses(429),
)
def change_password(
    body: ChangePasswordBody, request: Request, db: DbSession, user: OptionalUser
) -> ChangePasswordAnswer:
    if body.token:
        check_rate_limit("reset", ip=client_ip(request))
        service.reset_password(db, token=body.token, password=body.password, repeat_password=body.repeat_password)
        return ChangePasswordAnswer(message="Your password has been changed. Please sign in.")
    if user is None:
        raise Unauthorized("Sign in required")
    check_rate_limit("change-password", ip=client_ip(request), account=user.email)
    token = service.change_password(
        db, user=user, old_password=body.old_password, password=body.password, repeat_password=body.repeat_password
    )
    return ChangePasswordAnswer(message="Your password has been changed", user_jwt=token)


@sessions_router.post("/", response_model=SessionAnswer)
def start_session(
    caller: GuestOrUser, request: Request, db: DbSession, body: SessionBody | None = None
) -> SessionAnswer:
    """A browsing session of the caller: a user's (by token) or a guest's (guest id from the token)."""
    guest_id = None if caller.user_id is not None else (caller.guest_id or (body.guest_id if body else None))
    opened = service.start_session(db, user_id=caller.user_id, guest_id=guest_id, client=_client(request))
    return SessionAnswer(session_id=opened.id)


@sessions_router.post("/session-activities", response_model=ActivityAnswer)
def record_activity(body: ActivityBody, caller: GuestOrUser, db: DbSession) -> ActivityAnswer:
    activity = service.record_client_activity(
        db,
        caller=caller,
        body_userid=body.userid,
        code=body.activity_code,
        text=body.activity_text,
        owner_id=str(body.owner_id) if body.owner_id is not None else None,
        session_id=body.session_id,
    )
    return ActivityAnswer(id=activity.id, activity_code=activity.activity_code)


# The domain's one router, which app/main.py includes.
router = APIRouter()
router.include_router(account_router)
router.include_router(sessions_router)
