"""Complots's API shapes: a new game (its variant), a turn exactly as ``complots-log/1`` has it,
a finished game known by its result only (scorepad mode: the elimination order and the counts
kept), the game as shown (its variant, turns, and a result game's sheet). Complots has no
end-of-game choices and no editions. Shape only: every rule is the engine's (its codes reach
the client with the turn or the sheet).

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
    GameMetaSerializer,
    LogDocumentBaseSerializer,
    documented,
    entries_of,
    enum_string,
    game_type_field,
    many,
    result_field,
)
from games.plugins.complots import GAME_TYPE
from games.records.models import Game
from scoring.engine import get_engine
from scoring.engine.complots.info import SHEET_SCHEMA
from scoring.engine.complots.rules import ACTION_NAMES, CHARACTER_NAMES, STAT_NAMES, VARIANT_NAMES
from scoring.engine.complots.sheet import MAX_COUNT

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


# --- Scorepad mode: a finished game known by its result ---------------------------------------

# The sheet's JSON Schema (the engine's ``SHEET_SCHEMA``) in the OpenAPI document's dialect.
ELIMINATED_SCHEMA: dict[str, Any] = {
    k: v for k, v in SHEET_SCHEMA["properties"]["eliminated"].items() if k != "description"
}
COUNT_SCHEMA: dict[str, Any] = {
    "type": "integer",
    "minimum": 0,
    "maximum": MAX_COUNT,
    "nullable": True,
}
COUNTS_SCHEMA: dict[str, Any] = {
    "type": "array",
    "nullable": True,
    "minItems": min(INFO.player_counts),
    "maxItems": max(INFO.player_counts),
    "items": {
        "type": "object",
        "nullable": True,
        "properties": {name: COUNT_SCHEMA for name in STAT_NAMES},
        "additionalProperties": False,
    },
}
COUNT_WORDS = {
    "coins_gained": "Coins received: income, foreign aid, duchess, captain.",
    "coins_lost_to_captains": "Coins a captain took from the player.",
    "claims_made": "Action claims (duchess, assassin, captain, exchange, inquire).",
    "bluffs_caught": "Own claims or blocks challenged and false.",
    "challenges_made": "Challenges of another player's claim or block.",
    "challenges_won": "Challenges of a claim or block that was false.",
    "blocks_made": "Blocks declared.",
    "blocks_standing": "Blocks not shown false.",
    "influences_taken": "Influences the player's coups and assassinations removed.",
    "players_eliminated": "Players eliminated by the player's coup, assassination or won "
    "challenge.",
}


def _count(name: str) -> serializers.IntegerField:
    # Any whole number passes here: the engine refuses one below 0 or above its limit
    # (bad_count, with the seat), and the stored-data gate one past 64 bits (out_of_range).
    return documented(
        serializers.IntegerField,
        COUNT_SCHEMA,
        required=False,
        allow_null=True,
        help_text=COUNT_WORDS[name] + " Left out or null: unknown.",
    )


class CountsSerializer(serializers.Serializer):
    """The K4 counts one player kept (rules K4, K5), each optional: a count left out or null is
    unknown (null in the result, never 0)."""

    def get_fields(self) -> dict[str, serializers.Field]:
        return {name: _count(name) for name in STAT_NAMES}

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        counts: dict[str, Any] = dict(super().to_internal_value(data))
        # A key that is no count is kept for the engine to refuse (unknown_count, with the
        # seat), not dropped: a mistyped count would otherwise be lost without a word.
        for key, value in data.items():
            if key not in counts and key not in STAT_NAMES:
                counts[key] = value
        return counts


class ComplotsScorepadSerializer(GameMetaSerializer):
    """A finished Complots game known by its result only: the order in which the players were
    eliminated (first out first; the seat left out is the winner), and optionally the counts
    each player kept. Ranked as a replayed finished game (rules K4, K5)."""

    player_counts = INFO.player_counts
    game_type = game_type_field(GAME_TYPE)
    variant = enum_string(
        INFO.variants,
        max_length=NAME_MAX_LENGTH,
        default=INFO.default_variant,
        help_text="The fifth character: `ambassador` (the base game) or `inquisitor`.",
    )
    eliminated = documented(
        serializers.ListField,
        ELIMINATED_SCHEMA,
        child=serializers.IntegerField(**SEAT),
        max_length=2 * max(INFO.player_counts),
        help_text="Every seat but the winner's, in the order they were eliminated, first out "
        "first; each exactly once. The engine refuses a seat twice (`eliminated_twice`), two "
        "seats or more left out (`missing_seat`), every seat listed (`no_winner`) and a seat "
        "not at the table (`bad_seat`).",
    )
    counts = documented(
        serializers.ListField,
        COUNTS_SCHEMA,
        child=CountsSerializer(allow_null=True),
        max_length=2 * max(INFO.player_counts),
        required=False,
        allow_null=True,
        help_text="Optional: one entry per seat, each null or the counts that player kept "
        "(`bad_count`, `unknown_count`, `inconsistent_counts` name the seat).",
    )

    def game_args(self) -> dict[str, Any]:
        data = self.validated_data
        counts = data.get("counts")
        return {
            "variant": data["variant"],
            "sheet": {
                "eliminated": list(data["eliminated"]),
                "counts": None if counts is None else [_plain(c) for c in counts],
            },
        }


def _plain(counts: Any) -> Any:
    return None if counts is None else dict(counts)


class ComplotsGameDetailSerializer(GameDetailBaseSerializer):
    """A Complots game: its variant and its turns (under `turns`, as its log has them); a game
    known by its result only has no turns, and its sheet under `eliminated` and `counts`."""

    game_type = game_type_field(GAME_TYPE, read_only=True)
    variant = enum_string(INFO.variants, read_only=True)
    turns = TurnSerializer(many=True, read_only=True)
    eliminated = documented(
        serializers.JSONField,
        {**ELIMINATED_SCHEMA, "nullable": True},
        read_only=True,
        help_text="A game known by its result only (`mode` `scorepad`): the seats in the order "
        "they were eliminated, first out first. Null for a game logged turn by turn.",
    )
    counts = documented(
        serializers.JSONField,
        COUNTS_SCHEMA,
        read_only=True,
        help_text="A game known by its result only: the counts kept per seat, as sent. Null "
        "otherwise.",
    )
    result = result_field(
        "The engine's result (format complots-result/1): " + INFO.result_detail, read_only=True
    )

    class Meta(GameDetailBaseSerializer.Meta):
        fields = [*GameDetailBaseSerializer.Meta.fields, "variant", "turns", "eliminated", "counts"]

    def game_fields(self, game: Game) -> dict[str, Any]:
        sheet = game.sheet if isinstance(game.sheet, dict) else {}
        return {
            "variant": game.variant or INFO.default_variant,
            "turns": entries_of(game),
            "eliminated": sheet.get("eliminated"),
            "counts": sheet.get("counts"),
        }


class ComplotsLogSerializer(LogDocumentBaseSerializer):
    """Documentation only: the export is a complots-log/1 document."""

    format = enum_string([INFO.log_format])
    variant = enum_string(INFO.variants)
    teams = serializers.JSONField(allow_null=True, help_text="Always null: no teams.")
    turns = TurnEntrySerializer(many=True)


SCOREPAD_EXAMPLES = (
    OpenApiExample(
        "Complots: a game known by its result",
        description="Cy went out first, then Ada; Bea, left out of the list, won. Ranks: Bea "
        "1, Ada 2, Cy 3.",
        value={
            "game_type": GAME_TYPE,
            "players": ["Ada", "Bea", "Cy"],
            "variant": "inquisitor",
            "eliminated": [2, 0],
        },
        request_only=True,
    ),
    OpenApiExample(
        "Complots: a result with the counts some players kept",
        description="Dev went out first, then Ada, then Cy; Bea won. Bea kept her claims and "
        "bluffs caught, Cy the players he eliminated; every other count is unknown (null).",
        value={
            "game_type": GAME_TYPE,
            "players": ["Ada", "Bea", "Cy", "Dev"],
            "eliminated": [3, 0, 2],
            "counts": [
                None,
                {"claims_made": 5, "bluffs_caught": 1, "players_eliminated": 2},
                {"players_eliminated": 1},
                None,
            ],
        },
        request_only=True,
    ),
)

API = GameApi(
    create=ComplotsGameCreateSerializer,
    entry=TurnInputSerializer,
    entry_out=TurnSerializer,
    finish=ComplotsFinishSerializer,
    detail=ComplotsGameDetailSerializer,
    log=ComplotsLogSerializer,
    scorepad=ComplotsScorepadSerializer,
    scorepad_examples=SCOREPAD_EXAMPLES,
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
