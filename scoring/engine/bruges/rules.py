"""Rules constants of Bruges, each tied to the rule or decision it implements.

The binding rules are ``shared/rules/bruges.md`` (decisions B1-B8). Colours, actions, icons and
groups are small integers here, because replaying whole stored archives is a hot path; the names
are the log's words.
"""

from __future__ import annotations

from typing import Final

LOG_FORMAT: Final = "bruges-log/1"
RESULT_FORMAT: Final = "bruges-result/1"
GAME_ID: Final = "bruges"
GAME_LABEL: Final = "Bruges"
# Bumped whenever a rule change could change a stored result, so a re-score knows what moved.
ENGINE_VERSION: Final = "1.0.0"

# "per 2-4 giocatori".
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
PLAYER_COUNTS: Final[tuple[int, ...]] = (2, 3, 4)

# Colours (cards, dice, workers, threat tokens, houses), in the rules' order.
BLUE: Final = 0
BROWN: Final = 1
RED: Final = 2
PURPLE: Final = 3
YELLOW: Final = 4
COLORS: Final[tuple[str, ...]] = ("blue", "brown", "red", "purple", "yellow")
COLOR_CODES: Final[dict[str, int]] = {name: i for i, name in enumerate(COLORS)}
NCOLORS: Final = 5

# Actions of phase 3.
WORKERS: Final = 0
FLORINS: Final = 1
THREAT: Final = 2
CANAL: Final = 3
HOUSE: Final = 4
PERSON: Final = 5
ACTIONS: Final[tuple[str, ...]] = ("workers", "florins", "threat", "canal", "house", "person")
ACTION_CODES: Final[dict[str, int]] = {name: i for i, name in enumerate(ACTIONS)}

# Canal sections.
LEFT: Final = 0
RIGHT: Final = 1
SECTIONS: Final[tuple[str, ...]] = ("left", "right")
SECTION_CODES: Final[dict[str, int]] = {"left": LEFT, "right": RIGHT}
SPACES: Final = 5  # spaces per section
THIRD_SPACE: Final = 3  # a tile on the 3rd space scores THIRD_SPACE_POINTS at the end
THIRD_SPACE_POINTS: Final = 3

# Person icons (B6).
ARROW: Final = 0
WORKER: Final = 1
INFINITY: Final = 2
LAUREL: Final = 3
ICONS: Final[tuple[str, ...]] = ("arrow", "worker", "infinity", "laurel")
ICON_CODES: Final[dict[str, int]] = {name: i for i, name in enumerate(ICONS)}

# Person groups (the rulebook's 11).
GROUPS: Final[tuple[str, ...]] = (
    "nobles",
    "bureaucrats",
    "entertainers",
    "merchants",
    "craftsmen",
    "courtiers",
    "clergy",
    "artists",
    "defenders",
    "underworld",
    "scholars",
)
GROUP_CODES: Final[dict[str, int]] = {name: i for i, name in enumerate(GROUPS)}
NGROUPS: Final = len(GROUPS)

# B4: a price is a multiple of 3 from 0 to 12 and scores price / 3.
PRICES: Final[tuple[int, ...]] = (0, 3, 6, 9, 12)
MAX_PRICE: Final = 12
PRICE_PER_POINT: Final = 3

# Where a person stands.
IN_PLAY: Final = 0
IN_HAND: Final = 1  # back in its owner's hand after a fire
DISCARDED: Final = 2  # plague: never returns
STATUS_NAMES: Final[tuple[str, ...]] = ("in_play", "hand", "discarded")

# Upkeep moments (B6), in the order they happen in a round.
AT_DRAW: Final = 0
AT_DICE: Final = 1
AT_PRESTIGE: Final = 2
AT_NAMES: Final[tuple[str, ...]] = ("draw", "dice", "prestige")
AT_CODES: Final[dict[str, int]] = {name: i for i, name in enumerate(AT_NAMES)}

# Majority tiles, checked in this order (phase 4); bits of a seat's flipped mask.
MAJ_PRESTIGE: Final = 0
MAJ_PERSONS: Final = 1
MAJ_CANALS: Final = 2
MAJORITIES: Final[tuple[str, ...]] = ("prestige", "persons", "canals")
MAJORITY_POINTS: Final = 4

# Setup, per seat.
START_FLORINS: Final = 5
START_WORKERS: Final = 1  # of each colour
START_POINTS: Final = 5
TOP_STEP: Final = 12  # the prestige ladder: 0 = the Town Hall, 1..12

# Dice.
THREAT_MIN: Final = 5  # a die showing 5 or 6 gives a threat token of its colour
PRESTIGE_MAX: Final = 2  # the dice showing 1 or 2 make the prestige cost
PENALTY_AT: Final = 3  # tokens of a colour that trigger its penalty (then returned)
PURPLE_LOSS: Final = 3  # purple: lose 3 points, not below 0

# Phase 3.
TURNS_PER_PLAYER: Final = 4
HAND: Final = 5  # a pass is allowed after this many cards played in the round
WORKERS_PER_ACTION: Final = 2

# B3: the statue pile, top first; at most MAX_STATUES per player.
STATUES: Final[tuple[int, ...]] = (7, 6, 5, 4, 3, 2)
MAX_STATUES: Final = 2

# Result.
CATEGORIES: Final[tuple[str, ...]] = (
    "track",
    "persons",
    "houses",
    "laurels",
    "majorities",
    "canals",
    "statues",
    "prestige",
)
TIEBREAK_FLORINS: Final = "florins"
TIEBREAK_SHARED: Final = "shared"

# Gain keys (B6, B8).
GAIN_KEYS: Final[tuple[str, ...]] = ("florins", "points", "prestige", "workers", "threats", "plays")
