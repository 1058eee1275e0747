"""The search package's background tasks: applying the outbox to the index, purging it, rebuilding
the index and computing tour embeddings.

The work itself still lives in indexer/sync.py and indexer/embeddings.py (on its way into this
package); it is imported inside each task because indexer.sync submits EMBED_TOURS_TASK, which a
module-level import from here would turn into an import cycle.
"""

from __future__ import annotations

from app.core.db import get_sessionmaker
from app.core.tasks import OUTBOX_DISPATCH_TASK, task

DAY = 24 * 60 * 60.0

INDEX_QUEUE = "index"
EMBEDDINGS_QUEUE = "embeddings"

REINDEX_TASK = "index.reindex"
EMBED_TOURS_TASK = "embeddings.tours"


# A safety net: every commit that writes the outbox asks for a dispatch at once; this sweep picks up
# retries whose backoff has passed and leases of workers that died.
@task(OUTBOX_DISPATCH_TASK, every=10.0, queue=INDEX_QUEUE)
def dispatch_outbox(batch: int | None = None) -> int:
    from indexer.sync import CLAIM_BATCH, dispatch_index_outbox

    return dispatch_index_outbox(get_sessionmaker(), batch=batch or CLAIM_BATCH)


@task("outbox.purge", every=DAY, queue=INDEX_QUEUE)
def purge_outbox() -> int:
    from indexer.sync import purge_done_entries

    return purge_done_entries(get_sessionmaker())


@task(REINDEX_TASK, queue=INDEX_QUEUE)
def reindex() -> dict[str, int]:
    from indexer.sync import reindex as rebuild

    return rebuild(get_sessionmaker())


# Slow (a model on the CPU): its own queue, so a long run never delays the index or the mail.
@task(EMBED_TOURS_TASK, queue=EMBEDDINGS_QUEUE)
def embed_tours(ids: list[int] | None = None) -> int:
    from indexer.embeddings import embed_tours as compute

    return compute(get_sessionmaker(), ids=ids)
