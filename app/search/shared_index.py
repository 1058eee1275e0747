"""Does this process read the embedded index the workers write?

With Redis but no Elasticsearch, Celery workers apply the outbox to the embedded index under their
own DATA_DIR, and the API processes read the one under theirs: that only works when every process
shares the folder (one volume, one machine). Each embedded index folder carries a random identity
(indexer.embedded.adapter.folder_identity); every process that writes the index notes its folder's
identity in Redis, and `/health` of a process whose folder has another identity reports that its
readers see none of those writes.

Without Redis there is one process (or several uvicorn workers on one machine and one DATA_DIR):
nothing to compare, nothing reported. With Elasticsearch every process reads the one cluster.
"""

from __future__ import annotations

import json
import logging
import socket
import time
from dataclasses import dataclass
from typing import Any

from app.core.settings import get_settings
from app.search.registry import get_index
from indexer.embedded.adapter import EmbeddedIndex
from indexer.port import SearchIndex

logger = logging.getLogger("touratlas.search")

# Redis hash: folder identity → {"host", "directory", "at"} of the last process that wrote there.
WRITERS_KEY = "touratlas:index:embedded-writers"
# A writer notes itself at most this often (the index sync runs every 10 s under beat) …
NOTE_EVERY_SECONDS = 30.0
# … and counts for this long after: a folder nobody wrote to lately is not reported (nor kept).
WRITER_FRESH_SECONDS = 300.0

_noted_at: dict[str, float] = {}


@dataclass(frozen=True)
class IndexWriter:
    identity: str
    host: str
    directory: str
    at: float


def note_index_writer(index: SearchIndex) -> None:
    """Called where the index is written (outbox sync, rebuild): records which folder this process
    writes. A no-op without Redis or with Elasticsearch; never fails the write it accompanies."""
    url = get_settings().redis_url
    if not url or not isinstance(index, EmbeddedIndex):
        return
    now = time.time()
    if now - _noted_at.get(index.identity, 0.0) < NOTE_EVERY_SECONDS:
        return
    _noted_at[index.identity] = now
    note = {"host": socket.gethostname(), "directory": str(index.directory), "at": now}
    try:
        with _redis(url) as client:
            client.hset(WRITERS_KEY, index.identity, json.dumps(note))
    except Exception:  # a health aid: the write itself has succeeded
        logger.warning("could not note the embedded index writer in Redis", exc_info=True)


def unseen_writers() -> list[IndexWriter]:
    """Writers of the last WRITER_FRESH_SECONDS whose embedded index folder is not this process's."""
    url = get_settings().redis_url
    index = get_index()
    if not url or not isinstance(index, EmbeddedIndex):
        return []
    now = time.time()
    try:
        with _redis(url) as client:
            notes: dict[Any, Any] = client.hgetall(WRITERS_KEY)
            stale = [
                identity for identity, raw in notes.items() if now - _read(raw).get("at", 0) > WRITER_FRESH_SECONDS
            ]
            if stale:
                client.hdel(WRITERS_KEY, *stale)
    except Exception:  # noqa: BLE001 - Redis trouble shows in /health's `redis` already
        return []
    writers = []
    for raw_identity, raw in notes.items():
        identity = raw_identity.decode() if isinstance(raw_identity, bytes) else str(raw_identity)
        note = _read(raw)
        if identity == index.identity or raw_identity in stale:
            continue
        writers.append(IndexWriter(identity, str(note.get("host", "?")), str(note.get("directory", "?")), note["at"]))
    return sorted(writers, key=lambda writer: writer.at, reverse=True)


def shared_index_warnings() -> list[str]:
    """What `/health` says when this process cannot see the index others write."""
    writers = unseen_writers()
    if not writers:
        return []
    index = get_index()
    where = ", ".join(f"{writer.directory} on {writer.host}" for writer in writers[:3])
    directory = index.directory if isinstance(index, EmbeddedIndex) else "?"
    return [
        f"the embedded index is written in another folder ({where}) than the one this process reads "
        f"({directory} on {socket.gethostname()}), so it serves none of those writes: give every process "
        "the same DATA_DIR (one shared volume), or set ELASTICSEARCH_URL"
    ]


def _read(raw: Any) -> dict[str, Any]:
    try:
        note = json.loads(raw)
    except (TypeError, ValueError):
        return {"at": 0.0}
    return note if isinstance(note, dict) and isinstance(note.get("at"), int | float) else {"at": 0.0}


def _redis(url: str) -> Any:
    import redis

    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
