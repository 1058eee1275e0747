"""The search package's background tasks: applying the outbox to the index, purging done entries,
rebuilding the index and computing tour embeddings. Thin entry points: the work lives in
app/search/sync.py, app/search/embeddings.py and app/core/outbox.py."""

from __future__ import annotations

from app.core.db import get_sessionmaker
from app.core.outbox import CLAIM_BATCH, purge_done_entries
from app.core.tasks import OUTBOX_DISPATCH_TASK, task
from app.search.embeddings import EMBED_TOURS_TASK, embed_tours
from app.search.sync import REINDEX_TASK, dispatch_index_outbox, reindex

DAY = 24 * 60 * 60.0

INDEX_QUEUE = "index"
EMBEDDINGS_QUEUE = "embeddings"


# A safety net: every commit that writes the outbox asks for a dispatch at once; this sweep picks up
# retries whose backoff has passed and leases of workers that died.
@task(OUTBOX_DISPATCH_TASK, every=10.0, queue=INDEX_QUEUE)
def dispatch_outbox_task(batch: int | None = None) -> int:
    return dispatch_index_outbox(get_sessionmaker(), batch=batch or CLAIM_BATCH)


@task("outbox.purge", every=DAY, queue=INDEX_QUEUE)
def purge_outbox_task() -> int:
    return purge_done_entries(get_sessionmaker())


@task(REINDEX_TASK, queue=INDEX_QUEUE)
def reindex_task() -> dict[str, int]:
    return reindex(get_sessionmaker())


# Slow (a model on the CPU): its own queue, so a long run never delays the index or the mail.
@task(EMBED_TOURS_TASK, queue=EMBEDDINGS_QUEUE)
def embed_tours_task(ids: list[int] | None = None) -> int:
    return embed_tours(get_sessionmaker(), ids=ids)
