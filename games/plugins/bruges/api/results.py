"""A Bruges game's end and the game as shown: ``final`` with the laurel points, the detail (its
edition and whether it is verified, its rounds, ``final``, the score sheet) and the exported
log."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.serializers import (
    FinishSerializer,
    GameDetailBaseSerializer,
    LogDocumentBaseSerializer,
    entries_of,
    enum_string,
    game_type_field,
    many,
    result_field,
)
from games.plugins.bruges import GAME_TYPE
from games.plugins.bruges.api.fields import ID_MAX_LENGTH, INFO, MAX_LIST, _int, _optional, _seat
from games.plugins.bruges.api.rounds import BrugesRoundEntrySerializer, BrugesRoundSerializer
from games.records.models import Game

# --- The end of the game -----------------------------------------------------------------------


class BrugesLaurelSerializer(serializers.Serializer):
    """The end-of-game points of one `laurel` person in play (its card says how many)."""

    seat = _seat()
    person = serializers.CharField(min_length=1, max_length=ID_MAX_LENGTH)
    points = _int()


class BrugesFinalSerializer(serializers.Serializer):
    laurels = many(
        BrugesLaurelSerializer,
        max_length=MAX_LIST,
        **_optional(help_text="Each laurel person at most once; one not listed scores 0."),
    )


class BrugesFinishSerializer(FinishSerializer):
    """The game ended (the table says so: draws are not logged): `final`, with the laurel
    points. Required: finishing a Bruges game is giving it."""

    final = BrugesFinalSerializer()

    def finish_data(self) -> dict[str, Any] | None:
        laurels = self.validated_data["final"].get("laurels") or []
        return {"final": {"laurels": [dict(entry) for entry in laurels]}}


# --- The game ----------------------------------------------------------------------------------


class BrugesGameDetailSerializer(GameDetailBaseSerializer):
    """A Bruges game: its edition and whether it is verified, its rounds, and `final` once
    finished."""

    game_type = game_type_field(GAME_TYPE, read_only=True)
    edition_verified = serializers.BooleanField(
        read_only=True,
        help_text="Whether the edition (`edition`) was checked against the printed board. "
        f"`{INFO.default_edition}` is not (rules B1): every score of a game on an unverified "
        "edition may change when the edition is corrected and the game re-scored.",
    )
    rounds = BrugesRoundSerializer(many=True, read_only=True)
    final = serializers.JSONField(
        read_only=True,
        allow_null=True,
        help_text='The end of the game as given when last finished, {"laurels": [{"seat", '
        '"person", "points"}]}; null: never finished.',
    )
    result = result_field(
        "The engine's result (format bruges-result/1; `edition`: the edition it was scored "
        "with): " + INFO.result_detail,
        read_only=True,
    )

    sheet = serializers.JSONField(
        read_only=True,
        allow_null=True,
        help_text="The final score sheet of a game recorded by it (`POST /api/games/scorepad/`), "
        "one line per seat as given; null for a game logged round by round.",
    )

    class Meta(GameDetailBaseSerializer.Meta):
        fields = [
            *GameDetailBaseSerializer.Meta.fields,
            "edition_verified",
            "rounds",
            "final",
            "sheet",
        ]

    def game_fields(self, game: Game) -> dict[str, Any]:
        return {
            "edition_verified": game.edition.verified if game.edition_id is not None else None,
            "rounds": entries_of(game),
            "final": (game.finish or {}).get("final"),
            "sheet": game.sheet if game.mode == Game.Mode.SCOREPAD else None,
        }


class BrugesLogSerializer(LogDocumentBaseSerializer):
    """Documentation only: the export is a bruges-log/1 document."""

    format = enum_string([INFO.log_format])
    edition = serializers.CharField(help_text="The edition's key.")
    teams = serializers.JSONField(allow_null=True, help_text="Always null: no teams.")
    rounds = BrugesRoundEntrySerializer(many=True)
    final = BrugesFinalSerializer(allow_null=True, help_text="Null: the game is in progress.")
