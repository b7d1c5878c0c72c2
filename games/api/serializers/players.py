"""Who records and plays: the signed-in user and their clubs, a new record's club, the players
of a club, and a player named in a body (by id, or by a name that creates one)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema_field
from rest_framework import serializers

from games.api.serializers.fields import MAX_ID, MAX_PLAYERS, documented, documented_class
from games.records.models import Membership, Player
from games.records.names import MAX_NAME_LENGTH, BadName, player_name

# A player's name as ``games.records.names.player_name`` takes it: no control character (white
# space, which becomes one space, aside), and something left once white space and invisible format
# characters are removed; at most MAX_NAME_LENGTH characters (after normalisation: a longer
# name with runs of spaces may pass).
_NOT_CONTROL = r"[^\u0000-\u0008\u000e-\u001b\u007f-\u0084\u0086-\u009f]"
_VISIBLE = (
    r"[^\s\u0000-\u001f\u007f-\u009f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2"
    r"\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]"
)
NAME_SCHEMA: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_NAME_LENGTH,
    "pattern": f"^{_NOT_CONTROL}*{_VISIBLE}{_NOT_CONTROL}*$",
}


class MyClubSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    is_staff = serializers.BooleanField()
    player = serializers.IntegerField(
        allow_null=True, help_text="The linked player's id (in the first of your clubs)."
    )
    clubs = MyClubSerializer(many=True, help_text="Your clubs, with your role in each.")


CLUB_QUERY = OpenApiParameter(
    "club",
    {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$", "maxLength": 50},
    OpenApiParameter.QUERY,
    description="The club the logs go into (its slug). Left out: your only club where you may "
    "record (400 `club_required` when you have several).",
)


def club_field(*, write_only: bool = True) -> serializers.Field:
    """A new record's club: its slug, left out for your only club where you may record."""
    return serializers.SlugField(
        max_length=50,
        required=False,
        write_only=write_only,
        help_text="The club's slug (`/api/clubs/`). Left out: your only club where you may "
        "record (400 `club_required` when you have several).",
    )


class PlayerSerializer(serializers.ModelSerializer):
    user = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)  # no account: null
    club = club_field(write_only=False)  # shown; taken on create only (a player stays put)

    class Meta:
        model = Player
        fields = ["id", "club", "name", "user", "created_at"]
        read_only_fields = ["id", "user", "created_at"]
        extra_kwargs = {
            # Uniqueness is the service's (409); blank, spaces and length are games.records.names'
            # rule.
            "name": {"validators": [], "allow_blank": True, "trim_whitespace": False},
        }

    def build_standard_field(
        self, field_name: str, model_field: Any
    ) -> tuple[type[serializers.Field], dict[str, Any]]:
        field_class, kwargs = super().build_standard_field(field_name, model_field)
        if field_name == "name":  # the same checks, documented with the name rule
            # In an allOf: the field takes a blank name (for the rule's own code), which the
            # schema would otherwise offer as a valid one.
            field_class = documented_class(field_class, {"type": "string", "allOf": [NAME_SCHEMA]})
        return field_class, kwargs

    def validate_name(self, value: str) -> str:
        return _player_name(value)

    def to_representation(self, player: Player) -> dict[str, Any]:
        body: dict[str, Any] = super().to_representation(player)
        body["club"] = player.club.slug
        return body


def _player_name(value: str) -> str:
    try:
        return player_name(value)
    except BadName as exc:
        raise serializers.ValidationError(exc.message, code=exc.code) from None


class PlayerRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name"]


PLAYER_REF_SCHEMA: dict[str, Any] = {
    "oneOf": [{"type": "integer", "minimum": 1, "maximum": MAX_ID}, NAME_SCHEMA]
}


@extend_schema_field(PLAYER_REF_SCHEMA)
class PlayerRefField(serializers.Field):
    """A player by id, or by name (created if new)."""

    def to_internal_value(self, data: Any) -> int | str:
        if type(data) is int:
            if not 0 < data <= MAX_ID:
                raise serializers.ValidationError(
                    _("a player id is from 1 to %(most)s") % {"most": MAX_ID}
                )
            return data
        if isinstance(data, str):
            return _player_name(data)
        raise serializers.ValidationError(
            _("a player id, or a name of 1 to %(most)s characters") % {"most": MAX_NAME_LENGTH}
        )

    def to_representation(self, value: Any) -> Any:
        return value


def players_field(player_counts: Sequence[int] = ()) -> serializers.ListField:
    """The players of a new game, checked for shape (1 to MAX_PLAYERS: how many its game takes
    is the engine's to say, bad_player_count, and the service refuses a player at two seats,
    player_twice), documented with the game's ``player_counts``."""
    return documented(
        serializers.ListField,
        {
            "type": "array",
            "items": PLAYER_REF_SCHEMA,
            "minItems": min(player_counts, default=1),
            "maxItems": max(player_counts, default=MAX_PLAYERS),
            "uniqueItems": True,
        },
        child=PlayerRefField(),
        min_length=1,
        max_length=MAX_PLAYERS,
        help_text="Seat order, clockwise: player ids, or names (a new name creates a player).",
    )
