"""POST /v2/creators/creator-message: the contact form goes by e-mail to the creator (spec §5
"contact message minimum {n} letters"), limited per sender, with a validated reply address, and
nothing a visitor types can add a mail header (checked on the wire, through the SMTP adapter)."""

from __future__ import annotations

import email
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.core.settings import get_settings
from app.creators import contact
from app.creators.models import Creator
from app.notifications.models import MailStatus, OutgoingMail
from app.users.models import User
from tests import factories
from tests.api.test_engagement import cheap_passwords, guest_headers
from tests.fakes.smtp import FakeSmtp, start_fake_smtp

MESSAGE = "/v2/creators/creator-message"
TEXT = "Hello, could you make a tour of our museum next spring?"


@pytest.fixture(autouse=True)
def fresh_limits() -> Iterator[None]:
    reset_rate_limits()
    yield
    reset_rate_limits()


@dataclass
class Scene:
    owner: User
    profile: Creator
    visitor: User


@pytest.fixture
def scene(db: Session, monkeypatch: pytest.MonkeyPatch) -> Scene:
    cheap_passwords(monkeypatch)
    owner = factories.user(db, email="owner@example.com")
    found = Scene(
        owner=owner,
        profile=factories.creator(db, owner, creator_name="Museum Tours", contact_email="studio@example.com"),
        visitor=factories.user(db),
    )
    db.commit()
    return found


def send(client: TestClient, scene: Scene, headers: dict[str, str] | None = None, **changes: object) -> object:
    body = {"creator_id": scene.profile.id, "name": "Ann Visitor", "email": "ann@example.com", "message": TEXT}
    body.update(changes)
    return client.post(MESSAGE, json=body, headers=headers or factories.bearer(scene.visitor))


def test_the_message_is_mailed_to_the_creator(client: TestClient, db: Session, scene: Scene) -> None:
    answer = send(client, scene, subject="Museum tour")
    assert answer.status_code == 200, answer.text  # type: ignore[attr-defined]
    mail = db.scalars(select(OutgoingMail)).one()
    assert mail.to_address == "studio@example.com"
    assert mail.subject == "Museum tour (from Ann Visitor)"
    assert TEXT in mail.body_text and "ann@example.com" in mail.body_text
    assert mail.reply_to == "ann@example.com"  # the creator's Reply answers the visitor
    # Guests write too (the SPA always holds a guest token); nobody without a token does.
    assert send(client, scene, headers=guest_headers("guest-1")).status_code == 200  # type: ignore[attr-defined]
    anonymous = client.post(
        MESSAGE, json={"creator_id": scene.profile.id, "name": "A", "email": "a@b.c", "message": TEXT}
    )
    assert anonymous.status_code == 401


def test_rules(client: TestClient, db: Session, scene: Scene) -> None:
    short = send(client, scene, message="Hi there 1234567890 !!!")
    assert short.status_code == 400  # type: ignore[attr-defined]
    assert short.json()["fields"]["message"] == contact.TOO_SHORT  # type: ignore[attr-defined]
    bad = send(client, scene, email="not-an-address")
    assert bad.json()["fields"]["email"] == "Invalid email"  # type: ignore[attr-defined]
    # The address becomes the Reply-To header: only one plain address passes, nothing that could
    # add a header, a second address or a display name.
    for address in (
        "ann@example.com\r\nBcc: victim@example.com",
        "ann@example.com\nBcc: victim@example.com",
        "ann@example.com\u2028Bcc: victim@example.com",
        "ann@example.com, victim@example.com",
        "ann@example.com;victim@example.com",
        "Ann <ann@example.com>",
        '"ann\r\nBcc: victim"@example.com',
    ):
        injected = send(client, scene, email=address)
        assert injected.status_code == 400, address  # type: ignore[attr-defined]
        assert injected.json()["fields"]["email"] == "Invalid email"  # type: ignore[attr-defined]
    assert send(client, scene, creator_id=987654).status_code == 404  # type: ignore[attr-defined]
    hidden = db.get(Creator, scene.profile.id)
    assert hidden is not None
    hidden.is_active = False
    db.commit()
    assert send(client, scene).status_code == 404  # type: ignore[attr-defined]
    assert db.scalars(select(OutgoingMail)).all() == []


def test_limited_per_sender(client: TestClient, scene: Scene) -> None:
    for _ in range(5):
        assert send(client, scene).status_code == 200  # type: ignore[attr-defined]
    refused = send(client, scene)
    assert refused.status_code == 429 and "Retry-After" in refused.headers  # type: ignore[attr-defined]
    # The same address from another account is the same sender.
    other = factories.bearer(scene.owner)
    assert send(client, scene, headers=other).status_code == 429  # type: ignore[attr-defined]


@pytest.fixture
def smtp(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSmtp]:
    fake = start_fake_smtp()
    monkeypatch.setattr(get_settings(), "smtp_url", fake.url)
    yield fake
    fake.close()


def test_line_breaks_in_the_name_or_subject_cannot_add_headers(
    client: TestClient, db: Session, scene: Scene, smtp: FakeSmtp
) -> None:
    answer = send(
        client,
        scene,
        name="Ann\r\nBcc: victim@example.com",
        subject="Hi\r\nBcc: other@example.com\nX-Injected: yes\u2028Cc: third@example.com",
    )
    assert answer.status_code == 200, answer.text  # type: ignore[attr-defined]
    assert len(smtp.received) == 1
    received = smtp.received[0]
    assert received.recipients == ["studio@example.com"]
    parsed = email.message_from_string(received.data)
    assert parsed["Bcc"] is None and parsed["Cc"] is None and parsed["X-Injected"] is None
    assert parsed.get_all("Reply-To") == ["ann@example.com"]
    assert "Bcc: other@example.com X-Injected: yes Cc: third@example.com" in str(parsed["Subject"]).replace("\n", "")
    assert db.scalars(select(OutgoingMail)).one().status == MailStatus.sent


def test_the_reply_to_header_carries_the_address_in_ascii(
    client: TestClient, db: Session, scene: Scene, smtp: FakeSmtp
) -> None:
    """An international domain goes in its IDNA form; a mailbox name outside ASCII (SMTPUTF8 only)
    gets no header, and the body still names it."""
    assert send(client, scene, email="ann@exämple.com").status_code == 200  # type: ignore[attr-defined]
    assert send(client, scene, email="jöhn@example.com").status_code == 200  # type: ignore[attr-defined]
    first, second = (email.message_from_string(received.data) for received in smtp.received)
    assert first.get_all("Reply-To") == ["ann@xn--exmple-cua.com"]
    assert second["Reply-To"] is None
    mails = db.scalars(select(OutgoingMail).order_by(OutgoingMail.id)).all()
    assert [mail.reply_to for mail in mails] == ["ann@xn--exmple-cua.com", None]
    assert "jöhn@example.com" in mails[1].body_text
