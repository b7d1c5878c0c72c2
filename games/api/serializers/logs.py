"""Log documents, as an import takes them (one document or a list, any game's, its engine
chosen by its ``format``) and as an export gives them."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from games.api.serializers.fields import game_type_field
from games.api.serializers.players import NAME_SCHEMA
from games.records.game_types import game_types, plugin_for
from games.records.models import MAX_ENTRIES, MAX_LOCATION_LENGTH, MAX_NOTES_LENGTH, Game

MAX_IMPORT_DOCUMENTS = 1000


def _log_document_schema(game_type: str) -> dict[str, Any]:
    """What the records check of a log document of ``game_type`` before its engine replays it
    (its header, the names, the count of entries); the engine checks the rest, and keys its
    format does not define are ignored (not kept)."""
    info = plugin_for(game_type).engine.info
    return {
        "type": "object",
        "description": f"A {info.label} log document (`{info.log_format}`).",
        "required": ["format", "players", "first_player"],
        "properties": {
            "format": {"type": "string", "enum": [info.log_format]},
            "players": {
                "type": "array",
                "items": NAME_SCHEMA,
                "minItems": min(info.player_counts),
                "maxItems": max(info.player_counts),
                "uniqueItems": True,
                "description": "Player names in seat order, clockwise (each at one seat).",
            },
            "first_player": {
                "type": "integer",
                "minimum": 0,
                "maximum": max(info.player_counts) - 1,
            },
            "played_on": {"type": "string", "format": "date", "nullable": True},
            "location": {"type": "string", "maxLength": MAX_LOCATION_LENGTH, "nullable": True},
            "notes": {"type": "string", "maxLength": MAX_NOTES_LENGTH, "nullable": True},
            info.entries_key: {
                "type": "array",
                "items": {"type": "object"},
                "maxItems": MAX_ENTRIES,
                "description": f"The {info.entry_name}s, in order (see "
                f"`GET /api/games/{{id}}/log/`); left out, none yet.",
            },
        },
    }


def import_request_schema(limit: int) -> dict[str, Any]:
    """The body of an import: one log document, or a list of 1 to ``limit``."""
    # The games played from a log ("other" games have none: their plays are not imported so).
    logged = [t for t in game_types() if plugin_for(t).engine.info.logged]
    document = {"oneOf": [_log_document_schema(t) for t in logged]}
    return {
        "oneOf": [
            document,
            {"type": "array", "items": document, "minItems": 1, "maxItems": limit},
        ],
        "description": "One log document of any game, its engine chosen by its `format` (see "
        "`GET /api/game-types/`: `log_format`; the shapes are those of "
        "`GET /api/games/{id}/log/`), or a list of them.",
    }


IMPORT_REQUEST_SCHEMA = import_request_schema(MAX_IMPORT_DOCUMENTS)


def log_documents(data: Any, limit: int) -> list[Any]:
    """The log documents of an import request: one document, or a list of 1 to ``limit``."""
    documents = data if isinstance(data, list) else [data]
    if not documents or len(documents) > limit:
        raise serializers.ValidationError(
            {"documents": [_("send 1 to %(most)s log documents") % {"most": limit}]}
        )
    return documents


class ImportedGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game_type = game_type_field(read_only=True)
    status = serializers.ChoiceField(choices=Game.Status.choices)
    player_count = serializers.IntegerField()
    winners = serializers.ListField(child=serializers.IntegerField())


class ImportResponseSerializer(serializers.Serializer):
    games = ImportedGameSerializer(many=True, help_text="The games made, in document order.")


class LogDocumentBaseSerializer(serializers.Serializer):
    """Documentation only: what every exported log holds; a game's plugin adds its own keys."""

    format = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    first_player = serializers.IntegerField()
    played_on = serializers.CharField()
    location = serializers.CharField(allow_blank=True)
    notes = serializers.CharField(allow_blank=True)
