"""Tag embeddings computed by the worker (app/classifications/tasks.py), never in a request.

- A tag whose name or description changes loses its vector in that transaction; once it commits,
  `classifications.embed_tags` computes it again (admin.py submits it).
- POST admin-tag-embeddings starts a job that embeds every tag again (after a model change, or to
  be sure): `start_job` records it and submits `classifications.embed_all_tags` after the commit;
  the task works in batches, each in its own short transaction, and records its progress
  (done / total) on the job, which GET admin-tag-embeddings answers. One job runs at a time; a job
  that stopped reporting for STALE_AFTER (its worker died) no longer blocks a new one.

Encoding takes a while: no transaction is open while the model runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

from app.classifications import suggestions
from app.classifications.models import EmbeddingJobStatus, Tag, TagEmbeddingJob
from app.core.db import utcnow
from app.core.errors import BadRequest
from app.core.settings import get_settings
from app.core.tasks import submit_after_commit
from app.users.models import User
from indexer.embeddings import encode

EMBED_ALL_TAGS_TASK = "classifications.embed_all_tags"
BATCH = 128
STALE_AFTER = timedelta(minutes=10)
UNFINISHED = (EmbeddingJobStatus.queued, EmbeddingJobStatus.running)


def _still_reporting(job: TagEmbeddingJob) -> bool:
    """Whether the job reported within STALE_AFTER (SQLite hands back naive datetimes: they are UTC)."""
    updated = job.updated_at if job.updated_at.tzinfo is not None else job.updated_at.replace(tzinfo=UTC)
    return utcnow() - updated < STALE_AFTER


def running_job(db: Session) -> TagEmbeddingJob | None:
    job = db.scalar(
        select(TagEmbeddingJob)
        .where(TagEmbeddingJob.status.in_(UNFINISHED))
        .order_by(TagEmbeddingJob.id.desc())
        .limit(1)
    )
    return job if job is not None and _still_reporting(job) else None


def latest_job(db: Session) -> TagEmbeddingJob | None:
    return db.scalar(select(TagEmbeddingJob).order_by(TagEmbeddingJob.id.desc()).limit(1))


def start_job(db: Session, requested_by: User) -> tuple[TagEmbeddingJob, bool]:
    """The job embedding every tag: a new one (True), or the one already under way (False)."""
    if not get_settings().embeddings_enabled:
        raise BadRequest(suggestions.EMBEDDINGS_OFF)
    under_way = running_job(db)
    if under_way is not None:
        return under_way, False
    total = int(db.scalar(select(func.count()).select_from(Tag)) or 0)
    job = TagEmbeddingJob(status=EmbeddingJobStatus.queued, total=total, done=0, requested_by_user_id=requested_by.id)
    db.add(job)
    db.flush()
    submit_after_commit(db, EMBED_ALL_TAGS_TASK, job_id=job.id)
    return job, True


def _set(session_factory: sessionmaker[Session], job_id: int, **values: object) -> None:
    with session_factory.begin() as session:
        session.execute(
            update(TagEmbeddingJob).where(TagEmbeddingJob.id == job_id).values(updated_at=utcnow(), **values)
        )


def run_job(session_factory: sessionmaker[Session], job_id: int) -> int:
    """Embed every tag (active or not: a deactivated tag may come back), in batches; returns how many."""
    with session_factory() as session:
        job = session.get(TagEmbeddingJob, job_id)
        if job is None or job.status not in UNFINISHED:
            return 0
        total = int(session.scalar(select(func.count()).select_from(Tag)) or 0)
    _set(session_factory, job_id, status=EmbeddingJobStatus.running, total=total, done=0)
    done = 0
    try:
        last_id = 0
        while True:
            with session_factory() as session:
                rows = session.execute(
                    select(Tag.id, Tag.name, Tag.description).where(Tag.id > last_id).order_by(Tag.id).limit(BATCH)
                ).all()
            if not rows:
                break
            last_id = rows[-1][0]
            done += _store(session_factory, rows)
            _set(session_factory, job_id, done=done, total=max(total, done))
        suggestions.forget_category_vectors()
    except Exception as exc:
        _set(
            session_factory,
            job_id,
            status=EmbeddingJobStatus.failed,
            message=f"Stopped after {done} tags: {exc.__class__.__name__}",
            finished_at=utcnow(),
        )
        raise
    _set(
        session_factory,
        job_id,
        status=EmbeddingJobStatus.done,
        done=done,
        total=done,
        message=f"Embedded {done} tags",
        finished_at=utcnow(),
    )
    return done


def embed_tags(session_factory: sessionmaker[Session], ids: Sequence[int]) -> int:
    """Embed these tags (their text changed); returns how many. Nothing when embeddings are off:
    the suggestions compute a missing vector when they next need it."""
    if not get_settings().embeddings_enabled or not ids:
        return 0
    with session_factory() as session:
        rows = session.execute(select(Tag.id, Tag.name, Tag.description).where(Tag.id.in_(list(ids)))).all()
    return _store(session_factory, rows) if rows else 0


def _store(session_factory: sessionmaker[Session], rows: Sequence[tuple[int, str, str | None]]) -> int:
    """Encode (outside any transaction), then store the vectors of tags whose text is still the same."""
    texts = {tag_id: suggestions.tag_text(name, description) for tag_id, name, description in rows}
    vectors = encode(list(texts.values()))
    stored = 0
    with session_factory.begin() as session:
        current = {
            tag_id: suggestions.tag_text(name, description)
            for tag_id, name, description in session.execute(
                select(Tag.id, Tag.name, Tag.description).where(Tag.id.in_(list(texts)))
            )
        }
        for (tag_id, text), vector in zip(texts.items(), vectors, strict=True):
            if current.get(tag_id) != text:
                continue  # edited meanwhile: its own embed_tags task follows
            session.execute(update(Tag).where(Tag.id == tag_id).values(embedding=vector.astype("<f4").tobytes()))
            stored += 1
    return stored
