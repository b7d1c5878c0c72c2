"""The API of a club's named games (``/api/board-games/``) and of plays known by their final
scores only (``POST /api/games/result/``, any game type). Shape only here; the services
(``games.records.board_games``) and the generic scorer check the rest, with their own codes."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import Count, QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, viewsets

from games.api.permissions import ClubWrites
from games.api.serializers import (
    KEY_SCHEMA,
    MAX_ID,
    MAX_PLAYERS,
    GameMetaSerializer,
    club_field,
    documented,
    enum_string,
    errors,
    game_type_field,
    id_parameter,
    many,
)
from games.records import access, board_games
from games.records.errors import RecordError
from games.records.models import MAX_GAME_NAME_LENGTH, BoardGame, Club, Edition
from scoring.engine.other.rules import WIN_RULES

BOARD_GAME_ID = id_parameter("The named game's id.")
# Shape bounds only: the service says what a BoardGameGeek id, a duration or a rank may be.
_BGG_ID: dict[str, Any] = {"type": "integer", "minimum": 1, "maximum": board_games.MAX_BGG_ID}
_SEAT: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}


def _win_field(**kwargs: Any) -> serializers.CharField:
    return enum_string(
        WIN_RULES,
        max_length=16,
        help_text="How it is won (docs/other-games.md, O2): `highest` or `lowest` score, "
        "`manual` (ranks or winners as marked), `cooperative` (the players win or lose "
        "together).",
        **kwargs,
    )


class BoardGameSerializer(serializers.ModelSerializer):
    """A game the club plays that has no engine here, named by the club."""

    club = club_field(write_only=False)  # shown; taken on create only
    name = documented(
        serializers.CharField,
        {"type": "string", "minLength": 1, "maxLength": MAX_GAME_NAME_LENGTH, "pattern": "\\S"},
        # The length, blank names and unusual characters are the name rule's (its codes).
        trim_whitespace=False,
        allow_blank=True,
        max_length=4 * MAX_GAME_NAME_LENGTH,
        help_text="Unique in the club (case and Unicode forms folded, like player names).",
    )
    bgg_id = documented(
        serializers.IntegerField,
        {**_BGG_ID, "nullable": True},
        required=False,
        allow_null=True,
        help_text="Its BoardGameGeek id, if known.",
    )
    win = _win_field(required=False, default=BoardGame.Win.HIGHEST)
    plays = serializers.IntegerField(read_only=True, help_text="Plays recorded.")

    class Meta:
        model = BoardGame
        fields = ["id", "club", "name", "bgg_id", "win", "plays", "created_at"]
        read_only_fields = ["id", "plays", "created_at"]
        validators: list[Any] = []  # uniqueness is the service's (409 board_game_exists)

    def to_representation(self, board_game: BoardGame) -> dict[str, Any]:
        return {
            "id": board_game.pk,
            "club": board_game.club.slug,
            "name": board_game.name,
            "bgg_id": board_game.bgg_id,
            "win": board_game.win,
            "plays": getattr(board_game, "plays", None) or board_game.games.count(),
            "created_at": serializers.DateTimeField().to_representation(board_game.created_at),
        }


class BoardGameUpdateSerializer(BoardGameSerializer):
    """A change of a named game's name, BoardGameGeek id or way to win (which re-scores its
    plays, all or none: 400 `win_refused` names the first play the new way cannot score)."""

    name = documented(
        serializers.CharField,
        {"type": "string", "minLength": 1, "maxLength": MAX_GAME_NAME_LENGTH, "pattern": "\\S"},
        trim_whitespace=False,
        allow_blank=True,
        max_length=4 * MAX_GAME_NAME_LENGTH,
        required=False,
    )
    win = _win_field(required=False)

    class Meta(BoardGameSerializer.Meta):
        fields = ["name", "bgg_id", "win"]


class BoardGameFilter(django_filters.FilterSet):
    club = django_filters.CharFilter(field_name="club__slug", label="Club slug", max_length=50)

    class Meta:
        model = BoardGame
        fields = {"name": ["exact", "icontains"], "bgg_id": ["exact"]}


@extend_schema_view(
    list=extend_schema(responses={200: BoardGameSerializer(many=True), **errors(400, 401, 404)}),
    retrieve=extend_schema(
        parameters=[BOARD_GAME_ID], responses={200: BoardGameSerializer, **errors(401, 404)}
    ),
    create=extend_schema(
        examples=[
            OpenApiExample(
                "Carcassonne, highest score wins",
                value={"name": "Carcassonne", "bgg_id": 822, "win": "highest"},
                request_only=True,
            )
        ],
        responses={201: BoardGameSerializer, **errors(400, 401, 403, 409, 413, 429)},
    ),
    partial_update=extend_schema(
        parameters=[BOARD_GAME_ID],
        request=BoardGameUpdateSerializer,
        responses={200: BoardGameSerializer, **errors(400, 401, 403, 404, 409, 413, 429)},
    ),
    destroy=extend_schema(
        parameters=[BOARD_GAME_ID], responses={204: None, **errors(401, 403, 404, 409, 429)}
    ),
)
class BoardGameViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """A club's named games: the games it plays that have no engine here, each with its
    BoardGameGeek id and how it is won. Their plays are recorded by their final scores
    (`POST /api/games/result/`, game type `other`), and each has its own statistics and
    ratings (`?game_type=other-{id}`). A club's recorders add and change them; the one who
    added one, or an admin, deletes it; one with plays cannot be deleted (409)."""

    permission_classes = [*viewsets.GenericViewSet.permission_classes, ClubWrites]
    owner_field = "created_by_id"
    http_method_names = ["get", "post", "patch", "delete"]
    filterset_class = BoardGameFilter

    def get_queryset(self) -> QuerySet[BoardGame]:
        return (
            board_games.board_games(self.request.user)
            .select_related("club")
            .annotate(plays=Count("games"))
            .order_by("name", "id")
        )

    def get_serializer_class(self) -> type[serializers.BaseSerializer[BoardGame]]:
        if self.action == "partial_update":
            return BoardGameUpdateSerializer
        return BoardGameSerializer

    def perform_create(self, serializer: serializers.BaseSerializer[BoardGame]) -> None:
        data = serializer.validated_data
        club = access.club_for_new(self.request.user, data.get("club"))
        serializer.instance = board_games.board_game_create(
            club=club,
            name=data["name"],
            bgg_id=data.get("bgg_id"),
            win=data.get("win", BoardGame.Win.HIGHEST),
            by=self.request.user,
        )

    def perform_update(self, serializer: serializers.BaseSerializer[BoardGame]) -> None:
        board_game = serializer.instance
        assert board_game is not None
        serializer.instance = board_games.board_game_update(
            board_game=board_game, by=self.request.user, **serializer.validated_data
        )

    def perform_destroy(self, instance: BoardGame) -> None:
        board_games.board_game_delete(board_game=instance)


class ResultLineSerializer(serializers.Serializer):
    """One seat's line of the final sheet: each part may be null or left out (O1)."""

    score = serializers.IntegerField(
        required=False, allow_null=True, help_text="The final score (a team's: the same)."
    )
    rank = documented(
        serializers.IntegerField,
        {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS, "nullable": True},
        required=False,
        allow_null=True,
        help_text="The place, counted like 1, 1, 3.",
    )
    winner = serializers.BooleanField(
        required=False, allow_null=True, default=None, help_text="Marked a winner, or not."
    )


def _teams_field() -> serializers.ListField:
    return serializers.ListField(
        child=serializers.ListField(
            child=documented(serializers.IntegerField, _SEAT, min_value=-1000, max_value=1000),
            min_length=1,
            max_length=MAX_PLAYERS,
        ),
        required=False,
        allow_null=True,
        min_length=1,
        max_length=MAX_PLAYERS,
        help_text="Seats by team, every seat in one; left out or null: no teams. A "
        "cooperative game is one team.",
    )


class ResultGameSerializer(GameMetaSerializer):
    """A finished play known by its final scores, ranks or winners only (`mode` `result`), of
    any game type: a club's named game (`other`, with `board_game`), or one of ours brought in
    without its sheet (won by its highest score; Complots by the ranks or winners given)."""

    game_type = game_type_field()
    board_game = documented(
        serializers.IntegerField,
        {"type": "integer", "minimum": 1, "maximum": MAX_ID},
        required=False,
        allow_null=True,
        min_value=1,
        help_text="Game type `other`: the id of the club's named game played.",
    )
    sheet = many(
        ResultLineSerializer,
        min_length=1,
        max_length=MAX_PLAYERS,
        help_text="One line per seat, in seat order.",
    )
    teams = _teams_field()
    won = serializers.BooleanField(
        required=False, allow_null=True, default=None, help_text="Cooperative: did they win?"
    )
    first_player = documented(
        serializers.IntegerField,
        {**_SEAT, "nullable": True},
        required=False,
        allow_null=True,
        min_value=-1000,
        max_value=1000,
        help_text="The seat that started, if known.",
    )
    duration = documented(
        serializers.IntegerField,
        {"type": "integer", "minimum": 0, "maximum": board_games.MAX_DURATION, "nullable": True},
        required=False,
        allow_null=True,
        help_text="Minutes played.",
    )
    edition = documented(
        serializers.CharField,
        {**KEY_SCHEMA, "nullable": True},
        required=False,
        allow_null=True,
        max_length=64,
        help_text="A game with editions: the edition's key (left out: its default).",
    )

    def game_args(self, club: Club) -> dict[str, Any]:
        """The arguments of ``board_games.result_game_create`` besides the meta's: the named
        game (one of ``club``'s: another club's is unknown, like one that does not exist) and
        the edition looked up."""
        data = self.validated_data
        board_game = None
        if data.get("board_game") is not None:
            board_game = BoardGame.objects.filter(club=club, pk=data["board_game"]).first()
            if board_game is None:
                raise RecordError("unknown_board_game", _("the club has no such game"))
        edition = None
        if data.get("edition") is not None:
            edition = Edition.objects.filter(
                game_type=data["game_type"], key=data["edition"]
            ).first()
            if edition is None:
                raise RecordError(
                    "unknown_edition", _("no edition %(key)r is stored") % {"key": data["edition"]}
                )
        return {
            "board_game": board_game,
            "sheet": [
                {k: line.get(k) for k in ("score", "rank", "winner")} for line in data["sheet"]
            ],
            "teams": data.get("teams"),
            "won": data.get("won"),
            "first_player": data.get("first_player"),
            "duration": data.get("duration"),
            "edition": edition,
        }


def result_examples() -> list[OpenApiExample]:
    return [
        OpenApiExample(
            "Another game: Carcassonne, highest score wins",
            value={
                "game_type": "other",
                "board_game": 1,
                "players": ["Ada", "Bea", "Cy"],
                "sheet": [{"score": 84}, {"score": 91}, {"score": 84}],
                "first_player": 2,
                "duration": 45,
            },
            request_only=True,
        ),
        OpenApiExample(
            "A cooperative game lost",
            value={
                "game_type": "other",
                "board_game": 2,
                "players": ["Ada", "Bea"],
                "sheet": [{}, {}],
                "won": False,
            },
            request_only=True,
        ),
        OpenApiExample(
            "Bruges brought in by its final scores",
            value={
                "game_type": "bruges",
                "players": ["Ada", "Bea"],
                "sheet": [{"score": 62}, {"score": 58}],
            },
            request_only=True,
        ),
    ]
