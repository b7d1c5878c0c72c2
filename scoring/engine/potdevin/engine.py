"""The public face of the Pot de Vin engine: start, apply a round, score, replay."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.base import GameInfo
from scoring.engine.errors import Code, LogError, said
from scoring.engine.potdevin.decks import STANDARD_DECK, Deck
from scoring.engine.potdevin.info import INFO
from scoring.engine.potdevin.play import State, check_jokers, play_round, start_state
from scoring.engine.potdevin.rules import ENGINE_VERSION, GAME_ID, LOG_FORMAT
from scoring.engine.potdevin.score import result_document, tableau_of
from scoring.engine.potdevin.sheet import score_sheet


class PotDeVinEngine:
    """The ``GameEngine`` of Pot de Vin. An edition is a deck version (rules D1): ``edition=``
    and ``deck=`` are the same argument under its generic and its own name."""

    game_id = GAME_ID
    version = ENGINE_VERSION
    log_format = LOG_FORMAT

    def __init__(self) -> None:
        self.info: GameInfo = INFO

    def start(
        self, log: Mapping[str, Any], *, edition: Deck | None = None, deck: Deck | None = None
    ) -> State:
        """The state before round 1. Raises ``LogError`` for an impossible header."""
        return start_state(log, deck or edition)

    def apply_entry(self, state: State, entry: Any) -> State:
        """``apply_round`` under the generic name."""
        return self.apply_round(state, entry)

    def apply_round(self, state: State, round_: Any) -> State:
        """The state after one more round; ``state`` itself is left as it was.

        Raises ``LogError`` for an impossible round (see ``play.play_round``).
        """
        new = state.copy()
        play_round(new, round_)
        return new

    def result(
        self, state: State, *, finish: Mapping[str, Any] | None = None, jokers: Any = None
    ) -> dict[str, Any]:
        """Score the game as it stands. ``jokers`` (or ``finish["jokers"]``) overrides the
        log's stated placement.

        Raises ``LogError`` (bad_joker_placement) for a placement the rules forbid.
        """
        if jokers is None and finish is not None:
            jokers = finish.get("jokers")
        placement = state.jokers if jokers is None else check_jokers(jokers, state)
        return build_result(state, placement)

    def score_sheet(
        self, sheet: Mapping[str, Any], *, edition: Deck | None = None
    ) -> dict[str, Any]:
        """``score_tableaux`` under the generic name."""
        return self.score_tableaux(sheet, deck=edition)

    def score_tableaux(
        self, sheet: Mapping[str, Any], *, deck: Deck | None = None
    ) -> dict[str, Any]:
        """Score a game known only by its final tableaux (scorepad mode), with the same scoring
        and tie-breaks as a replayed game. Raises ``LogError`` (malformed, bad_player_count,
        bad_teams, bad_tableau, bad_joker_placement)."""
        return score_sheet(sheet, deck or STANDARD_DECK)

    def replay(
        self, log: Mapping[str, Any], *, edition: Deck | None = None, deck: Deck | None = None
    ) -> dict[str, Any]:
        """Replay a whole log. Raises ``LogError`` for an impossible log."""
        state = start_state(log, deck or edition)
        rounds = log.get("rounds", [])
        if not isinstance(rounds, list):
            raise LogError("malformed", said("{rounds} is a list of rounds", rounds=Code("rounds")))
        for round_ in rounds:
            play_round(state, round_)
        return build_result(state, state.jokers)


def build_result(st: State, jokers: Mapping[int, list[str]] | None) -> dict[str, Any]:
    n = st.setup.players
    return result_document(
        deck_id=st.deck.id,
        names=st.names,
        teams=st.teams,
        tableaux=[tableau_of(st.tally[s], st.gems_won[s]) for s in range(n)],
        jokers=jokers,
        live=(st.rounds_won, st.counts, st.gems, st.gems_paid, st.gems_removed),
        complete=st.finished,
        rounds_played=st.round_no,
        rounds_total=st.setup.rounds,
        rounds=list(st.rounds),
        violations=sorted(st.violations, key=_by_round_and_seat),
    )


def _by_round_and_seat(violation: dict[str, Any]) -> tuple[int, int]:
    return violation["round"], violation["seat"]


ENGINE = PotDeVinEngine()
