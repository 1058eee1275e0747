"""Help & Feedback (spec §2, §7 Support): bug reports with their screenshots, feature requests with
the admins' statuses, and support messages mailed to the support address.

Each is sent by a signed-in account and limited per account and per IP, so a script cannot flood the
moderation tabs or the support mailbox. A support message goes out through the mail port like the
creators' contact form (app/creators/contact.py): header texts flattened, the sender's address
validated before it becomes the Reply-To."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from app.auth.rate_limit import check_limit
from app.core.errors import BadRequest, NotFound
from app.core.settings import get_settings
from app.creators.contact import header_safe, letters_in, reply_address
from app.notifications.mailer import queue_mail
from app.support.models import (
    BugReport,
    BugReportImage,
    BugReportStatus,
    FeatureRequest,
    FeatureRequestStatus,
    SupportMessage,
    SupportMessageKind,
)
from app.support.schemas import BugReportBody, ContactSupportBody, FeatureRequestBody
from app.users import images
from app.users import validation as rules
from app.users.models import User

REQUIRED = "This field is required"
BUG_NOT_FOUND = "Bug report not found"
REQUEST_NOT_FOUND = "Feature request not found"
IMAGE_NOT_FOUND = "This image was not uploaded; upload it again"
MESSAGE_MIN_LETTERS = 20
TOO_SHORT = f"The message must have at least {MESSAGE_MIN_LETTERS} letters"
SUBJECT_MAX = 255  # the outgoing mails column
DEFAULT_SUBJECT = "Support request"
PER_ACCOUNT = "10/hour"  # bug reports, feature requests
PER_IP = "30/hour"  # an office behind one address
SUPPORT_PER_ACCOUNT = "5/hour"
SUPPORT_PER_ADDRESS = "5/hour"


def _limit(action: str, user: User, ip: str, per_account: str = PER_ACCOUNT) -> None:
    check_limit(action, PER_IP, "ip", ip)
    check_limit(action, per_account, "account", str(user.id))


def _required(**texts: str | None) -> None:
    missing = {name: REQUIRED for name, text in texts.items() if not (text or "").strip()}
    if missing:
        raise BadRequest(REQUIRED, fields=missing)


# ------------------------------------------------------------------------------------ bug reports


def file_bug_report(session: Session, user: User, body: BugReportBody, *, ip: str, user_agent: str | None) -> BugReport:
    _required(title=body.title, description=body.description)
    stored: list[images.StoredImage] = []
    for index, path in enumerate(dict.fromkeys(body.images)):
        try:
            stored.append(images.find_bug_image(path))
        except NotFound:
            raise BadRequest(IMAGE_NOT_FOUND, fields={f"images.{index}": IMAGE_NOT_FOUND}) from None
    _limit("bug-report", user, ip)
    report = BugReport(
        user_id=user.id,
        title=body.title.strip(),
        description=body.description.strip(),
        page_url=(body.page_url or "").strip() or None,
        user_agent=(user_agent or "")[:512] or None,
        status=BugReportStatus.open,
        images=[_image_row(image) for image in stored],
    )
    session.add(report)
    session.flush()
    return report


def _image_row(image: images.StoredImage) -> BugReportImage:
    file = get_settings().uploads_dir / image.path.removeprefix("/uploads/")
    return BugReportImage(path=image.path, content_type=image.content_type, size_bytes=file.stat().st_size)


def bug_reports(
    session: Session, viewer: User, *, status: BugReportStatus | None, limit: int, offset: int
) -> tuple[list[BugReport], int]:
    """Admins see every report; anybody else their own. Newest first."""
    statement = select(BugReport).options(selectinload(BugReport.images))
    if not viewer.is_admin:
        statement = statement.where(BugReport.user_id == viewer.id)
    if status is not None:
        statement = statement.where(BugReport.status == status)
    statement = statement.order_by(BugReport.created_at.desc(), BugReport.id.desc())
    total = session.scalar(select(func.count()).select_from(statement.subquery())) or 0
    rows = session.scalars(statement.limit(limit).offset(offset)).all()
    return list(rows), total


def set_bug_status(session: Session, report_id: int, status: BugReportStatus) -> BugReport:
    report = session.get(BugReport, report_id)
    if report is None:
        raise NotFound(BUG_NOT_FOUND)
    report.status = status
    session.flush()
    return report


# ------------------------------------------------------------------------------- feature requests


def file_feature_request(session: Session, user: User, body: FeatureRequestBody, *, ip: str) -> FeatureRequest:
    _required(title=body.title)
    _limit("feature-request", user, ip)
    request = FeatureRequest(
        user_id=user.id,
        title=body.title.strip(),
        description=(body.description or "").strip() or None,
        status=FeatureRequestStatus.open,
    )
    session.add(request)
    session.flush()
    return request


def feature_requests(
    session: Session, viewer: User, *, status: FeatureRequestStatus | None, limit: int, offset: int
) -> tuple[list[FeatureRequest], int]:
    statement = select(FeatureRequest)
    if not viewer.is_admin:
        statement = statement.where(FeatureRequest.user_id == viewer.id)
    if status is not None:
        statement = statement.where(FeatureRequest.status == status)
    statement = statement.order_by(FeatureRequest.created_at.desc(), FeatureRequest.id.desc())
    total = session.scalar(select(func.count()).select_from(statement.subquery())) or 0
    rows = session.scalars(statement.limit(limit).offset(offset)).all()
    return list(rows), total


def set_feature_status(session: Session, request_id: int, status: FeatureRequestStatus) -> FeatureRequest:
    request = session.get(FeatureRequest, request_id)
    if request is None:
        raise NotFound(REQUEST_NOT_FOUND)
    request.status = status
    session.flush()
    return request


# -------------------------------------------------------------------------------- contact support


def contact_support(session: Session, user: User, body: ContactSupportBody, *, ip: str) -> SupportMessage:
    """Store the message and mail it to the support address, answerable by Reply."""
    name = header_safe(body.name)
    subject = header_safe(body.subject or "")
    email = body.email.strip()
    failures = {
        "name": REQUIRED if not name else None,
        "email": rules.check_email_format(email),
        "message": TOO_SHORT if letters_in(body.message) < MESSAGE_MIN_LETTERS else None,
    }
    rules.raise_for_fields(failures)
    if header_safe(email) != email:
        raise BadRequest(rules.INVALID_EMAIL, fields={"email": rules.INVALID_EMAIL})
    check_limit("contact-support", PER_IP, "ip", ip)
    check_limit("contact-support", SUPPORT_PER_ACCOUNT, "account", str(user.id))
    check_limit("contact-support", SUPPORT_PER_ADDRESS, "address", email.lower())
    message = SupportMessage(
        user_id=user.id,
        email=email,
        name=name,
        subject=subject or None,
        message=body.message.strip(),
        kind=SupportMessageKind.support,
    )
    session.add(message)
    session.flush()
    queue_mail(
        session,
        to_address=get_settings().support_email,
        subject=f"{subject or DEFAULT_SUBJECT} (#{message.id}, from {name})"[:SUBJECT_MAX],
        body_text="\n".join(
            [
                f"{name} <{email}> (account {user.id}) wrote to support:",
                "",
                message.message,
                "",
                f"To answer, write to {email}.",
            ]
        ),
        template="support.message",
        reply_to=reply_address(email),
    )
    return message
