"""Rules engines, pure Python: one subpackage per game, found through a registry by game id."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Sequence
from types import ModuleType


class _PlainSources(importlib.abc.MetaPathFinder):
    """Finds this package's modules among .py files only, passing over the ones mypyc compiled
    beside them (``make``), so both builds can be run and compared."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(__name__ + ".") or path is None:
            return None
        loader = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, loader).find_spec(fullname)
            if spec is not None:
                return spec
        return None


if os.environ.get("POTDEVIN_PURE_ENGINE") == "1":
    sys.meta_path.insert(0, _PlainSources())

from scoring.engine.base import GameEngine, GameInfo, StatDef  # noqa: E402 (after the switch)
from scoring.engine.bruges import ENGINE as BRUGES_ENGINE  # noqa: E402
from scoring.engine.complots import ENGINE as COMPLOTS_ENGINE  # noqa: E402
from scoring.engine.errors import LogError  # noqa: E402
from scoring.engine.other import ENGINE as OTHER_ENGINE  # noqa: E402
from scoring.engine.other import score_result  # noqa: E402
from scoring.engine.potdevin import ENGINE as POTDEVIN_ENGINE  # noqa: E402

# The registry: every game the service records, by game id. Adding a game is one engine
# package here and one record-side plugin (``games/plugins/``). "other" is every game without
# an engine of its own, recorded by its final scores (``score_result``, which also scores a
# play of any game known by its final scores only).
ENGINES: dict[str, GameEngine] = {
    engine.game_id: engine
    for engine in (POTDEVIN_ENGINE, COMPLOTS_ENGINE, BRUGES_ENGINE, OTHER_ENGINE)
}


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


__all__ = [
    "ENGINES",
    "GameEngine",
    "GameInfo",
    "LogError",
    "StatDef",
    "engine_for_log",
    "get_engine",
    "score_result",
]
