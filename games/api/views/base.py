"""What the games API's views share: the game detail each game answers with, the parameters of
several resources, and how a body is checked and its game found."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers
from rest_framework.request import Request

from games.api.plugins import one_of
from games.api.serializers import default_game_type, id_parameter
from games.records.game_types import game_types, plugins

# The game as shown, one shape per game, read from the plugins when the schema is built.
GAME_DETAIL = one_of("GameDetail", lambda p, a: a.detail, discriminator="game_type")
GAME_ID = id_parameter("The game's id.")
GAME_TYPE_FILTER = OpenApiParameter(
    "game_type", str, OpenApiParameter.QUERY, enum=game_types(), description="Of this game only."
)


# A read of a game is conditional (games/api/conditional.py): documented once for each.
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    description="The `ETag` of an earlier read of this game (or a list of them, or `*`): "
    "304 without a body while the game is at that version.",
)
ETAG = OpenApiParameter(
    "ETag",
    str,
    OpenApiParameter.HEADER,
    response=[200, 304],
    description='The game\'s version as a tag, `"g<id>-v<version>"`, the same on every read '
    "of the game (its detail, entries, log and version): to send back in `If-None-Match`.",
)
CONDITIONAL = [IF_NONE_MATCH, ETAG]
NOT_MODIFIED = {
    304: OpenApiResponse(description="The game is still at the version `If-None-Match` names.")
}


def game_type_choices() -> list[tuple[str, str]]:
    return [(game_type, plugin.label) for game_type, plugin in plugins().items()]


def body_game_type(request: Request) -> Any:
    """The game a create request is about: its `game_type`, or the default game."""
    data = request.data
    if isinstance(data, dict):
        return data.get("game_type", default_game_type())
    return default_game_type()


def validated(serializer_class: type[Any], request: Request, **kwargs: Any) -> Any:
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer


def valid(
    serializer_class: type[serializers.Serializer], request: Request, **kwargs: Any
) -> dict[str, Any]:
    return dict(validated(serializer_class, request, **kwargs).validated_data)
