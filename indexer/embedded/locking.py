"""Writes to one index folder, one at a time across threads and processes.

Several processes may share the embedded index (`serve --workers 2`, a Celery worker beside the
API): SQLite serialises their transactions on one file, but a full rebuild writes a new file and
swaps it in. A write another process makes into the old file while the new one is built would be
lost with the old file, so the rebuild and every write hold this lock: a flock on a file in the
folder (released by the kernel if a process dies) plus a thread lock, reentrant as the adapter's
writes nest (a vector store inside a write)."""

from __future__ import annotations

import fcntl
import os
import threading
from contextlib import AbstractContextManager
from pathlib import Path
from types import TracebackType
from typing import Any

LOCK_FILE = "WRITE.lock"

# What the adapter's helpers take as its write lock (a FolderWriteLock; a plain RLock where no other
# process can write, as in the read-only bench copy).
WriteLock = AbstractContextManager[Any]


class FolderWriteLock:
    def __init__(self, directory: Path) -> None:
        self._path = directory / LOCK_FILE
        self._thread_lock = threading.RLock()
        self._depth = 0
        self._descriptor: int | None = None
        self._opened_by: int | None = None  # the pid that opened the descriptor

    def acquire(self) -> None:
        self._thread_lock.acquire()
        if self._depth == 0:
            try:
                fcntl.flock(self._own_descriptor(), fcntl.LOCK_EX)
            except BaseException:
                self._thread_lock.release()
                raise
        self._depth += 1

    def release(self) -> None:
        self._depth -= 1
        if self._depth == 0 and self._descriptor is not None:
            fcntl.flock(self._descriptor, fcntl.LOCK_UN)
        self._thread_lock.release()

    def __enter__(self) -> FolderWriteLock:
        self.acquire()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.release()

    def _own_descriptor(self) -> int:
        # A forked child (a prefork worker) inherits the parent's open file, and flock is held per open
        # file: shared with the parent it would exclude nobody. Each process opens its own.
        if self._descriptor is None or self._opened_by != os.getpid():
            self._descriptor = os.open(self._path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            self._opened_by = os.getpid()
        return self._descriptor
