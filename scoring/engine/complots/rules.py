"""Rules constants of Complots, each tied to the rule or decision it implements.

The binding rules are ``shared/rules/complots.md`` (decisions K1-K5). Characters and actions are
small integers here, because replaying whole stored archives is a hot path; the names are the
log's words.
"""

from __future__ import annotations

from typing import Final

LOG_FORMAT: Final = "complots-log/1"
RESULT_FORMAT: Final = "complots-result/1"
GAME_ID: Final = "complots"
GAME_LABEL: Final = "Complots"
# Bumped whenever a rule change could change a stored result, so a re-score knows what moved.
ENGINE_VERSION: Final = "1.0.0"

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 8
PLAYER_COUNTS: Final[tuple[int, ...]] = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))

# Characters. Every game has the first four; the fifth is the variant's (rules: setup).
DUCHESS: Final = 0
ASSASSIN: Final = 1
COUNTESS: Final = 2
CAPTAIN: Final = 3
AMBASSADOR: Final = 4
INQUISITOR: Final = 5
CHARACTER_NAMES: Final[tuple[str, ...]] = (
    "duchess",
    "assassin",
    "countess",
    "captain",
    "ambassador",
    "inquisitor",
)
CHARACTER_CODES: Final[dict[str, int]] = {name: i for i, name in enumerate(CHARACTER_NAMES)}
CHARACTER_COUNT: Final = len(CHARACTER_NAMES)

# Variants: which fifth character is in the game. A missing or null variant is the base game.
VARIANT_AMBASSADOR: Final = 0
VARIANT_INQUISITOR: Final = 1
VARIANT_NAMES: Final[tuple[str, ...]] = ("ambassador", "inquisitor")
VARIANT_CODES: Final[dict[str, int]] = {name: i for i, name in enumerate(VARIANT_NAMES)}
DEFAULT_VARIANT: Final = "ambassador"
# The variant's fifth character (it claims the exchange and helps block the captain).
VARIANT_CHARACTER: Final[tuple[int, ...]] = (AMBASSADOR, INQUISITOR)
# Per variant, a bit mask of the five characters in play (a loss naming another is unknown).
VARIANT_CARDS: Final[tuple[int, ...]] = (
    (1 << DUCHESS) | (1 << ASSASSIN) | (1 << COUNTESS) | (1 << CAPTAIN) | (1 << AMBASSADOR),
    (1 << DUCHESS) | (1 << ASSASSIN) | (1 << COUNTESS) | (1 << CAPTAIN) | (1 << INQUISITOR),
)


# Copies of each character: 3 for 2 to 6 players (K5: 2 players as 3-6), 4 for 7 and 8.
def copies_for(players: int) -> int:
    return 4 if players >= 7 else 3


INFLUENCES: Final = 2  # hidden characters dealt to each player

# K1: the Treasury is worth 54 coins (24 silver + 6 gold worth 5); coins dealt come out of it.
TREASURY_TOTAL: Final = 54
START_COINS: Final = 2
TWO_PLAYER_FIRST_COINS: Final = 1  # 2 players: the first player starts with 1 coin

# Actions, in the order of the rules' table.
INCOME: Final = 0
FOREIGN_AID: Final = 1
COUP: Final = 2
DUCHESS_TAX: Final = 3  # action "duchess"
ASSASSINATE: Final = 4  # action "assassin"
STEAL: Final = 5  # action "captain"
EXCHANGE: Final = 6
INQUIRE: Final = 7
ACTION_NAMES: Final[tuple[str, ...]] = (
    "income",
    "foreign_aid",
    "coup",
    "duchess",
    "assassin",
    "captain",
    "exchange",
    "inquire",
)
ACTION_CODES: Final[dict[str, int]] = {name: i for i, name in enumerate(ACTION_NAMES)}

INCOME_COINS: Final = 1
FOREIGN_AID_COINS: Final = 2
DUCHESS_COINS: Final = 3
CAPTAIN_STEAL: Final = 2  # takes min(2, target's coins)
COUP_COST: Final = 7
ASSASSIN_COST: Final = 3
FORCED_COUP_COINS: Final = 10  # starting a turn with this many coins forces a coup

NO_CLAIM: Final = -1
# The character each action claims (-1: none); exchange claims the variant's character, so it
# is looked up per variant.
ACTION_CLAIMS: Final[tuple[tuple[int, ...], ...]] = (
    (NO_CLAIM, NO_CLAIM, NO_CLAIM, DUCHESS, ASSASSIN, CAPTAIN, AMBASSADOR, INQUISITOR),
    (NO_CLAIM, NO_CLAIM, NO_CLAIM, DUCHESS, ASSASSIN, CAPTAIN, INQUISITOR, INQUISITOR),
)
# Actions aimed at a target player.
TARGETED: Final[tuple[bool, ...]] = (False, False, True, False, True, True, False, True)
# K2: the actions a block can stop; a block of a targeted power comes only from its target.
BLOCKABLE: Final[tuple[bool, ...]] = (False, True, False, False, True, True, False, False)
BLOCK_BY_TARGET_ONLY: Final[tuple[bool, ...]] = (
    False,
    False,
    False,
    False,
    True,
    True,
    False,
    False,
)
# Per variant and action, a bit mask of the characters that may block it.
BLOCKERS: Final[tuple[tuple[int, ...], ...]] = (
    (0, 1 << DUCHESS, 0, 0, 1 << COUNTESS, (1 << CAPTAIN) | (1 << AMBASSADOR), 0, 0),
    (0, 1 << DUCHESS, 0, 0, 1 << COUNTESS, (1 << CAPTAIN) | (1 << INQUISITOR), 0, 0),
)

# Outcomes of a turn in the result.
DONE: Final = "done"
CANCELLED: Final = "cancelled"  # the claim was challenged and false
BLOCKED: Final = "blocked"  # a block stood

# Tie-break codes of the result (K4).
TIEBREAK_COINS: Final = "coins"
TIEBREAK_SHARED: Final = "shared"
TIEBREAK_LOSS_ORDER: Final = "loss_order"

# K4/K5: the per-seat counts of the result, in this order.
STAT_NAMES: Final[tuple[str, ...]] = (
    "coins_gained",
    "coins_lost_to_captains",
    "claims_made",
    "bluffs_caught",
    "challenges_made",
    "challenges_won",
    "blocks_made",
    "blocks_standing",
    "influences_taken",
    "players_eliminated",
)
