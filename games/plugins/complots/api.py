"""Complots's API shapes: a new game (its variant), a turn exactly as ``complots-log/1`` has it,
the game as shown (its variant and turns). Complots has no end-of-game choices, no editions and
no scorepad. Shape only: every rule is the engine's (its codes reach the client with the turn).

The game detail lists the entries under ``turns``, as the log does, and not under ``rounds``
too: a client that handles any game reads them from ``GET /api/games/{id}/rounds/`` (the same
as ``/turns/``), or from the detail under the game type's ``entries_key``
(``GET /api/game-types/``).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample
from rest_framework import serializers

from games.api.plugins import GameApi
from games.api.serializers import (
    EntryInputSerializer,
    FinishSerializer,
    GameCreateSerializer,
    GameDetailBaseSerializer,
    LogDocumentBaseSerializer,
    documented,
    entries_of,
    enum_string,
    game_type_field,
    many,
    result_field,
)
from games.models import Game
from games.plugins.complots import GAME_TYPE
from scoring.engine import get_engine
from scoring.engine.complots.rules import ACTION_NAMES, CHARACTER_NAMES, VARIANT_NAMES

INFO = get_engine(GAME_TYPE).info
NAME_MAX_LENGTH = 32  # room for a mistyped name, which the engine then names
# The characters that block something (the engine says which blocks what, K2).
BLOCK_CHARACTERS = ("duchess", "countess", "captain", *VARIANT_NAMES)
SEAT = {"min_value": -1000, "max_value": 1000}  # any seat: the engine says which are at the table
# The seats the engine takes (of the largest table; another is its error), which the schema
# states.
SEAT_SCHEMA: dict[str, Any] = {
    "type": "integer",
    "minimum": 0,
    "maximum": max(INFO.player_counts) - 1,
}


def _seat(**kwargs: Any) -> serializers.IntegerField:
    return documented(serializers.IntegerField, SEAT_SCHEMA, **SEAT, **kwargs)


def _character(**kwargs: Any) -> serializers.CharField:
    return enum_string(CHARACTER_NAMES, max_length=NAME_MAX_LENGTH, **kwargs)


class ChallengeSerializer(serializers.Serializer):
    """One player doubts a claim; ``truthful`` says whether the claim was true."""

    by = _seat(help_text="The challenger's seat.")
    truthful = serializers.BooleanField(help_text="Was the claim true?")


class BlockSerializer(serializers.Serializer):
    """A block: who blocks, as which character, and whether the block was challenged."""

    by = _seat(help_text="The blocker's seat.")
    challenge = ChallengeSerializer(required=False, allow_null=True)

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["as"] = enum_string(  # a keyword in Python
            BLOCK_CHARACTERS,
            max_length=NAME_MAX_LENGTH,
            help_text="The character the blocker claims.",
        )
        return dict(sorted(fields.items(), key=lambda kv: ("by", "as", "challenge").index(kv[0])))


class LossSerializer(serializers.Serializer):
    """An influence turned face up."""

    seat = _seat()
    card = _character()


class TurnEntrySerializer(serializers.Serializer):
    """One turn as ``complots-log/1`` has it. Keys that do not apply are left out."""

    actor = _seat(help_text="The seat whose turn it is.")
    action = enum_string(ACTION_NAMES, max_length=NAME_MAX_LENGTH)
    target = _seat(
        required=False, allow_null=True, help_text="Only on coup, assassin, captain and inquire."
    )
    challenge = ChallengeSerializer(required=False, allow_null=True, help_text="Of the claim.")
    block = BlockSerializer(required=False, allow_null=True)
    losses = many(
        LossSerializer,
        required=False,
        allow_null=True,
        max_length=8,
        help_text="Influences turned face up, in the order they happen: the claim's challenge, "
        "the block's challenge, then the coup or assassination.",
    )
    forced_swap = serializers.BooleanField(
        required=False,
        allow_null=True,
        help_text="Only on inquire: the target had to swap the card shown.",
    )


class TurnSerializer(TurnEntrySerializer):
    """One stored turn: its number and the turn as the log has it."""

    number = serializers.IntegerField(min_value=1)


class TurnInputSerializer(EntryInputSerializer, TurnEntrySerializer):
    """A turn to append or correct."""

    def entry_data(self) -> dict[str, Any]:
        data = self.validated_data
        turn: dict[str, Any] = {"actor": data["actor"], "action": data["action"]}
        if data.get("target") is not None:
            turn["target"] = data["target"]
        if data.get("challenge") is not None:
            turn["challenge"] = _challenge(data["challenge"])
        block = data.get("block")
        if block is not None:
            turn["block"] = {"by": block["by"], "as": block["as"]}
            if block.get("challenge") is not None:
                turn["block"]["challenge"] = _challenge(block["challenge"])
        if data.get("losses"):
            turn["losses"] = [{"seat": x["seat"], "card": x["card"]} for x in data["losses"]]
        if data.get("forced_swap") is not None:
            turn["forced_swap"] = data["forced_swap"]
        return turn


def _challenge(challenge: dict[str, Any]) -> dict[str, Any]:
    return {"by": challenge["by"], "truthful": challenge["truthful"]}


class ComplotsFinishSerializer(FinishSerializer):
    """Complots has no end-of-game choices: a game with one player left is finished as it is."""


class ComplotsGameCreateSerializer(GameCreateSerializer):
    """A new Complots game: players (2 to 8), first player, and the variant."""

    player_counts = INFO.player_counts
    game_type = game_type_field(GAME_TYPE)
    variant = enum_string(
        INFO.variants,
        max_length=NAME_MAX_LENGTH,
        default=INFO.default_variant,
        help_text="The fifth character: `ambassador` (the base game) or `inquisitor`.",
    )

    def game_args(self) -> dict[str, Any]:
        variant = self.validated_data["variant"]
        return {"variant": variant}


class ComplotsGameDetailSerializer(GameDetailBaseSerializer):
    """A Complots game: its variant and its turns (under `turns`, as its log has them)."""

    game_type = game_type_field(GAME_TYPE, read_only=True)
    variant = enum_string(INFO.variants, read_only=True)
    turns = TurnSerializer(many=True, read_only=True)
    result = result_field(
        "The engine's result (format complots-result/1): " + INFO.result_detail, read_only=True
    )

    class Meta(GameDetailBaseSerializer.Meta):
        fields = [*GameDetailBaseSerializer.Meta.fields, "variant", "turns"]

    def game_fields(self, game: Game) -> dict[str, Any]:
        return {"variant": game.variant or INFO.default_variant, "turns": entries_of(game)}


class ComplotsLogSerializer(LogDocumentBaseSerializer):
    """Documentation only: the export is a complots-log/1 document."""

    format = enum_string([INFO.log_format])
    variant = enum_string(INFO.variants)
    teams = serializers.JSONField(allow_null=True, help_text="Always null: no teams.")
    turns = TurnEntrySerializer(many=True)


API = GameApi(
    create=ComplotsGameCreateSerializer,
    entry=TurnInputSerializer,
    entry_out=TurnSerializer,
    finish=ComplotsFinishSerializer,
    detail=ComplotsGameDetailSerializer,
    log=ComplotsLogSerializer,
    create_examples=(
        OpenApiExample(
            "Complots: a 3-player game with the inquisitor",
            value={
                "game_type": GAME_TYPE,
                "players": ["Ada", "Bea", "Cy"],
                "first_player": 0,
                "variant": "inquisitor",
            },
            request_only=True,
        ),
    ),
    entry_examples=(
        OpenApiExample(
            "Complots: a turn",
            description="Bea's captain steals from Ada; Cy challenges, Bea shows a captain, "
            "Cy turns up a duchess.",
            value={
                "number": 2,
                "actor": 1,
                "action": "captain",
                "target": 0,
                "challenge": {"by": 2, "truthful": True},
                "losses": [{"seat": 2, "card": "duchess"}],
            },
            request_only=True,
        ),
    ),
)
