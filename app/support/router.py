"""Spec §7 Support: bug reports (GET, POST, PUT), a bug screenshot's lookup (GET bug-image; the upload
is POST /v2/users/bug-image), feature requests, contact support and the help tool's configuration.
Admins see every report and set statuses; anybody else sees their own."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request

from app.auth.rate_limit import client_ip
from app.core.access import public
from app.core.deps import AdminUser, CurrentUser, DbSession
from app.core.errors import error_responses
from app.core.settings import get_settings
from app.core.types import DbInt
from app.support import service
from app.support.models import BugReport, BugReportStatus, FeatureRequest, FeatureRequestStatus
from app.support.schemas import (
    BugImageLookup,
    BugImageOut,
    BugReportBody,
    BugReportOut,
    BugReportsAnswer,
    BugReportSaved,
    BugReportStatusBody,
    ContactSupportAnswer,
    ContactSupportBody,
    FeatureRequestBody,
    FeatureRequestOut,
    FeatureRequestsAnswer,
    FeatureRequestSaved,
    FeatureRequestStatusBody,
    HelpConfig,
    TutorialVideoOut,
)
from app.users import images
from app.users.models import User

router = APIRouter(prefix="/v2/support", tags=["support"])


@router.get("/help-config", response_model=HelpConfig, dependencies=[Depends(public)])
def help_config() -> HelpConfig:
    """The help tool's settings: the known-bugs link and the tutorial videos."""
    settings = get_settings()
    return HelpConfig(
        known_bugs_url=settings.known_bugs_url,
        tutorial_videos=[TutorialVideoOut(title=video.title, url=video.url) for video in settings.tutorial_videos],
    )


@router.get("/bug-report", response_model=BugReportsAnswer)
def list_bug_reports(
    user: CurrentUser,
    db: DbSession,
    status: BugReportStatus | None = Query(None),
    limit: int = Query(20, ge=1, le=100),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> BugReportsAnswer:
    rows, total = service.bug_reports(db, user, status=status, limit=limit, offset=offset)
    return BugReportsAnswer(
        data=[bug_report_out(row, reporter_of(db, row.user_id)) for row in rows],
        total_items=total,
        limit=limit,
        offset=offset,
        known_bugs_url=get_settings().known_bugs_url,
    )


@router.post("/bug-report", response_model=BugReportSaved, responses=error_responses(429))
def post_bug_report(body: BugReportBody, request: Request, user: CurrentUser, db: DbSession) -> BugReportSaved:
    """A bug report with up to 5 screenshots uploaded before through POST /v2/users/bug-image."""
    report = service.file_bug_report(
        db, user, body, ip=client_ip(request), user_agent=request.headers.get("user-agent")
    )
    return BugReportSaved(message="Thank you! Your bug report has been sent", data=bug_report_out(report, user))


@router.put("/bug-report", response_model=BugReportSaved, responses=error_responses(404))
def put_bug_report(body: BugReportStatusBody, _admin: AdminUser, db: DbSession) -> BugReportSaved:
    report = service.set_bug_status(db, body.id, body.status)
    return BugReportSaved(
        message="The status has been saved", data=bug_report_out(report, reporter_of(db, report.user_id))
    )


@router.get("/bug-image", response_model=BugImageLookup, responses=error_responses(404))
def get_bug_image(_user: CurrentUser, image: str = Query(max_length=200)) -> BugImageLookup:
    """Where an uploaded screenshot is served (by name or path); 404 'Image not found'."""
    stored = images.find_bug_image(image)
    return BugImageLookup(path=stored.path, content_type=stored.content_type, message="Image found")


@router.get("/feature-request", response_model=FeatureRequestsAnswer)
def list_feature_requests(
    user: CurrentUser,
    db: DbSession,
    status: FeatureRequestStatus | None = Query(None),
    limit: int = Query(20, ge=1, le=100),
    offset: Annotated[DbInt, Query(ge=0)] = 0,
) -> FeatureRequestsAnswer:
    rows, total = service.feature_requests(db, user, status=status, limit=limit, offset=offset)
    return FeatureRequestsAnswer(
        data=[feature_request_out(row, reporter_of(db, row.user_id)) for row in rows],
        total_items=total,
        limit=limit,
        offset=offset,
    )


@router.post("/feature-request", response_model=FeatureRequestSaved, responses=error_responses(429))
def post_feature_request(
    body: FeatureRequestBody, request: Request, user: CurrentUser, db: DbSession
) -> FeatureRequestSaved:
    row = service.file_feature_request(db, user, body, ip=client_ip(request))
    return FeatureRequestSaved(
        message="Thank you! Your feature request has been sent", data=feature_request_out(row, user)
    )


@router.put("/feature-request", response_model=FeatureRequestSaved, responses=error_responses(404))
def put_feature_request(body: FeatureRequestStatusBody, _admin: AdminUser, db: DbSession) -> FeatureRequestSaved:
    row = service.set_feature_status(db, body.id, body.status)
    return FeatureRequestSaved(
        message="The status has been saved",
        data=feature_request_out(row, reporter_of(db, row.user_id)),
    )


@router.post("/contact-support", response_model=ContactSupportAnswer, responses=error_responses(429))
def post_contact_support(
    body: ContactSupportBody, request: Request, user: CurrentUser, db: DbSession
) -> ContactSupportAnswer:
    """A message to the support team, mailed to the support address (Reply answers the sender)."""
    message = service.contact_support(db, user, body, ip=client_ip(request))
    return ContactSupportAnswer(message="Your message has been sent", id=message.id)


def reporter_of(db: DbSession, user_id: int | None) -> User | None:
    return db.get(User, user_id) if user_id is not None else None


def bug_report_out(report: BugReport, reporter: User | None) -> BugReportOut:
    return BugReportOut(
        id=report.id,
        userid=report.user_id,
        username=reporter.username if reporter is not None else None,
        title=report.title,
        description=report.description,
        page_url=report.page_url,
        user_agent=report.user_agent,
        status=report.status,
        images=[BugImageOut(path=image.path, content_type=image.content_type) for image in report.images],
        created_at=report.created_at,
    )


def feature_request_out(row: FeatureRequest, user: User | None) -> FeatureRequestOut:
    return FeatureRequestOut(
        id=row.id,
        userid=row.user_id,
        username=user.username if user is not None else None,
        title=row.title,
        description=row.description,
        status=row.status,
        created_at=row.created_at,
    )
