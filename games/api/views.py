"""Thin API views: check the request's shape, call a service, return what it made. Every game is
served by the same views; its shapes come from its plugin (games/api/plugins.py)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import exceptions, mixins, serializers, status, viewsets
from rest_framework.authtoken import serializers as authtoken_serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from games.api.board_games import ResultGameSerializer, result_examples
from games.api.permissions import ClubWrites, StaffWrites
from games.api.plugins import api_for, entry_appended, examples, one_of, shape
from games.api.serializers import (
    CLUB_QUERY,
    IMPORT_REQUEST_SCHEMA,
    KEY_SCHEMA,
    MAX_ENTRY_NUMBER,
    MAX_ID,
    MAX_IMPORT_DOCUMENTS,
    EditionSerializer,
    EditionUpdateSerializer,
    GameEventSerializer,
    GameListSerializer,
    GameShareSerializer,
    GameTypeSerializer,
    GameUpdateSerializer,
    ImportResponseSerializer,
    MeSerializer,
    PlayerSerializer,
    default_game_type,
    documented,
    entries_of,
    errors,
    games_with_editions,
    id_parameter,
    log_documents,
)
from games.records import access, board_games, selectors, services
from games.records.errors import RecordError
from games.records.game_types import game_types, plugin_for, plugins
from games.records.models import Club, Edition, Game, Player

__all__ = ["errors"]  # other apps' views document their errors with it

# The game-shaped bodies, one per game, read from the plugins when the schema is built.
GAME_DETAIL = one_of("GameDetail", lambda p, a: a.detail, discriminator="game_type")
GAME_CREATE = one_of("GameCreate", lambda p, a: a.create, discriminator="game_type")
GAME_SCOREPAD = one_of(
    "GameScorepad",
    lambda p, a: a.scorepad if p.engine.info.scorepad else None,
    discriminator="game_type",
)
GAME_LOG = one_of(
    "GameLog", lambda p, a: a.log, discriminator="format", key=lambda p, a: p.engine.log_format
)


# Games without end-of-game choices take no body: only the others' are documented.
GAME_FINISH = one_of(
    "GameFinish", lambda p, a: a.finish if a.finish is not None and a.finish().fields else None
)
ENTRY_INPUT = one_of("EntryInput", lambda p, a: a.entry)
ENTRY = one_of("Entry", lambda p, a: a.entry_out)
ENTRIES = one_of("EntryItem", lambda p, a: a.entry_out, many=True)
ENTRY_APPENDED = one_of("EntryAppended", entry_appended)
NUMBER = OpenApiParameter(
    "number",
    {"type": "integer", "minimum": 1, "maximum": MAX_ENTRY_NUMBER},
    OpenApiParameter.PATH,
    description="1-based entry (a game has at most this many: a higher one is none).",
)
GAME_ID = id_parameter("The game's id.")
PLAYER_ID = id_parameter("The player's id.")
GAME_TYPE_FILTER = OpenApiParameter(
    "game_type", str, OpenApiParameter.QUERY, enum=game_types(), description="Of this game only."
)


class MeView(APIView):
    """The signed-in user, their clubs with their role in each, and the player linked to the
    account (in its first club), if any."""

    # Never public: an anonymous reader has no account to show.
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="me", responses={200: MeSerializer, **errors(401)})
    def get(self, request: Request) -> Response:
        user = request.user
        return Response(
            {
                "id": user.pk,
                "username": user.get_username(),
                "is_staff": user.is_staff,
                "player": selectors.player_id_of(user),
                "clubs": selectors.clubs_of(user),
            }
        )


class AuthTokenSerializer(authtoken_serializers.AuthTokenSerializer):
    """Documentation only (the view's own serializer checks the request): a username and a
    password, neither blank (the username is trimmed first)."""

    username = documented(
        serializers.CharField, {"type": "string", "minLength": 1, "pattern": "\\S"}, write_only=True
    )
    password = documented(
        serializers.CharField, {"type": "string", "minLength": 1}, write_only=True
    )


class TokenView(ObtainAuthToken):
    """Sign in with a username and password; returns the token for the `Authorization: Token
    <token>` header."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "signin"
    permission_classes: list[type] = []
    parser_classes = ObtainAuthToken.parser_classes

    @extend_schema(
        operation_id="auth_token",
        request=AuthTokenSerializer,
        responses={
            200: inline_serializer("Token", {"token": serializers.CharField()}),
            **errors(400, 413, 415, 429),
        },
        auth=[],
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().post(request, *args, **kwargs)


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


class PlayerFilter(django_filters.FilterSet):
    club = django_filters.CharFilter(field_name="club__slug", label="Club slug", max_length=50)

    class Meta:
        model = Player
        fields = {"name": ["exact", "icontains"]}


@extend_schema_view(
    list=extend_schema(responses={200: PlayerSerializer(many=True), **errors(400, 401, 404)}),
    retrieve=extend_schema(
        parameters=[PLAYER_ID], responses={200: PlayerSerializer, **errors(401, 404)}
    ),
    create=extend_schema(responses={201: PlayerSerializer, **errors(400, 401, 403, 409, 413, 429)}),
    partial_update=extend_schema(
        parameters=[PLAYER_ID],
        responses={200: PlayerSerializer, **errors(400, 401, 403, 404, 409, 413, 429)},
    ),
    destroy=extend_schema(
        parameters=[PLAYER_ID], responses={204: None, **errors(401, 403, 404, 409, 429)}
    ),
)
class PlayerViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """The people who play in your clubs: each club's roster (`club`: its slug). A club's
    recorders add players and rename them; the one who added a player, or an admin, deletes
    one; a player with games cannot be deleted."""

    serializer_class = PlayerSerializer
    permission_classes = [*viewsets.GenericViewSet.permission_classes, ClubWrites]
    owner_field = "created_by_id"
    http_method_names = ["get", "post", "patch", "delete"]
    filterset_class = PlayerFilter

    def get_queryset(self) -> QuerySet[Player]:
        return access.players(self.request.user).select_related("club")

    def perform_create(self, serializer: serializers.BaseSerializer[Player]) -> None:
        club = access.club_for_new(self.request.user, serializer.validated_data.get("club"))
        serializer.instance = services.player_create(
            club=club, name=serializer.validated_data["name"], created_by=self.request.user
        )

    def perform_update(self, serializer: serializers.BaseSerializer[Player]) -> None:
        player = serializer.instance
        assert player is not None
        name = serializer.validated_data.get("name", player.name)
        services.player_update(player=player, name=name, by=self.request.user)


def _game_type_choices() -> list[tuple[str, str]]:
    return [(game_type, plugin.label) for game_type, plugin in plugins().items()]


class EditionFilter(django_filters.FilterSet):
    game_type = django_filters.ChoiceFilter(choices=_game_type_choices)

    class Meta:
        model = Edition
        fields = ["game_type"]


def _edition_path() -> list[OpenApiParameter]:
    """An edition's place: its game (one with editions; another has none: 404) and key."""
    named = games_with_editions()
    return [
        OpenApiParameter(
            "game_type",
            {"type": "string", "pattern": f"^({'|'.join(named)})$"},
            OpenApiParameter.PATH,
            description="The game (one with editions).",
        ),
        OpenApiParameter("key", KEY_SCHEMA, OpenApiParameter.PATH, description="Its key."),
    ]


def _edition_examples() -> list[OpenApiExample]:
    """A new version of each game's default edition, with that edition's data."""
    examples = []
    for game_type in games_with_editions():
        info = plugin_for(game_type).engine.info
        default = info.default_edition
        assert default is not None, game_type
        examples.append(
            OpenApiExample(
                f"{info.label}: a new version of {default}",
                value={
                    "game_type": game_type,
                    "key": f"{default}-2",
                    "description": f"{default}, corrected",
                    "data": info.builtin_editions[default]["data"],
                },
                request_only=True,
            )
        )
    return examples


@extend_schema_view(
    list=extend_schema(
        parameters=[GAME_TYPE_FILTER],
        responses={200: EditionSerializer(many=True), **errors(400, 401, 404)},
    ),
    retrieve=extend_schema(
        parameters=_edition_path(), responses={200: EditionSerializer, **errors(401, 404)}
    ),
    create=extend_schema(
        examples=_edition_examples(),
        responses={201: EditionSerializer, **errors(400, 401, 409, 413, 429)},
    ),
    partial_update=extend_schema(
        parameters=_edition_path(),
        request=EditionUpdateSerializer,
        responses={200: EditionSerializer, **errors(400, 401, 403, 404, 413, 429)},
    ),
)
class EditionViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Editions: versions of a game's printed data that can be wrong (Pot de Vin: its decks),
    at /api/editions/{game_type}/{key}/. An edition's data never changes: a correction is a new
    version, and stored games can be re-scored with it. Staff mark an edition verified."""

    serializer_class = EditionSerializer
    filterset_class = EditionFilter
    http_method_names = ["get", "post", "patch"]

    def get_queryset(self) -> QuerySet[Edition]:
        return Edition.objects.all()

    def get_object(self) -> Edition:
        edition = get_object_or_404(
            self.get_queryset(), game_type=self.kwargs["game_type"], key=self.kwargs["key"]
        )
        self.check_object_permissions(self.request, edition)
        return edition

    def get_permissions(self) -> list[Any]:
        if self.action == "partial_update":
            return [*super().get_permissions(), StaffWrites()]
        return super().get_permissions()

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Edition]]:
        return EditionUpdateSerializer if self.action == "partial_update" else EditionSerializer

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        api_for(_body_game_type(request))  # an unknown game: unknown_game_type
        data = _valid(EditionSerializer, request)
        edition = services.edition_create(
            game_type=data["game_type"],
            key=data["key"],
            data=data["data"],
            description=data.get("description", ""),
            verified=False,  # only staff mark an edition verified, after checking it
            created_by=request.user,
        )
        return Response(EditionSerializer(edition).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        super().update(request, *args, **kwargs)
        return Response(EditionSerializer(self.get_object()).data)


class GameFilter(django_filters.FilterSet):
    club = django_filters.CharFilter(field_name="club__slug", label="Club slug", max_length=50)
    game_type = django_filters.ChoiceFilter(choices=_game_type_choices)
    # Bounded: SQLite cannot even compare with an integer past 64 bits (a 500 otherwise).
    player = django_filters.NumberFilter(
        field_name="seats__player", label="Player id", min_value=0, max_value=2**63 - 1
    )
    date_from = django_filters.DateFilter(field_name="played_on", lookup_expr="gte")
    date_to = django_filters.DateFilter(field_name="played_on", lookup_expr="lte")
    players = django_filters.NumberFilter(
        field_name="player_count", label="Number of players", min_value=0, max_value=32767
    )
    # A named game of another club finds nothing, like one that does not exist.
    board_game = django_filters.NumberFilter(
        field_name="board_game", label="Named game id", min_value=0, max_value=2**63 - 1
    )

    class Meta:
        model = Game
        fields = ["game_type", "status", "mode"]


# The entry views, each under two names: /rounds/ and, for games played turn by turn, /turns/.
ENTRIES_SCHEMA = [
    extend_schema(
        methods=["GET"], parameters=[GAME_ID], responses={200: ENTRIES, **errors(401, 404)}
    ),
    extend_schema(
        methods=["POST"],
        parameters=[GAME_ID],
        request=ENTRY_INPUT,
        examples=examples(lambda a: a.entry_examples),
        responses={201: ENTRY_APPENDED, **errors(400, 401, 403, 404, 409, 413, 429)},
    ),
]
UNDO_SCHEMA = [
    extend_schema(
        parameters=[GAME_ID],
        request=None,
        responses={200: GAME_DETAIL, **errors(401, 403, 404, 409, 429)},
    )
]
ENTRY_SCHEMA = [
    extend_schema(
        methods=["GET"], parameters=[GAME_ID, NUMBER], responses={200: ENTRY, **errors(401, 404)}
    ),
    extend_schema(
        methods=["PUT"],
        parameters=[GAME_ID, NUMBER],
        request=ENTRY_INPUT,
        examples=examples(lambda a: a.entry_examples),
        responses={200: GAME_DETAIL, **errors(400, 401, 403, 404, 409, 413, 429)},
    ),
]


def _documented(schemas: list[Any]) -> Any:
    def decorate(view: Any) -> Any:
        for schema in reversed(schemas):
            view = schema(view)
        return view

    return decorate


@extend_schema_view(
    list=extend_schema(
        parameters=[
            GAME_TYPE_FILTER,
            OpenApiParameter(
                "player",
                {"type": "integer", "minimum": 0, "maximum": MAX_ID},
                OpenApiParameter.QUERY,
                description="Player id: the games this player sat at.",
            ),
            OpenApiParameter(
                "players",
                {"type": "integer", "minimum": 0, "maximum": 32767},
                OpenApiParameter.QUERY,
                description="Number of players.",
            ),
            OpenApiParameter(
                "board_game",
                {"type": "integer", "minimum": 0, "maximum": MAX_ID},
                OpenApiParameter.QUERY,
                description="The plays of this named game of the club (/api/board-games/).",
            ),
        ],
        responses={200: GameListSerializer(many=True), **errors(400, 401, 404)},
    ),
    retrieve=extend_schema(parameters=[GAME_ID], responses={200: GAME_DETAIL, **errors(401, 404)}),
    partial_update=extend_schema(
        parameters=[GAME_ID],
        request=GameUpdateSerializer,
        responses={200: GAME_DETAIL, **errors(400, 401, 403, 404, 413, 429)},
    ),
    destroy=extend_schema(
        parameters=[GAME_ID], responses={204: None, **errors(401, 403, 404, 429)}
    ),
)
class GameViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """The games of your clubs (`club`: its slug), of every type (`game_type`), recorded entry
    by entry (every entry checked and scored by the game's rules engine) or, for a game that
    has one, by its final sheet (scorepad mode). A club's recorders record and change any of
    its games; the one who created a game, or an admin, deletes it. Anyone reads the finished
    games of a club with public results."""

    permission_classes = [*viewsets.GenericViewSet.permission_classes, ClubWrites]
    public_reads = True  # what anonymous visitors may read: access.games says
    filterset_class = GameFilter
    http_method_names = ["get", "post", "patch", "put", "delete"]

    def get_queryset(self) -> QuerySet[Game]:
        user = self.request.user
        if self.action == "list":
            return access.games(user, selectors.game_list())
        if self.request.method not in ("GET", "HEAD", "OPTIONS"):
            # The services re-read it under a lock; its type picks the shapes of the body.
            return access.games(user, selectors.game_for_write())
        return access.games(user, selectors.game_detail_queryset())

    def get_object(self) -> Game:
        """The game, if the user may read it: 404 for a signed-in user alike for missing and
        not theirs; 401 for an anonymous visitor alike for missing and not public."""
        try:
            game: Game = super().get_object()
        except Http404:
            _sign_in_first(self.request)
            raise
        return game

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if not request.user.is_authenticated:
            # Anonymous visitors list one public club's finished games, named by `club`.
            slug = request.query_params.get("club")
            if not access.is_public(slug):
                _sign_in_first(request)
        return super().list(request, *args, **kwargs)

    def _member_game(self) -> Game:
        """The game, for what only its club's members read (its history, its share links):
        another reader of a public club's game finds nothing."""
        game = self.get_object()
        if not access.may(self.request.user, game.club_id, access.Can.READ):
            _sign_in_first(self.request)
            raise Http404
        return game

    def filter_queryset(self, queryset: QuerySet[Game]) -> QuerySet[Game]:
        # DRF also filters in get_object(); the filters only mean something on the list.
        return super().filter_queryset(queryset) if self.action == "list" else queryset

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Game]]:
        if self.action == "list":
            return GameListSerializer
        if self.action == "partial_update":
            return GameUpdateSerializer
        return GameListSerializer  # only the list uses it; the rest answer with _detail

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(_shown(self.get_object()))

    def _detail(self, game: Game, code: int = status.HTTP_200_OK) -> Response:
        return Response(_shown(selectors.game_detail_queryset().get(pk=game.pk)), status=code)

    def perform_destroy(self, instance: Game) -> None:
        services.game_delete(game=instance, by=self.request.user)  # statistics, ratings follow

    def _game_for_write(self) -> Game:
        return self.get_object()  # runs the object permission check (owner or staff)

    @extend_schema(
        request=GAME_CREATE,
        examples=examples(lambda a: a.create_examples),
        responses={201: GAME_DETAIL, **errors(400, 401, 403, 413, 429)},
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Start a game: `game_type` (left out: `pot-de-vin`), players in seat order, first
        player, and what the game itself takes (Pot de Vin: teams, deck, the deal if the table
        recorded it; Complots: the variant)."""
        serializer = _validated(shape(_body_game_type(request), "create"), request)
        data = serializer.validated_data
        # One transaction: players created by name are not kept when the engine refuses the game.
        club = access.club_for_new(request.user, data.get("club"))
        with transaction.atomic():
            game = services.game_create(
                **_game_meta(request, data, club),
                first_player=data["first_player"],
                **serializer.game_args(),
            )
        return self._detail(game, status.HTTP_201_CREATED)

    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Change the date, location or notes (what the engine does not read)."""
        game = self._game_for_write()
        data = _valid(GameUpdateSerializer, request, partial=True)
        services.game_update(game=game, by=request.user, **data)
        return self._detail(game)

    @extend_schema(
        request=GAME_SCOREPAD,
        examples=examples(lambda a: a.scorepad_examples),
        responses={201: GAME_DETAIL, **errors(400, 401, 403, 413, 429)},
    )
    @action(detail=False, methods=["post"])
    def scorepad(self, request: Request) -> Response:
        """Record a finished game by its final sheet only (no entries), scored with the same
        rules and tie-breaks as a replayed game (Pot de Vin: the final tableaux). A game without
        a scorepad mode is 400 `no_scorepad`."""
        game_type = _body_game_type(request)
        shapes = api_for(game_type).scorepad
        plugin = plugin_for(game_type)
        if shapes is None or not plugin.engine.info.scorepad:
            raise RecordError(
                "no_scorepad",
                _("%(game)s games are recorded entry by entry") % {"game": plugin.label},
            )
        serializer = _validated(shapes, request)
        data = serializer.validated_data
        club = access.club_for_new(request.user, data.get("club"))
        with transaction.atomic():  # as in create: a refused game keeps no new player
            game = services.scorepad_game_create(
                **_game_meta(request, data, club), **serializer.game_args()
            )
        return self._detail(game, status.HTTP_201_CREATED)

    @extend_schema(
        request=ResultGameSerializer,
        examples=result_examples(),
        responses={201: GAME_DETAIL, **errors(400, 401, 403, 409, 413, 429)},
    )
    @action(detail=False, methods=["post"])
    def result(self, request: Request) -> Response:
        """Record a finished play known by its final scores, ranks or winners only (`mode`
        `result`), checked for consistency, not by a game's rules (docs/other-games.md): a play
        of one of the club's named games (`game_type` `other` and `board_game`), or of one of
        ours brought in from another app without its sheet. A refusal names the seat."""
        serializer = _validated(ResultGameSerializer, request)
        data = serializer.validated_data
        club = access.club_for_new(request.user, data.get("club"))
        with transaction.atomic():  # as in create: a refused play keeps no new player
            game = board_games.result_game_create(
                **_game_meta(request, data, club), **serializer.game_args(club)
            )
        return self._detail(game, status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="games_import",
        parameters=[CLUB_QUERY],
        request={"application/json": IMPORT_REQUEST_SCHEMA},
        responses={201: ImportResponseSerializer, **errors(400, 401, 403, 413, 415, 429)},
    )
    @action(detail=False, methods=["post"], url_path="import")
    def import_logs(self, request: Request) -> Response:
        """Create games from log documents of any game (its engine chosen by `format`):
        finished when the log is complete, in progress otherwise. All or nothing: an impossible
        document stores nothing and the error says which (`index`)."""
        documents = log_documents(request.data, MAX_IMPORT_DOCUMENTS)
        club = access.club_for_new(request.user, request.query_params.get("club"))
        games = services.game_import(club=club, owner=request.user, documents=documents)
        body = {
            "games": [
                {
                    "id": g.pk,
                    "game_type": g.game_type,
                    "status": g.status,
                    "player_count": g.player_count,
                    "winners": (g.result or {}).get("winners", []),
                }
                for g in games
            ]
        }
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(parameters=[GAME_ID], responses={200: GAME_LOG, **errors(401, 404, 409)})
    @action(detail=True, methods=["get"])
    def log(self, request: Request, pk: str) -> Response:
        """The game as its engine's log document (`potdevin-log/1`, `complots-log/1`), which
        re-imports to the same result."""
        return Response(services.game_export_log(game=self.get_object()))

    @extend_schema(
        parameters=[GAME_ID],
        responses={200: GameEventSerializer(many=True), **errors(400, 401, 404)},
    )
    @action(detail=True, methods=["get"], filter_backends=[])
    def history(self, request: Request, pk: str) -> Response:
        """Who did what to the game, and when, oldest first, a page at a time: its creation,
        each entry added, corrected or undone (with its number), its edits, finishes and
        reopenings. Stored with each change, so it is kept across restarts and backups."""
        events = self.paginate_queryset(selectors.game_history(game=self._member_game()))
        return self.get_paginated_response(GameEventSerializer(events, many=True).data)

    def _game_for_sharing(self) -> Game:
        """The game, if the user may record it: only the club's recorders see and make its
        share links."""
        if not self.request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        game = self._member_game()
        access.require(self.request.user, game.club_id, access.Can.RECORD)
        return game

    @extend_schema(
        methods=["GET"],
        parameters=[GAME_ID],
        responses={200: GameShareSerializer(many=True), **errors(401, 403, 404)},
    )
    @extend_schema(
        methods=["POST"],
        parameters=[GAME_ID],
        request=None,
        responses={201: GameShareSerializer, **errors(401, 403, 404, 409, 429)},
    )
    @action(detail=True, methods=["get", "post"], filter_backends=[], pagination_class=None)
    def shares(self, request: Request, pk: str) -> Response:
        """The game's active share links (GET), or a new one (POST): a read-only page of this
        game only, for the people at the table without an account. Only the club's recorders
        see and make them; at most 20 at once (409 `too_many_shares`)."""
        game = self._game_for_sharing()
        context = {"request": request}
        if request.method == "POST":
            share = services.share_create(game=game, by=request.user)
            return Response(GameShareSerializer(share, context=context).data, status=201)
        shares = selectors.game_shares(game=game).select_related("created_by")
        return Response(GameShareSerializer(shares, many=True, context=context).data)

    @extend_schema(
        parameters=[GAME_ID, OpenApiParameter("token", str, OpenApiParameter.PATH)],
        request=None,
        responses={204: None, **errors(401, 403, 404, 429)},
    )
    @action(
        detail=True,
        methods=["delete"],
        url_path=r"shares/(?P<token>[A-Za-z0-9_-]{1,64})",
        filter_backends=[],
    )
    def share_stop(self, request: Request, pk: str, token: str) -> Response:
        """Stop a share link: it then opens nothing (404), like a link that never existed."""
        if not services.share_revoke(game=self._game_for_sharing(), token=token):
            raise exceptions.NotFound(_("the game has no such share link"))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        parameters=[GAME_ID],
        request=GAME_FINISH,
        responses={200: GAME_DETAIL, **errors(400, 401, 403, 404, 409, 413, 429)},
    )
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, pk: str) -> Response:
        """Finish a complete game (409 `game_incomplete` otherwise), with the game's end choices
        if it has any (Pot de Vin: an explicit Joker placement, D5; Complots: none, a game is
        complete when one player is left). A finished game is read-only until reopened."""
        game = self._game_for_write()
        serializer = _validated(shape(game.game_type, "finish"), request)
        services.game_finish(game=game, finish=serializer.finish_data(), by=request.user)
        return self._detail(game)

    @extend_schema(
        parameters=[GAME_ID],
        request=None,
        responses={200: GAME_DETAIL, **errors(401, 403, 404, 409, 429)},
    )
    @action(detail=True, methods=["post"])
    def reopen(self, request: Request, pk: str) -> Response:
        """Make a finished game editable again."""
        services.game_reopen(game=self._game_for_write(), by=request.user)
        return self._detail(self.get_object())

    # --- entries: rounds, turns ---------------------------------------------------------------

    # A plain list, neither paginated nor filtered (the schema said both).
    @_documented(ENTRIES_SCHEMA)
    @action(detail=True, methods=["get", "post"], pagination_class=None, filter_backends=[])
    def rounds(self, request: Request, pk: str) -> Response:
        """GET: the entries (rounds, turns) in order. POST: append the next one; the engine
        checks it against the game so far (an impossible entry gets its error code, round (and
        turn) and seat, and nothing is stored), and the response has the entry, under the
        game's `entry_name` (`round`, `turn`), and the standings after it."""
        return self._entries(request)

    @_documented(ENTRIES_SCHEMA)
    @action(detail=True, methods=["get", "post"], pagination_class=None, filter_backends=[])
    def turns(self, request: Request, pk: str) -> Response:
        """The same as `/rounds/`, named for games played turn by turn (Complots)."""
        return self._entries(request)

    def _entries(self, request: Request) -> Response:
        if request.method == "GET":
            return Response(entries_of(self.get_object()))
        game = self._game_for_write()
        serializer = _validated(shape(game.game_type, "entry"), request)
        game, stored = services.round_append(
            game=game,
            round_data=serializer.entry_data(),
            number=serializer.validated_data.get("number"),
            by=request.user,
        )
        entry_name = plugin_for(game.game_type).engine.info.entry_name
        body = {entry_name: {"number": stored.number, **stored.data}, "result": game.result}
        return Response(body, status=status.HTTP_201_CREATED)

    @_documented(UNDO_SCHEMA)
    @action(detail=True, methods=["delete"], url_path="rounds/last")
    def undo(self, request: Request, pk: str) -> Response:
        """Undo the last entry."""
        return self._undo()

    @_documented(UNDO_SCHEMA)
    @action(detail=True, methods=["delete"], url_path="turns/last")
    def undo_turn(self, request: Request, pk: str) -> Response:
        """Undo the last turn (the same as `DELETE /rounds/last/`)."""
        return self._undo()

    def _undo(self) -> Response:
        services.round_undo(game=self._game_for_write(), by=self.request.user)
        return self._detail(self.get_object())

    @_documented(ENTRY_SCHEMA)
    @action(detail=True, methods=["get", "put"], url_path=r"rounds/(?P<number>[0-9]{1,4})")
    def round(self, request: Request, pk: str, number: str) -> Response:
        """GET: one entry. PUT: correct it; every later entry is checked again, and if that
        makes the log impossible nothing changes and the error names the entry that broke."""
        return self._entry(request, int(number))

    @_documented(ENTRY_SCHEMA)
    @action(detail=True, methods=["get", "put"], url_path=r"turns/(?P<number>[0-9]{1,4})")
    def turn(self, request: Request, pk: str, number: str) -> Response:
        """The same as `/rounds/{number}/`, named for games played turn by turn."""
        return self._entry(request, int(number))

    def _entry(self, request: Request, number: int) -> Response:
        if request.method == "GET":
            stored = get_object_or_404(self.get_object().rounds, number=number)
            return Response({"number": stored.number, **stored.data})
        game = self._game_for_write()
        serializer = _validated(shape(game.game_type, "entry"), request)
        services.round_correct(
            game=game, number=number, round_data=serializer.entry_data(), by=request.user
        )
        return self._detail(game)


def _sign_in_first(request: Request) -> None:
    """An anonymous visitor asking for what is not public: 401, whether or not it exists."""
    if not request.user.is_authenticated:
        raise exceptions.NotAuthenticated()


def _shown(game: Game) -> dict[str, Any]:
    """A game as its own detail shows it."""
    data: dict[str, Any] = api_for(game.game_type).detail(game).data
    return data


def _body_game_type(request: Request) -> Any:
    """The game a create request is about: its `game_type`, or the default game."""
    data = request.data
    if isinstance(data, dict):
        return data.get("game_type", default_game_type())
    return default_game_type()


def _game_meta(request: Request, data: dict[str, Any], club: Club) -> dict[str, Any]:
    """What a game takes from a GameMetaSerializer, whichever way it is recorded."""
    return {
        "club": club,
        "owner": request.user,
        "players": services.players_resolve(data["players"], club=club, created_by=request.user),
        "played_on": data.get("played_on"),
        "location": data.get("location", ""),
        "notes": data.get("notes", ""),
        "game_type": data["game_type"],
    }


def _validated(serializer_class: type[Any], request: Request, **kwargs: Any) -> Any:
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer


def _valid(
    serializer_class: type[serializers.Serializer], request: Request, **kwargs: Any
) -> dict[str, Any]:
    return dict(_validated(serializer_class, request, **kwargs).validated_data)
