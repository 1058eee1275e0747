"""Mail's background tasks: sending one stored mail, and the sweep that retries failed sends."""

from __future__ import annotations

from app.core.db import get_sessionmaker
from app.core.tasks import task
from app.notifications.mailer import SEND_MAIL_TASK, retry_failed_mail, send_stored_mail

MAIL_QUEUE = "mail"


@task(SEND_MAIL_TASK, queue=MAIL_QUEUE)
def send_mail_task(mail_id: int) -> str:
    return send_stored_mail(get_sessionmaker(), mail_id)


@task("mail.retry", every=5 * 60.0, queue=MAIL_QUEUE)
def retry_mail_task() -> int:
    return retry_failed_mail(get_sessionmaker())
