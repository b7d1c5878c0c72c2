"""Editions: versions of a game's printed data (Pot de Vin: its decks), as the API takes and
shows them."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.serializers.fields import documented, game_type_field
from games.records.game_types import game_types, plugin_for
from games.records.models import MAX_NOTES_LENGTH, Edition

# What an edition's (a deck's) key is: a slug, as its model stores it.
KEY_SCHEMA: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "maxLength": 64,
    "pattern": "^[-a-zA-Z0-9_]+$",
}


def games_with_editions() -> list[str]:
    return [t for t in game_types() if plugin_for(t).engine.info.has_editions]


def description_field() -> serializers.CharField:
    """An edition's description, as its model's field would be; the service bounds its length
    (too_long), which the schema states."""
    return documented(
        serializers.CharField,
        {"type": "string", "maxLength": MAX_NOTES_LENGTH},
        allow_blank=True,
        required=False,
        style={"base_template": "textarea.html"},
    )


class EditionDataField(serializers.JSONField):
    """An edition's printed data: any JSON here, checked by the game's engine. Documented as one
    of the games' edition data, each as its plugin's API states it (``GameApi``'s
    ``edition_data_schema``), read when the schema is built."""


class EditionSerializer(serializers.ModelSerializer):
    # Any game type is taken here; one without editions is 400 no_editions (the service's).
    game_type = game_type_field(
        documented_values=games_with_editions(), help_text="The game this edition belongs to."
    )
    data = EditionDataField(
        help_text="The printed data, as the game's engine reads it (Pot de Vin: each guild "
        'card to its guild symbols, {"A4": ["nobles"]}, as a deck\'s `cards`; Bruges: '
        '`prestige_points`, 13 integers, and `canal`, {"left": [...], "right": [...]}, 5 '
        'spaces {"cost", "color"} each). Checked by the engine.',
    )
    description = description_field()

    class Meta:
        model = Edition
        fields = ["game_type", "key", "description", "verified", "data", "created_at"]
        read_only_fields = ["created_at"]
        extra_kwargs = {"key": {"validators": []}}  # uniqueness is the service's (409)
        validators: list[Any] = []  # and per game type too


class EditionUpdateSerializer(serializers.ModelSerializer):
    class Meta:
        model = Edition
        fields = ["description", "verified"]
