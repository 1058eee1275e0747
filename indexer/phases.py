"""Time per phase of a long job (the full rebuild), summed over repeats and reported in one line:
wall seconds, and the CPU seconds of the thread that ran the phase (on a shared machine the wall
time says how busy the others were; the CPU time says what the phase costs).

Phases may be timed on several threads at once (the rebuild reads documents on a helper thread while
two writers write): the figures then add up to more than the wall time."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


class PhaseClock:
    def __init__(self) -> None:
        self.seconds: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def add(self, phase: str, wall: float, cpu: float) -> None:
        with self._lock:
            spent = self.seconds.setdefault(phase, [0.0, 0.0])
            spent[0] += wall
            spent[1] += cpu

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - wall, time.thread_time() - cpu)

    def timed_call(self, name: str, function: Callable[[], T]) -> T:
        with self.phase(name):
            return function()

    def timed_iteration(self, name: str, items: Iterable[T]) -> Iterator[T]:
        """Yield `items`, counting the time spent producing each one (not the consumer's) as `name`."""
        iterator = iter(items)
        while True:
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                item = next(iterator)
            except StopIteration:
                self.add(name, time.perf_counter() - wall, time.thread_time() - cpu)
                return
            self.add(name, time.perf_counter() - wall, time.thread_time() - cpu)
            yield item

    def summary(self) -> str:
        """`phase wall s (cpu s)`, in the order the phases first ran."""
        return ", ".join(f"{phase} {wall:.1f} s ({cpu:.1f})" for phase, (wall, cpu) in self.seconds.items())


def report_phases(clock: PhaseClock, progress: Callable[[str], None] | None) -> None:
    if progress is not None:
        progress(f"phases: {clock.summary()}")
