"""Constants of the generic scores engine: games without an engine of their own ("other
games"), and plays of ours known by their final scores only. Rules O1-O6 are in
docs/other-games.md; each constant names the one it implements."""

from __future__ import annotations

from typing import Final

GAME_ID: Final = "other"
GAME_LABEL: Final = "Other game"
# No log is ever read (O1); the format only names the game's log documents, all refused.
LOG_FORMAT: Final = "other-log/1"
RESULT_FORMAT: Final = "scores-result/1"
# Bumped whenever a change could change a stored result, so a re-score knows what moved.
ENGINE_VERSION: Final = "1.0.0"

# One player (a solo game) to as many as a request may seat.
MIN_PLAYERS: Final = 1
MAX_PLAYERS: Final = 16
PLAYER_COUNTS: Final[tuple[int, ...]] = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))

# How a game is won (O2).
HIGHEST: Final = "highest"
LOWEST: Final = "lowest"
MANUAL: Final = "manual"
COOPERATIVE: Final = "cooperative"
WIN_RULES: Final[tuple[str, ...]] = (HIGHEST, LOWEST, MANUAL, COOPERATIVE)

# The keys of one seat's line of the sheet (O1).
SEAT_KEYS: Final[tuple[str, ...]] = ("score", "rank", "winner")

# Why units share a place or not (a seat's ``tiebreak``), O3-O4.
TIEBREAK_SHARED: Final = "shared"  # tied, and the place is shared
TIEBREAK_MARKED: Final = "marked"  # tied for first on score; the winners marked broke the tie
TIEBREAK_RANKED: Final = "ranked"  # tied on score; the ranks given broke the tie

# A cooperative game's one unit (O5): first when the players won, behind the game when lost.
COOPERATIVE_WON_RANK: Final = 1
COOPERATIVE_LOST_RANK: Final = 2
