"""The games recorded here (``/api/game-types/``), as a client needs them to record one."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.serializers import GameTypeSerializer, errors
from games.records.game_types import plugins


class GameTypesView(APIView):
    """The games recorded here, with what a client needs to record one: how its entries are
    named, its player counts and variants, whether it has editions or a scorepad mode."""

    @extend_schema(
        operation_id="game_types",
        responses={200: GameTypeSerializer(many=True), **errors(401)},
    )
    def get(self, request: Request) -> Response:
        rows = []
        for game_type, plugin in plugins().items():
            info = plugin.engine.info
            rows.append(
                {
                    "game_type": game_type,
                    "label": info.label,
                    "log_format": info.log_format,
                    "entries_key": info.entries_key,
                    "entry_name": info.entry_name,
                    "player_counts": list(info.player_counts),
                    "variants": list(info.variants),
                    "default_variant": info.default_variant,
                    "has_editions": info.has_editions,
                    "default_edition": info.default_edition,
                    "scorepad": info.scorepad,
                    "logged": info.logged,
                    "result_win": info.result_win_rule() if info.logged else None,
                    "result_detail": info.result_detail,
                }
            )
        return Response(rows)
