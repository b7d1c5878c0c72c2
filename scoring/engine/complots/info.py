"""What the record layer needs to know of Complots besides replaying it (the registry entry):
the JSON Schemas of a log's header, of one turn and of a result sheet (scorepad mode), the
per-player statistics, the wording of the tie-breaks and the simulator."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from scoring.engine.base import LOG_NOTES_SCHEMA, GameInfo, StatDef, players_schema
from scoring.engine.complots.rules import (
    ACTION_NAMES,
    CHARACTER_NAMES,
    DEFAULT_VARIANT,
    GAME_ID,
    GAME_LABEL,
    LOG_FORMAT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLAYER_COUNTS,
    STAT_NAMES,
    TIEBREAK_COINS,
    TIEBREAK_LOSS_ORDER,
    TIEBREAK_SHARED,
    VARIANT_NAMES,
)
from scoring.engine.complots.sheet import MAX_COUNT, SHEET_KEY, sheet_from_places
from scoring.engine.complots.simulate import simulate
from scoring.engine.errors import Said, said

SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"
_SEAT: Final[dict[str, Any]] = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}
_CHALLENGE: Final[dict[str, Any]] = {
    "type": "object",
    "description": "One player doubts the claim; truthful says whether the claim was true.",
    "required": ["by", "truthful"],
    "properties": {"by": _SEAT, "truthful": {"type": "boolean"}},
}

HEADER_SCHEMA: Final[dict[str, Any]] = {
    "$schema": SCHEMA_DIALECT,
    "title": "complots-log/1 header",
    "type": "object",
    "required": ["format", "players", "first_player"],
    "properties": {
        "format": {"const": LOG_FORMAT},
        "players": players_schema(MIN_PLAYERS, MAX_PLAYERS),
        "variant": {
            "description": "The fifth character; missing or null is the base game (ambassador).",
            "enum": [*VARIANT_NAMES, None],
        },
        "first_player": _SEAT,
        "teams": {"type": "null", "description": "Complots has no teams."},
        **LOG_NOTES_SCHEMA,
    },
    "additionalProperties": True,
}

ENTRY_SCHEMA: Final[dict[str, Any]] = {
    "$schema": SCHEMA_DIALECT,
    "title": "complots-log/1 turn",
    "type": "object",
    "required": ["actor", "action"],
    "properties": {
        "actor": _SEAT,
        "action": {"enum": list(ACTION_NAMES)},
        "target": {
            "description": "Only on coup, assassin, captain and inquire.",
            "anyOf": [_SEAT, {"type": "null"}],
        },
        "challenge": {"anyOf": [{"$ref": "#/$defs/challenge"}, {"type": "null"}]},
        "block": {
            "anyOf": [
                {
                    "type": "object",
                    "required": ["by", "as"],
                    "properties": {
                        "by": _SEAT,
                        "as": {"enum": ["duchess", "countess", "captain", *VARIANT_NAMES]},
                        "challenge": {"anyOf": [{"$ref": "#/$defs/challenge"}, {"type": "null"}]},
                    },
                },
                {"type": "null"},
            ]
        },
        "losses": {
            "description": "Influences turned face up, in the order they happen.",
            "anyOf": [
                {
                    "type": "array",
                    "maxItems": 3,
                    "items": {
                        "type": "object",
                        "required": ["seat", "card"],
                        "properties": {"seat": _SEAT, "card": {"enum": list(CHARACTER_NAMES)}},
                    },
                },
                {"type": "null"},
            ],
        },
        "forced_swap": {
            "description": "Only on inquire: the target had to swap the card shown.",
            "type": ["boolean", "null"],
        },
    },
    "$defs": {"challenge": _CHALLENGE},
}

# Scorepad mode: the result sheet, under ``SHEET_KEY`` beside players, teams and variant.
SHEET_SCHEMA: Final[dict[str, Any]] = {
    "$schema": SCHEMA_DIALECT,
    "title": "complots result sheet",
    "type": "object",
    "required": ["eliminated"],
    "properties": {
        "eliminated": {
            "type": "array",
            "description": "Every seat but the winner's, in the order they were eliminated, "
            "first out first; the seat left out is the winner.",
            "minItems": MIN_PLAYERS - 1,
            "maxItems": MAX_PLAYERS - 1,
            "items": _SEAT,
        },
        "counts": {
            "description": "Optional: per seat (null, or one entry per seat), the K4 counts "
            "kept; a count left out or null is unknown.",
            "anyOf": [
                {
                    "type": "array",
                    "minItems": MIN_PLAYERS,
                    "maxItems": MAX_PLAYERS,
                    "items": {
                        "anyOf": [
                            {
                                "type": "object",
                                "properties": {
                                    name: {
                                        "anyOf": [
                                            {"type": "integer", "minimum": 0, "maximum": MAX_COUNT},
                                            {"type": "null"},
                                        ]
                                    }
                                    for name in STAT_NAMES
                                },
                                "additionalProperties": False,
                            },
                            {"type": "null"},
                        ]
                    },
                },
                {"type": "null"},
            ],
        },
    },
    "additionalProperties": False,
}

STAT_LABELS: Final[dict[str, tuple[str, str]]] = {
    "coins_gained": ("Coins gained", "games"),
    "coins_lost_to_captains": ("Coins lost to captains", "games"),
    "claims_made": ("Claims made", "games"),
    "bluffs_caught": ("Bluffs caught", "claims_made"),
    "challenges_made": ("Challenges made", "games"),
    "challenges_won": ("Challenges won", "challenges_made"),
    "blocks_made": ("Blocks made", "games"),
    "blocks_standing": ("Blocks standing", "games"),
    "influences_taken": ("Influences taken", "games"),
    "players_eliminated": ("Players eliminated", "games"),
}


def _unfinished(result: Mapping[str, Any]) -> Said:
    alive = sum(1 for p in result["players"] if p["alive"])
    return said("{alive} players are still in the game", alive=alive)


INFO: Final = GameInfo(
    game_id=GAME_ID,
    label=GAME_LABEL,
    log_format=LOG_FORMAT,
    entries_key="turns",
    entry_name="turn",
    player_counts=PLAYER_COUNTS,
    variants=VARIANT_NAMES,
    default_variant=DEFAULT_VARIANT,
    # The variant is one of the common header keys (base.GameInfo), not a setup key.
    setup_keys=(),
    finish_keys=(),
    has_editions=False,
    scorepad=True,
    sheet_key=SHEET_KEY,
    has_scores=False,
    header_schema=HEADER_SCHEMA,
    entry_schema=ENTRY_SCHEMA,
    result_detail=(
        "Each seat's rank (the last survivor first, then by elimination, the last eliminated "
        "best; an unfinished game ranks live players by influences left, then coins), whether "
        "it is alive, its hidden influences, face-up cards and coins, the turn it was "
        "eliminated, and its counts of coins gained and lost to captains, claims, bluffs "
        "caught, challenges made and won, blocks made and standing, influences taken and "
        "players eliminated. A game known by its result sheet only (scorepad mode) has "
        "the same ranks and winners; its turns, Treasury, coins and cards are null, as are "
        "the counts that were not kept."
    ),
    stats=tuple(
        StatDef(name=name, label=STAT_LABELS[name][0], path=(name,), per=STAT_LABELS[name][1])
        for name in STAT_NAMES
    ),
    tiebreak_wording={
        TIEBREAK_COINS: "placed by coins among players with as many influences left",
        TIEBREAK_SHARED: "shared: as many influences left and as many coins",
        TIEBREAK_LOSS_ORDER: "eliminated in the same turn as another; the later loss ranks better",
    },
    unfinished=_unfinished,
    simulate=simulate,
    # Complots is the French edition of Coup: BoardGameGeek lists it as a version of Coup, not
    # as a game of its own.
    bgg_ids=(131357,),
    known_names=("Complots", "Coup"),
    sheet_from_places=sheet_from_places,
)
