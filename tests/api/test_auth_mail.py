"""The mail port behind password reset: stored without SMTP_URL, sent over SMTP with it (to a local
fake SMTP server), only after the commit, and retried on failure."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.core.db import get_sessionmaker
from app.core.settings import get_settings
from app.notifications.mailer import MAX_ATTEMPTS, SmtpTarget, queue_mail, send_stored_mail
from app.notifications.models import MailStatus, OutgoingMail
from tests import factories
from tests.fakes.smtp import FakeSmtp, start_fake_smtp


@pytest.fixture(autouse=True)
def fresh_limits() -> Iterator[None]:
    reset_rate_limits()
    yield


@pytest.fixture
def smtp(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSmtp]:
    fake = start_fake_smtp()
    monkeypatch.setattr(get_settings(), "smtp_url", fake.url)
    yield fake
    fake.close()


def test_without_smtp_the_mail_is_stored(client: TestClient, db: Session) -> None:
    factories.user(db, email="ada@example.com")
    db.commit()
    client.post("/v2/users/request_reset_password", json={"email": "ada@example.com"})
    mail = db.scalars(select(OutgoingMail)).one()
    assert (mail.status, mail.attempts, mail.to_address) == (MailStatus.queued, 1, "ada@example.com")
    assert "/resetpassword?token=" in mail.body_text


def test_with_smtp_the_reset_mail_is_sent(client: TestClient, db: Session, smtp: FakeSmtp) -> None:
    factories.user(db, email="ada@example.com")
    db.commit()
    assert client.post("/v2/users/request_reset_password", json={"email": "ada@example.com"}).status_code == 200
    assert len(smtp.received) == 1 and smtp.logins == ["mailer"]
    received = smtp.received[0]
    assert received.recipients == ["ada@example.com"]
    assert "Subject: Reset your TourAtlas password" in received.data and "/resetpassword?token=" in received.data
    mail = db.scalars(select(OutgoingMail)).one()
    assert mail.status == MailStatus.sent and mail.sent_at is not None


def test_a_rolled_back_transaction_sends_nothing(db: Session, smtp: FakeSmtp) -> None:
    queue_mail(db, to_address="ada@example.com", subject="Hello", body_text="Hi")
    db.rollback()
    db.commit()
    assert smtp.received == [] and db.scalars(select(OutgoingMail)).all() == []


def test_failed_delivery_stays_queued_then_fails(db: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(get_settings(), "smtp_url", "smtp://127.0.0.1:9")  # nothing listens there
    with get_sessionmaker().begin() as session:
        mail_id = queue_mail(session, to_address="ada@example.com", subject="Hello", body_text="Hi").id
    mail = db.get(OutgoingMail, mail_id)
    assert mail is not None and mail.status == MailStatus.queued and mail.attempts == 1 and mail.error
    for _ in range(MAX_ATTEMPTS - 1):
        assert send_stored_mail(get_sessionmaker(), mail_id) == "failed"
    db.expire_all()
    assert db.get(OutgoingMail, mail_id).status == MailStatus.failed  # type: ignore[union-attr]
    assert send_stored_mail(get_sessionmaker(), mail_id) == "skipped"


def test_smtp_urls() -> None:
    plain = SmtpTarget.from_url("smtp://user%40x:p%3Ass@mail.example.com")
    assert (plain.host, plain.port, plain.username, plain.password, plain.implicit_tls) == (
        "mail.example.com",
        587,
        "user@x",
        "p:ss",
        False,
    )
    assert SmtpTarget.from_url("smtps://mail.example.com").port == 465
    with pytest.raises(ValueError):
        SmtpTarget.from_url("http://mail.example.com")
