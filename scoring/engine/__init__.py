"""Rules engines, pure Python: one subpackage per game, found through a registry by game id."""

from __future__ import annotations

from scoring.engine.base import GameEngine
from scoring.engine.errors import LogError
from scoring.engine.potdevin import ENGINE as POTDEVIN_ENGINE

ENGINES: dict[str, GameEngine] = {POTDEVIN_ENGINE.game_id: POTDEVIN_ENGINE}


def engine_for_log(log: object) -> GameEngine:
    """The engine that reads ``log``, chosen by its ``format``.

    Raises ``LogError`` (malformed, unsupported_format) when no engine reads it.
    """
    if not isinstance(log, dict):
        raise LogError("malformed", "a log is a JSON object")
    fmt = log.get("format")
    for engine in ENGINES.values():
        if engine.log_format == fmt:
            return engine
    known = ", ".join(sorted(e.log_format for e in ENGINES.values()))
    raise LogError("unsupported_format", f"no engine reads format {fmt!r}; known: {known}")


def get_engine(game_id: str) -> GameEngine:
    """The engine for ``game_id``. Raises ``KeyError`` for a game with no engine."""
    try:
        return ENGINES[game_id]
    except KeyError:
        raise KeyError(f"no engine for game {game_id!r}; known: {sorted(ENGINES)}") from None


__all__ = ["ENGINES", "GameEngine", "LogError", "engine_for_log", "get_engine"]
