"""A round sent to append or correct (``BrugesRoundInputSerializer``), its shape checked fast.

A 4-player round is some 20 nested objects: DRF's field-by-field validation of the serializers
that document it (``rounds``) took most of an append's time. The round sent is checked by the
plain functions below instead, against the same shape (tests/api/test_api_bruges.py holds both
to the same answers on every simulated round and on each wrong shape), taking JSON types as sent
(a string "3" is no integer here, as it is to DRF); the serializers document it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from games.api.serializers import MAX_ENTRY_NUMBER, EntryInputSerializer
from games.plugins.bruges.api.fields import (
    ID_MAX_LENGTH,
    MAX_LIST,
    MAX_STEPS,
    MAX_TURNS,
    NUMBER,
    WORD_MAX_LENGTH,
)
from games.plugins.bruges.api.rounds import BrugesRoundEntrySerializer
from scoring.engine.bruges.rules import COLORS


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
