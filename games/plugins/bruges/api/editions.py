"""Bruges's editions in the API (rules B1): the schema of an edition's data, and the edition a
new game names by its key."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from games.api.serializers import GameCreateSerializer, game_type_field
from games.plugins.bruges import GAME_TYPE
from games.plugins.bruges.api.fields import INFO
from games.records.errors import RecordError
from games.records.models import Edition
from games.records.stored_json import INT_MAX
from scoring.engine.bruges.rules import COLORS, SECTIONS, SPACES, TOP_STEP

_COST: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": INT_MAX}
# An edition's data (rules B1), as the engine reads it (bad_edition otherwise): the points of
# each prestige step, and each canal section's spaces, their cost and colour (null: unknown).
EDITION_DATA_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["prestige_points", "canal"],
    "properties": {
        "prestige_points": {
            "type": "array",
            "items": _COST,
            "minItems": TOP_STEP + 1,
            "maxItems": TOP_STEP + 1,
        },
        "canal": {
            "type": "object",
            "required": list(SECTIONS),
            "properties": {
                section: {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["cost"],
                        "properties": {
                            "cost": _COST,
                            "color": {"type": "string", "enum": list(COLORS), "nullable": True},
                        },
                    },
                    "minItems": SPACES,
                    "maxItems": SPACES,
                }
                for section in SECTIONS
            },
        },
        "description": {"type": "string"},
    },
}


def _edition_field() -> serializers.SlugField:
    return serializers.SlugField(
        max_length=64,
        required=False,
        help_text=f"A stored Bruges edition's key (`GET /api/editions/?game_type={GAME_TYPE}`); "
        f"left out, `{INFO.default_edition}`, which is not verified against the printed board "
        "(rules B1). An unknown key is 400 `unknown_edition`.",
    )


def _edition_args(key: str | None) -> dict[str, Any]:
    """The game's edition by its key (left out: the default). Raises ``RecordError``
    (unknown_edition)."""
    if key is None:
        return {}
    edition = Edition.objects.filter(game_type=GAME_TYPE, key=key).first()
    if edition is None:
        raise RecordError(
            "unknown_edition",
            _("no %(game)s edition %(key)r is stored") % {"game": INFO.label, "key": key},
        )
    return {"edition": edition}


class BrugesGameCreateSerializer(GameCreateSerializer):
    """A new Bruges game: players (2 to 4), first player, and the edition."""

    player_counts = INFO.player_counts
    game_type = game_type_field(GAME_TYPE)
    edition = _edition_field()

    def game_args(self) -> dict[str, Any]:
        return _edition_args(self.validated_data.get("edition"))
