"""The contact form of a creator profile (POST creator-message, spec §5 "contact message minimum
{n} letters"): the message goes by e-mail to the creator through the mail port.

Every text a visitor typed that lands in a header (their name, the subject) is flattened first:
line breaks and other control characters become spaces, so nothing a visitor types can start a
header line of its own (the mail adapter's EmailMessage would refuse a raw CR/LF; flattening makes
the message go out instead of failing). The sender's address is validated (its format, and one
line without control or separator characters) before it becomes the mail's Reply-To, so the
creator's "Reply" answers the visitor; it is also written in the body. Sending is limited per
sender (the account or guest behind the token, and the address given) and per IP.
"""

from __future__ import annotations

import re
import unicodedata

from email_validator import validate_email
from sqlalchemy.orm import Session

from app.auth.rate_limit import check_limit
from app.core.errors import BadRequest
from app.core.security import TokenClaims
from app.creators import profiles
from app.creators.models import Creator
from app.creators.schemas import CreatorMessageBody
from app.notifications.mailer import queue_mail
from app.users import validation as rules

MESSAGE_MIN_LETTERS = 20
TOO_SHORT = f"The message must have at least {MESSAGE_MIN_LETTERS} letters"
NAME_REQUIRED = "Your name is required"
SENT = "Your message has been sent"
PER_SENDER = "5/hour"  # one visitor writing to creators
PER_ADDRESS = "5/hour"  # one reply address, whatever account sends it
PER_IP = "20/hour"  # an office behind one address
DEFAULT_SUBJECT = "A message from your TourAtlas profile"
SUBJECT_MAX = 255  # the outgoing mails column
_SPACES = re.compile(r"\s+")


def header_safe(text: str) -> str:
    """One line: control and separator characters (CR, LF, tab, U+2028…) become single spaces."""
    replaced = "".join(" " if unicodedata.category(char)[0] in "CZ" else char for char in text)
    return _SPACES.sub(" ", replaced).strip()


def letters_in(text: str) -> int:
    return sum(1 for char in text if char.isalpha())


def reply_address(email: str) -> str | None:
    """The validated address as a Reply-To header carries it: ASCII, an international domain in its
    IDNA form. A mailbox name outside ASCII needs SMTPUTF8, which the mail port does not speak: no
    header then, and the creator answers the address the body names."""
    return validate_email(email, check_deliverability=False).ascii_email


def send_message(db: Session, caller: TokenClaims, body: CreatorMessageBody, *, ip: str) -> Creator:
    name = header_safe(body.name)
    subject = header_safe(body.subject or "")
    email = body.email.strip()
    failures = {
        "name": NAME_REQUIRED if not name else None,
        "email": rules.check_email_format(email),
        "message": TOO_SHORT if letters_in(body.message) < MESSAGE_MIN_LETTERS else None,
    }
    rules.raise_for_fields(failures)
    if header_safe(email) != email:
        raise BadRequest(rules.INVALID_EMAIL, fields={"email": rules.INVALID_EMAIL})
    creator = profiles.visible_creator(db, db.get(Creator, body.creator_id), None)
    sender = f"user:{caller.user_id}" if caller.user_id is not None else f"guest:{caller.guest_id or caller.sub}"
    check_limit("creator-message", PER_IP, "ip", ip)
    check_limit("creator-message", PER_SENDER, "sender", sender)
    check_limit("creator-message", PER_ADDRESS, "address", email.lower())
    recipient = creator.contact_email or creator.user.email
    text = "\n".join(
        [
            f"Hello {creator.creator_name},",
            "",
            f"{name} <{email}> wrote to you through your TourAtlas profile:",
            "",
            body.message.strip(),
            "",
            f"To answer, write to {email}.",
        ]
    )
    queue_mail(
        db,
        to_address=recipient,
        subject=f"{subject or DEFAULT_SUBJECT} (from {name})"[:SUBJECT_MAX],
        body_text=text,
        template="creator.message",
        reply_to=reply_address(email),
    )
    return creator
