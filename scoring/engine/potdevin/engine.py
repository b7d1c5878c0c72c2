"""The public face of the Pot de Vin engine: start, apply a round, score, replay."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.errors import LogError
from scoring.engine.potdevin.decks import Deck
from scoring.engine.potdevin.play import State, check_jokers, play_round, start_state
from scoring.engine.potdevin.rules import ENGINE_VERSION, GAME_ID, LOG_FORMAT, RESULT_FORMAT
from scoring.engine.potdevin.score import score_table, tableau_of


class PotDeVinEngine:
    game_id = GAME_ID
    version = ENGINE_VERSION
    log_format = LOG_FORMAT

    def start(self, log: Mapping[str, Any], *, deck: Deck | None = None) -> State:
        """The state before round 1. Raises ``LogError`` for an impossible header."""
        return start_state(log, deck)

    def apply_round(self, state: State, round_: Any) -> State:
        """The state after one more round; ``state`` itself is left as it was.

        Raises ``LogError`` for an impossible round (see ``play.play_round``).
        """
        new = state.copy()
        play_round(new, round_)
        return new

    def result(self, state: State, *, jokers: Any = None) -> dict[str, Any]:
        """Score the game as it stands. ``jokers`` overrides the log's stated placement.

        Raises ``LogError`` (bad_joker_placement) for a placement the rules forbid.
        """
        placement = state.jokers if jokers is None else check_jokers(jokers, state)
        return build_result(state, placement)

    def replay(self, log: Mapping[str, Any], *, deck: Deck | None = None) -> dict[str, Any]:
        """Replay a whole log. Raises ``LogError`` for an impossible log."""
        state = start_state(log, deck)
        rounds = log.get("rounds", [])
        if not isinstance(rounds, list):
            raise LogError("malformed", "'rounds' is a list of rounds")
        for round_ in rounds:
            play_round(state, round_)
        return build_result(state, state.jokers)


def build_result(st: State, jokers: Mapping[int, list[str]] | None) -> dict[str, Any]:
    n = st.setup.players
    tableaux = [tableau_of(st.won[s], st.deck, st.gems_won[s]) for s in range(n)]
    table = score_table(tableaux, st.teams, jokers)
    team_of = {s: i for i, t in enumerate(st.teams or ()) for s in t}
    players = []
    for s in range(n):
        unit = table["by_seat"][s]
        players.append(
            {
                "seat": s,
                "name": st.names[s],
                "team": team_of.get(s),
                "score": unit["score"],
                "rank": unit["rank"],
                "tiebreak": unit["tiebreak"],
                "cards_won": tableaux[s].cards,
                "gems_won": st.gems_won[s],
                "rounds_won": st.rounds_won[s],
                "cards_in_hand": st.counts[s],
                "gems_in_hand": st.gems[s],
                "gems_paid": st.gems_paid[s],
                "gems_removed": st.gems_removed[s],
                "tableau": tableaux[s].as_dict(),
                "breakdown": unit["breakdown"],
            }
        )
    return {
        "format": RESULT_FORMAT,
        "game": GAME_ID,
        "engine_version": ENGINE_VERSION,
        "deck": st.deck.id,
        "complete": st.finished,
        "rounds_played": st.round_no,
        "rounds_total": st.setup.rounds,
        "players": players,
        "teams": table["teams"],
        "rounds": list(st.rounds),
        "winners": table["winners"],
        "violations": sorted(st.violations, key=lambda v: (v["round"], v["seat"])),
    }


ENGINE = PotDeVinEngine()
