"""What record writes announce to the layers above them, so records never import scoring.

The listeners are declared in ``scoring.follow`` (connected at start-up); services call
``results_changed`` inside their transaction, and each listener decides what to do then or after
commit.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

ResultsListener = Callable[..., None]

_results_listeners: list[ResultsListener] = []
_held = threading.local()


def on_results_changed(listener: ResultsListener) -> None:
    """Call ``listener(game_ids=[...])`` whenever the results of finished games change (a game
    finished, reopened, re-dated, re-scored, imported or deleted)."""
    if listener not in _results_listeners:
        _results_listeners.append(listener)


def results_changed(*, game_ids: Iterable[int]) -> None:
    ids = list(game_ids)
    held: set[int] | None = getattr(_held, "ids", None)
    if held is not None:
        held.update(ids)
        return
    for listener in _results_listeners:
        listener(game_ids=ids)


@contextmanager
def results_held() -> Iterator[None]:
    """Gather the ``results_changed`` calls made in the block into one, made when it ends
    (inside the caller's transaction, which holds the block): a write of many games (an import
    of many plays, each through the services that announce it) is then followed once, not once
    per game. A game written and then rolled back within the block is announced all the same,
    which is harmless (its results are read again and found gone, or unchanged). Not made when
    the block raises: its transaction is rolled back."""
    if getattr(_held, "ids", None) is not None:  # already gathered by an outer block
        yield
        return
    _held.ids = set()
    try:
        yield
        ids = sorted(_held.ids)
    finally:
        _held.ids = None
    if ids:
        results_changed(game_ids=ids)
