"""The games of your clubs (``/api/games/``): listed, read, recorded (entry by entry, by a final
sheet, by final scores, from log documents), changed, finished, shared; their entries are
``GameEntries``' (entries.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import django_filters
from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import exceptions, mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from games.api import conditional
from games.api.board_games import ResultGameSerializer, result_examples
from games.api.permissions import ClubWrites
from games.api.plugins import api_for, examples, one_of, shape
from games.api.serializers import (
    CLUB_QUERY,
    IMPORT_REQUEST_SCHEMA,
    MAX_ID,
    MAX_IMPORT_DOCUMENTS,
    GameEventSerializer,
    GameListSerializer,
    GameShareSerializer,
    GameUpdateSerializer,
    GameVersionQuerySerializer,
    GameVersionSerializer,
    ImportResponseSerializer,
    errors,
    log_documents,
)
from games.api.views.base import (
    CONDITIONAL,
    GAME_DETAIL,
    GAME_ID,
    GAME_TYPE_FILTER,
    NOT_MODIFIED,
    body_game_type,
    game_type_choices,
    valid,
    validated,
)
from games.api.views.entries import GameEntries
from games.records import access, board_games, selectors, services
from games.records.errors import RecordError
from games.records.game_types import plugin_for
from games.records.models import Club, Game

# The bodies that record a game, one per game, read from the plugins when the schema is built.
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


class GameFilter(django_filters.FilterSet):
    club = django_filters.CharFilter(field_name="club__slug", label="Club slug", max_length=50)
    game_type = django_filters.ChoiceFilter(choices=game_type_choices)
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
    retrieve=extend_schema(
        parameters=[GAME_ID, *CONDITIONAL],
        responses={200: GAME_DETAIL, **NOT_MODIFIED, **errors(401, 404)},
    ),
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
    GameEntries,
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
        return self._read(lambda game: Response(_shown(game)))

    def _read(self, build: Callable[[Game], Response], *, cheap: bool = True) -> Response:
        """A read of the game, tagged with its version (``conditional``); 304 without a body
        when ``If-None-Match`` names it. ``cheap``: that is known from one query by primary
        key, before the game is read (not for a part of the game that may not exist: an
        entry's 404 comes first)."""
        if cheap and "If-None-Match" in self.request.headers:
            found = self._found_version()
            unchanged = None if found is None else self._not_modified(self._tag(*found))
            if unchanged is not None:
                return unchanged
        game = self.get_object()
        response = build(game)
        current = self._tag(game.pk, selectors.version_of(game))
        return self._not_modified(current) or conditional.tagged(response, current)

    def _not_modified(self, current: str) -> Response | None:
        """304 when ``If-None-Match`` names the game's tag ``current``, else None."""
        if not conditional.unchanged(self.request, current):
            return None
        return conditional.tagged(Response(status=304), current)

    def _found_version(self) -> tuple[int, int] | None:
        """The game's id and version if the user may read it (one query), else None: then
        ``get_object`` says why (401, 404), as for any read of the game."""
        pk = self.kwargs.get(self.lookup_field, "")
        if not GAME_ID_TEXT.fullmatch(pk) or int(pk) > MAX_ID:
            return None
        version = selectors.game_version(access.games(self.request.user), int(pk))
        return None if version is None else (int(pk), version)

    def _tag(self, game_id: int, version: int) -> str:
        """The game's ``ETag``; another format than JSON (the browsable API) has its own."""
        shape = self.request.accepted_renderer.format
        return conditional.etag(game_id, version, *(() if shape == "json" else (shape,)))

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
        serializer = validated(shape(body_game_type(request), "create"), request)
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
        data = valid(GameUpdateSerializer, request, partial=True)
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
        game_type = body_game_type(request)
        shapes = api_for(game_type).scorepad
        plugin = plugin_for(game_type)
        if shapes is None or not plugin.engine.info.scorepad:
            raise RecordError(
                "no_scorepad",
                _("%(game)s games are recorded entry by entry") % {"game": plugin.label},
            )
        serializer = validated(shapes, request)
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
        serializer = validated(ResultGameSerializer, request)
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

    @extend_schema(
        parameters=[GAME_ID, *CONDITIONAL],
        responses={200: GAME_LOG, **NOT_MODIFIED, **errors(401, 404, 409)},
    )
    @action(detail=True, methods=["get"])
    def log(self, request: Request, pk: str) -> Response:
        """The game as its engine's log document (`potdevin-log/1`, `complots-log/1`), which
        re-imports to the same result."""
        return self._read(lambda game: Response(services.game_export_log(game=game)))

    @extend_schema(
        parameters=[
            GAME_ID,
            OpenApiParameter(
                "since",
                {"type": "integer", "minimum": 0, "maximum": MAX_ID},
                OpenApiParameter.QUERY,
                description="A version read earlier: `changed` says whether the game has "
                "moved from it.",
            ),
            *CONDITIONAL,
        ],
        responses={200: GameVersionSerializer, **NOT_MODIFIED, **errors(400, 401, 404)},
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def version(self, request: Request, pk: str) -> Response:
        """The game's version, and whether it changed since version `since`: the cheap read
        of a client following a game (a phone at the table, every second or two while it
        shows the game), one query. Its `ETag` is the game's, as on the game's other reads:
        with `If-None-Match`, an unchanged game is 304 without a body. A `since` that is no
        version (not digits, past 2^63 - 1) is 400 `invalid`."""
        since = GameVersionQuerySerializer(data=request.query_params)
        since.is_valid(raise_exception=True)
        found = self._found_version()
        if found is None:
            game = self.get_object()  # 401 or 404, as for any read of the game
            found = (game.pk, selectors.version_of(game))
        current = self._tag(*found)
        unchanged = self._not_modified(current)
        if unchanged is not None:
            return unchanged
        asked = since.validated_data.get("since")
        body = {"version": found[1], "changed": asked is None or asked != found[1]}
        return conditional.tagged(Response(body), current)

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
        serializer = validated(shape(game.game_type, "finish"), request)
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


# A game's id as the path has it: digits (anything else is no game: ``get_object`` says 404).
GAME_ID_TEXT = re.compile(r"[0-9]{1,19}")


def _sign_in_first(request: Request) -> None:
    """An anonymous visitor asking for what is not public: 401, whether or not it exists."""
    if not request.user.is_authenticated:
        raise exceptions.NotAuthenticated()


def _shown(game: Game) -> dict[str, Any]:
    """A game as its own detail shows it."""
    data: dict[str, Any] = api_for(game.game_type).detail(game).data
    return data


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
