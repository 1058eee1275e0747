"""Every background task of the platform, by name, and how often the periodic ones run. Celery
workers and the in-process runner import this module; each task is a thin entry point into domain
code. Not here yet: the mailing-list synchronisation (it comes with the mailing-list issue)."""

from __future__ import annotations

from app.core.db import get_sessionmaker
from app.core.tasks import task

MINUTE = 60.0
HOUR = 60 * MINUTE
DAY = 24 * HOUR


# A safety net: every commit that writes the outbox asks for a dispatch at once; this sweep picks up
# retries whose backoff has passed and leases of workers that died.
@task("outbox.dispatch", every=10.0)
def dispatch_outbox(batch: int | None = None) -> int:
    from app.core.outbox import CLAIM_BATCH
    from app.search.sync import dispatch_index_outbox

    return dispatch_index_outbox(get_sessionmaker(), batch=batch or CLAIM_BATCH)


@task("outbox.purge", every=DAY)
def purge_outbox() -> int:
    from app.core.outbox import purge_done_entries

    return purge_done_entries(get_sessionmaker())


@task("index.reindex")
def reindex() -> dict[str, int]:
    from app.search.sync import reindex as rebuild

    return rebuild(get_sessionmaker())


@task("embeddings.tours")
def embed_tours(ids: list[int] | None = None) -> int:
    from app.search.embeddings import embed_tours as compute

    return compute(get_sessionmaker(), ids=ids)


@task("ranks.calc", every=HOUR)
def calculate_ranks() -> dict[str, int]:
    from app.discovery.ranking import calculate_ranks as calculate

    report = calculate(get_sessionmaker())
    return {"trending_changed": report.trending_changed, "featured_renumbered": report.featured_renumbered}


@task("ranks.refresh_scores", every=DAY)
def refresh_scores() -> None:
    from app.discovery.ranking import request_score_refresh

    request_score_refresh(get_sessionmaker())


@task("mail.send")
def send_mail(mail_id: int) -> str:
    from app.notifications.mailer import send_stored_mail

    return send_stored_mail(get_sessionmaker(), mail_id)


@task("mail.retry", every=5 * MINUTE)
def retry_mail() -> int:
    from app.notifications.mailer import retry_failed_mail

    return retry_failed_mail(get_sessionmaker())


@task("billing.end_trials", every=15 * MINUTE)
def end_trials() -> int:
    from app.billing.trials import end_expired_trials

    return end_expired_trials(get_sessionmaker())
