"""Every background task of the platform, by name. Workers and the in-process runner import this
module; each task is a thin entry point into domain code."""

from __future__ import annotations

from app.core.db import get_sessionmaker
from app.core.tasks import task


@task("outbox.dispatch")
def dispatch_outbox() -> int:
    from indexer.sync import dispatch_index_outbox

    return dispatch_index_outbox(get_sessionmaker())


@task("index.reindex")
def reindex() -> dict[str, int]:
    from indexer.sync import reindex as rebuild

    return rebuild(get_sessionmaker())


@task("embeddings.tours")
def embed_tours(ids: list[int] | None = None) -> int:
    from indexer.embeddings import embed_tours as compute

    return compute(get_sessionmaker(), ids=ids)


@task("mail.send")
def send_mail(mail_id: int) -> str:
    from app.notifications.mailer import send_stored_mail

    return send_stored_mail(get_sessionmaker(), mail_id)
