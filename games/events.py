"""What record writes announce to the layers above them, so records never import scoring.

The scoring app subscribes at start-up (``scoring.apps``); services call ``results_changed``
inside their transaction, and each listener decides what to do then or after commit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

ResultsListener = Callable[..., None]

_results_listeners: list[ResultsListener] = []


def on_results_changed(listener: ResultsListener) -> None:
    """Call ``listener(game_ids=[...])`` whenever the results of finished games change (a game
    finished, reopened, re-dated, re-scored, imported or deleted)."""
    if listener not in _results_listeners:
        _results_listeners.append(listener)


def results_changed(*, game_ids: Iterable[int]) -> None:
    ids = list(game_ids)
    for listener in _results_listeners:
        listener(game_ids=ids)
