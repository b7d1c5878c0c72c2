"""The fields every shape is built from: the shape bounds, fields documented further than they
check (what is checked further on is stated in the schema all the same), the game type of a body
or a response, and the engine's result."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from typing import Any, TypeVar

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.records.game_types import game_types
from games.records.models import MAX_ENTRIES

F = TypeVar("F", bound=serializers.Field)

# Shape bounds only, so a request cannot make unbounded work; how many players, seats and
# entries a game takes is its engine's to say (bad_player_count, bad_first_player, ...).
MAX_PLAYERS = 16
MAX_ENTRY_NUMBER = MAX_ENTRIES
_SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")
MAX_ID = 2**63 - 1  # the largest id a database stores (a larger one is not even looked up)


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


class ResultField(serializers.JSONField):
    """The engine's result; each game's detail documents its own (``result_field``)."""


def result_field(description: str, **kwargs: Any) -> ResultField:
    documented = extend_schema_field(
        {"type": "object", "description": description, "additionalProperties": True}
    )
    return documented(type("GameResultField", (ResultField,), {}))(**kwargs)
