"""Rules constants of Pot de Vin, each tied to the rule or decision it implements."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

LOG_FORMAT: Final = "potdevin-log/1"
RESULT_FORMAT: Final = "potdevin-result/1"
GAME_ID: Final = "pot-de-vin"
# Bumped whenever a rule change could change a stored result, so a re-score knows what moved.
ENGINE_VERSION: Final = "1.0.0"


@dataclass(frozen=True)
class Setup:
    players: int
    trump_pile: int  # cards in the trump pile (6 players: the 4 cards reused over 12 rounds)
    hand: int  # cards per player once the game starts
    gems: int  # bribe gems per player
    rounds: int  # rounds in a full game
    winner_takes_trump: bool


# The rulebook's GAME TABLE and the 6-player chapter.
SETUPS: Final[dict[int, Setup]] = {
    3: Setup(3, trump_pile=16, hand=12, gems=4, rounds=16, winner_takes_trump=True),
    4: Setup(4, trump_pile=12, hand=10, gems=2, rounds=12, winner_takes_trump=True),
    5: Setup(5, trump_pile=12, hand=8, gems=4, rounds=12, winner_takes_trump=True),
    6: Setup(6, trump_pile=4, hand=8, gems=4, rounds=12, winner_takes_trump=False),
}
SIX_PLAYER_CYCLE: Final = 4  # 6 players: rounds 1-4, 5-8 and 9-12 each reveal the same 4 cards

# Team play: 4 players in 2 teams, 6 players in 3 teams (D9: optional at 6), always pairs.
TEAM_COUNTS: Final[dict[int, int]] = {4: 2, 6: 3}
TEAM_SIZE: Final = 2

# Scoring table for same-guild symbols in one column, Jokers included.
# rules D6: the printed table stops at 8; a longer column scores like 8.
COLUMN_POINTS: Final[tuple[int, ...]] = (0, 1, 3, 6, -1, -3, -6, 10, 15)


def column_points(symbols: int) -> int:
    """Points of a guild column holding ``symbols`` symbols (D6: 9 or more score as 8)."""
    return COLUMN_POINTS[min(symbols, len(COLUMN_POINTS) - 1)]


# The same, as a lookup table long enough for any column a deck can make (36 cards of at most 2
# symbols, plus a Joker), for the scoring loop.
COLUMN_POINTS_UPTO_73: Final = tuple(column_points(k) for k in range(74))


BONUS_POINTS: Final = 2  # each +2 card
MALUS_POINTS: Final = -2  # each -2 card
# Pot de Vin cards by how many one scoring unit holds (D8: a team counts its total).
POT_DE_VIN_POINTS: Final[tuple[int, ...]] = (0, -1, -3, -6, 10)
GEM_POINTS: Final = 1  # per gem won
