"""Reading a log's values: a card by its name, a seat number, and the error for a malformed
log."""

from __future__ import annotations

from typing import Any, TypeGuard

from scoring.engine.errors import LogError, Said, said
from scoring.engine.potdevin.cards import CARD_INDEX


def _malformed(
    message: str | Said, *, round: int | None = None, seat: int | None = None
) -> LogError:
    return LogError("malformed", message, round=round, seat=seat)


def _is_int(value: object) -> TypeGuard[int]:
    return type(value) is int  # bool is an int subclass, and True is no seat


def _card(name: Any, *, round: int | None = None, seat: int | None = None) -> int:
    if type(name) is str and name in CARD_INDEX:
        return CARD_INDEX[name]
    if not isinstance(name, str):
        raise _malformed(
            said("a card is written like 'A7', not {value!r}", value=name), round=round, seat=seat
        )
    index = CARD_INDEX.get(name)
    if index is None:
        raise LogError(
            "unknown_card",
            said("{name!r} is not a card (A1 to U13)", name=name),
            round=round,
            seat=seat,
        )
    return index
