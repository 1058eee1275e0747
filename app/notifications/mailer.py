"""The mail port.

A service calls `queue_mail` inside its transaction: the mail becomes an `OutgoingMail` row that
commits or rolls back with the change that caused it, and the "mail.send" task is queued to start
after the commit. The task hands the row to the adapter the settings chose: SMTP when `SMTP_URL` is
set, otherwise the stored adapter, for which the stored row *is* the delivery (admins and tests read
it there, ARCHITECTURE.md "mail").
"""

from __future__ import annotations

import logging
import smtplib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Protocol
from urllib.parse import unquote, urlsplit

from sqlalchemy import or_, select
from sqlalchemy.orm import Session, sessionmaker

from app.core.db import utcnow
from app.core.settings import get_settings
from app.core.tasks import submit_after_commit
from app.notifications.models import MailStatus, OutgoingMail

logger = logging.getLogger("touratlas.mail")

SEND_MAIL_TASK = "mail.send"
SMTP_TIMEOUT_SECONDS = 30
MAX_ATTEMPTS = 5
# A mail not sent this long after it was written is looked at by the retry sweep.
RETRY_AFTER_MINUTES = 2


class Mailer(Protocol):
    def deliver(self, mail: OutgoingMail) -> bool:
        """Deliver one stored mail; True when it left this platform (False: it stays stored)."""
        ...


class StoredMailer:
    """Embedded mode: nothing leaves the machine; the queued row is what admins and tests read."""

    def deliver(self, mail: OutgoingMail) -> bool:
        return False


@dataclass(frozen=True)
class SmtpTarget:
    host: str
    port: int
    username: str | None
    password: str | None
    implicit_tls: bool

    @classmethod
    def from_url(cls, url: str) -> SmtpTarget:
        """smtp://user:pass@host:587 (STARTTLS when offered) or smtps://user:pass@host:465 (TLS)."""
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("SMTP_URL must look like smtp://user:password@host:port or smtps://...")
        implicit_tls = parts.scheme == "smtps"
        return cls(
            host=parts.hostname,
            port=parts.port or (465 if implicit_tls else 587),
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            implicit_tls=implicit_tls,
        )


class SmtpMailer:
    def __init__(self, target: SmtpTarget, sender: str) -> None:
        self.target = target
        self.sender = sender

    def deliver(self, mail: OutgoingMail) -> bool:
        message = self._message(mail)
        with self._connect() as smtp:
            if self.target.username and self.target.password:
                smtp.login(self.target.username, self.target.password)
            smtp.send_message(message)
        return True

    def _connect(self) -> smtplib.SMTP:
        if self.target.implicit_tls:
            return smtplib.SMTP_SSL(self.target.host, self.target.port, timeout=SMTP_TIMEOUT_SECONDS)
        smtp = smtplib.SMTP(self.target.host, self.target.port, timeout=SMTP_TIMEOUT_SECONDS)
        smtp.ehlo()
        # Upgrade whenever the server offers it, so credentials never cross the network in clear.
        if smtp.has_extn("starttls"):
            smtp.starttls()
            smtp.ehlo()
        return smtp

    def _message(self, mail: OutgoingMail) -> EmailMessage:
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = mail.to_address
        message["Subject"] = mail.subject
        if mail.reply_to:
            message["Reply-To"] = mail.reply_to
        message["Message-ID"] = make_msgid(domain=self.target.host)
        message.set_content(mail.body_text)
        if mail.body_html:
            message.add_alternative(mail.body_html, subtype="html")
        return message


def get_mailer() -> Mailer:
    settings = get_settings()
    if settings.smtp_url:
        return SmtpMailer(SmtpTarget.from_url(settings.smtp_url), settings.mail_from)
    return StoredMailer()


def queue_mail(
    session: Session,
    *,
    to_address: str,
    subject: str,
    body_text: str,
    body_html: str | None = None,
    template: str | None = None,
    reply_to: str | None = None,
) -> OutgoingMail:
    """Store a mail in the caller's transaction and send it once that transaction commits.
    `reply_to` must be a validated address: it becomes the Reply-To header."""
    mail = OutgoingMail(
        to_address=to_address,
        reply_to=reply_to,
        subject=subject,
        body_text=body_text,
        body_html=body_html,
        template=template,
        status=MailStatus.queued,
        attempts=0,
        created_at=utcnow(),
    )
    session.add(mail)
    session.flush()
    submit_after_commit(session, SEND_MAIL_TASK, mail_id=mail.id)
    return mail


def send_stored_mail(session_factory: sessionmaker[Session], mail_id: int, mailer: Mailer | None = None) -> str:
    """The "mail.send" task: deliver one queued mail and record the outcome on its row."""
    with session_factory.begin() as session:
        mail = session.get(OutgoingMail, mail_id)
        if mail is None or mail.status != MailStatus.queued:
            return "skipped"
        mail.attempts += 1
        try:
            delivered = (mailer or get_mailer()).deliver(mail)
        except (OSError, smtplib.SMTPException) as exc:
            logger.warning("mail %s to %s failed: %s", mail.id, mail.to_address, exc)
            mail.error = f"{exc.__class__.__name__}: {exc}"
            # Keep it queued for a later retry until the attempts run out.
            if mail.attempts >= MAX_ATTEMPTS:
                mail.status = MailStatus.failed
            return "failed"
        if not delivered:
            return "stored"
        mail.status = MailStatus.sent
        mail.sent_at = utcnow()
        mail.error = None
        return "sent"


def retry_failed_mail(session_factory: sessionmaker[Session], *, now: datetime | None = None) -> int:
    """The "mail.retry" sweep: queue another send of every mail whose last attempt failed (after a
    backoff of 2^attempts minutes since it was written) or that was never attempted (its task was
    lost); returns how many were queued. A stored mail (no SMTP) was delivered by being stored."""
    moment = now or utcnow()
    with session_factory.begin() as session:
        candidates = session.execute(
            select(OutgoingMail.id, OutgoingMail.attempts, OutgoingMail.created_at).where(
                OutgoingMail.status == MailStatus.queued,
                OutgoingMail.attempts < MAX_ATTEMPTS,
                or_(OutgoingMail.error.is_not(None), OutgoingMail.attempts == 0),
                OutgoingMail.created_at < moment - timedelta(minutes=RETRY_AFTER_MINUTES),
            )
        ).all()
        due = [mail_id for mail_id, attempts, created_at in candidates if _retry_due(attempts, created_at, moment)]
        for mail_id in due:
            submit_after_commit(session, SEND_MAIL_TASK, mail_id=mail_id)
    return len(due)


def _retry_due(attempts: int, created_at: datetime, now: datetime) -> bool:
    written = created_at if created_at.tzinfo else created_at.replace(tzinfo=UTC)
    return written + timedelta(minutes=2**attempts) <= now
