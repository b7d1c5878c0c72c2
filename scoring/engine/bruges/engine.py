"""The public face of the Bruges engine: start, apply a round, the result, replay."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.base import GameInfo
from scoring.engine.bruges.info import INFO
from scoring.engine.bruges.play import State, check_final, play_round, start_state
from scoring.engine.bruges.rules import (
    ENGINE_VERSION,
    GAME_ID,
    LOG_FORMAT,
)
from scoring.engine.bruges.score import build_result
from scoring.engine.bruges.sheet import score_sheet
from scoring.engine.errors import Code, LogError, said


class BrugesEngine:
    """The ``GameEngine`` of Bruges (``scoring.engine.base``). An edition (rules B1) is an
    ``editions.Edition`` (or its JSON object)."""

    game_id = GAME_ID
    version = ENGINE_VERSION
    log_format = LOG_FORMAT

    def __init__(self) -> None:
        self.info: GameInfo = INFO

    def start(self, log: Mapping[str, Any], *, edition: Any = None) -> State:
        """The state before round 1. Raises ``LogError`` for an impossible header."""
        return start_state(log, edition)

    def apply_entry(self, state: State, round_: Any) -> State:
        """The state after one more round; ``state`` itself is left as it was.

        Raises ``LogError`` for an impossible round (see ``play.play_round``).
        """
        new = state.copy()
        play_round(new, round_)
        return new

    def result(self, state: State, *, finish: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The result as the game stands. ``finish = {"final": {...}}`` replaces the log's
        ``final`` (``{"final": None}``: in progress; a ``finish`` without the key keeps it).
        Raises ``LogError`` (malformed, bad_laurels) for an impossible ``final``."""
        final = state.final
        if finish is not None and "final" in finish:
            final = check_final(finish["final"])
        return build_result(state, final)

    def replay(self, log: Mapping[str, Any], *, edition: Any = None) -> dict[str, Any]:
        """Replay a whole log. Raises ``LogError`` for an impossible log."""
        state = start_state(log, edition)
        rounds = log.get("rounds")
        if rounds is None:
            rounds = []
        if type(rounds) is not list:
            raise LogError("malformed", said("{key} is a list of rounds", key=Code("rounds")))
        for round_ in rounds:
            play_round(state, round_)
        return build_result(state, state.final)

    def score_sheet(self, sheet: Mapping[str, Any], *, edition: Any = None) -> dict[str, Any]:
        """Score a finished game known by its final score sheet only (scorepad mode:
        ``{"players", "teams", "sheet": [one object per seat]}``, see ``sheet.py``), with the
        same points per category, totals and ranking (B7) as a replayed game. ``edition`` as
        for ``replay`` (the sheet's ``edition`` key names a built-in one when it is not given).

        Raises ``LogError`` (malformed, bad_player_count, bad_teams, unknown_edition,
        bad_edition, bad_sheet)."""
        return score_sheet(sheet, edition)


ENGINE = BrugesEngine()
