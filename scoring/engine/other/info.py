"""What the record layer needs to know of an "other game" (the registry entry)."""

from __future__ import annotations

from typing import Any, Final

from scoring.engine.base import GameInfo
from scoring.engine.other.rules import (
    GAME_ID,
    GAME_LABEL,
    LOG_FORMAT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLAYER_COUNTS,
    SEAT_KEYS,
    TIEBREAK_MARKED,
    TIEBREAK_RANKED,
    TIEBREAK_SHARED,
    WIN_RULES,
)

SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"
_SEAT: Final[dict[str, Any]] = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}

# One seat's line of a score sheet (O1).
LINE_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "score": {"type": ["integer", "null"], "description": "The final score, if known."},
        "rank": {
            "type": ["integer", "null"],
            "minimum": 1,
            "description": "The place, counted like 1, 1, 3, if known.",
        },
        "winner": {"type": ["boolean", "null"], "description": "Marked as a winner, or not."},
    },
    "additionalProperties": False,
}
assert tuple(LINE_SCHEMA["properties"]) == SEAT_KEYS

# The score sheet a play is stored by (without players and teams, which the record keeps).
SHEET_SCHEMA: Final[dict[str, Any]] = {
    "$schema": SCHEMA_DIALECT,
    "title": "other game score sheet",
    "type": "object",
    "required": ["players", "win", "sheet"],
    "properties": {
        "players": {
            "type": "array",
            "minItems": MIN_PLAYERS,
            "maxItems": MAX_PLAYERS,
            "items": {"type": "string", "minLength": 1, "pattern": "\\S"},
        },
        "teams": {
            "type": ["array", "null"],
            "items": {"type": "array", "minItems": 1, "items": _SEAT},
            "description": "Every seat in one team, or null.",
        },
        "win": {"enum": list(WIN_RULES)},
        "sheet": {"type": "array", "items": LINE_SCHEMA},
        "won": {"type": ["boolean", "null"], "description": "Cooperative games only."},
    },
}

INFO: Final = GameInfo(
    game_id=GAME_ID,
    label=GAME_LABEL,
    log_format=LOG_FORMAT,
    entries_key="rounds",
    entry_name="round",
    player_counts=PLAYER_COUNTS,
    scorepad=False,
    sheet_key="sheet",
    has_scores=True,
    header_schema=SHEET_SCHEMA,
    entry_schema={"type": "object"},
    result_detail=(
        "Each seat's score (a team's members share their team's; null when not given), rank "
        "(counted like 1, 1, 3), tie-break and whether it won; the teams; the winners; how the "
        "game is won (`win`) and, cooperative, whether the players won (`won`). "
        "docs/other-games.md."
    ),
    tiebreak_wording={
        TIEBREAK_SHARED: "place shared",
        TIEBREAK_MARKED: "tied on score; the winners marked on the sheet placed first",
        TIEBREAK_RANKED: "tied on score; placed by the ranks on the sheet",
    },
    logged=False,
)
