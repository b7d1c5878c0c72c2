"""A finished Bruges game known by its final score sheet (``POST /api/games/scorepad/``): per
player the rulebook's scoring categories and the florins left, checked for shape only; the engine
scores it like a replayed game (docs/bruges-engine.md, "Score sheet")."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.serializers import GameMetaSerializer, documented, game_type_field, many
from games.plugins.bruges import GAME_TYPE
from games.plugins.bruges.api.editions import _edition_args, _edition_field
from games.plugins.bruges.api.fields import INFO, NUMBER, _given
from scoring.engine.bruges.rules import (
    MAJORITIES,
    MAX_PLAYERS,
    MAX_STATUES,
    PRICES,
    SECTIONS,
    STATUES,
    TOP_STEP,
)
from scoring.engine.bruges.sheet import CARDS, CHECKED, FIELDS


def _sheet_number(schema: dict[str, Any], help_text: str) -> serializers.IntegerField:
    """A number of the sheet, checked for shape only (the engine says which are possible:
    bad_sheet, naming the seat and the category), documented with what the rules allow."""
    return documented(
        serializers.IntegerField,
        {"type": "integer", "minimum": 0, **schema, "nullable": True},
        **NUMBER,
        required=False,
        allow_null=True,
        help_text=help_text,
    )


def _sheet_list(values: tuple[int, ...], most: int, help_text: str) -> serializers.ListField:
    return documented(
        serializers.ListField,
        {
            "type": "array",
            "items": {"type": "integer", "enum": list(values)},
            "maxItems": most,
            "nullable": True,
        },
        child=serializers.IntegerField(**NUMBER),
        max_length=most,
        required=False,
        allow_null=True,
        help_text=help_text,
    )


class BrugesSheetPointsSerializer(serializers.Serializer):
    """Points per category as the paper sheet wrote them, each checked against what the counts
    score (bad_sheet naming the category when they differ)."""

    persons = _sheet_number({}, "The persons' prices / 3, added up (B4).")
    houses = _sheet_number({}, "1 per house.")
    majorities = _sheet_number({}, "4 per majority tile flipped.")
    canals = _sheet_number({}, "3 per canal section whose 3rd space holds a tile.")
    statues = _sheet_number({}, "The statues' values, added up.")
    prestige = _sheet_number({}, "The step's points on the game's edition (B1).")


class BrugesSheetSeatSerializer(serializers.Serializer):
    """One player's line of the final score sheet (rules "End and scoring"). Every key may be
    left out or null (0, or no item). A key not listed here reaches the engine, which refuses
    it (bad_sheet)."""

    track = _sheet_number({}, "The score track's points before the final scoring.")
    persons = _sheet_list(
        PRICES, CARDS, "The price of each person in play (0, 3, 6, 9 or 12; each scores price / 3)."
    )
    houses = _sheet_number(
        {"maximum": CARDS},
        "Houses built, 1 point each; at least one per person in play (one person per house).",
    )
    laurels = _sheet_number({}, "The laurel persons' points, added up (a person in play needed).")
    majorities = _sheet_number(
        {"maximum": len(MAJORITIES)}, "Majority tiles flipped, 4 points each."
    )
    canals = _sheet_number(
        {"maximum": len(SECTIONS)}, "Canal sections whose 3rd space holds a tile, 3 points each."
    )
    statues = _sheet_list(
        STATUES,
        len(STATUES),
        f"The values of the statues taken: at most {MAX_STATUES}, each statue on one sheet "
        "only, the top of the pile first (7, then 6...: rules B3).",
    )
    step = _sheet_number(
        {"maximum": TOP_STEP},
        "The prestige step (0: the Town Hall); its points are the edition's (B1).",
    )
    florins = _sheet_number({}, "Florins left: the tie-break (B7).")
    points = BrugesSheetPointsSerializer(
        required=False,
        allow_null=True,
        help_text="Optional: the points per category the paper sheet wrote, to be checked.",
    )
    score = _sheet_number({}, "Optional: the total the paper sheet wrote, to be checked.")

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        checked: dict[str, Any] = _given(dict(super().to_internal_value(data)))
        # Keys the sheet does not define go on to the engine, which names them (bad_sheet):
        # dropping a mistyped category would score the sheet without it.
        unknown = {k: v for k, v in data.items() if k not in FIELDS}
        if isinstance(data.get("points"), dict):
            extra = {k: v for k, v in data["points"].items() if k not in CHECKED}
            if extra:
                checked["points"] = {**checked.get("points", {}), **extra}
        return {**checked, **unknown}


class BrugesScorepadSerializer(GameMetaSerializer):
    """A finished Bruges game known by its final score sheet only: one line per seat, in seat
    order, scored by the engine with the same points, totals and ranking (B7: most points, then
    most florins, else shared) as a game logged round by round."""

    player_counts = INFO.player_counts
    game_type = game_type_field(GAME_TYPE)
    edition = _edition_field()
    sheet = many(
        BrugesSheetSeatSerializer,
        min_length=1,
        max_length=MAX_PLAYERS,
        help_text="One line per seat, in the order of `players`.",
    )

    def game_args(self) -> dict[str, Any]:
        return {
            **_edition_args(self.validated_data.get("edition")),
            "sheet": [dict(line) for line in self.validated_data["sheet"]],
        }
