"""The shape every game engine has, so records and services treat games alike."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class GameEngine(Protocol):
    """Replays a game log; the log is the whole truth (chance is data in it, never drawn here)."""

    game_id: str
    version: str
    log_format: str

    def start(self, log: Mapping[str, Any], *, deck: Any = None) -> Any:
        """Check the log header and return the state before the first round.

        Raises ``LogError`` for an impossible header.
        """
        ...

    def apply_round(self, state: Any, round_: Any) -> Any:
        """Check one round against ``state`` and return the new state (``state`` is unchanged).

        Raises ``LogError`` for an impossible round.
        """
        ...

    def result(self, state: Any, *, jokers: Any = None) -> dict[str, Any]:
        """Score ``state`` as the game stands (complete or not)."""
        ...

    def replay(self, log: Mapping[str, Any], *, deck: Any = None) -> dict[str, Any]:
        """Replay a whole log into its result. Raises ``LogError`` for an impossible log."""
        ...
