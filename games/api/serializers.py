"""Request and response shapes that every game shares, and the bases a game's plugin builds its
own on (games/api/plugins.py says what a plugin's ``api`` part gives). Serializers check shape
only; what a game allows is its engine's to say (with its own error codes), through the
services. Nothing here names a game."""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Sequence
from functools import cache
from typing import Any, TypeVar

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema_field
from rest_framework import serializers

from games.exchange import exports
from games.records import selectors
from games.records.game_types import game_types, plugin_for
from games.records.models import (
    MAX_ENTRIES,
    MAX_LOCATION_LENGTH,
    MAX_NOTES_LENGTH,
    BoardGame,
    Edition,
    Game,
    GameEvent,
    GameShare,
    Membership,
    Player,
    PlaySource,
    Seat,
)
from games.records.names import MAX_NAME_LENGTH, BadName, player_name

F = TypeVar("F", bound=serializers.Field)

MAX_IMPORT_DOCUMENTS = 1000
# Shape bounds only, so a request cannot make unbounded work; how many players, seats and
# entries a game takes is its engine's to say (bad_player_count, bad_first_player, ...).
MAX_PLAYERS = 16
MAX_ENTRY_NUMBER = MAX_ENTRIES
_DATETIME = serializers.DateTimeField()
_SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")
MAX_ID = 2**63 - 1  # the largest id a database stores (a larger one is not even looked up)

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
# What an edition's (a deck's) key is: a slug, as its model stores it.
KEY_SCHEMA: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "maxLength": 64,
    "pattern": "^[-a-zA-Z0-9_]+$",
}


def _datetime(value: datetime.datetime | None) -> str | None:
    return None if value is None else _DATETIME.to_representation(value)


def default_game_type() -> str:
    """The game a request that names none is about: the first installed plugin
    (``settings.GAME_PLUGINS``), so requests written before there was a choice work as they did."""
    return game_types()[0]


def documented(field_class: type[F], schema: dict[str, Any], **kwargs: Any) -> F:
    """A ``field_class`` field that checks exactly what it always checks, documented as
    ``schema``: a constraint that is checked further on (by a service or the game's engine,
    with an error code of its own) is stated in the schema all the same."""
    return documented_class(field_class, schema)(**kwargs)


def documented_class(field_class: type[F], schema: dict[str, Any]) -> type[F]:
    """``field_class`` documented as ``schema`` (see ``documented``)."""
    return _documented_class(field_class, json.dumps(schema))


@cache
def _documented_class(field_class: type[F], schema: str) -> type[F]:
    return extend_schema_field(json.loads(schema))(  # type: ignore[no-any-return]
        type(field_class.__name__, (field_class,), {"__module__": field_class.__module__})
    )


def id_parameter(description: str, name: str = "id") -> OpenApiParameter:
    """A record's id in the path: ids are from 1 to MAX_ID (another is no record: 404)."""
    return OpenApiParameter(
        name,
        {"type": "integer", "minimum": 1, "maximum": MAX_ID},
        OpenApiParameter.PATH,
        description=description,
    )


def enum_string(values: Sequence[str], **kwargs: Any) -> serializers.CharField:
    """A string documented as one of ``values`` but checked for shape only: which values a game
    takes is its engine's to say (with its own code)."""
    return _enum_string_class(tuple(values))(**kwargs)


@cache
def _enum_string_class(values: tuple[str, ...]) -> type[serializers.CharField]:
    documented = extend_schema_field({"type": "string", "enum": list(values)})
    return documented(type("EnumString", (serializers.CharField,), {}))


def many(
    serializer_class: type[serializers.Serializer], **kwargs: Any
) -> serializers.ListSerializer:
    """A list of ``serializer_class`` items. Unlike ``serializer_class(many=True,
    allow_null=True)``, which lets null items through to code that reads them (DRF hands
    ``allow_null`` to the items too), the list may be null where ``allow_null`` says so, an item
    never."""
    return serializers.ListSerializer(child=serializer_class(), **kwargs)


class GameTypeField(serializers.CharField):
    """A game type: one of ``allowed`` (an unknown game in a body that picks its game is 400
    ``unknown_game_type``: the views look the game up before validating the rest)."""

    allowed: tuple[str, ...] = ()

    def to_internal_value(self, data: Any) -> str:
        value: str = super().to_internal_value(data)
        if value not in self.allowed:
            raise serializers.ValidationError(
                _("one of %(values)s") % {"values": ", ".join(self.allowed)}
            )
        return value


def game_type_field(
    game_type: str | None = None,
    *,
    documented_values: Sequence[str] | None = None,
    **kwargs: Any,
) -> GameTypeField:
    """The ``game_type`` of a body or a response: ``game_type`` only (a game's own shapes, the
    discriminator of their oneOf), or any installed game. In a request it may be left out for
    the default game. ``documented_values``: the games the schema names, when fewer than those
    taken here are served (the others refused further on, with a code of their own)."""
    values = (game_type,) if game_type else tuple(game_types())
    # One game's shapes (and a field documented with fewer games) say their games as a pattern,
    # not an enum: the schema's enums become components named after the field, and one name
    # cannot hold every set of values. Game types are slugs: nothing in one needs escaping.
    named = (game_type,) if game_type else documented_values
    assert all(_SLUG.fullmatch(t) for t in named or ()), named
    if not named:
        schema = {"type": "string", "enum": list(values)}
    elif len(named) == 1:
        schema = {"type": "string", "pattern": f"^{named[0]}$"}
    else:
        schema = {"type": "string", "pattern": f"^({'|'.join(named)})$"}
    field_class = extend_schema_field(schema)(
        type("GameTypeEnumField", (GameTypeField,), {"allowed": values})
    )
    if kwargs.get("read_only"):
        return field_class(**kwargs)
    if game_type is None or game_type == default_game_type():
        kwargs.setdefault("default", default_game_type())
        kwargs.setdefault("help_text", f"The game; left out, `{default_game_type()}`.")
    return field_class(max_length=32, **kwargs)


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


class GameTypeSerializer(serializers.Serializer):
    """What a client needs to know of a game type to record games of it."""

    game_type = game_type_field(read_only=True)
    label = serializers.CharField()
    log_format = serializers.CharField(help_text="The `format` of its log documents.")
    entries_key = serializers.CharField(
        help_text="Where its log and its game detail list the entries (`rounds`, `turns`)."
    )
    entry_name = serializers.CharField(
        help_text="What one entry is called (`round`, `turn`): the key of an appended entry."
    )
    player_counts = serializers.ListField(child=serializers.IntegerField())
    variants = serializers.ListField(child=serializers.CharField())
    default_variant = serializers.CharField(allow_null=True)
    has_editions = serializers.BooleanField(help_text="Versions of printed data: /api/editions/.")
    default_edition = serializers.CharField(allow_null=True)
    scorepad = serializers.BooleanField(
        help_text="Can be recorded by its final sheet only (/api/games/scorepad/)."
    )
    logged = serializers.BooleanField(
        help_text="Played from a log of entries. False for `other`: every game without an "
        "engine here, recorded by its final scores only (/api/games/result/) under the club's "
        "name for it (/api/board-games/)."
    )
    result_win = serializers.CharField(
        allow_null=True,
        help_text="How a play known by its final scores only (/api/games/result/) is won: "
        "`highest` score, or `manual` (ranks or winners as given). Null for `other`: each named "
        "game says.",
    )
    result_detail = serializers.CharField(help_text="What a seat's entry in the result holds.")


def games_with_editions() -> list[str]:
    return [t for t in game_types() if plugin_for(t).engine.info.has_editions]


def description_field() -> serializers.CharField:
    """An edition's description, as its model's field would be; the service bounds its length
    (too_long), which the schema states."""
    return documented(
        serializers.CharField,
        {"type": "string", "maxLength": MAX_NOTES_LENGTH},
        allow_blank=True,
        required=False,
        style={"base_template": "textarea.html"},
    )


class EditionDataField(serializers.JSONField):
    """An edition's printed data: any JSON here, checked by the game's engine. Documented as one
    of the games' edition data, each as its plugin's API states it (``GameApi``'s
    ``edition_data_schema``), read when the schema is built."""


class EditionSerializer(serializers.ModelSerializer):
    # Any game type is taken here; one without editions is 400 no_editions (the service's).
    game_type = game_type_field(
        documented_values=games_with_editions(), help_text="The game this edition belongs to."
    )
    data = EditionDataField(
        help_text="The printed data, as the game's engine reads it (Pot de Vin: each guild "
        'card to its guild symbols, {"A4": ["nobles"]}, as a deck\'s `cards`; Bruges: '
        '`prestige_points`, 13 integers, and `canal`, {"left": [...], "right": [...]}, 5 '
        'spaces {"cost", "color"} each). Checked by the engine.',
    )
    description = description_field()

    class Meta:
        model = Edition
        fields = ["game_type", "key", "description", "verified", "data", "created_at"]
        read_only_fields = ["created_at"]
        extra_kwargs = {"key": {"validators": []}}  # uniqueness is the service's (409)
        validators: list[Any] = []  # and per game type too


class EditionUpdateSerializer(serializers.ModelSerializer):
    class Meta:
        model = Edition
        fields = ["description", "verified"]


class SeatSerializer(serializers.ModelSerializer):
    player = PlayerRefSerializer(read_only=True)

    class Meta:
        model = Seat
        fields = ["seat", "player", "team", "score", "rank"]


class ResultField(serializers.JSONField):
    """The engine's result; each game's detail documents its own (``result_field``)."""


def result_field(description: str, **kwargs: Any) -> ResultField:
    documented = extend_schema_field(
        {"type": "object", "description": description, "additionalProperties": True}
    )
    return documented(type("GameResultField", (ResultField,), {}))(**kwargs)


class GameEventSerializer(serializers.ModelSerializer):
    """One line of a game's history."""

    action = serializers.ChoiceField(
        choices=GameEvent.Action.choices,
        read_only=True,
        help_text="What was done: `created`, `edited` (date, location or notes), `added`, "
        "`corrected` or `undone` (an entry: a round, a turn; `number` says which), `finished`, "
        "`reopened`, `deleted`.",
    )
    number = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="The entry's number; null for the others."
    )
    user = serializers.SerializerMethodField(
        help_text="Who did it (the username when it was done); null when nobody is known: a "
        "change made before the service kept histories, or by a script."
    )
    at = serializers.DateTimeField(read_only=True)

    class Meta:
        model = GameEvent
        fields = ["action", "number", "user", "at"]

    def get_user(self, event: GameEvent) -> str | None:
        return event.username or None


class GameShareSerializer(serializers.ModelSerializer):
    """A read-only link to one game, for the people at the table without an account."""

    token = serializers.CharField(
        read_only=True, help_text="The link's secret; `DELETE .../shares/{token}/` stops it."
    )
    url = serializers.SerializerMethodField(
        help_text="The page anyone with the link opens: this game only, read-only."
    )
    created_by = serializers.SerializerMethodField(help_text="Who made it; null if unknown.")
    created_at = serializers.DateTimeField(read_only=True)

    class Meta:
        model = GameShare
        fields = ["token", "url", "created_by", "created_at"]

    def get_url(self, share: GameShare) -> str:
        path = share.get_absolute_url()
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    def get_created_by(self, share: GameShare) -> str | None:
        return share.created_by.get_username() if share.created_by else None


class BoardGameRefSerializer(serializers.Serializer):
    """A club's named game, as a play shows it."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    bgg_id = serializers.IntegerField(allow_null=True, help_text="BoardGameGeek id, if known.")
    win = enum_string(BoardGame.Win.values, help_text="How it is won (docs/other-games.md, O2).")


def board_game_ref(game: Game) -> dict[str, Any] | None:
    """The game's named game (selected with it by the game selectors), or None."""
    if game.board_game_id is None:
        return None
    board_game = game.board_game
    assert board_game is not None
    return {
        "id": board_game.pk,
        "name": board_game.name,
        "bgg_id": board_game.bgg_id,
        "win": board_game.win,
    }


class GameListSerializer(serializers.ModelSerializer):
    game_type = game_type_field(read_only=True)
    edition = serializers.CharField(
        read_only=True, allow_null=True, help_text="The edition's key; null for a game without."
    )
    deck = serializers.CharField(
        read_only=True,
        allow_null=True,
        help_text="The same as `edition` (Pot de Vin's name for its editions, kept for its "
        "clients).",
    )
    edition_verified = serializers.BooleanField(
        read_only=True,
        allow_null=True,
        help_text="Whether the edition was checked against the printed material: scores from "
        "an unverified one may change once it is corrected. Null for a game without editions.",
    )
    club = serializers.CharField(source="club.slug", read_only=True, help_text="The club's slug.")
    owner = serializers.CharField(source="owner.get_username", read_only=True)
    seats = SeatSerializer(many=True, read_only=True)
    winners = serializers.SerializerMethodField()
    mode = serializers.ChoiceField(
        choices=Game.Mode.choices,
        read_only=True,
        help_text="How it was recorded: `rounds` (entry by entry, every entry checked), "
        "`scorepad` (its final sheet, scored by the game's rules) or `result` (its final "
        "scores, ranks or winners only, checked for consistency: every play of a club's named "
        "game, and a play brought in from another app).",
    )
    board_game = BoardGameRefSerializer(
        read_only=True,
        allow_null=True,
        help_text="Game type `other`: the club's named game played (/api/board-games/); null "
        "for the others.",
    )
    duration = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="Minutes played, if known."
    )

    class Meta:
        model = Game
        fields = [
            "id",
            "club",
            "game_type",
            "board_game",
            "edition",
            "deck",
            "edition_verified",
            "played_on",
            "location",
            "duration",
            "mode",
            "status",
            "player_count",
            "owner",
            "seats",
            "winners",
            "created_at",
        ]

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_winners(self, game: Game) -> list[int]:
        return [s.seat for s in game.seats.all() if s.rank == 1]

    def to_representation(self, game: Game) -> dict[str, Any]:
        # Written out by hand: the generic field-by-field path is most of a read's time.
        # The declared fields above stay the documented shape (the schema tests hold them).
        seats = [
            {
                "seat": s.seat,
                "player": {"id": s.player_id, "name": s.player.name},
                "team": s.team,
                "score": s.score,
                "rank": s.rank,
            }
            for s in game.seats.all()
        ]
        edition = game.edition.key if game.edition_id is not None else None
        return {
            "id": game.pk,
            "club": game.club.slug,
            "game_type": game.game_type,
            "board_game": board_game_ref(game),
            "edition": edition,
            "deck": edition,
            "edition_verified": game.edition.verified if game.edition_id is not None else None,
            "played_on": game.played_on.isoformat(),
            "location": game.location,
            "duration": game.duration,
            "mode": game.mode,
            "status": game.status,
            "player_count": game.player_count,
            "owner": game.owner.get_username(),
            "seats": seats,
            "winners": [s["seat"] for s in seats if s["rank"] == 1],
            "created_at": _datetime(game.created_at),
        }


class GameSourceSerializer(serializers.ModelSerializer[PlaySource]):
    app = serializers.ChoiceField(
        choices=PlaySource.App.choices, help_text="`bgstats` (BG Stats) or `bgg` (BoardGameGeek)."
    )
    external_id = serializers.CharField(
        help_text="The app's id of the play: BG Stats' uuid, BoardGameGeek's play id."
    )

    class Meta:
        model = PlaySource
        fields = ["app", "external_id", "imported_at"]


class GameDetailBaseSerializer(GameListSerializer):
    """A game with what every game has; a game's plugin subclasses it with its own fields
    (declared, for the schema, and filled in by ``game_fields``)."""

    result = result_field("The engine's result.", read_only=True)
    teams = serializers.JSONField(read_only=True)
    bgstats_url = serializers.URLField(
        read_only=True,
        allow_null=True,
        help_text="A finished game's result as BG Stats' `createPlay` link: opened on a phone "
        "with the app, it shows the play to save there (and post on to BoardGameGeek). Null "
        "for a game in progress, and for a play that came from BG Stats.",
    )

    source = GameSourceSerializer(
        read_only=True,
        allow_null=True,
        help_text="Where an imported play came from: the other app and its id of the play "
        "(importing the same file again finds it there). Null for a game recorded here.",
    )

    class Meta(GameListSerializer.Meta):
        fields = [
            *GameListSerializer.Meta.fields,
            "source",
            "notes",
            "first_player",
            "teams",
            "result",
            "engine_version",
            "updated_at",
            "finished_at",
            "bgstats_url",
        ]

    def game_fields(self, game: Game) -> dict[str, Any]:
        """The game's own fields (its plugin's)."""
        return {}

    def to_representation(self, game: Game) -> dict[str, Any]:
        body = super().to_representation(game)
        source = selectors.game_source(game)
        body.update(
            source=None if source is None else GameSourceSerializer(source).data,
            notes=game.notes,
            first_player=game.first_player,
            teams=game.teams,
            **self.game_fields(game),
            result=game.result,
            engine_version=game.engine_version,
            updated_at=_datetime(game.updated_at),
            finished_at=_datetime(game.finished_at),
            bgstats_url=exports.bgstats_url(game=game),
        )
        return body


def entries_of(game: Game) -> list[dict[str, Any]]:
    """The game's entries as shown: each one as its engine reads it, with its ``number``
    (from the prefetched rounds of ``selectors.game_detail_queryset``)."""
    return [{"number": r.number, **r.data} for r in game.rounds.all()]


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


def first_player_field(player_counts: Sequence[int] = ()) -> serializers.IntegerField:
    """The seat that starts, checked for shape (0 to MAX_PLAYERS - 1: the engine says which
    seats its game has, bad_first_player), documented with the game's ``player_counts``."""
    return documented(
        serializers.IntegerField,
        {"type": "integer", "minimum": 0, "maximum": max(player_counts, default=MAX_PLAYERS) - 1},
        min_value=0,
        max_value=MAX_PLAYERS - 1,
        help_text="The seat that starts.",
    )


class GameMetaSerializer(serializers.Serializer):
    """What every new game takes, however it is recorded."""

    # The game's player counts, for the schema (its engine checks them: bad_player_count).
    player_counts: Sequence[int] = ()

    club = club_field()
    players = players_field()
    played_on = serializers.DateField(required=False)
    location = serializers.CharField(
        max_length=MAX_LOCATION_LENGTH, required=False, allow_blank=True
    )
    notes = serializers.CharField(max_length=MAX_NOTES_LENGTH, required=False, allow_blank=True)

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        if self.player_counts:  # the same checks, documented with the game's counts
            fields["players"] = players_field(self.player_counts)
        return fields

    def game_args(self) -> dict[str, Any]:
        """The game's own arguments of ``services.game_create`` (or of
        ``services.scorepad_game_create``): edition, variant, teams, setup, finish, sheet."""
        return {}


class GameCreateSerializer(GameMetaSerializer):
    """The base of a game's body for ``POST /api/games/``."""

    first_player = first_player_field()

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        if self.player_counts:  # the same checks, documented with the game's seats
            fields["first_player"] = first_player_field(self.player_counts)
        return fields


class EntryInputSerializer(serializers.Serializer):
    """The base of one entry as a client sends it (append, correct)."""

    number = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ENTRY_NUMBER,
        help_text="Append: the number this entry should get. When the game has moved on "
        "(another client appended first) the request gets 409 `round_conflict`.",
    )

    def entry_data(self) -> dict[str, Any]:
        """The entry exactly as the engine reads it (and as it is stored)."""
        raise NotImplementedError


class FinishSerializer(serializers.Serializer):
    """The base of a game's end-of-game choices (``POST /api/games/{id}/finish/``)."""

    def finish_data(self) -> dict[str, Any] | None:
        """The choices for ``services.game_finish`` (None: the engine's own)."""
        return None


class GameUpdateSerializer(serializers.ModelSerializer):
    class Meta:
        model = Game
        fields = ["played_on", "location", "notes"]
        extra_kwargs = {"notes": {"max_length": MAX_NOTES_LENGTH}}


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
