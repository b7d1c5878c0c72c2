"""Bruges's API shapes: a new game (its edition), a round exactly as ``bruges-log/1`` has it
(dice, penalties, prestige, upkeep, turns of steps), the end of the game (``final``, with the
laurel points), the game as shown (its edition and whether it is verified, its rounds and
``final``). Shape only: every rule is the engine's (its codes reach the client with the round,
the turn and the seat).

Finishing a Bruges game is giving ``final``: the engine cannot know when the game ended (draws
are not logged, rules "End and scoring"), so the table says it. ``POST /finish/`` without
``final`` is 400 ``invalid``; with it, the game is finished with the laurels given (should the
engine still find the game not over, 409 ``game_incomplete`` with its reason). Finishing again
after a reopen takes ``final`` again, which replaces the one stored.

A game the table did not log round by round is recorded by its final score sheet
(``POST /api/games/scorepad/``, ``BrugesScorepadSerializer``): per player the rulebook's scoring
categories and the florins left, scored by the engine like a replayed game
(docs/bruges-engine.md, "Score sheet").

Printed data that can be wrong is an edition (rules B1): the board's prestige points and canal
spaces. The default ``standard`` edition is not verified against the printed board; the detail
says whether the game's edition is (``edition_verified``), so that every score shown can say so.

The shapes are in ``fields`` (what they are made of), ``editions``, ``rounds`` (documented),
``round_input`` (a round sent, checked fast), ``results`` (the end, the detail, the log),
``score_sheet`` and ``examples``. Generic code reads ``API`` from this package
(``games.api.plugins``), and the names below stay importable from here.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

from games.api.plugins import GameApi
from games.plugins.bruges import GAME_TYPE
from games.plugins.bruges.api.editions import EDITION_DATA_SCHEMA, BrugesGameCreateSerializer
from games.plugins.bruges.api.examples import EXAMPLE_ROUND, EXAMPLE_SHEET
from games.plugins.bruges.api.fields import (
    DIE_SCHEMA,
    ID_MAX_LENGTH,
    INFO,
    MAX_LIST,
    MAX_STEPS,
    MAX_TURNS,
    MOMENTS,
    NUMBER,
    SEAT_SCHEMA,
    WORD_MAX_LENGTH,
    _given,
)
from games.plugins.bruges.api.results import (
    BrugesFinalSerializer,
    BrugesFinishSerializer,
    BrugesGameDetailSerializer,
    BrugesLaurelSerializer,
    BrugesLogSerializer,
)
from games.plugins.bruges.api.round_input import BrugesRoundInputSerializer, Check
from games.plugins.bruges.api.rounds import (
    GAIN_SCHEMA,
    PERSON_SCHEMA,
    BrugesDiceSerializer,
    BrugesPenaltySerializer,
    BrugesPersonSerializer,
    BrugesRoundEntrySerializer,
    BrugesRoundSerializer,
    BrugesStepSerializer,
    BrugesTurnSerializer,
    BrugesUpkeepSerializer,
    GainField,
    PersonField,
)
from games.plugins.bruges.api.score_sheet import (
    BrugesScorepadSerializer,
    BrugesSheetPointsSerializer,
    BrugesSheetSeatSerializer,
)

__all__ = [
    "API",
    "DIE_SCHEMA",
    "EDITION_DATA_SCHEMA",
    "EXAMPLE_ROUND",
    "EXAMPLE_SHEET",
    "GAIN_SCHEMA",
    "GAME_TYPE",
    "ID_MAX_LENGTH",
    "INFO",
    "MAX_LIST",
    "MAX_STEPS",
    "MAX_TURNS",
    "MOMENTS",
    "NUMBER",
    "PERSON_SCHEMA",
    "SEAT_SCHEMA",
    "WORD_MAX_LENGTH",
    "BrugesDiceSerializer",
    "BrugesFinalSerializer",
    "BrugesFinishSerializer",
    "BrugesGameCreateSerializer",
    "BrugesGameDetailSerializer",
    "BrugesLaurelSerializer",
    "BrugesLogSerializer",
    "BrugesPenaltySerializer",
    "BrugesPersonSerializer",
    "BrugesRoundEntrySerializer",
    "BrugesRoundInputSerializer",
    "BrugesRoundSerializer",
    "BrugesScorepadSerializer",
    "BrugesSheetPointsSerializer",
    "BrugesSheetSeatSerializer",
    "BrugesStepSerializer",
    "BrugesTurnSerializer",
    "BrugesUpkeepSerializer",
    "Check",
    "GainField",
    "PersonField",
    "_given",  # tests hold the fast round check to the documented serializers' answers
]

API = GameApi(
    create=BrugesGameCreateSerializer,
    entry=BrugesRoundInputSerializer,
    entry_out=BrugesRoundSerializer,
    finish=BrugesFinishSerializer,
    detail=BrugesGameDetailSerializer,
    log=BrugesLogSerializer,
    scorepad=BrugesScorepadSerializer,
    scorepad_examples=(
        OpenApiExample(
            "Bruges: a game known by its final score sheet",
            description="Ada's line is the rulebook's example of a final scoring (36 points: "
            "persons 3 + 1 + 2 + 0 + 2, 6 houses, 4 laurel points, two majority tiles, a "
            "canal's 3rd space, step 6 = 7 on the standard edition); Bea scores 21 + 4 + 2 + "
            "7 + 3 = 37 and wins.",
            value={
                "game_type": GAME_TYPE,
                "players": ["Ada", "Bea"],
                "edition": INFO.default_edition,
                "sheet": EXAMPLE_SHEET,
            },
            request_only=True,
        ),
    ),
    edition_data_schema=EDITION_DATA_SCHEMA,
    create_examples=(
        OpenApiExample(
            "Bruges: a 2-player game on the standard edition",
            value={
                "game_type": GAME_TYPE,
                "players": ["Ada", "Bea"],
                "first_player": 0,
                "edition": INFO.default_edition,
            },
            request_only=True,
        ),
    ),
    entry_examples=(
        OpenApiExample(
            "Bruges: a round",
            description="The rules' example: brown and yellow threats for both; Bea pays "
            "1 + 2 = 3 florins for prestige; Ada hires the Alchimista, whose arrow effect "
            "gives her 6 florins.",
            value={"number": 1, **EXAMPLE_ROUND},
            request_only=True,
        ),
    ),
)
