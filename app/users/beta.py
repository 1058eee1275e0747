"""The beta-tester questionnaire (spec §3: 9 questions, all required except the camera question;
§5 "Beta form required questions must be answered")."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.db import utcnow
from app.core.errors import BadRequest
from app.users import service as users
from app.users.models import BetaTesterAnswer, User
from app.users.schemas import BetaTesterAnswers

OPTIONAL_QUESTIONS = frozenset({"camera"})
REQUIRED_QUESTIONS = tuple(name for name in BetaTesterAnswers.model_fields if name not in OPTIONAL_QUESTIONS)
ANSWER_REQUIRED = "Please answer this question"
ANSWERS_MISSING = "Please answer every required question"


def own_answers(session: Session, user: User) -> BetaTesterAnswer | None:
    """The caller's answers, or None before the questionnaire was answered (the form is prefilled with them)."""
    return session.scalar(
        select(BetaTesterAnswer)
        .where(BetaTesterAnswer.user_id == user.id)
        .order_by(BetaTesterAnswer.id.desc())
        .limit(1)
    )


def save_answers(session: Session, user: User, answers: BetaTesterAnswers) -> BetaTesterAnswer:
    """Record the caller's answers; answering again replaces the earlier answers (one row per account)."""
    cleaned = {name: (value.strip() or None) if isinstance(value, str) else value for name, value in answers}
    missing = {name: ANSWER_REQUIRED for name in REQUIRED_QUESTIONS if cleaned.get(name) is None}
    if missing:
        raise BadRequest(ANSWERS_MISSING, fields=missing)
    row = own_answers(session, user)
    if row is None:
        row = BetaTesterAnswer(user_id=user.id)
        session.add(row)
    row.answers = cleaned  # a new dict, so the JSON column notices the change
    row.created_at = utcnow()
    session.flush()
    return row


def list_beta_testers(
    session: Session, *, pattern: str | None, limit: int, offset: int
) -> tuple[list[tuple[BetaTesterAnswer, User]], int]:
    """GET get-beta-testers: newest answers first, with the account that gave them."""
    statement = select(BetaTesterAnswer, User).join(User, User.id == BetaTesterAnswer.user_id)
    if pattern and pattern.strip():
        statement = statement.where(users.matches_pattern(pattern))
    total = session.scalar(select(func.count()).select_from(statement.subquery())) or 0
    rows = session.execute(
        statement.order_by(BetaTesterAnswer.created_at.desc(), BetaTesterAnswer.id.desc()).limit(limit).offset(offset)
    ).all()
    return [(answer, user) for answer, user in rows], total
