"""Objects kept once per application on its `state`: one per process when served, a fresh one per
test app, so no cache outlives the app that filled it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def kept_on(state: object, name: str, kind: type[T], make: Callable[[], T]) -> T:
    """The `kind` object named `name` on `state`, made by `make` the first time it is asked for."""
    kept = getattr(state, name, None)
    if not isinstance(kept, kind):
        kept = make()
        setattr(state, name, kept)
    return kept
