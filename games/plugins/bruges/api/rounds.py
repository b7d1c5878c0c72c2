"""One Bruges round exactly as ``bruges-log/1`` has it (dice, penalties, prestige, upkeep,
turns of steps), as the serializers document it; ``round_input`` checks a round sent."""

from __future__ import annotations

import inspect
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.serializers import documented, many
from games.plugins.bruges.api.fields import (
    DIE_SCHEMA,
    ID_MAX_LENGTH,
    MAX_LIST,
    MAX_STEPS,
    MAX_TURNS,
    MOMENTS,
    NUMBER,
    WORD_MAX_LENGTH,
    _color,
    _given,
    _int,
    _optional,
    _seat,
    _with_pass,
    _words,
)
from games.records.stored_json import INT_MAX, INT_MIN
from scoring.engine.bruges.rules import ACTIONS, COLORS, GROUPS, ICONS, PRICES, SECTIONS


class BrugesDiceSerializer(serializers.Serializer):
    """The five dice, 1 to 6 each (phase 2)."""

    blue = documented(serializers.IntegerField, DIE_SCHEMA, **NUMBER)
    brown = documented(serializers.IntegerField, DIE_SCHEMA, **NUMBER)
    red = documented(serializers.IntegerField, DIE_SCHEMA, **NUMBER)
    purple = documented(serializers.IntegerField, DIE_SCHEMA, **NUMBER)
    yellow = documented(serializers.IntegerField, DIE_SCHEMA, **NUMBER)


class BrugesPenaltySerializer(serializers.Serializer):
    """A penalty a seat suffers (rules B2), with its choice where there is one: brown `person`
    (the person discarded), red `house` (0-based, B8) or `section` (its outermost tile)."""

    seat = _seat()
    color = _color()
    house = _int(**_optional())
    section = _words(SECTIONS, max_length=WORD_MAX_LENGTH, **_optional())
    person = serializers.CharField(min_length=1, max_length=ID_MAX_LENGTH, **_optional())


# A count of a gain: any integer a stored document holds (the engine says which it takes).
_COUNT: dict[str, Any] = {"type": "integer", "minimum": INT_MIN, "maximum": INT_MAX}
GAIN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "What the effect gives (rules B6, B8): counts to add (negative to take), "
    "per colour for workers and threats (returned threat tokens are negative and score 1 point "
    "each by themselves), and extra card plays in this turn.",
    "properties": {
        "florins": _COUNT,
        "points": _COUNT,
        "prestige": _COUNT,
        "workers": {
            "type": "object",
            "properties": {c: _COUNT for c in COLORS},
            "additionalProperties": False,
        },
        "threats": {
            "type": "object",
            "properties": {c: _COUNT for c in COLORS},
            "additionalProperties": False,
        },
        "plays": {**_COUNT, "minimum": 0},
    },
    "additionalProperties": False,
}


@extend_schema_field({**GAIN_SCHEMA, "nullable": True})
class GainField(serializers.DictField):
    """An effect's gain: any object; the engine checks its keys and values (bad_gain)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.JSONField(), **kwargs)


class BrugesPersonSerializer(serializers.Serializer):
    """A person as first hired (rules "A round", B4): its id in this game, name, price (a
    multiple of 3 from 0 to 12), group, icon, and for a `worker` person the worker colour its
    activation costs."""

    id = serializers.CharField(min_length=1, max_length=ID_MAX_LENGTH)
    name = serializers.CharField(max_length=120, allow_blank=True)
    price = documented(
        serializers.IntegerField, {"type": "integer", "enum": list(PRICES)}, **NUMBER
    )
    group = _words(GROUPS, max_length=WORD_MAX_LENGTH)
    icon = _words(ICONS, max_length=WORD_MAX_LENGTH)
    worker = _color(**_optional(help_text="Only for icon `worker`."))


PERSON_SCHEMA: dict[str, Any] = {
    "oneOf": [
        {
            "type": "string",
            "minLength": 1,
            "maxLength": ID_MAX_LENGTH,
            "description": "The id of a person met before in this game, back in the hand after "
            "a fire.",
        },
        {
            "type": "object",
            "description": inspect.cleandoc(BrugesPersonSerializer.__doc__ or ""),
            "required": ["id", "name", "price", "group", "icon"],
            "properties": {
                "id": {"type": "string", "minLength": 1, "maxLength": ID_MAX_LENGTH},
                "name": {"type": "string", "maxLength": 120},
                "price": {"type": "integer", "enum": list(PRICES)},
                "group": {"type": "string", "enum": list(GROUPS)},
                "icon": {"type": "string", "enum": list(ICONS)},
                "worker": {"type": "string", "enum": list(COLORS), "nullable": True},
            },
        },
    ],
    "nullable": True,
}


@extend_schema_field(PERSON_SCHEMA)
class PersonField(serializers.Field):
    """A hire's person: the person as first hired, or the id of one met before."""

    def to_internal_value(self, data: Any) -> str | dict[str, Any]:
        if isinstance(data, str):
            if not data or len(data) > ID_MAX_LENGTH:
                raise serializers.ValidationError(
                    _("an id of 1 to %(most)s characters") % {"most": ID_MAX_LENGTH}
                )
            return data
        if isinstance(data, dict):
            person = BrugesPersonSerializer(data=data)
            if not person.is_valid():
                raise serializers.ValidationError(person.errors)
            given: dict[str, Any] = _given(dict(person.validated_data))
            return given
        raise serializers.ValidationError(_("a person object, or the id of a person met before"))

    def to_representation(self, value: Any) -> Any:
        return value


class BrugesStepSerializer(serializers.Serializer):
    """One step of a turn, one of three kinds (keys of the other kinds left out):

    - a card played for an action: `card` (its colour) and `action`; `section` for `canal`;
      `house` (0-based, B8) and `person` for `person`;
    - a person's effect: `effect` (the person's id) and `gain`; `seat` only for another seat's
      `infinity` person (B6);
    - a penalty the gain just before triggered: `penalty` (B8)."""

    card = _color(**_optional())
    action = _words(ACTIONS, max_length=WORD_MAX_LENGTH, **_optional())
    section = _words(SECTIONS, max_length=WORD_MAX_LENGTH, **_optional())
    house = _int(**_optional())
    person = PersonField(**_optional())
    effect = serializers.CharField(min_length=1, max_length=ID_MAX_LENGTH, **_optional())
    seat = _seat(**_optional())
    gain = GainField(**_optional())
    penalty = BrugesPenaltySerializer(**_optional())


class BrugesTurnSerializer(serializers.Serializer):
    """One turn of phase 3: the seat's steps, or `pass` for a seat out of cards (allowed once it
    has played 5 cards this round)."""

    seat = _seat()
    steps = many(BrugesStepSerializer, max_length=MAX_STEPS, **_optional())

    def get_fields(self) -> dict[str, serializers.Field]:
        return _with_pass(super().get_fields(), **_optional())


class BrugesUpkeepSerializer(serializers.Serializer):
    """An automatic (`infinity`) person's effect outside phase 3, or the penalty its gain
    triggered; `at` says when: `draw` (before the dice), `dice` (after the penalties, the
    default), `prestige` (after prestige)."""

    seat = _seat(**_optional())
    effect = serializers.CharField(min_length=1, max_length=ID_MAX_LENGTH, **_optional())
    gain = GainField(**_optional())
    penalty = BrugesPenaltySerializer(**_optional())
    at = _words(MOMENTS, max_length=WORD_MAX_LENGTH, **_optional())


class BrugesRoundEntrySerializer(serializers.Serializer):
    """One round as `bruges-log/1` has it. Missing `penalties`, `prestige` and `upkeep` are
    empty lists."""

    dice = BrugesDiceSerializer()
    penalties = many(
        BrugesPenaltySerializer,
        max_length=MAX_LIST,
        **_optional(help_text="Penalties of phase 2, in the order each player applied them."),
    )
    prestige = serializers.ListField(
        child=_seat(),
        max_length=MAX_LIST,
        **_optional(help_text="Seats that pay and climb, clockwise from the round's first."),
    )
    upkeep = many(BrugesUpkeepSerializer, max_length=MAX_LIST, **_optional())
    turns = BrugesTurnSerializer(
        many=True,
        max_length=MAX_TURNS,
        help_text="Phase 3: 4 turns per player, clockwise from the round's first player.",
    )


class BrugesRoundSerializer(BrugesRoundEntrySerializer):
    """One stored round: its number and the round as the log has it."""

    number = serializers.IntegerField(min_value=1)
