"""Record-side plugins: what is game-shaped on the record side (API shapes, forms and pages,
presenters, the statistics a game contributes), one package per game, found by game type.

A plugin package ``games/plugins/<pkg>/`` names its game in ``GAME_TYPE`` (``__init__.py``) and
holds its parts as modules (``api``, ``web``, ``stats``). Generic code asks ``plugin_for`` and
never imports a game's package by name. The packages installed are ``settings.GAME_PLUGINS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import import_module
from types import ModuleType

from django.conf import settings

from scoring.engine import GameEngine, get_engine


@dataclass(frozen=True)
class GamePlugin:
    game_type: str
    package: str  # dotted path of the plugin package

    @property
    def engine(self) -> GameEngine:
        return get_engine(self.game_type)

    @property
    def label(self) -> str:
        """What the game is called: its name (the engine's label), or the words a plugin gives
        in ``LABEL`` for a game type that is no name (an "other game")."""
        words = getattr(import_module(self.package), "LABEL", None)
        return str(words) if words is not None else self.engine.info.label

    def part(self, name: str) -> ModuleType:
        """The plugin's module ``name`` (``api``, ``web``, ``stats``)."""
        return import_module(f"{self.package}.{name}")


@cache
def plugins() -> dict[str, GamePlugin]:
    """Every installed plugin by game type, in the order of ``settings.GAME_PLUGINS``."""
    found: dict[str, GamePlugin] = {}
    for package in settings.GAME_PLUGINS:
        game_type = import_module(package).GAME_TYPE
        get_engine(game_type)  # a plugin without an engine is a configuration error
        found[game_type] = GamePlugin(game_type, package)
    return found


class UnknownGameType(LookupError):
    def __init__(self, game_type: object) -> None:
        known = ", ".join(plugins())
        super().__init__(f"no game {game_type!r}; known: {known}")
        self.game_type = game_type


def plugin_for(game_type: str) -> GamePlugin:
    """The plugin of ``game_type``. Raises ``UnknownGameType``."""
    try:
        return plugins()[game_type]
    except (KeyError, TypeError):
        raise UnknownGameType(game_type) from None


def game_types() -> list[str]:
    return list(plugins())


def default_game_type() -> str:
    """What a request that names no game means: the first installed game (a client written
    when Pot de Vin was the only game keeps working unchanged)."""
    return next(iter(plugins()))
