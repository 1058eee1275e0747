"""Keeping the index equal to the database.

Services record an outbox entry in the same transaction as every change of a tour, creator, ad,
tag or classification. `dispatch_index_outbox` claims due index entries (the claiming, leases and
backoff are app/core/outbox.py's), turns them into index writes and marks them done. Counter
changes are folded: many likes of one tour become one update. `reindex` rebuilds the whole index
from the database.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from datetime import timedelta
from typing import Any

from sqlalchemy import URL, select
from sqlalchemy.orm import Session, sessionmaker

from app.core.db import make_engine
from app.core.outbox import CLAIM_BATCH, DISPATCH_TIME_BUDGET_SECONDS, OutboxEntry, dispatch_entries
from app.core.outbox_topics import INDEX_TOPICS, OutboxTopic
from app.core.settings import get_settings
from app.core.tasks import get_task_runner
from app.search.documents import (
    ad_documents,
    creator_documents,
    listable_tour_count,
    place_documents,
    tag_documents,
    tags_of_tours,
    tour_counters,
    tour_documents,
)
from app.search.embeddings import EMBED_TOURS_TASK, stored_vectors
from app.search.registry import get_index
from app.search.shared_index import note_index_writer
from app.tours.models import Tour
from indexer.documents import TourDocument, TourDocumentReader
from indexer.port import SearchIndex

# The full rebuild as a background task (app/search/tasks.py).
REINDEX_TASK = "index.reindex"
SCORES_REFRESH_BATCH = 5000

Progress = Callable[[str], None]


def dispatch_index_outbox(
    session_factory: sessionmaker[Session],
    index: SearchIndex | None = None,
    *,
    batch: int = CLAIM_BATCH,
    lease: timedelta | None = None,
    time_budget: float = DISPATCH_TIME_BUDGET_SECONDS,
) -> int:
    """Process due index entries batch by batch; returns how many entries were handled. When a batch
    fails on a healthy index, one entry is at fault: each is then retried alone."""
    target = index or get_index()
    note_index_writer(target)

    def apply_batch(entries: list[OutboxEntry]) -> None:
        with session_factory() as session:
            apply_entries(session, target, entries)

    return dispatch_entries(
        session_factory,
        topics=INDEX_TOPICS,
        handle=apply_batch,
        isolate_failures=lambda: target.health().startswith("ok"),
        batch=batch,
        lease=lease,
        time_budget=time_budget,
    )


def apply_entries(session: Session, index: SearchIndex, entries: Iterable[OutboxEntry]) -> None:
    """Turn outbox entries into index writes. The database is the truth: every entry only names
    what changed, and the current rows are read now (so folding many entries into one is free)."""
    ids_by_topic: dict[str, set[int]] = defaultdict(set)
    for entry in entries:
        ids_by_topic[entry.topic].add(int(entry.aggregate_id))
    recount: set[int] = set()
    if tour_ids := ids_by_topic.get(OutboxTopic.tour):
        recount = _sync_tours(session, index, tour_ids)
    if counter_ids := ids_by_topic.get(OutboxTopic.tour_counters, set()) - ids_by_topic.get(OutboxTopic.tour, set()):
        index.update_counters(tour_counters(session, counter_ids))
    if creator_ids := ids_by_topic.get(OutboxTopic.creator):
        docs = list(creator_documents(session, creator_ids))
        index.upsert_creators(docs)
        index.delete_creators(sorted(creator_ids - {doc.id for doc in docs}))
    if ad_ids := ids_by_topic.get(OutboxTopic.ad):
        ads = list(ad_documents(session, ad_ids))
        index.upsert_ads(ads)
        index.delete_ads(sorted(ad_ids - {doc.id for doc in ads}))
    if tag_ids := ids_by_topic.get(OutboxTopic.tag, set()) | recount:
        tags = list(tag_documents(session, tag_ids))
        index.upsert_tags(tags)
        index.delete_tags(sorted(tag_ids - {doc.id for doc in tags}))
    if ids_by_topic.get(OutboxTopic.scores):
        refresh_all_scores(session, index)


def refresh_all_scores(session: Session, index: SearchIndex) -> int:
    """Rewrite every tour's counters and time-dependent scores (trending, popular) in the index,
    in batches; returns how many tours were read. Tours the index does not hold are skipped."""
    refreshed = 0
    last_id = 0
    while True:
        ids = list(
            session.scalars(select(Tour.id).where(Tour.id > last_id).order_by(Tour.id).limit(SCORES_REFRESH_BATCH))
        )
        if not ids:
            return refreshed
        index.update_counters(tour_counters(session, ids))
        refreshed += len(ids)
        last_id = ids[-1]


def _sync_tours(session: Session, index: SearchIndex, tour_ids: set[int]) -> set[int]:
    """Write these tours' documents; returns the tags whose count of listed tours may have moved
    (the tags the tours carry now; a tag a tour lost or a deleted tour's tags come as `tag` entries)."""
    docs: list[TourDocument] = list(tour_documents(session, tour_ids))
    index.upsert_tours(docs)
    # Whatever is no longer listable (draft, pending, deleted, owner drafted) leaves the index.
    index.delete_tours(sorted(tour_ids - {doc.id for doc in docs}))
    if docs and get_settings().embeddings_enabled:
        # Embedding takes ~10 ms a tour on 2 cores: its own task, so index sync never waits for it.
        get_task_runner().submit(EMBED_TOURS_TASK, ids=sorted(doc.id for doc in docs))
    return tags_of_tours(session, tour_ids)


def reindex(
    session_factory: sessionmaker[Session], *, index: SearchIndex | None = None, progress: Progress | None = None
) -> dict[str, int]:
    """Rebuild the whole index from the database (zero downtime: the adapter swaps at the end)."""
    index = index or get_index()
    note_index_writer(index)
    report = progress or (lambda message: None)
    started = time.monotonic()
    with session_factory() as session:
        tours: Iterable[TourDocument] = _counting(tour_documents(session, None), report, "tours", started)
        url = session.get_bind().engine.url
        if not _in_memory(url):
            # An index that reads the tours in a process of its own (the embedded one) reads them
            # again there from the URL; any other iterates these.
            tours = DatabaseTourDocuments(url.render_as_string(hide_password=False), tours)
        counts = index.rebuild(
            tours=tours,
            creators=creator_documents(session, None),
            ads=ad_documents(session, None),
            tags=tag_documents(session, None),
            places=place_documents(session),
            progress=report,
        )
    # Everything written before the rebuild started is in it; pending entries stay valid and
    # re-apply idempotently.
    report(
        f"indexed {counts.get('tours', 0):,} tours, {counts.get('creators', 0):,} creators, "
        f"{counts.get('tags', 0):,} tags, {counts.get('places', 0):,} places in {time.monotonic() - started:.1f} s"
    )
    counts["vectors"] = load_stored_vectors(session_factory, index)
    report(f"loaded {counts['vectors']:,} stored tour embeddings")
    return counts


def load_stored_vectors(session_factory: sessionmaker[Session], index: SearchIndex) -> int:
    """Give the index every embedding the database holds, so a fresh index from the database has its
    vectors too (computing missing ones is the `embeddings.tours` task's job)."""
    loaded = 0
    with session_factory() as session:
        for vectors in stored_vectors(session):
            index.set_vectors(vectors)
            loaded += len(vectors)
    return loaded


def _counting(docs: Iterable[Any], report: Progress, label: str, started: float, every: int = 50_000) -> Iterable[Any]:
    for position, doc in enumerate(docs, start=1):
        if position % every == 0:
            report(f"{label} {position:,} ({time.monotonic() - started:.0f} s)")
        yield doc


def ensure_index_built(session_factory: sessionmaker[Session], *, progress: Progress | None = None) -> None:
    """At start-up: rebuild when the index is empty but the database has listable tours, or when it
    holds documents of an older layout (a new mapping version: Elasticsearch would refuse the new
    fields, and the embedded rows lack them); otherwise apply what the outbox still holds."""
    index = get_index()
    with session_factory() as session:
        wanted = listable_tour_count(session)
    outdated = index.outdated()
    if (index.document_count() == 0 and wanted > 0) or outdated:
        if outdated and progress:
            progress(f"the index layout changed for {', '.join(outdated)}: rebuilding")
        reindex(session_factory, index=index, progress=progress)
        return
    handled = dispatch_index_outbox(session_factory, index)
    if progress:
        progress(f"index up to date ({index.document_count():,} tours; {handled} pending changes applied)")


def _in_memory(url: URL) -> bool:
    """A database only this process can open (SQLite in memory): a child process would read an empty one."""
    database = url.database or ""
    return url.get_backend_name() == "sqlite" and (database in ("", ":memory:") or "mode=memory" in str(url))


class DatabaseTourDocuments(TourDocumentReader):
    """Every listable tour's document: here, the documents given (read on the caller's session); in
    the child process of the embedded index's rebuild, read again on a connection of its own to the
    database at `url` (only the URL is pickled)."""

    def __init__(self, url: str, here: Iterable[TourDocument]) -> None:
        self.url = url
        self._here = here

    def __iter__(self) -> Iterator[TourDocument]:
        return iter(self._here)

    def documents(self) -> Iterator[TourDocument]:
        import app.models  # noqa: F401 - every mapper known before the first query (get_sessionmaker)

        engine = make_engine(self.url)
        try:
            with Session(engine) as session:
                yield from tour_documents(session, None)
        finally:
            engine.dispose()

    def __getstate__(self) -> dict[str, str]:
        return {"url": self.url}

    def __setstate__(self, state: dict[str, str]) -> None:
        self.url = state["url"]
        self._here = ()
