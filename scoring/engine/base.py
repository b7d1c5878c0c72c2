"""The shape every game engine has, so records and services treat games alike.

A game is a value handed to the framework (``GameEngine``), found in the registry by its id;
generic code never imports a game's package by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from scoring.engine.errors import Said


def players_schema(fewest: int, most: int) -> dict[str, Any]:
    """The JSON schema of a log header's ``players``, the same in every game's format."""
    return {
        "type": "array",
        "description": "Player names in seat order, clockwise.",
        "minItems": fewest,
        "maxItems": most,
        "items": {"type": "string", "minLength": 1, "pattern": "\\S"},
    }


# The optional keys every log header may carry, whatever the game (the export writes them).
LOG_NOTES_SCHEMA: dict[str, Any] = {
    "played_on": {"type": ["string", "null"]},
    "location": {"type": ["string", "null"]},
    "notes": {"type": ["string", "null"]},
}


@dataclass(frozen=True)
class StatDef:
    """A per-player statistic a game contributes: a number read from each seat's entry in the
    engine's result at ``path`` (keys from the seat's entry), summed over a player's finished
    games. ``per`` names another stat (or ``"games"``) to show it as a rate of."""

    name: str
    label: str
    path: tuple[str, ...]
    per: str = "games"


@dataclass(frozen=True)
class GameInfo:
    """What the record layer needs to know of a game, besides replaying it.

    ``setup_keys`` are the log header keys the engine checks at start besides the common
    ``players``, ``teams``, ``first_player``, ``variant`` (when ``variants``) and the edition
    (``edition_log_key``, when ``has_editions``): Pot de Vin's deal; a record stores them as the
    game's setup, and the others in columns of their own. ``finish_keys`` are end-of-game
    choices kept in the log (Pot de Vin: the Jokers). ``entries_key`` is the log's list of
    entries (``rounds``, ``turns``) and ``entry_name`` what one is called (``round``, ``turn``).
    """

    game_id: str
    label: str
    log_format: str
    entries_key: str
    entry_name: str
    player_counts: tuple[int, ...]
    team_counts: Mapping[int, int] = field(default_factory=dict)  # players -> teams allowed
    variants: tuple[str, ...] = ()
    default_variant: str | None = None
    setup_keys: tuple[str, ...] = ()
    finish_keys: tuple[str, ...] = ()
    has_editions: bool = False
    default_edition: str | None = None
    # Editions (printed data that can be wrong, versioned): the ones the engine ships, key ->
    # {"description", "data"}, and how to turn stored data into what ``edition=`` takes.
    builtin_editions: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    edition_from_data: Callable[[str, Mapping[str, Any]], Any] | None = None
    # And back: the data exactly as the engine read it, which is what a record stores.
    edition_to_data: Callable[[Any], dict[str, Any]] | None = None
    edition_log_key: str = "edition"  # the header key naming the edition in a log
    # Scorepad mode: a finished game known by its final sheet only (``score_sheet``), which the
    # sheet document holds under ``sheet_key`` beside players, teams and the finish keys.
    scorepad: bool = False
    sheet_key: str = "sheet"
    has_scores: bool = True
    header_schema: Mapping[str, Any] = field(default_factory=dict)
    entry_schema: Mapping[str, Any] = field(default_factory=dict)
    finish_schema: Mapping[str, Any] | None = None
    result_detail: str = ""  # what a seat's entry in the result holds, for people
    stats: tuple[StatDef, ...] = ()
    tiebreak_wording: Mapping[str, str] = field(default_factory=dict)  # tiebreak code -> words
    # Whether the end-of-game choices are what says the game is over (Bruges' `final`, which the
    # engine trusts): reopening such a game takes them back, so that it is in progress again.
    finish_ends_game: bool = False
    # Why a result is not complete yet, in words ("3 players are still in the game"), kept
    # translatable like a refusal.
    unfinished: Callable[[Mapping[str, Any]], Said] | None = None
    simulate: Callable[..., dict[str, Any]] | None = None
    # Whether the game is played from a log of entries. False for a game without an engine of
    # its own (an "other game"): it is recorded by its final scores only, and ``start`` and
    # ``replay`` refuse every log.
    logged: bool = True
    # How a play of this game known by its final scores only (``Game.Mode.RESULT``: a play
    # brought in from another app without its sheet) is won: "highest", "lowest", "manual"
    # (ranks or winners as given) or "cooperative". None: "highest" for a game with scores,
    # else "manual" (see ``result_win_rule``).
    result_win: str | None = None
    # How other apps know the game, for plays brought in from them: its BoardGameGeek ids (its
    # editions that BoardGameGeek lists as versions share one), and the names a play may give
    # instead (case and accents aside).
    bgg_ids: tuple[int, ...] = ()
    known_names: tuple[str, ...] = ()
    # A final sheet that follows from every player's place alone (1 first, all apart), for a
    # play brought in with places only: Complots' elimination order. None: no such sheet.
    sheet_from_places: Callable[[Sequence[int]], dict[str, Any]] | None = None

    def result_win_rule(self) -> str:
        """How a play of this game known by its final scores only is won (``result_win``)."""
        if self.result_win is not None:
            return self.result_win
        return "highest" if self.has_scores else "manual"


class GameEngine(Protocol):
    """Replays a game log; the log is the whole truth (chance is data in it, never drawn here)."""

    game_id: str
    version: str
    log_format: str
    info: GameInfo

    def start(self, log: Mapping[str, Any], *, edition: Any = None) -> Any:
        """Check the log header and return the state before the first entry.

        Raises ``LogError`` for an impossible header.
        """
        ...

    def apply_entry(self, state: Any, entry: Any) -> Any:
        """Check one entry (a round, a turn) against ``state`` and return the new state
        (``state`` is unchanged). Raises ``LogError`` for an impossible entry.
        """
        ...

    def result(self, state: Any, *, finish: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The result as the game stands (complete or not). ``finish`` overrides the log's
        end-of-game choices (``info.finish_keys``)."""
        ...

    def replay(self, log: Mapping[str, Any], *, edition: Any = None) -> dict[str, Any]:
        """Replay a whole log into its result. Raises ``LogError`` for an impossible log."""
        ...


class SheetEngine(GameEngine, Protocol):
    """An engine that also scores a game known only by its final sheet (``info.scorepad``)."""

    def score_sheet(self, sheet: Mapping[str, Any], *, edition: Any = None) -> dict[str, Any]:
        """Score a final sheet like a replayed game. Raises ``LogError``."""
        ...
