"""Complots' rules by name, for the turn entry to offer only what they allow, and where a game
stands before its next turn (``table_state``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.plugins.complots import GAME_TYPE
from games.records.models import Game
from games.records.selectors import engine_state
from scoring.engine import get_engine
from scoring.engine.complots.rules import (
    ACTION_CLAIMS,
    ACTION_CODES,
    ACTION_NAMES,
    ASSASSIN_COST,
    BLOCK_BY_TARGET_ONLY,
    BLOCKABLE,
    BLOCKERS,
    CHARACTER_NAMES,
    COUP_COST,
    FORCED_COUP_COINS,
    TARGETED,
    VARIANT_CARDS,
    VARIANT_CODES,
)

# --- The rules, by name (the engine's constants are small integers) ----------------------------


def claim_of(action: str, variant: str) -> str | None:
    """The character an action claims, or None (income, foreign aid, coup)."""
    code = ACTION_CLAIMS[VARIANT_CODES[variant]][ACTION_CODES[action]]
    return CHARACTER_NAMES[code] if code >= 0 else None


def is_targeted(action: str) -> bool:
    return TARGETED[ACTION_CODES[action]]


def is_blockable(action: str) -> bool:
    return BLOCKABLE[ACTION_CODES[action]]


def blocked_by_target_only(action: str) -> bool:
    return BLOCK_BY_TARGET_ONLY[ACTION_CODES[action]]


def block_characters(action: str, variant: str) -> list[str]:
    """The characters that block ``action`` in ``variant`` (K2)."""
    mask = BLOCKERS[VARIANT_CODES[variant]][ACTION_CODES[action]]
    return [name for code, name in enumerate(CHARACTER_NAMES) if mask >> code & 1]


def game_characters(variant: str) -> list[str]:
    mask = VARIANT_CARDS[VARIANT_CODES[variant]]
    return [name for code, name in enumerate(CHARACTER_NAMES) if mask >> code & 1]


def allowed_actions(coins: int, variant: str) -> list[str]:
    """The actions a seat starting its turn with ``coins`` may declare: only a coup from 10
    coins, no coup under 7, no assassination under 3, inquire only with the inquisitor."""
    if coins >= FORCED_COUP_COINS:
        return ["coup"]
    allowed = []
    for action in ACTION_NAMES:
        if action == "coup" and coins < COUP_COST:
            continue
        if action == "assassin" and coins < ASSASSIN_COST:
            continue
        if action == "inquire" and variant != "inquisitor":
            continue
        allowed.append(action)
    return allowed


def required_losses(hidden: Sequence[int], turn: Mapping[str, Any]) -> list[int]:
    """The seats that must turn up an influence in ``turn``, in order (rules: the claim's
    challenge, then the block's challenge, then the coup or assassination; an eliminated player
    loses nothing more). ``hidden``: each seat's hidden influences before the turn. For the
    loss rows of the form only: the engine decides."""
    left = list(hidden)
    out: list[int] = []

    def lose(seat: Any) -> None:
        if isinstance(seat, int) and 0 <= seat < len(left) and left[seat] > 0:
            left[seat] -= 1
            out.append(seat)

    challenge = turn.get("challenge")
    if challenge:
        if challenge.get("truthful"):
            lose(challenge.get("by"))
        else:
            lose(turn.get("actor"))
            return out  # a caught bluff cancels the action
    blocked = False
    block = turn.get("block")
    if block:
        blocked = True
        inner = block.get("challenge")
        if inner:
            if inner.get("truthful"):
                lose(inner.get("by"))
            else:
                lose(block.get("by"))
                blocked = False
    if not blocked and turn.get("action") in ("coup", "assassin"):
        lose(turn.get("target"))
    return out


# --- Reads ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """Where a game stands before its next turn, as the turn entry needs it."""

    number: int  # the next turn's number
    over: bool  # one player is left: no turn follows
    current: int | None  # the seat to act
    variant: str
    players: list[dict[str, Any]]  # the result's seats: coins, influences, face_up, alive
    state: Any  # the engine's state, to replay a refused turn's losses one by one

    @property
    def hidden(self) -> list[int]:
        return [p["influences"] for p in self.players]

    def live_others(self, seat: int | None) -> list[dict[str, Any]]:
        return [p for p in self.players if p["alive"] and p["seat"] != seat]


def _next_live(players: Sequence[Mapping[str, Any]], after: int) -> int | None:
    n = len(players)
    for k in range(1, n + 1):
        seat = (after + k) % n
        if players[seat]["alive"]:
            return seat
    return None


def table_state(game: Game) -> Table:
    """The table before the game's next turn. Raises ``LogError`` if the stored turns no longer
    replay (a rules correction)."""
    state = engine_state(game)
    result = get_engine(GAME_TYPE).result(state)
    players = result["players"]
    turns = result["turns"]
    over = bool(result["complete"])
    if over:
        current = None
    elif turns:  # the next live seat clockwise after the last turn's actor
        current = _next_live(players, turns[-1]["actor"])
    else:
        current = game.first_player or 0
    return Table(
        number=result["turns_played"] + 1,
        over=over,
        current=current,
        variant=result["variant"],
        players=players,
        state=state,
    )
