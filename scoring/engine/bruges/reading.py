"""Reading a log's values: objects, lists, colour and action names as codes, and the errors
that say where in the round a log went wrong."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.bruges.rules import (
    BLUE,
    BROWN,
    CANAL,
    FLORINS,
    HOUSE,
    PERSON,
    PURPLE,
    RED,
    THREAT,
    WORKERS,
    YELLOW,
)
from scoring.engine.bruges.state import _Round
from scoring.engine.errors import Code, LogError, Said, said


def _malformed(message: str | Said, rnd: _Round | None = None, seat: int | None = None) -> LogError:
    if rnd is None:
        return LogError("malformed", message, seat=seat)
    return LogError(
        "malformed", message, round=rnd.rno, seat=seat, turn=rnd.tno if rnd.tno else None
    )


def _error(code: str, message: str | Said, rnd: _Round, seat: int | None) -> LogError:
    return LogError(code, message, round=rnd.rno, seat=seat, turn=rnd.tno if rnd.tno else None)


def _as_dict(value: Any) -> dict[str, Any] | None:
    """``value`` as a dict if it is a JSON object (or any mapping), else None."""
    if type(value) is dict:
        return value
    if isinstance(value, Mapping):
        return dict(value)
    return None


def _as_list(value: Any, what: str, rnd: _Round) -> list[Any]:
    """An optional list: missing or null is empty."""
    if value is None:
        return []
    if type(value) is not list:
        raise _malformed(said("{key} is a list", key=Code(what)), rnd)
    items: list[Any] = value
    return items


def _color_code(name: Any) -> int:
    """A colour's code, -1 for anything else (a length switch and one string compare beat a
    dict lookup here)."""
    if type(name) is not str:
        return -1
    size = len(name)
    if size == 3:
        return RED if name == "red" else -1
    if size == 4:
        return BLUE if name == "blue" else -1
    if size == 5:
        return BROWN if name == "brown" else -1
    if size == 6:
        if name == "yellow":
            return YELLOW
        return PURPLE if name == "purple" else -1
    return -1


def _action_code(name: Any) -> int:
    if type(name) is not str:
        return -1
    size = len(name)
    if size == 7:
        if name == "workers":
            return WORKERS
        return FLORINS if name == "florins" else -1
    if size == 5:
        if name == "house":
            return HOUSE
        return CANAL if name == "canal" else -1
    if size == 6:
        if name == "person":
            return PERSON
        return THREAT if name == "threat" else -1
    return -1
