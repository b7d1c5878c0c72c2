"""The public face of the Complots engine: start, apply a turn, the result, replay, and the
result of a game known by its result sheet only (``score_sheet``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.base import GameInfo
from scoring.engine.complots.info import INFO
from scoring.engine.complots.play import State, play_turn, start_state
from scoring.engine.complots.rules import (
    CHARACTER_NAMES,
    ENGINE_VERSION,
    GAME_ID,
    LOG_FORMAT,
    RESULT_FORMAT,
    TIEBREAK_COINS,
    TIEBREAK_LOSS_ORDER,
    TIEBREAK_SHARED,
    VARIANT_NAMES,
)
from scoring.engine.complots.sheet import score_sheet
from scoring.engine.errors import Code, LogError, said


class ComplotsEngine:
    """The ``GameEngine`` of Complots (``scoring.engine.base``)."""

    game_id = GAME_ID
    version = ENGINE_VERSION
    log_format = LOG_FORMAT

    def __init__(self) -> None:
        self.info: GameInfo = INFO

    def start(self, log: Mapping[str, Any], *, edition: Any = None) -> State:
        """The state before turn 1. Raises ``LogError`` for an impossible header.

        ``edition`` is ignored: Complots has no editions.
        """
        return start_state(log)

    def apply_entry(self, state: State, turn: Any) -> State:
        """The state after one more turn; ``state`` itself is left as it was.

        Raises ``LogError`` for an impossible turn (see ``play.play_turn``).
        """
        new = state.copy()
        play_turn(new, turn)
        return new

    def result(self, state: State, *, finish: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The result as the game stands. ``finish`` is ignored: Complots has no end choices."""
        return build_result(state)

    def replay(self, log: Mapping[str, Any], *, edition: Any = None) -> dict[str, Any]:
        """Replay a whole log. Raises ``LogError`` for an impossible log."""
        state = start_state(log)
        turns = log.get("turns", [])
        if not isinstance(turns, list):
            raise LogError("malformed", said("{turns} is a list of turns", turns=Code("turns")))
        for turn in turns:
            play_turn(state, turn)
        return build_result(state)

    def score_sheet(self, sheet: Mapping[str, Any], *, edition: Any = None) -> dict[str, Any]:
        """The result of a finished game known by its result sheet only: the elimination order
        and the counts kept (``sheet.score_sheet``), ranked as ``replay`` ranks a finished
        game. ``edition`` is ignored. Raises ``LogError`` for a sheet no game can leave."""
        return score_sheet(sheet)


def build_result(st: State) -> dict[str, Any]:
    """The ``complots-result/1`` document for the game as it stands (K4, K5)."""
    n = st.players
    hidden = st.hidden
    coins = st.coins
    eliminated_on = st.eliminated_on
    complete = st.alive <= 1
    ranks = [0] * n
    tiebreaks: list[str | None] = [None] * n
    # The eliminated: the one eliminated last ranks best, just below the live players.
    order = st.elim_order
    last = len(order) - 1
    for i in range(len(order)):
        s = order[i]
        ranks[s] = n - i
        at = eliminated_on[s]
        if (i > 0 and eliminated_on[order[i - 1]] == at) or (
            i < last and eliminated_on[order[i + 1]] == at
        ):
            tiebreaks[s] = TIEBREAK_LOSS_ORDER
    # The live: the survivor of a won game first; else by influences, then coins.
    for s in range(n):
        if not hidden[s]:
            continue
        if complete:
            ranks[s] = 1
            continue
        better = 0
        shared = False
        by_coins = False
        h = hidden[s]
        c = coins[s]
        for o in range(n):
            ho = hidden[o]
            if o == s or not ho:
                continue
            if ho > h:
                better += 1
            elif ho == h:
                co = coins[o]
                if co > c:
                    better += 1
                    by_coins = True
                elif co == c:
                    shared = True
                else:
                    by_coins = True
        ranks[s] = better + 1
        if shared:
            tiebreaks[s] = TIEBREAK_SHARED
        elif by_coins:
            tiebreaks[s] = TIEBREAK_COINS
    names = st.names
    face_up = st.face_up
    gained = st.coins_gained
    lost = st.coins_lost_to_captains
    claims = st.claims_made
    bluffs = st.bluffs_caught
    made = st.challenges_made
    won = st.challenges_won
    blocks = st.blocks_made
    standing = st.blocks_standing
    taken = st.influences_taken
    eliminated = st.players_eliminated
    players: list[dict[str, Any]] = []
    winners: list[int] = []
    for s in range(n):
        h = hidden[s]
        if complete and h:
            winners.append(s)
        at = eliminated_on[s]
        players.append(
            {
                "seat": s,
                "name": names[s],
                "team": None,
                "score": None,
                "rank": ranks[s],
                "tiebreak": tiebreaks[s],
                "alive": h > 0,
                "influences": h,
                "face_up": [CHARACTER_NAMES[card] for card in face_up[s]],
                "coins": coins[s],
                "eliminated_on_turn": at if at else None,
                "coins_gained": gained[s],
                "coins_lost_to_captains": lost[s],
                "claims_made": claims[s],
                "bluffs_caught": bluffs[s],
                "challenges_made": made[s],
                "challenges_won": won[s],
                "blocks_made": blocks[s],
                "blocks_standing": standing[s],
                "influences_taken": taken[s],
                "players_eliminated": eliminated[s],
            }
        )
    return {
        "format": RESULT_FORMAT,
        "game": GAME_ID,
        "engine_version": ENGINE_VERSION,
        "variant": VARIANT_NAMES[st.variant],
        "complete": complete,
        "turns_played": st.turn_no,
        "treasury": st.treasury,
        "players": players,
        "winners": winners,
        "turns": list(st.turns),
    }


ENGINE = ComplotsEngine()
