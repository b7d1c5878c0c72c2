"""A game as the API shows it (in a list, in full, its history and share links) and what every
new game takes, the bases of each game's own shapes; and what a client needs to know of a game
type to record games of it."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.serializers.fields import (
    MAX_ID,
    MAX_PLAYERS,
    documented,
    enum_string,
    game_type_field,
    result_field,
)
from games.api.serializers.players import PlayerRefSerializer, club_field, players_field
from games.exchange import exports
from games.records import selectors
from games.records.models import (
    MAX_LOCATION_LENGTH,
    MAX_NOTES_LENGTH,
    BoardGame,
    Game,
    GameEvent,
    GameShare,
    PlaySource,
    Seat,
)

_DATETIME = serializers.DateTimeField()


def _datetime(value: datetime.datetime | None) -> str | None:
    return None if value is None else _DATETIME.to_representation(value)


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


class SeatSerializer(serializers.ModelSerializer):
    player = PlayerRefSerializer(read_only=True)

    class Meta:
        model = Seat
        fields = ["seat", "player", "team", "score", "rank"]


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


class GameVersionSerializer(serializers.Serializer):
    """A game's version, the cheap read of a client following the game."""

    version = serializers.IntegerField(
        min_value=0,
        help_text="The game's version: it moves with every change of what the game's reads "
        "show (an entry added, corrected or undone, a finish, a reopening, an edit, a re-score, "
        "a player renamed). Compare versions for equality only.",
    )
    changed = serializers.BooleanField(
        help_text="Whether `version` differs from `since` (true without `since`)."
    )


class GameVersionQuerySerializer(serializers.Serializer):
    """``since``: digits only, at most MAX_ID (a version is never more)."""

    since = serializers.RegexField(r"^[0-9]{1,19}\Z", required=False, trim_whitespace=False)

    def validate_since(self, value: str) -> int:
        number: int = serializers.IntegerField(max_value=MAX_ID).run_validation(value)
        return number


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


class GameUpdateSerializer(serializers.ModelSerializer):
    class Meta:
        model = Game
        fields = ["played_on", "location", "notes"]
        extra_kwargs = {"notes": {"max_length": MAX_NOTES_LENGTH}}
