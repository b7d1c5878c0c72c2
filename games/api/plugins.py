"""What a game's plugin gives the API: its ``api`` part (``games/plugins/<pkg>/api.py``) holds
``API = GameApi(...)``, the game's shapes as serializers built on games/api/serializers.py. The
generic views and the OpenAPI document find them here by game type; nothing here or in the views
names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import OpenApiExample, PolymorphicProxySerializer
from rest_framework import serializers

from games.api.serializers import (
    EditionDataField,
    EntryInputSerializer,
    FinishSerializer,
    GameCreateSerializer,
    GameDetailBaseSerializer,
    GameMetaSerializer,
    LogDocumentBaseSerializer,
    games_with_editions,
    result_field,
)
from games.records.errors import GameConflict, RecordError
from games.records.game_types import GamePlugin, UnknownGameType, plugin_for, plugins


@dataclass(frozen=True)
class GameApi:
    """A game's request and response shapes.

    - ``create``: the body of ``POST /api/games/`` (its ``game_args()`` gives the game's own
      arguments of ``services.game_create``);
    - ``entry``: one entry as sent to append or correct (``entry_data()``: as stored);
    - ``entry_out``: one entry as shown, ``{"number": n, **entry}``;
    - ``finish``: the body of ``POST /api/games/{id}/finish/`` (``finish_data()``);
    - ``detail``: the game as shown (``game_fields(game)`` adds the game's own fields);
    - ``log``: the exported log document (documentation only);
    - ``scorepad``: the body of ``POST /api/games/scorepad/``, for a game that can be recorded
      by its final sheet (``info.scorepad``);
    - ``edition_data_schema``: the JSON Schema of an edition's data, for a game with editions
      (documentation only: the engine checks it);
    - examples for the OpenAPI document, and routes of the game's own (``(prefix, viewset,
      basename)``, registered under /api/).
    """

    detail: type[GameDetailBaseSerializer]
    # None, all five, for a game played from no log (``GameInfo.logged`` False: an "other
    # game", recorded by its final scores only at ``POST /api/games/result/``).
    create: type[GameCreateSerializer] | None = None
    entry: type[EntryInputSerializer] | None = None
    entry_out: type[serializers.Serializer] | None = None
    finish: type[FinishSerializer] | None = None
    log: type[LogDocumentBaseSerializer] | None = None
    scorepad: type[GameMetaSerializer] | None = None
    edition_data_schema: Mapping[str, Any] | None = None
    create_examples: tuple[OpenApiExample, ...] = ()
    entry_examples: tuple[OpenApiExample, ...] = ()
    scorepad_examples: tuple[OpenApiExample, ...] = ()
    routes: tuple[tuple[str, Any, str], ...] = ()


def _api_of(plugin: GamePlugin) -> GameApi:
    api: GameApi = plugin.part("api").API
    return api


def api_for(game_type: Any) -> GameApi:
    """The API shapes of ``game_type``. Raises ``RecordError`` (unknown_game_type)."""
    try:
        plugin = plugin_for(game_type)
    except UnknownGameType:
        known = ", ".join(plugins())
        raise RecordError(
            "unknown_game_type",
            _("no game %(game)r; known: %(known)s") % {"game": game_type, "known": known},
        ) from None
    return _api_of(plugin)


def shape(game_type: Any, part: str) -> Any:
    """The serializer ``part`` (``create``, ``entry``, ``finish``) of ``game_type``'s shapes.
    Raises ``RecordError`` (unknown_game_type) and ``GameConflict`` (result_only) for a game
    without that part: one played from no log, recorded by its final scores only."""
    found = getattr(api_for(game_type), part)
    if found is None:
        raise GameConflict(
            "result_only",
            _("%(game)s is recorded by its final scores only: POST /api/games/result/")
            % {"game": plugin_for(game_type).label},
        )
    return found


def apis() -> dict[str, tuple[GamePlugin, GameApi]]:
    """Every installed game's plugin and API shapes, by game type."""
    return {game_type: (plugin, _api_of(plugin)) for game_type, plugin in plugins().items()}


# --- The OpenAPI document: one oneOf per game-shaped body, built from the plugins -------------


def one_of(
    component_name: str,
    pick: Callable[[GamePlugin, GameApi], Any],
    *,
    discriminator: str | None = None,
    key: Callable[[GamePlugin, GameApi], str] | None = None,
    many: bool = False,
) -> PolymorphicProxySerializer:
    """A oneOf of each game's ``pick(plugin, api)`` (games for which it is None left out), read
    from the plugins when the schema is built. With ``discriminator``, the field that tells the
    games apart (its value per game: ``key``, by default the game type); ``many``: a list whose
    items are the oneOf (shapes that must differ by their required keys: an empty list is one
    list, not one per game)."""

    def shapes() -> Any:
        picked = [(p, a, pick(p, a)) for p, a in apis().values()]
        picked = [(p, a, s) for p, a, s in picked if s is not None]
        if discriminator is None:
            return [s for _, _, s in picked]
        return {(key(p, a) if key else p.game_type): s for p, a, s in picked}

    return PolymorphicProxySerializer(
        component_name=component_name,
        serializers=shapes,
        resource_type_field_name=discriminator,
        many=many if discriminator is None or many else None,
    )


def examples(pick: Callable[[GameApi], tuple[OpenApiExample, ...]]) -> list[OpenApiExample]:
    """Every game's examples of one kind (read when the views are imported)."""
    return [e for _, api in apis().values() for e in pick(api)]


def entry_appended(plugin: GamePlugin, api: GameApi) -> type[serializers.Serializer] | None:
    """The response to an appended entry: the entry under the game's ``entry_name`` (``round``,
    ``turn``) and the standings after it (None for a game without entries)."""
    return None if api.entry_out is None else _entry_appended(plugin.game_type)


@cache  # one class per game: the schema names a component after it
def _entry_appended(game_type: str) -> type[serializers.Serializer]:
    plugin = plugin_for(game_type)
    api = _api_of(plugin)
    assert api.entry_out is not None
    info = plugin.engine.info
    name = "".join(w.capitalize() for w in plugin.game_type.split("-"))
    return type(
        f"{name}{info.entry_name.capitalize()}AppendedSerializer",
        (serializers.Serializer,),
        {
            info.entry_name: api.entry_out(),
            "result": result_field(f"Standings after this {info.entry_name}: {info.result_detail}"),
            "__doc__": f"An appended {info.label} {info.entry_name} and the standings after it.",
            "__module__": __name__,
        },
    )


class _EditionDataSchema(OpenApiSerializerFieldExtension):
    target_class = EditionDataField

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> Any:
        shapes = [api_for(t).edition_data_schema for t in games_with_editions()]
        known = [shape for shape in shapes if shape is not None]
        if not known or len(known) < len(shapes):
            return {"type": "object", "additionalProperties": True}
        return {"oneOf": known} if len(known) > 1 else known[0]
