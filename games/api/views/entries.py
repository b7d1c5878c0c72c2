"""A game's entries (``/api/games/{id}/rounds/``, or ``/turns/`` for a game played turn by
turn): listed, appended, read, corrected and the last one undone, checked by the game's engine."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.plugins import entry_appended, examples, one_of, shape
from games.api.serializers import MAX_ENTRY_NUMBER, entries_of, errors
from games.api.views.base import CONDITIONAL, GAME_DETAIL, GAME_ID, NOT_MODIFIED, validated
from games.records import services
from games.records.game_types import plugin_for
from games.records.models import Game

# An entry's bodies, one per game, read from the plugins when the schema is built.
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


# The entry views, each under two names: /rounds/ and, for games played turn by turn, /turns/.
ENTRIES_SCHEMA = [
    extend_schema(
        methods=["GET"],
        parameters=[GAME_ID, *CONDITIONAL],
        responses={200: ENTRIES, **NOT_MODIFIED, **errors(401, 404)},
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
        methods=["GET"],
        parameters=[GAME_ID, NUMBER, *CONDITIONAL],
        responses={200: ENTRY, **NOT_MODIFIED, **errors(401, 404)},
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


class GameEntries:
    """The entry actions of ``GameViewSet``, which gives them its games: ``get_object`` and
    ``_read`` to read one (tagged with its version, 304 while unchanged), ``_game_for_write`` to
    change one, and ``_detail``, the answer with the game after a change."""

    request: Request
    get_object: Callable[[], Game]
    _read: Callable[..., Response]
    _game_for_write: Callable[[], Game]
    _detail: Callable[..., Response]

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
            return self._read(lambda game: Response(entries_of(game)))
        game = self._game_for_write()
        serializer = validated(shape(game.game_type, "entry"), request)
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
            return self._read(lambda game: _entry_read(game, number), cheap=False)
        game = self._game_for_write()
        serializer = validated(shape(game.game_type, "entry"), request)
        services.round_correct(
            game=game, number=number, round_data=serializer.entry_data(), by=request.user
        )
        return self._detail(game)


def _entry_read(game: Game, number: int) -> Response:
    stored = get_object_or_404(game.rounds, number=number)  # an entry the game has not: 404
    return Response({"number": stored.number, **stored.data})
