"""What API modules of several apps share: the documented error responses, the player
reference and the id path parameter (kept in games/api/serializers.py, re-exported here), the
``game_type`` query parameter and its error. Views of one app never import another app's views."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter
from rest_framework import exceptions, status
from rest_framework.request import Request

from games.api.serializers import (
    MAX_ID,
    ErrorSerializer,
    PlayerRefSerializer,
    errors,
    id_parameter,
)
from scoring.engine import ENGINES
from scoring.stats.games import DEFAULT_GAME_TYPE, is_known

__all__ = [
    "DEFAULT_GAME_TYPE",
    "MAX_ID",
    "ErrorSerializer",
    "PlayerRefSerializer",
    "UnknownGameType",
    "errors",
    "game_type_parameter",
    "game_type_query",
    "id_parameter",
]


class UnknownGameType(exceptions.APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = gettext_lazy("No game of this type is known.")
    default_code = "unknown_game_type"


def game_type_query(request: Request, *, default: str = DEFAULT_GAME_TYPE) -> str:
    """The ``game_type`` query parameter, ``default`` when absent. Raises ``UnknownGameType``
    (400, code ``unknown_game_type``) for a game the engine registry does not know."""
    game_type = request.query_params.get("game_type", default)
    # A named game's own series too (``other-<id>``): one the reader's clubs do not have is an
    # empty series, alike for one that does not exist.
    if not is_known(game_type):
        known = ", ".join(ENGINES)
        raise UnknownGameType(
            _("No game %(game_type)r; known: %(known)s.") % {"game_type": game_type, "known": known}
        )
    return game_type


def game_type_parameter(
    description: str = "The game type (default pot-de-vin).",
) -> OpenApiParameter:
    named = "|".join(g for g, engine in ENGINES.items() if not engine.info.logged)
    return OpenApiParameter(
        "game_type",
        {
            "type": "string",
            "pattern": f"^({'|'.join(ENGINES)}|({named})-[1-9][0-9]{{0,18}})$",
            "default": DEFAULT_GAME_TYPE,
        },
        OpenApiParameter.QUERY,
        required=False,
        description=f"{description} A game type, or a club's named game as `other-<id>` (its "
        "id at /api/board-games/): each named game is a series of its own. Unknown: 400 with "
        "code unknown_game_type.",
    )
