"""The API shapes of an "other game": a play as shown (its named game, its sheet and its
outcome). It has no log, so no creation entry by entry, no entries, no finish and no export:
its plays come through ``POST /api/games/result/``; its named games are ``/api/board-games/``.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.board_games import BoardGameViewSet, ResultLineSerializer
from games.api.plugins import GameApi
from games.api.serializers import GameDetailBaseSerializer, game_type_field, result_field
from games.plugins.other import GAME_TYPE
from games.records.models import Game
from scoring.engine import get_engine

INFO = get_engine(GAME_TYPE).info


class OtherGameDetailSerializer(GameDetailBaseSerializer):
    """A play of one of the club's named games, known by its final scores (`board_game` says
    which game, `mode` is `result`)."""

    game_type = game_type_field(GAME_TYPE, read_only=True)
    sheet = ResultLineSerializer(many=True, read_only=True, help_text="The sheet as entered.")
    won = serializers.BooleanField(
        read_only=True, allow_null=True, help_text="Cooperative: whether the players won."
    )
    result = result_field(
        "The scorer's result (format scores-result/1): " + INFO.result_detail, read_only=True
    )

    class Meta(GameDetailBaseSerializer.Meta):
        fields = [*GameDetailBaseSerializer.Meta.fields, "sheet", "won"]

    def game_fields(self, game: Game) -> dict[str, Any]:
        stored = game.sheet if isinstance(game.sheet, dict) else {}
        return {"sheet": stored.get("sheet") or [], "won": stored.get("won")}


API = GameApi(
    detail=OtherGameDetailSerializer,
    routes=(("board-games", BoardGameViewSet, "board-game"),),
)
