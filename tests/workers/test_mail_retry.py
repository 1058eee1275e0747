"""The mail retry sweep (`mail.retry`): failed sends are tried again after a backoff, lost sends are
sent, stored and exhausted mail is left alone."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.db import get_sessionmaker, utcnow
from app.notifications.mailer import MAX_ATTEMPTS, retry_failed_mail
from app.notifications.models import MailStatus, OutgoingMail


def mail(db: Session, subject: str, *, attempts: int, error: str | None, age: timedelta) -> OutgoingMail:
    row = OutgoingMail(
        to_address="someone@example.com",
        subject=subject,
        body_text="Hello",
        status=MailStatus.queued,
        attempts=attempts,
        error=error,
        created_at=utcnow() - age,
    )
    db.add(row)
    return row


def test_failed_and_lost_mail_is_sent_again(db: Session) -> None:
    mail(db, "failed a while ago", attempts=1, error="SMTPServerDisconnected", age=timedelta(minutes=10))
    mail(db, "never attempted", attempts=0, error=None, age=timedelta(minutes=10))
    mail(db, "failed just now", attempts=1, error="SMTPServerDisconnected", age=timedelta(seconds=30))
    mail(db, "failed often, backing off", attempts=4, error="timeout", age=timedelta(minutes=10))
    mail(db, "stored (no SMTP)", attempts=1, error=None, age=timedelta(minutes=10))
    mail(db, "given up", attempts=MAX_ATTEMPTS, error="timeout", age=timedelta(days=1))
    db.commit()

    # The sends run eagerly in tests, through the stored mailer: each counts one more attempt.
    assert retry_failed_mail(get_sessionmaker()) == 2
    db.expire_all()
    attempts = {row.subject: row.attempts for row in db.scalars(select(OutgoingMail))}
    assert attempts == {
        "failed a while ago": 2,
        "never attempted": 1,
        "failed just now": 1,
        "failed often, backing off": 4,
        "stored (no SMTP)": 1,
        "given up": MAX_ATTEMPTS,
    }
