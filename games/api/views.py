"""Thin API views: check the request's shape, call a service, return what it made."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from games import selectors, services
from games.api.serializers import (
    IMPORT_REQUEST_SCHEMA,
    MAX_IMPORT_DOCUMENTS,
    DeckSerializer,
    DeckUpdateSerializer,
    ErrorSerializer,
    FinishSerializer,
    GameCreateSerializer,
    GameDetailSerializer,
    GameListSerializer,
    GameUpdateSerializer,
    ImportResponseSerializer,
    LogDocumentSerializer,
    MeSerializer,
    PlayerSerializer,
    RoundAppendResponseSerializer,
    RoundInputSerializer,
    RoundSerializer,
    ScorepadCreateSerializer,
    log_documents,
)
from games.errors import GameConflict
from games.models import Deck, Game, Player, name_key
from potdevin_site.permissions import OwnerOrStaffWrites, StaffWrites


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {c: OpenApiResponse(ErrorSerializer) for c in codes}


ROUND_EXAMPLE = OpenApiExample(
    "A round",
    value={
        "number": 1,
        "trump": "E5",
        "plays": [{"seat": 1, "card": "A7"}, {"seat": 2, "pass": True}, {"seat": 0, "card": "A9"}],
    },
    request_only=True,
)


class MeView(APIView):
    """The signed-in user, and the player linked to the account, if any."""

    # Never public: an anonymous reader (POTDEVIN_PUBLIC_READS) has no account to show.
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
            }
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
        request=ObtainAuthToken.serializer_class,
        responses={
            200: inline_serializer("Token", {"token": serializers.CharField()}),
            **errors(400, 413, 415, 429),
        },
        auth=[],
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().post(request, *args, **kwargs)


@extend_schema_view(
    list=extend_schema(responses={200: PlayerSerializer(many=True), **errors(400, 401, 404)}),
    retrieve=extend_schema(responses={200: PlayerSerializer, **errors(401, 404)}),
    create=extend_schema(responses={201: PlayerSerializer, **errors(400, 401, 409, 413, 429)}),
    partial_update=extend_schema(
        responses={200: PlayerSerializer, **errors(400, 401, 403, 404, 409, 413, 429)}
    ),
    destroy=extend_schema(responses={204: None, **errors(401, 403, 404, 409, 429)}),
)
class PlayerViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """People who play, across games. Whoever created a player (or staff) may rename or delete
    one; a player with games cannot be deleted."""

    serializer_class = PlayerSerializer
    permission_classes = [*viewsets.GenericViewSet.permission_classes, OwnerOrStaffWrites]
    owner_field = "created_by_id"
    http_method_names = ["get", "post", "patch", "delete"]
    filterset_fields = {"name": ["exact", "icontains"]}

    def get_queryset(self) -> QuerySet[Player]:
        return Player.objects.all()

    def perform_create(self, serializer: serializers.BaseSerializer[Player]) -> None:
        serializer.instance = services.player_create(
            name=serializer.validated_data["name"], created_by=self.request.user
        )

    def perform_update(self, serializer: serializers.BaseSerializer[Player]) -> None:
        player = serializer.instance
        assert player is not None
        name = serializer.validated_data.get("name", player.name)
        if Player.objects.filter(name_key=name_key(name)).exclude(pk=player.pk).exists():
            raise GameConflict("player_exists", f"a player called {name!r} already exists")
        try:
            with transaction.atomic():
                serializer.save()
        except IntegrityError as exc:  # a concurrent rename to the same name
            raise GameConflict("player_exists", f"a player called {name!r} already exists") from exc


@extend_schema_view(
    list=extend_schema(responses={200: DeckSerializer(many=True), **errors(400, 401, 404)}),
    retrieve=extend_schema(responses={200: DeckSerializer, **errors(401, 404)}),
    create=extend_schema(responses={201: DeckSerializer, **errors(400, 401, 409, 413, 429)}),
    partial_update=extend_schema(
        request=DeckUpdateSerializer,
        responses={200: DeckSerializer, **errors(400, 401, 403, 404, 413, 429)},
    ),
)
class DeckViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Deck versions: which guild symbols each guild card carries (rules D1). A version's cards
    never change: a correction is a new version. `standard` is built from a rule and is NOT
    verified against the printed cards. Staff mark a version verified."""

    serializer_class = DeckSerializer
    lookup_field = "key"
    # Keys are slugs: anything else is no deck (and PostgreSQL refuses a NUL in a query).
    lookup_value_regex = "[-a-zA-Z0-9_]+"
    http_method_names = ["get", "post", "patch"]

    def get_queryset(self) -> QuerySet[Deck]:
        return Deck.objects.all()

    def get_permissions(self) -> list[Any]:
        if self.action == "partial_update":
            return [*super().get_permissions(), StaffWrites()]
        return super().get_permissions()

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Deck]]:
        return DeckUpdateSerializer if self.action == "partial_update" else DeckSerializer

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = DeckSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        deck = services.deck_create(
            key=serializer.validated_data["key"],
            cards=serializer.validated_data["cards"],
            description=serializer.validated_data.get("description", ""),
            verified=False,  # only staff mark a deck verified, after checking it
            created_by=request.user,
        )
        return Response(DeckSerializer(deck).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        super().update(request, *args, **kwargs)
        return Response(DeckSerializer(self.get_object()).data)


class GameFilter(django_filters.FilterSet):
    # Bounded: SQLite cannot even compare with an integer past 64 bits (a 500 otherwise).
    player = django_filters.NumberFilter(
        field_name="seats__player", label="Player id", min_value=0, max_value=2**63 - 1
    )
    date_from = django_filters.DateFilter(field_name="played_on", lookup_expr="gte")
    date_to = django_filters.DateFilter(field_name="played_on", lookup_expr="lte")
    players = django_filters.NumberFilter(
        field_name="player_count", label="Number of players", min_value=0, max_value=32767
    )

    class Meta:
        model = Game
        fields = ["game_type", "status", "mode"]


@extend_schema_view(
    list=extend_schema(responses={200: GameListSerializer(many=True), **errors(400, 401, 404)}),
    retrieve=extend_schema(responses={200: GameDetailSerializer, **errors(401, 404)}),
    partial_update=extend_schema(
        request=GameUpdateSerializer,
        responses={200: GameDetailSerializer, **errors(400, 401, 403, 404, 413, 429)},
    ),
    destroy=extend_schema(responses={204: None, **errors(401, 403, 404, 429)}),
)
class GameViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """Games, recorded round by round (every round checked and scored by the rules engine) or
    by final tableaux (scorepad mode). Only the owner (or staff) changes a game."""

    permission_classes = [*viewsets.GenericViewSet.permission_classes, OwnerOrStaffWrites]
    filterset_class = GameFilter
    http_method_names = ["get", "post", "patch", "put", "delete"]

    def get_queryset(self) -> QuerySet[Game]:
        if self.action == "list":
            return selectors.game_list()
        if self.request.method not in ("GET", "HEAD", "OPTIONS"):
            return selectors.game_for_write()  # the services re-read it under a lock
        return selectors.game_detail_queryset()

    def filter_queryset(self, queryset: QuerySet[Game]) -> QuerySet[Game]:
        # DRF also filters in get_object(); the filters only mean something on the list.
        return super().filter_queryset(queryset) if self.action == "list" else queryset

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Game]]:
        if self.action == "list":
            return GameListSerializer
        if self.action == "partial_update":
            return GameUpdateSerializer
        return GameDetailSerializer

    def _detail(self, game: Game, code: int = status.HTTP_200_OK) -> Response:
        game = selectors.game_detail_queryset().get(pk=game.pk)
        return Response(GameDetailSerializer(game).data, status=code)

    def perform_destroy(self, instance: Game) -> None:
        services.game_delete(game=instance)  # statistics and ratings follow

    def _game_for_write(self) -> Game:
        return self.get_object()  # runs the object permission check (owner or staff)

    @extend_schema(
        request=GameCreateSerializer,
        responses={201: GameDetailSerializer, **errors(400, 401, 413, 429)},
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Start a game: players in seat order, teams, first player, deck, and the deal if the
        table recorded it."""
        data = _valid(GameCreateSerializer, request)
        # One transaction: players created by name are not kept when the engine refuses the game.
        with transaction.atomic():
            game = services.game_create(
                **_game_meta(request, data),
                first_player=data["first_player"],
                hands=data.get("hands"),
                trump_pile=data.get("trump_pile"),
            )
        return self._detail(game, status.HTTP_201_CREATED)

    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Change the date, location or notes (what the engine does not read)."""
        game = self._game_for_write()
        data = _valid(GameUpdateSerializer, request, partial=True)
        services.game_update(game=game, **data)
        return self._detail(game)

    @extend_schema(
        request=ScorepadCreateSerializer,
        responses={201: GameDetailSerializer, **errors(400, 401, 413, 429)},
    )
    @action(detail=False, methods=["post"])
    def scorepad(self, request: Request) -> Response:
        """Record a finished game by its final tableaux only (no rounds), scored with the same
        rules and tie-breaks as a replayed game."""
        data = _valid(ScorepadCreateSerializer, request)
        with transaction.atomic():  # as in create: a refused game keeps no new player
            game = services.scorepad_game_create(
                **_game_meta(request, data),
                tableaux=[dict(t) for t in data["tableaux"]],
                jokers=data.get("jokers"),
            )
        return self._detail(game, status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="games_import",
        request={"application/json": IMPORT_REQUEST_SCHEMA},
        responses={201: ImportResponseSerializer, **errors(400, 401, 413, 415, 429)},
    )
    @action(detail=False, methods=["post"], url_path="import")
    def import_logs(self, request: Request) -> Response:
        """Create games from `potdevin-log/1` documents: finished when the log is complete, in
        progress otherwise. All or nothing: an impossible document stores nothing and the error
        says which (`index`)."""
        documents = log_documents(request.data, MAX_IMPORT_DOCUMENTS)
        games = services.game_import(owner=request.user, documents=documents)
        body = {
            "games": [
                {
                    "id": g.pk,
                    "status": g.status,
                    "player_count": g.player_count,
                    "winners": (g.result or {}).get("winners", []),
                }
                for g in games
            ]
        }
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: LogDocumentSerializer, **errors(401, 404, 409)})
    @action(detail=True, methods=["get"])
    def log(self, request: Request, pk: str) -> Response:
        """The game as a `potdevin-log/1` document, which re-imports to the same result."""
        return Response(services.game_export_log(game=self.get_object()))

    @extend_schema(
        request=FinishSerializer,
        responses={200: GameDetailSerializer, **errors(400, 401, 403, 404, 409, 413, 429)},
    )
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, pk: str) -> Response:
        """Finish a complete game, optionally with an explicit Joker placement (D5). A finished
        game is read-only until reopened."""
        game = self._game_for_write()
        data = _valid(FinishSerializer, request)
        services.game_finish(game=game, jokers=data.get("jokers"))
        return self._detail(game)

    @extend_schema(
        request=None,
        responses={200: GameDetailSerializer, **errors(401, 403, 404, 409, 429)},
    )
    @action(detail=True, methods=["post"])
    def reopen(self, request: Request, pk: str) -> Response:
        """Make a finished game editable again."""
        services.game_reopen(game=self._game_for_write())
        return self._detail(self.get_object())

    @extend_schema(
        methods=["GET"],
        responses={200: RoundSerializer(many=True), **errors(401, 404)},
    )
    @extend_schema(
        methods=["POST"],
        request=RoundInputSerializer,
        examples=[ROUND_EXAMPLE],
        responses={
            201: RoundAppendResponseSerializer,
            **errors(400, 401, 403, 404, 409, 413, 429),
        },
    )
    # A plain list, neither paginated nor filtered (the schema said both).
    @action(detail=True, methods=["get", "post"], pagination_class=None, filter_backends=[])
    def rounds(self, request: Request, pk: str) -> Response:
        """GET: the rounds in order. POST: append the next round; the engine checks it against
        the game so far (an impossible round gets its error code, round and seat, and nothing
        is stored), and the response has the standings after it."""
        if request.method == "GET":
            game = self.get_object()
            return Response(RoundSerializer(game.rounds.order_by("number"), many=True).data)
        game = self._game_for_write()
        serializer = RoundInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game, stored = services.round_append(
            game=game,
            round_data=serializer.round_data(),
            number=serializer.validated_data.get("number"),
        )
        body = {"round": RoundSerializer(stored).data, "result": game.result}
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=None,
        responses={200: GameDetailSerializer, **errors(401, 403, 404, 409, 429)},
    )
    @action(detail=True, methods=["delete"], url_path="rounds/last")
    def undo(self, request: Request, pk: str) -> Response:
        """Undo the last round."""
        services.round_undo(game=self._game_for_write())
        return self._detail(self.get_object())

    @extend_schema(
        methods=["GET"],
        parameters=[OpenApiParameter("number", int, OpenApiParameter.PATH)],
        responses={200: RoundSerializer, **errors(401, 404)},
    )
    @extend_schema(
        methods=["PUT"],
        parameters=[OpenApiParameter("number", int, OpenApiParameter.PATH)],
        request=RoundInputSerializer,
        responses={200: GameDetailSerializer, **errors(400, 401, 403, 404, 409, 413, 429)},
    )
    @action(detail=True, methods=["get", "put"], url_path=r"rounds/(?P<number>[0-9]{1,4})")
    def round(self, request: Request, pk: str, number: str) -> Response:
        """GET: one round. PUT: correct it; every later round is checked again, and if that
        makes the log impossible nothing changes and the error names the round that broke."""
        if request.method == "GET":
            game = self.get_object()
            return Response(RoundSerializer(get_object_or_404(game.rounds, number=number)).data)
        game = self._game_for_write()
        serializer = RoundInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.round_correct(game=game, number=int(number), round_data=serializer.round_data())
        return self._detail(game)


def _game_meta(request: Request, data: dict[str, Any]) -> dict[str, Any]:
    """What a game takes from a GameMetaSerializer, whichever way it is recorded."""
    return {
        "owner": request.user,
        "players": services.players_resolve(data["players"], created_by=request.user),
        "deck": data.get("deck") or services.deck_default(),
        "teams": data.get("teams"),
        "played_on": data.get("played_on"),
        "location": data.get("location", ""),
        "notes": data.get("notes", ""),
        "game_type": data["game_type"],
    }


def _valid(
    serializer_class: type[serializers.Serializer], request: Request, **kwargs: Any
) -> dict[str, Any]:
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
