"""What statistics know of each game type, from the engine registry and the game's plugin.

Generic statistics (games, wins, score, rank, streaks, head-to-head, ratings) hold for every
game. What a game adds comes from two places:

- its engine's ``info.stats`` (``scoring.engine.base.StatDef``): numbers read at a path of each
  seat's entry in the result, summed over a player's games;
- its plugin's statistics module, ``games.records.game_types.plugin_for(game_type).part("stats")``,
which
  may export (all optional; a game without the module has the defaults):

  ``PATHS``: ``{name: path}``, further values to read from each seat's entry (integers or
  null), besides ``info.stats``.
  ``TALLIES``: ``{name: {"list": path, "match": {key: value}, "seat": key}}``: per seat, how
  many items of a list of the result (from its root) have these values and name the seat.
  ``COUNTERS``: the names ``counters`` returns.
  ``counters(values) -> {name: int | None}``: a seat's own counters from its values by name
  (``seat``, ``team``, ``score``, ``rank``, the ``info.stats`` names, ``PATHS``, ``TALLIES``).
  ``bucket(totals, figures) -> dict``: the game's fields in one bucket of the statistics API,
  from the counters summed over the bucket's games (``totals``) and its generic figures
  (``games``, ``wins``, ``average_rank``...).
  ``api_fields() -> {name: serializer field}``: the same fields, for the API's schema.

Counters are stored per seat in ``PlayerGame.counters`` and summed in SQL into
``PlayerStats.counters``. The values of ``info.stats`` are counters under their own names
whatever the module says; the module's ``counters`` adds to them (or replaces one by name).
By default a bucket shows each ``info.stats`` total and its rate (``<name>_rate``: per game, or
per the total its ``per`` names).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cache
from types import ModuleType
from typing import Any

from games.records.game_types import UnknownGameType, default_game_type, plugin_for
from scoring.engine import ENGINES, get_engine
from scoring.engine.base import StatDef

DEFAULT_GAME_TYPE = default_game_type()  # what a request without ?game_type= means
BASE_PATHS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("seat", ("seat",)),
    ("team", ("team",)),
    ("score", ("score",)),
    ("rank", ("rank",)),
)
DIGITS = 4
_KEY = re.compile(r"^[A-Za-z0-9_]+$")  # path keys and names are written into SQL
MAX_KEY_ID = 2**63 - 1  # the largest id a database stores


def ratio(part: float | None, whole: float | None) -> float | None:
    """``part / whole`` rounded as the API shows it; null when ``whole`` is 0."""
    return round((part or 0) / whole, DIGITS) if whole else None


def known_game_types() -> list[str]:
    """The game types the engine registry knows, in its order."""
    return list(ENGINES)


def _split(key: str) -> tuple[str, int] | None:
    """``("other", 12)`` for ``"other-12"``: a statistics key of a named game, or None."""
    game_type, _, number = key.rpartition("-")
    if not number.isascii() or not number.isdigit() or number.startswith("0"):
        return None
    engine = ENGINES.get(game_type)
    if engine is None or engine.info.logged or not 0 < int(number) <= MAX_KEY_ID:
        return None
    return game_type, int(number)


def stats_key(game_type: str, board_game_id: int | None) -> str:
    """What a finished game's statistics and ratings are kept under: its game type, or, for a
    game type played from no log (``GameInfo.logged`` False: the "other games"), the game type
    and the club's named game, ``"other-12"``: each named game is a series of its own (rules
    O6), never mixed with another."""
    engine = ENGINES.get(game_type)
    if engine is not None and not engine.info.logged and board_game_id is not None:
        return f"{game_type}-{board_game_id}"
    return game_type


def board_game_of(key: object) -> int | None:
    """The named game a statistics key is about (``"other-12"``: 12), else None."""
    split = _split(key) if isinstance(key, str) else None
    return None if split is None else split[1]


def is_known(game_type: object) -> bool:
    """Whether ``game_type`` is a statistics key: a game type the registry knows, or a named
    game's key (``stats_key``)."""
    return isinstance(game_type, str) and (game_type in ENGINES or _split(game_type) is not None)


@dataclass(frozen=True)
class Tally:
    """Per seat, the items of a list of the result (``items``: its path from the root) whose
    keys have the values of ``match``, each naming its seat under ``seat``."""

    name: str
    items: tuple[str, ...]
    match: tuple[tuple[str, str], ...]
    seat: str


def _checked(*keys: str) -> None:
    for key in keys:
        if not _KEY.match(key):
            raise ValueError(f"statistics read only plain keys, not {key!r}")


@dataclass(frozen=True)
class GameStats:
    """The statistics of one game type: what is read from a result and how it is shown."""

    game_type: str
    label: str
    player_counts: tuple[int, ...]
    has_scores: bool
    stat_defs: tuple[StatDef, ...]
    paths: tuple[tuple[str, tuple[str, ...]], ...]  # BASE_PATHS, then the named values
    tallies: tuple[Tally, ...]
    counter_names: tuple[str, ...]
    module: ModuleType | None

    def counters(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """A seat's counters (``PlayerGame.counters``) from its values by name."""
        out: dict[str, Any] = {s.name: values.get(s.name) for s in self.stat_defs}
        own: Callable[..., dict[str, Any]] | None = getattr(self.module, "counters", None)
        if own is not None:
            out.update(own(values))
        return out

    def bucket(self, totals: Mapping[str, int], figures: Mapping[str, Any]) -> dict[str, Any]:
        """The game's own fields of one bucket of the statistics API."""
        own: Callable[..., dict[str, Any]] | None = getattr(self.module, "bucket", None)
        if own is not None:
            return own(totals, figures)
        out: dict[str, Any] = {}
        for s in self.stat_defs:
            out[s.name] = totals.get(s.name, 0)
            whole = figures["games"] if s.per == "games" else totals.get(s.per, 0)
            out[f"{s.name}_rate"] = ratio(totals.get(s.name, 0), whole)
        return out

    def api_fields(self) -> dict[str, Any]:
        """Serializer fields of ``bucket``'s output, for the API schema."""
        own: Callable[[], dict[str, Any]] | None = getattr(self.module, "api_fields", None)
        if own is not None:
            return own()
        from rest_framework import serializers

        out: dict[str, Any] = {}
        for s in self.stat_defs:
            out[s.name] = serializers.IntegerField(help_text=f"{s.label}: total.")
            out[f"{s.name}_rate"] = serializers.FloatField(
                allow_null=True, help_text=f"{s.label} per {s.per.replace('_', ' ')}."
            )
        return out


def _stats_module(game_type: str) -> ModuleType | None:
    """The game's plugin statistics module, or None when it has none."""
    try:
        plugin = plugin_for(game_type)
    except UnknownGameType:
        return None
    try:
        return plugin.part("stats")
    except ModuleNotFoundError as exc:
        if exc.name != f"{plugin.package}.stats":
            raise
        return None


def game_stats(game_type: str) -> GameStats:
    """The statistics of ``game_type`` (a statistics key: a named game's, ``"other-12"``, reads
    like its game type's). Raises ``KeyError`` for a game the registry does not know."""
    split = _split(game_type)
    if split is not None:
        return replace(_game_stats(split[0]), game_type=game_type)
    return _game_stats(game_type)


@cache
def _game_stats(game_type: str) -> GameStats:
    info = get_engine(game_type).info
    module = _stats_module(game_type)
    named: dict[str, tuple[str, ...]] = {s.name: tuple(s.path) for s in info.stats}
    named.update({name: tuple(path) for name, path in getattr(module, "PATHS", {}).items()})
    tallies = tuple(
        Tally(
            name=name,
            items=tuple(t["list"]),
            match=tuple(sorted(t["match"].items())),
            seat=t.get("seat", "seat"),
        )
        for name, t in getattr(module, "TALLIES", {}).items()
    )
    for name, path in named.items():
        _checked(name, *path)
    for t in tallies:
        _checked(t.name, t.seat, *t.items, *(k for k, _ in t.match))
    names = [s.name for s in info.stats]
    names += [n for n in getattr(module, "COUNTERS", ()) if n not in names]
    _checked(*names)
    return GameStats(
        game_type=game_type,
        label=info.label,
        player_counts=tuple(info.player_counts),
        has_scores=info.has_scores,
        stat_defs=tuple(info.stats),
        paths=(*BASE_PATHS, *((n, p) for n, p in named.items() if n not in dict(BASE_PATHS))),
        tallies=tallies,
        counter_names=tuple(names),
        module=module,
    )
