"""What Bruges's API shapes are made of: the bounds a request is held to, and fields checked
for shape only (the engine names a wrong value: bad_card, bad_seat...), documented with what the
rules allow."""

from __future__ import annotations

from functools import cache
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.serializers import documented
from games.plugins.bruges import GAME_TYPE
from scoring.engine import get_engine
from scoring.engine.bruges.rules import AT_NAMES, COLORS, MAX_PLAYERS

INFO = get_engine(GAME_TYPE).info
MOMENTS = AT_NAMES  # an upkeep entry's `at`
WORD_MAX_LENGTH = 32  # room for a mistyped word, which the engine then names (bad_card, ...)
ID_MAX_LENGTH = 64
# Shape bounds only, so a request cannot make unbounded work; the engine counts what a round
# holds (missing_turn, extra_turn, wrong_play_count...).
MAX_TURNS = 40
MAX_STEPS = 40
MAX_LIST = 40
NUMBER = {"min_value": -1000, "max_value": 1000}  # any count: the engine says which are possible
# What the engine takes of a seat, a die and a price (another is its error: bad_seat, bad_dice,
# bad_person...); the schema states it.
SEAT_SCHEMA: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}
DIE_SCHEMA: dict[str, Any] = {"type": "integer", "minimum": 1, "maximum": 6}


def _words(values: tuple[str, ...] | list[str], **kwargs: Any) -> serializers.CharField:
    """A string documented as one of ``values`` but checked for shape only (the engine names a
    wrong one: bad_card, unknown_action...). Unlike ``enum_string`` the values stay inline, not
    an enum component named after the field: Complots' `card` and `action` are other sets."""
    allowed: tuple[str | None, ...] = tuple(values)
    if kwargs.get("allow_null"):
        allowed = (*allowed, None)
    return _words_class(allowed)(**kwargs)


@cache
def _words_class(values: tuple[str | None, ...]) -> type[serializers.CharField]:
    documented = extend_schema_field({"type": "string", "allOf": [{"enum": list(values)}]})
    return documented(type("BrugesWord", (serializers.CharField,), {}))


def _int(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(**NUMBER, **kwargs)


def _seat(**kwargs: Any) -> serializers.IntegerField:
    return documented(serializers.IntegerField, SEAT_SCHEMA, **NUMBER, **kwargs)


def _color(**kwargs: Any) -> serializers.CharField:
    return _words(COLORS, max_length=WORD_MAX_LENGTH, **kwargs)


def _optional(**kwargs: Any) -> dict[str, Any]:
    return {"required": False, "allow_null": True, **kwargs}


def _given(data: Any) -> Any:
    """Validated data as the log has it: the keys the client sent, without the null ones (the
    format reads a missing key and a null one alike). A gain is kept exactly as sent (the engine
    refuses what a gain may not hold, bad_gain)."""
    if isinstance(data, list):
        return [_given(item) for item in data]
    if isinstance(data, dict):
        return {k: (v if k == "gain" else _given(v)) for k, v in data.items() if v is not None}
    return data


def _with_pass(fields: dict[str, serializers.Field], **kwargs: Any) -> dict[str, Any]:
    fields["pass"] = serializers.BooleanField(**kwargs)  # a keyword in Python
    return fields
