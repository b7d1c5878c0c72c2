"""What the record layer needs to know of Bruges besides replaying it (the registry entry):
the JSON Schemas of a log's header, of one round and of the finish, the editions, the
per-player statistics, the wording of the tie-breaks and the simulator."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from scoring.engine.base import LOG_NOTES_SCHEMA, GameInfo, StatDef, players_schema
from scoring.engine.bruges.editions import BUILTIN_EDITIONS, edition_from_data
from scoring.engine.bruges.rules import (
    ACTIONS,
    AT_NAMES,
    CATEGORIES,
    COLORS,
    GAME_ID,
    GAME_LABEL,
    GROUPS,
    ICONS,
    LOG_FORMAT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLAYER_COUNTS,
    PRICES,
    SECTIONS,
    TIEBREAK_FLORINS,
    TIEBREAK_SHARED,
    TURNS_PER_PLAYER,
)
from scoring.engine.bruges.simulate import simulate
from scoring.engine.errors import Said, said

SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"
_SEAT: Final[dict[str, Any]] = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}
_COLOR: Final[dict[str, Any]] = {"enum": list(COLORS)}
_PER_COLOR: Final[dict[str, Any]] = {
    "type": "object",
    "propertyNames": _COLOR,
    "additionalProperties": {"type": "integer"},
}

_FINAL: Final[dict[str, Any]] = {
    "description": "The end of the game (the log says so, B7); null or missing: in progress.",
    "anyOf": [
        {
            "type": "object",
            "properties": {
                "laurels": {
                    "anyOf": [
                        {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["seat", "person", "points"],
                                "properties": {
                                    "seat": _SEAT,
                                    "person": {"type": "string"},
                                    "points": {"type": "integer", "minimum": 0},
                                },
                            },
                        },
                        {"type": "null"},
                    ]
                }
            },
        },
        {"type": "null"},
    ],
}

HEADER_SCHEMA: Final[dict[str, Any]] = {
    "$schema": SCHEMA_DIALECT,
    "title": "bruges-log/1 header",
    "type": "object",
    "required": ["format", "players", "first_player"],
    "properties": {
        "format": {"const": LOG_FORMAT},
        "players": players_schema(MIN_PLAYERS, MAX_PLAYERS),
        "first_player": _SEAT,
        "edition": {
            "description": "A built-in edition (B1); missing or null is 'standard'.",
            "enum": [*sorted(BUILTIN_EDITIONS), None],
        },
        "teams": {"type": "null", "description": "Bruges has no teams."},
        "final": _FINAL,
        **LOG_NOTES_SCHEMA,
    },
    "additionalProperties": True,
}

_GAIN: Final[dict[str, Any]] = {
    "description": "What the effect gives its person's owner, all at once (B8).",
    "anyOf": [
        {
            "type": "object",
            "properties": {
                "florins": {"type": "integer"},
                "points": {"type": "integer"},
                "prestige": {"type": "integer"},
                "workers": _PER_COLOR,
                "threats": _PER_COLOR,
                "plays": {"type": "integer", "minimum": 0},
            },
            "additionalProperties": False,
        },
        {"type": "null"},
    ],
}

_PENALTY: Final[dict[str, Any]] = {
    "type": "object",
    "description": "A triggered penalty, with the choice where one is needed (B2).",
    "required": ["seat", "color"],
    "properties": {
        "seat": _SEAT,
        "color": _COLOR,
        "house": {"type": ["integer", "null"], "minimum": 0},
        "section": {"enum": [*SECTIONS, None]},
        "person": {"type": ["string", "null"]},
    },
}

_PERSON: Final[dict[str, Any]] = {
    "description": "The person hired: whole the first time, by its id after a fire (B4).",
    "anyOf": [
        {
            "type": "object",
            "required": ["id", "name", "price", "group", "icon"],
            "properties": {
                "id": {"type": "string", "minLength": 1},
                "name": {"type": "string"},
                "price": {"enum": list(PRICES)},
                "group": {"enum": list(GROUPS)},
                "icon": {"enum": list(ICONS)},
                "worker": {"anyOf": [_COLOR, {"type": "null"}]},
            },
        },
        {"type": "string", "minLength": 1},
    ],
}

_STEP: Final[dict[str, Any]] = {
    "anyOf": [
        {
            "type": "object",
            "description": "A card played for one of the six actions.",
            "required": ["card", "action"],
            "properties": {
                "card": _COLOR,
                "action": {"enum": list(ACTIONS)},
                "section": {"enum": list(SECTIONS)},
                "house": {"type": "integer", "minimum": 0},
                "person": {"$ref": "#/$defs/person"},
            },
        },
        {
            "type": "object",
            "description": "A person's effect (B6); 'seat' for another seat's infinity person.",
            "required": ["effect"],
            "properties": {
                "effect": {"type": "string"},
                "seat": _SEAT,
                "gain": {"$ref": "#/$defs/gain"},
            },
        },
        {
            "type": "object",
            "description": "A penalty triggered by the gain just before (B8).",
            "required": ["penalty"],
            "properties": {"penalty": {"$ref": "#/$defs/penalty"}},
        },
    ]
}

ENTRY_SCHEMA: Final[dict[str, Any]] = {
    "$schema": SCHEMA_DIALECT,
    "title": "bruges-log/1 round",
    "type": "object",
    "required": ["dice", "turns"],
    "properties": {
        "dice": {
            "type": "object",
            "required": list(COLORS),
            "properties": {c: {"type": "integer", "minimum": 1, "maximum": 6} for c in COLORS},
        },
        "penalties": {
            "anyOf": [{"type": "array", "items": {"$ref": "#/$defs/penalty"}}, {"type": "null"}]
        },
        "prestige": {
            "description": "The seats that pay and climb, clockwise from the first player.",
            "anyOf": [{"type": "array", "items": _SEAT, "uniqueItems": True}, {"type": "null"}],
        },
        "upkeep": {
            "description": "Automatic (infinity) effects outside phase 3, and their penalties.",
            "anyOf": [
                {
                    "type": "array",
                    "items": {
                        "anyOf": [
                            {
                                "type": "object",
                                "required": ["seat", "effect"],
                                "properties": {
                                    "seat": _SEAT,
                                    "effect": {"type": "string"},
                                    "gain": {"$ref": "#/$defs/gain"},
                                    "at": {"enum": [*AT_NAMES, None]},
                                },
                            },
                            {
                                "type": "object",
                                "required": ["penalty"],
                                "properties": {
                                    "penalty": {"$ref": "#/$defs/penalty"},
                                    "at": {"enum": [*AT_NAMES, None]},
                                },
                            },
                        ]
                    },
                },
                {"type": "null"},
            ],
        },
        "turns": {
            "type": "array",
            "description": f"{TURNS_PER_PLAYER} per player, clockwise from the first player.",
            "maxItems": TURNS_PER_PLAYER * MAX_PLAYERS,
            "items": {
                "type": "object",
                "required": ["seat"],
                "properties": {
                    "seat": _SEAT,
                    "pass": {"type": ["boolean", "null"]},
                    "steps": {"type": "array", "items": {"$ref": "#/$defs/step"}},
                },
            },
        },
    },
    "$defs": {"gain": _GAIN, "penalty": _PENALTY, "person": _PERSON, "step": _STEP},
}

FINISH_SCHEMA: Final[dict[str, Any]] = {
    "$schema": SCHEMA_DIALECT,
    "title": "bruges-log/1 finish",
    "type": "object",
    "properties": {"final": _FINAL},
}

CATEGORY_LABELS: Final[dict[str, str]] = {
    "track": "Score track points",
    "persons": "Person points",
    "houses": "House points",
    "laurels": "Laurel points",
    "majorities": "Majority points",
    "canals": "Canal (3rd space) points",
    "statues": "Statue points",
    "prestige": "Prestige points",
}


def _stats() -> tuple[StatDef, ...]:
    stats = [StatDef(name="points", label="Points", path=("score",))]
    for category in CATEGORIES:
        stats.append(
            StatDef(
                name=f"points_{category}",
                label=CATEGORY_LABELS[category],
                path=("breakdown", category),
            )
        )
    stats.append(StatDef(name="statues_taken", label="Statues taken", path=("statues_taken",)))
    stats.append(
        StatDef(
            name="majorities_flipped", label="Majority tiles flipped", path=("majorities_flipped",)
        )
    )
    stats.append(StatDef(name="cards_played", label="Cards played", path=("cards_played",)))
    for color in COLORS:
        stats.append(
            StatDef(
                name=f"penalties_{color}",
                label=f"{color.capitalize()} penalties",
                path=("penalties", color),
            )
        )
    for group in GROUPS:
        stats.append(
            StatDef(
                name=f"hired_{group}",
                label=f"{group.capitalize()} hired",
                path=("hired", group),
            )
        )
    return tuple(stats)


def _unfinished(result: Mapping[str, Any]) -> Said:
    played = result["rounds_played"]
    if played == 1:
        return said("in progress after {played} round: no final scoring yet", played=played)
    return said("in progress after {played} rounds: no final scoring yet", played=played)


INFO: Final = GameInfo(
    game_id=GAME_ID,
    label=GAME_LABEL,
    log_format=LOG_FORMAT,
    bgg_ids=(136888,),
    known_names=("Bruges", "Brügge", "Brugge"),
    entries_key="rounds",
    entry_name="round",
    player_counts=PLAYER_COUNTS,
    setup_keys=(),
    finish_keys=("final",),
    has_editions=True,
    default_edition="standard",
    builtin_editions={
        key: {"description": ed.description, "data": ed.data()}
        for key, ed in BUILTIN_EDITIONS.items()
    },
    edition_from_data=edition_from_data,
    edition_to_data=lambda edition: edition.data(),
    edition_log_key="edition",
    scorepad=True,  # ``engine.score_sheet``: the final score sheet of a game not logged
    sheet_key="sheet",
    has_scores=True,
    header_schema=HEADER_SCHEMA,
    entry_schema=ENTRY_SCHEMA,
    finish_schema=FINISH_SCHEMA,
    result_detail=(
        "Each seat's score and its breakdown (score track, persons, houses, laurels, majority "
        "tiles, canals' 3rd spaces, statues, prestige step), rank (most points, then most "
        "florins, else shared), florins, prestige step, houses, persons in play, canal tiles, "
        "workers and threat tokens by colour, majority tiles flipped, statues, and counts of "
        "cards played, penalties suffered by colour and persons hired by group. A game "
        "recorded by its score sheet has no rounds: what a sheet does not say (canal tiles per "
        "section, workers, threats, which majority tiles, tableau, laurel persons, cards "
        "played, penalties, persons hired) is null."
    ),
    stats=_stats(),
    tiebreak_wording={
        TIEBREAK_FLORINS: "placed by florins among players with as many points",
        TIEBREAK_SHARED: "shared: as many points and as many florins",
    },
    unfinished=_unfinished,
    finish_ends_game=True,
    simulate=simulate,
)
