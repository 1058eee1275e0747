"""The classifications' background tasks: tag embeddings (app/classifications/embeddings.py). Thin
entry points on the embeddings queue (a model on the CPU: never in the way of the index or the mail)."""

from __future__ import annotations

from app.classifications.admin import EMBED_TAGS_TASK
from app.classifications.embeddings import EMBED_ALL_TAGS_TASK, embed_tags, run_job
from app.core.db import get_sessionmaker
from app.core.tasks import task

# The queue the tour embeddings use too (app/search/tasks.py): the workers that hold the model.
EMBEDDINGS_QUEUE = "embeddings"


@task(EMBED_TAGS_TASK, queue=EMBEDDINGS_QUEUE)
def embed_tags_task(ids: list[int]) -> int:
    return embed_tags(get_sessionmaker(), ids)


@task(EMBED_ALL_TAGS_TASK, queue=EMBEDDINGS_QUEUE)
def embed_all_tags_task(job_id: int) -> int:
    return run_job(get_sessionmaker(), job_id)
