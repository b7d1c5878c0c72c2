"""Bruges's API shapes: a new game (its edition), a round exactly as ``bruges-log/1`` has it
(dice, penalties, prestige, upkeep, turns of steps), the end of the game (``final``, with the
laurel points), the game as shown (its edition and whether it is verified, its rounds and
``final``). Shape only: every rule is the engine's (its codes reach the client with the round,
the turn and the seat).

Finishing a Bruges game is giving ``final``: the engine cannot know when the game ended (draws
are not logged, rules "End and scoring"), so the table says it. ``POST /finish/`` without
``final`` is 400 ``invalid``; with it, the game is finished with the laurels given (should the
engine still find the game not over, 409 ``game_incomplete`` with its reason). Finishing again
after a reopen takes ``final`` again, which replaces the one stored.

A game the table did not log round by round is recorded by its final score sheet
(``POST /api/games/scorepad/``, ``BrugesScorepadSerializer``): per player the rulebook's scoring
categories and the florins left, scored by the engine like a replayed game
(docs/bruges-engine.md, "Score sheet").

Printed data that can be wrong is an edition (rules B1): the board's prestige points and canal
spaces. The default ``standard`` edition is not verified against the printed board; the detail
says whether the game's edition is (``edition_verified``), so that every score shown can say so.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import cache
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema_field
from rest_framework import serializers

from games.api.plugins import GameApi
from games.api.serializers import (
    MAX_ENTRY_NUMBER,
    EntryInputSerializer,
    FinishSerializer,
    GameCreateSerializer,
    GameDetailBaseSerializer,
    GameMetaSerializer,
    LogDocumentBaseSerializer,
    documented,
    entries_of,
    enum_string,
    game_type_field,
    many,
    result_field,
)
from games.plugins.bruges import GAME_TYPE
from games.records.errors import RecordError
from games.records.models import Edition, Game
from games.records.stored_json import INT_MAX, INT_MIN
from scoring.engine import get_engine
from scoring.engine.bruges.rules import (
    ACTIONS,
    AT_NAMES,
    COLORS,
    GROUPS,
    ICONS,
    MAJORITIES,
    MAX_PLAYERS,
    MAX_STATUES,
    PRICES,
    SECTIONS,
    SPACES,
    STATUES,
    TOP_STEP,
)
from scoring.engine.bruges.sheet import CARDS, CHECKED, FIELDS

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
_COST: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": INT_MAX}
# An edition's data (rules B1), as the engine reads it (bad_edition otherwise): the points of
# each prestige step, and each canal section's spaces, their cost and colour (null: unknown).
EDITION_DATA_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["prestige_points", "canal"],
    "properties": {
        "prestige_points": {
            "type": "array",
            "items": _COST,
            "minItems": TOP_STEP + 1,
            "maxItems": TOP_STEP + 1,
        },
        "canal": {
            "type": "object",
            "required": list(SECTIONS),
            "properties": {
                section: {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["cost"],
                        "properties": {
                            "cost": _COST,
                            "color": {"type": "string", "enum": list(COLORS), "nullable": True},
                        },
                    },
                    "minItems": SPACES,
                    "maxItems": SPACES,
                }
                for section in SECTIONS
            },
        },
        "description": {"type": "string"},
    },
}


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


# --- One round ---------------------------------------------------------------------------------


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


# --- Checking a round's shape, fast ----------------------------------------------------------
# A 4-player round is some 20 nested objects: DRF's field-by-field validation of the serializers
# above took most of an append's time. The round sent is checked by the plain functions below
# instead, against the same shape (tests/api/test_api_bruges.py holds both to the same answers
# on every simulated round and on each wrong shape), taking JSON types as sent (a string "3" is
# no integer here, as it is to DRF); the serializers document it.


class _Invalid(Exception):
    def __init__(self, detail: Any) -> None:
        super().__init__(detail)
        self.detail = detail


Check = Callable[[Any], Any]


def _integer_from(least: int, most: int) -> str:
    return _("An integer from %(least)s to %(most)s.") % {"least": least, "most": most}


def _number(value: Any) -> int:
    if type(value) is int and NUMBER["min_value"] <= value <= NUMBER["max_value"]:
        return value
    raise _Invalid([_integer_from(NUMBER["min_value"], NUMBER["max_value"])])


def _text(max_length: int, *, blank: bool = False) -> Check:
    def check(value: Any) -> str:
        if isinstance(value, str) and (blank or value) and len(value) <= max_length:
            return value
        raise _Invalid(
            [
                _("A string of %(least)s to %(most)s characters.")
                % {"least": 0 if blank else 1, "most": max_length}
            ]
        )

    return check


def _flag(value: Any) -> bool:
    if type(value) is bool:
        return value
    raise _Invalid([_("Must be a valid boolean.")])


def _mapping(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return value  # a gain: the engine reads its keys (bad_gain)
    raise _Invalid([_("An object.")])


def _list_of(check: Check, max_length: int) -> Check:
    def checked(value: Any) -> list[Any]:
        if not isinstance(value, list):
            raise _Invalid([_("A list.")])
        if len(value) > max_length:
            raise _Invalid([_("At most %(most)s items.") % {"most": max_length}])
        out, errors = [], {}
        for i, item in enumerate(value):
            try:
                out.append(check(item))
            except _Invalid as exc:
                errors[i] = exc.detail
        if errors:
            raise _Invalid(errors)
        return out

    return checked


def _object(**spec: tuple[Check, bool]) -> Check:
    """An object of these keys, each ``(check, required)``; other keys are left out, and so are
    null ones (the format reads a missing key and a null one alike)."""

    def checked(value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise _Invalid([_("An object.")])
        out, errors = {}, {}
        for key, (check, required) in spec.items():
            item = value.get(key)
            if item is None:
                if required:
                    errors[key] = [_("This field is required.")]
                continue
            try:
                out[key] = check(item)
            except _Invalid as exc:
                errors[key] = exc.detail
        if errors:
            raise _Invalid(errors)
        return out

    return checked


_WORD = _text(WORD_MAX_LENGTH)
_ID = _text(ID_MAX_LENGTH)
_PENALTY = _object(
    seat=(_number, True),
    color=(_WORD, True),
    house=(_number, False),
    section=(_WORD, False),
    person=(_ID, False),
)
_PERSON_OBJECT = _object(
    id=(_ID, True),
    name=(_text(120, blank=True), True),
    price=(_number, True),
    group=(_WORD, True),
    icon=(_WORD, True),
    worker=(_WORD, False),
)


def _person(value: Any) -> str | dict[str, Any]:
    person: str | dict[str, Any] = (_ID if isinstance(value, str) else _PERSON_OBJECT)(value)
    return person


_STEP = _object(
    card=(_WORD, False),
    action=(_WORD, False),
    section=(_WORD, False),
    house=(_number, False),
    person=(_person, False),
    effect=(_ID, False),
    seat=(_number, False),
    gain=(_mapping, False),
    penalty=(_PENALTY, False),
)
_TURN = _object(
    seat=(_number, True), steps=(_list_of(_STEP, MAX_STEPS), False), **{"pass": (_flag, False)}
)
_UPKEEP = _object(
    seat=(_number, False),
    effect=(_ID, False),
    gain=(_mapping, False),
    penalty=(_PENALTY, False),
    at=(_WORD, False),
)
_ROUND = _object(
    number=(_number, False),
    dice=(_object(**{c: (_number, True) for c in COLORS}), True),
    penalties=(_list_of(_PENALTY, MAX_LIST), False),
    prestige=(_list_of(_number, MAX_LIST), False),
    upkeep=(_list_of(_UPKEEP, MAX_LIST), False),
    turns=(_list_of(_TURN, MAX_TURNS), True),
)


class BrugesRoundInputSerializer(EntryInputSerializer, BrugesRoundEntrySerializer):
    """A round to append or correct."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        try:
            checked: dict[str, Any] = _ROUND(data)
        except _Invalid as exc:
            detail = (
                exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
            )
            raise serializers.ValidationError(detail) from None
        number = checked.get("number")
        if number is not None and not 1 <= number <= MAX_ENTRY_NUMBER:
            raise serializers.ValidationError({"number": [_integer_from(1, MAX_ENTRY_NUMBER)]})
        return checked

    def entry_data(self) -> dict[str, Any]:
        return {k: v for k, v in self.validated_data.items() if k != "number"}


# --- The end of the game -----------------------------------------------------------------------


class BrugesLaurelSerializer(serializers.Serializer):
    """The end-of-game points of one `laurel` person in play (its card says how many)."""

    seat = _seat()
    person = serializers.CharField(min_length=1, max_length=ID_MAX_LENGTH)
    points = _int()


class BrugesFinalSerializer(serializers.Serializer):
    laurels = many(
        BrugesLaurelSerializer,
        max_length=MAX_LIST,
        **_optional(help_text="Each laurel person at most once; one not listed scores 0."),
    )


class BrugesFinishSerializer(FinishSerializer):
    """The game ended (the table says so: draws are not logged): `final`, with the laurel
    points. Required: finishing a Bruges game is giving it."""

    final = BrugesFinalSerializer()

    def finish_data(self) -> dict[str, Any] | None:
        laurels = self.validated_data["final"].get("laurels") or []
        return {"final": {"laurels": [dict(entry) for entry in laurels]}}


# --- The game ----------------------------------------------------------------------------------


def _edition_field() -> serializers.SlugField:
    return serializers.SlugField(
        max_length=64,
        required=False,
        help_text=f"A stored Bruges edition's key (`GET /api/editions/?game_type={GAME_TYPE}`); "
        f"left out, `{INFO.default_edition}`, which is not verified against the printed board "
        "(rules B1). An unknown key is 400 `unknown_edition`.",
    )


def _edition_args(key: str | None) -> dict[str, Any]:
    """The game's edition by its key (left out: the default). Raises ``RecordError``
    (unknown_edition)."""
    if key is None:
        return {}
    edition = Edition.objects.filter(game_type=GAME_TYPE, key=key).first()
    if edition is None:
        raise RecordError(
            "unknown_edition",
            _("no %(game)s edition %(key)r is stored") % {"game": INFO.label, "key": key},
        )
    return {"edition": edition}


class BrugesGameCreateSerializer(GameCreateSerializer):
    """A new Bruges game: players (2 to 4), first player, and the edition."""

    player_counts = INFO.player_counts
    game_type = game_type_field(GAME_TYPE)
    edition = _edition_field()

    def game_args(self) -> dict[str, Any]:
        return _edition_args(self.validated_data.get("edition"))


# --- A game by its final score sheet ----------------------------------------------------------


def _sheet_number(schema: dict[str, Any], help_text: str) -> serializers.IntegerField:
    """A number of the sheet, checked for shape only (the engine says which are possible:
    bad_sheet, naming the seat and the category), documented with what the rules allow."""
    return documented(
        serializers.IntegerField,
        {"type": "integer", "minimum": 0, **schema, "nullable": True},
        **NUMBER,
        required=False,
        allow_null=True,
        help_text=help_text,
    )


def _sheet_list(values: tuple[int, ...], most: int, help_text: str) -> serializers.ListField:
    return documented(
        serializers.ListField,
        {
            "type": "array",
            "items": {"type": "integer", "enum": list(values)},
            "maxItems": most,
            "nullable": True,
        },
        child=serializers.IntegerField(**NUMBER),
        max_length=most,
        required=False,
        allow_null=True,
        help_text=help_text,
    )


class BrugesSheetPointsSerializer(serializers.Serializer):
    """Points per category as the paper sheet wrote them, each checked against what the counts
    score (bad_sheet naming the category when they differ)."""

    persons = _sheet_number({}, "The persons' prices / 3, added up (B4).")
    houses = _sheet_number({}, "1 per house.")
    majorities = _sheet_number({}, "4 per majority tile flipped.")
    canals = _sheet_number({}, "3 per canal section whose 3rd space holds a tile.")
    statues = _sheet_number({}, "The statues' values, added up.")
    prestige = _sheet_number({}, "The step's points on the game's edition (B1).")


class BrugesSheetSeatSerializer(serializers.Serializer):
    """One player's line of the final score sheet (rules "End and scoring"). Every key may be
    left out or null (0, or no item). A key not listed here reaches the engine, which refuses
    it (bad_sheet)."""

    track = _sheet_number({}, "The score track's points before the final scoring.")
    persons = _sheet_list(
        PRICES, CARDS, "The price of each person in play (0, 3, 6, 9 or 12; each scores price / 3)."
    )
    houses = _sheet_number(
        {"maximum": CARDS},
        "Houses built, 1 point each; at least one per person in play (one person per house).",
    )
    laurels = _sheet_number({}, "The laurel persons' points, added up (a person in play needed).")
    majorities = _sheet_number(
        {"maximum": len(MAJORITIES)}, "Majority tiles flipped, 4 points each."
    )
    canals = _sheet_number(
        {"maximum": len(SECTIONS)}, "Canal sections whose 3rd space holds a tile, 3 points each."
    )
    statues = _sheet_list(
        STATUES,
        len(STATUES),
        f"The values of the statues taken: at most {MAX_STATUES}, each statue on one sheet "
        "only, the top of the pile first (7, then 6...: rules B3).",
    )
    step = _sheet_number(
        {"maximum": TOP_STEP},
        "The prestige step (0: the Town Hall); its points are the edition's (B1).",
    )
    florins = _sheet_number({}, "Florins left: the tie-break (B7).")
    points = BrugesSheetPointsSerializer(
        required=False,
        allow_null=True,
        help_text="Optional: the points per category the paper sheet wrote, to be checked.",
    )
    score = _sheet_number({}, "Optional: the total the paper sheet wrote, to be checked.")

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        checked: dict[str, Any] = _given(dict(super().to_internal_value(data)))
        # Keys the sheet does not define go on to the engine, which names them (bad_sheet):
        # dropping a mistyped category would score the sheet without it.
        unknown = {k: v for k, v in data.items() if k not in FIELDS}
        if isinstance(data.get("points"), dict):
            extra = {k: v for k, v in data["points"].items() if k not in CHECKED}
            if extra:
                checked["points"] = {**checked.get("points", {}), **extra}
        return {**checked, **unknown}


class BrugesScorepadSerializer(GameMetaSerializer):
    """A finished Bruges game known by its final score sheet only: one line per seat, in seat
    order, scored by the engine with the same points, totals and ranking (B7: most points, then
    most florins, else shared) as a game logged round by round."""

    player_counts = INFO.player_counts
    game_type = game_type_field(GAME_TYPE)
    edition = _edition_field()
    sheet = many(
        BrugesSheetSeatSerializer,
        min_length=1,
        max_length=MAX_PLAYERS,
        help_text="One line per seat, in the order of `players`.",
    )

    def game_args(self) -> dict[str, Any]:
        return {
            **_edition_args(self.validated_data.get("edition")),
            "sheet": [dict(line) for line in self.validated_data["sheet"]],
        }


class BrugesGameDetailSerializer(GameDetailBaseSerializer):
    """A Bruges game: its edition and whether it is verified, its rounds, and `final` once
    finished."""

    game_type = game_type_field(GAME_TYPE, read_only=True)
    edition_verified = serializers.BooleanField(
        read_only=True,
        help_text="Whether the edition (`edition`) was checked against the printed board. "
        f"`{INFO.default_edition}` is not (rules B1): every score of a game on an unverified "
        "edition may change when the edition is corrected and the game re-scored.",
    )
    rounds = BrugesRoundSerializer(many=True, read_only=True)
    final = serializers.JSONField(
        read_only=True,
        allow_null=True,
        help_text='The end of the game as given when last finished, {"laurels": [{"seat", '
        '"person", "points"}]}; null: never finished.',
    )
    result = result_field(
        "The engine's result (format bruges-result/1; `edition`: the edition it was scored "
        "with): " + INFO.result_detail,
        read_only=True,
    )

    sheet = serializers.JSONField(
        read_only=True,
        allow_null=True,
        help_text="The final score sheet of a game recorded by it (`POST /api/games/scorepad/`), "
        "one line per seat as given; null for a game logged round by round.",
    )

    class Meta(GameDetailBaseSerializer.Meta):
        fields = [
            *GameDetailBaseSerializer.Meta.fields,
            "edition_verified",
            "rounds",
            "final",
            "sheet",
        ]

    def game_fields(self, game: Game) -> dict[str, Any]:
        return {
            "edition_verified": game.edition.verified if game.edition_id is not None else None,
            "rounds": entries_of(game),
            "final": (game.finish or {}).get("final"),
            "sheet": game.sheet if game.mode == Game.Mode.SCOREPAD else None,
        }


class BrugesLogSerializer(LogDocumentBaseSerializer):
    """Documentation only: the export is a bruges-log/1 document."""

    format = enum_string([INFO.log_format])
    edition = serializers.CharField(help_text="The edition's key.")
    teams = serializers.JSONField(allow_null=True, help_text="Always null: no teams.")
    rounds = BrugesRoundEntrySerializer(many=True)
    final = BrugesFinalSerializer(allow_null=True, help_text="Null: the game is in progress.")


# The rules' own example (shared/rules/bruges.md, "Log format"): round 1 of Ada and Bea.
EXAMPLE_ROUND: dict[str, Any] = {
    "dice": {"blue": 2, "brown": 5, "red": 1, "purple": 4, "yellow": 6},
    "penalties": [],
    "prestige": [1],
    "turns": [
        {"seat": 0, "steps": [{"card": "red", "action": "workers"}]},
        {"seat": 1, "steps": [{"card": "yellow", "action": "florins"}]},
        {"seat": 0, "steps": [{"card": "red", "action": "house"}]},
        {"seat": 1, "steps": [{"card": "blue", "action": "canal", "section": "left"}]},
        {"seat": 0, "steps": [{"card": "blue", "action": "florins"}]},
        {"seat": 1, "steps": [{"card": "brown", "action": "threat"}]},
        {
            "seat": 0,
            "steps": [
                {
                    "card": "purple",
                    "action": "person",
                    "house": 0,
                    "person": {
                        "id": "p1",
                        "name": "Alchimista",
                        "price": 6,
                        "group": "scholars",
                        "icon": "arrow",
                    },
                },
                {"effect": "p1", "gain": {"florins": 6}},
            ],
        },
        {"seat": 1, "steps": [{"card": "purple", "action": "workers"}]},
    ],
}

# The rulebook's example of a final scoring ("Esempio di punteggio finale") is Ada's line: 8 +
# 6 + 4 + 8 + 3 + 7 = 36; Bea: 21 + 4 + 2 + 7 + 3 = 37, and wins.
EXAMPLE_SHEET: list[dict[str, Any]] = [
    {
        "track": 0,
        "persons": [9, 3, 6, 0, 6],
        "houses": 6,
        "laurels": 4,
        "majorities": 2,
        "canals": 1,
        "statues": [],
        "step": 6,
        "florins": 3,
        "points": {"persons": 8, "prestige": 7},
        "score": 36,
    },
    {"track": 21, "persons": [12], "houses": 2, "statues": [7], "step": 3, "florins": 5},
]

API = GameApi(
    create=BrugesGameCreateSerializer,
    entry=BrugesRoundInputSerializer,
    entry_out=BrugesRoundSerializer,
    finish=BrugesFinishSerializer,
    detail=BrugesGameDetailSerializer,
    log=BrugesLogSerializer,
    scorepad=BrugesScorepadSerializer,
    scorepad_examples=(
        OpenApiExample(
            "Bruges: a game known by its final score sheet",
            description="Ada's line is the rulebook's example of a final scoring (36 points: "
            "persons 3 + 1 + 2 + 0 + 2, 6 houses, 4 laurel points, two majority tiles, a "
            "canal's 3rd space, step 6 = 7 on the standard edition); Bea scores 21 + 4 + 2 + "
            "7 + 3 = 37 and wins.",
            value={
                "game_type": GAME_TYPE,
                "players": ["Ada", "Bea"],
                "edition": INFO.default_edition,
                "sheet": EXAMPLE_SHEET,
            },
            request_only=True,
        ),
    ),
    edition_data_schema=EDITION_DATA_SCHEMA,
    create_examples=(
        OpenApiExample(
            "Bruges: a 2-player game on the standard edition",
            value={
                "game_type": GAME_TYPE,
                "players": ["Ada", "Bea"],
                "first_player": 0,
                "edition": INFO.default_edition,
            },
            request_only=True,
        ),
    ),
    entry_examples=(
        OpenApiExample(
            "Bruges: a round",
            description="The rules' example: brown and yellow threats for both; Bea pays "
            "1 + 2 = 3 florins for prestige; Ada hires the Alchimista, whose arrow effect "
            "gives her 6 florins.",
            value={"number": 1, **EXAMPLE_ROUND},
            request_only=True,
        ),
    ),
)
