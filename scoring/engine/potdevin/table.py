"""Where a game logged round by round stands, as the next round's entry needs it (a public
read of the engine's state for the record side's pages)."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.engine.potdevin.cards import CARD_NAMES, cards_in
from scoring.engine.potdevin.play import State
from scoring.engine.potdevin.rules import SIX_PLAYER_CYCLE


@dataclass(frozen=True)
class TableState:
    """Where a game logged round by round stands, as the next round's entry needs it: who acts
    in which order, what each seat still holds, and which cards can no longer appear."""

    number: int  # the next round's number
    over: bool  # no round can follow (rules D3)
    order: list[int]  # seats to act in the next round, the starter first (rules D2)
    cards_in_hand: list[int]
    gems_in_hand: list[int]
    played: list[str]  # cards played so far
    revealed: list[str]  # cards revealed as trump so far
    blocked: list[str]  # cards no seat can play next round (played, revealed, in the pile)
    trump_choices: list[str]  # cards the next round may reveal
    hands: dict[int, list[str]] | None  # what each seat still holds, when the deal is recorded


def table_state(state: State) -> TableState:
    """The table before the next round, read from the state after the rounds so far."""
    n = state.setup.players
    counts = list(state.counts)
    ring = state.rings[state.starter]
    order = [s for s in ring if counts[s]]
    seen = state.played | state.trumps
    blocked = seen | state.pile
    if n == 6 and state.round_no >= SIX_PLAYER_CYCLE:
        cycle = 0 if state.round_no % SIX_PLAYER_CYCLE == 0 else state.cycle
        allowed = state.trumps & ~cycle
    elif state.pile_order is not None:
        left = state.pile_order[state.round_no :]
        allowed = 1 << left[0] if left else 0
    elif state.pile:
        allowed = state.pile & ~state.trumps
    else:
        allowed = (1 << len(CARD_NAMES)) - 1 & ~seen
    hands = None
    if state.hands is not None:
        hands = {s: [CARD_NAMES[c] for c in cards_in(state.hands[s])] for s in range(n)}
    return TableState(
        number=state.round_no + 1,
        over=state.finished,
        order=[] if state.finished else order,
        cards_in_hand=counts,
        gems_in_hand=list(state.gems),
        played=[CARD_NAMES[c] for c in cards_in(state.played)],
        revealed=[CARD_NAMES[c] for c in cards_in(state.trumps)],
        blocked=[CARD_NAMES[c] for c in cards_in(blocked)],
        trump_choices=[CARD_NAMES[c] for c in cards_in(allowed)],
        hands=hands,
    )
