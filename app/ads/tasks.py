"""The ads' background task: their embeddings (app/ads/embeddings.py), on the embeddings queue with
the tours' and tags' (the workers that hold the model)."""

from __future__ import annotations

from app.ads.embeddings import embed_ads
from app.ads.service import EMBED_ADS_TASK
from app.core.db import get_sessionmaker
from app.core.tasks import task

EMBEDDINGS_QUEUE = "embeddings"


@task(EMBED_ADS_TASK, queue=EMBEDDINGS_QUEUE)
def embed_ads_task(ids: list[int] | None = None) -> int:
    return embed_ads(get_sessionmaker(), ids)
