"""The one shape of every error response, and the id path parameter (an id a database cannot
store is no record: 404)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from games.api.serializers.fields import MAX_ID


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """The documented error responses of an operation (every error has one shape)."""
    return {c: OpenApiResponse(ErrorSerializer) for c in codes}


class ErrorSerializer(serializers.Serializer):
    """Every error response."""

    code = serializers.CharField(help_text="Stable error code, e.g. `unknown_card`.")
    message = serializers.CharField(help_text="What went wrong, for people.")
    round = serializers.IntegerField(
        allow_null=True, help_text="1-based entry (round, or turn in a turn-by-turn game), if any."
    )
    seat = serializers.IntegerField(allow_null=True, help_text="Seat (0-based), if any.")
    turn = serializers.IntegerField(
        required=False, help_text="Turn-by-turn games (Complots): the 1-based turn."
    )
    index = serializers.IntegerField(
        required=False, help_text="Import only: which document of the list."
    )
    fields = serializers.DictField(
        required=False, help_text="Form errors per field (code `invalid`)."
    )
    wait = serializers.FloatField(
        required=False, allow_null=True, help_text="Throttled: seconds to wait."
    )


def id_parameter(description: str, name: str = "id") -> OpenApiParameter:
    """A record's id in the path: ids are from 1 to MAX_ID (another is no record: 404)."""
    return OpenApiParameter(
        name,
        {"type": "integer", "minimum": 1, "maximum": MAX_ID},
        OpenApiParameter.PATH,
        description=description,
    )
