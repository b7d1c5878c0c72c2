"""The public face of the generic scores engine: games without an engine of their own are
recorded by their final scores only (``score_sheet``); every log is refused (O1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.base import GameInfo
from scoring.engine.errors import LogError, said
from scoring.engine.other.info import INFO
from scoring.engine.other.rules import ENGINE_VERSION, GAME_ID, LOG_FORMAT
from scoring.engine.other.scores import score_result


def _no_log() -> LogError:
    return LogError(
        "result_only",
        said("a game without an engine here is recorded by its final scores only, not a log"),
    )


class OtherEngine:
    """The ``GameEngine`` of game type "other": a play is its score sheet (``score_sheet``);
    there is no state to start and no entry to apply."""

    game_id = GAME_ID
    version = ENGINE_VERSION
    log_format = LOG_FORMAT

    def __init__(self) -> None:
        self.info: GameInfo = INFO

    def start(self, log: Mapping[str, Any], *, edition: Any = None) -> Any:
        """Raises ``LogError`` (result_only): there is no log to start."""
        raise _no_log()

    def apply_entry(self, state: Any, entry: Any) -> Any:
        """Raises ``LogError`` (result_only): there are no entries."""
        raise _no_log()

    def result(self, state: Any, *, finish: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Raises ``LogError`` (result_only): a result comes from a score sheet only."""
        raise _no_log()

    def replay(self, log: Mapping[str, Any], *, edition: Any = None) -> dict[str, Any]:
        """Raises ``LogError`` (result_only): a log, with entries or without, is refused."""
        raise _no_log()

    def score_sheet(self, sheet: Mapping[str, Any], *, edition: Any = None) -> dict[str, Any]:
        """Rank a play by its final scores (``scores.score_result``); ``edition`` is ignored.
        Raises ``LogError``."""
        return score_result(sheet, game=GAME_ID)


ENGINE = OtherEngine()
