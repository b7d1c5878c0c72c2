"""What the record layer needs to know of Pot de Vin besides replaying it (the registry entry)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from scoring.engine.base import LOG_NOTES_SCHEMA, GameInfo, StatDef, players_schema
from scoring.engine.errors import Said, said
from scoring.engine.potdevin.decks import BUILTIN_DECKS, STANDARD_DECK, deck_from_dict
from scoring.engine.potdevin.rules import GAME_ID, LOG_FORMAT, SETUPS, TEAM_COUNTS
from scoring.engine.potdevin.simulate import simulate

_SEAT_LIST: Final[dict[str, Any]] = {"type": "array", "items": {"type": "string"}}

HEADER_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "required": ["format", "players", "first_player"],
    "properties": {
        "format": {"const": LOG_FORMAT},
        "players": players_schema(min(SETUPS), max(SETUPS)),
        "first_player": {"type": "integer", "minimum": 0},
        "teams": {
            "type": ["array", "null"],
            "items": {"type": "array", "items": {"type": "integer"}},
            "description": "Pairs of seats (4 players: 2 teams, 6 players: 3 teams).",
        },
        "deck": {"type": ["string", "null"], "description": "Deck version (rules D1)."},
        "hands": {
            "type": ["object", "null"],
            "additionalProperties": _SEAT_LIST,
            "description": "The deal by seat (seat number as a string: list of cards), when "
            "recorded (D4).",
        },
        "trump_pile": {"type": ["array", "null"], "items": {"type": "string"}},
        "jokers": {
            "type": ["object", "null"],
            "additionalProperties": _SEAT_LIST,
            "description": "Explicit Joker placement per seat (D5).",
        },
        "rounds": {"type": "array"},
        **LOG_NOTES_SCHEMA,
    },
}

ENTRY_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "required": ["trump", "plays"],
    "properties": {
        "trump": {"type": "string", "description": "The revealed trump card, e.g. E5."},
        "plays": {
            "type": "array",
            "description": "Actions in turn order.",
            "items": {
                "type": "object",
                "required": ["seat"],
                "properties": {
                    "seat": {"type": "integer"},
                    "card": {"type": "string"},
                    "pass": {"type": "boolean"},
                },
            },
        },
    },
}

FINISH_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {"jokers": HEADER_SCHEMA["properties"]["jokers"]},
}


def _unfinished(result: Mapping[str, Any]) -> Said:
    return said(
        "{played} of {total} rounds played and cards still in hand",
        played=result["rounds_played"],
        total=result["rounds_total"],
    )


def _edition(key: str, data: Any) -> Any:
    return deck_from_dict({"id": key, "cards": data})


INFO: Final = GameInfo(
    game_id=GAME_ID,
    label="Pot de Vin",
    # No public source we could read gives its BoardGameGeek id: a play of it is known by name.
    known_names=("Pot de Vin",),
    log_format=LOG_FORMAT,
    entries_key="rounds",
    entry_name="round",
    player_counts=tuple(sorted(SETUPS)),
    team_counts=dict(TEAM_COUNTS),
    setup_keys=("hands", "trump_pile"),
    finish_keys=("jokers",),
    has_editions=True,
    default_edition=STANDARD_DECK.id,
    builtin_editions={
        key: {"description": deck.as_dict()["description"], "data": deck.as_dict()["cards"]}
        for key, deck in BUILTIN_DECKS.items()
    },
    edition_from_data=_edition,
    edition_to_data=lambda deck: deck.as_dict()["cards"],
    edition_log_key="deck",
    scorepad=True,
    sheet_key="tableaux",
    has_scores=True,
    header_schema=HEADER_SCHEMA,
    entry_schema=ENTRY_SCHEMA,
    finish_schema=FINISH_SCHEMA,
    result_detail="Per seat: score, rank, tiebreak, cards and gems won, tableau and the "
    "scorepad breakdown; teams; each round's winner; violations (docs/pot-de-vin-engine.md).",
    stats=(
        StatDef("rounds_won", "Rounds won", ("rounds_won",)),
        StatDef("cards_won", "Cards won", ("cards_won",)),
        StatDef("gems_paid", "Gems paid", ("gems_paid",)),
        StatDef("gems_won", "Gems won", ("gems_won",)),
    ),
    tiebreak_wording={
        "cards": "ahead on cards won (rules D7)",
        "gems": "ahead on gems won (rules D7)",
        "shared": "place shared (rules D7)",
    },
    unfinished=_unfinished,
    simulate=simulate,
)
