"""What every reader of another app's file does the same way: typed reads of a field that
refuse the play (``Refused``, which becomes a ``Skipped``) or leave the field out with a
``Problem``, dates, and the problems of scores that are no whole number.

A play is refused for what it cannot do without (its id, date, game, players, their names);
what it can (comments, location, board, a role, a score) is left out and reported. ``where``
is the path of the field in the file (``plays[3].playerScores[1].rank``), for the message.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from games.exchange.formats.plays import ForeignPlayer, Problem
from games.exchange.formats.scores import SCORE_NOT_INTEGER, SCORE_OUT_OF_RANGE, parse_score

MAX_PLAYERS = 100  # seats of one play: far above any table
MAX_ID_LENGTH = 64  # an app's id as the import keeps it (PlaySource.external_id)
MAX_BGG_ID = 2**31 - 1
MAX_DURATION = 100_000  # minutes: 69 days
INT64 = 2**63

_DATE = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})"
    r"(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?"
    r"(?:Z|[+-]\d{2}:?\d{2})?"
)


class Refused(Exception):
    """A play the reader cannot take: becomes a ``Skipped`` with this code and message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def malformed(where: str, what: str) -> Refused:
    """``where`` is not a ``what`` (object, list, text, integer, boolean, id)."""
    messages = {
        "object": _("%(where)s is not an object"),
        "list": _("%(where)s is not a list"),
        "text": _("%(where)s is not text"),
        "integer": _("%(where)s is not a whole number"),
        "boolean": _("%(where)s is not true or false"),
        "id": _("%(where)s is not an id"),
    }
    return Refused("malformed", messages[what] % {"where": where})


def out_of_range(where: str) -> Refused:
    return Refused("out_of_range", _("%(where)s is a number out of range") % {"where": where})


def invalid_text(where: str) -> Refused:
    return Refused(
        "invalid_text",
        _("%(where)s holds a character that is not text (NUL or a lone surrogate)")
        % {"where": where},
    )


def is_text(value: str) -> bool:
    """Whether every database and encoder takes ``value`` whole: no NUL, no lone surrogate."""
    if "\x00" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown(value: str, most: int = 40) -> str:
    """``value`` as a message quotes it: cut at ``most`` characters, and escaped as JSON
    escapes it when it holds a character no page shows (a lone surrogate, a control)."""
    if len(value) > most:
        value = value[: most - 1] + "…"
    if not is_text(value) or not value.isprintable():
        value = json.dumps(value)[1:-1]
    return value


def text(value: Any, where: str) -> str:
    """A text field; None is empty. Raises ``Refused`` (malformed, invalid_text)."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise malformed(where, "text")
    if not is_text(value):
        raise invalid_text(where)
    return value


def soft_text(value: Any, where: str, problems: list[Problem], seat: int | None = None) -> str:
    """A text the play can do without (comments, a location, a board, a role): one that
    cannot be read is left out, with a problem."""
    try:
        return text(value, where)
    except Refused as refused:
        problems.append(Problem(refused.code, refused.message, seat))
        return ""


def integer(value: Any, where: str) -> int | None:
    """A whole number (a JSON number with no fraction) in the signed 64-bit range; None stays
    None. Raises ``Refused`` (malformed, out_of_range)."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise malformed(where, "integer")
    if isinstance(value, float):
        if not value.is_integer():
            raise malformed(where, "integer")
        value = int(value)
    if not isinstance(value, int):
        raise malformed(where, "integer")
    if not -INT64 <= value < INT64:
        raise out_of_range(where)
    return value


def flag(value: Any, where: str) -> bool | None:
    """true or false (0 and 1 too); None stays None. Raises ``Refused`` (malformed)."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise malformed(where, "boolean")


def ref_id(value: Any) -> int | str | None:
    """A file's own id of a row, as a key to find the row by (None when it is none)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | str):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def external_ref(value: Any, where: str) -> str | None:
    """An app's id of something (a uuid) as the import keeps it; None when empty. Raises
    ``Refused`` (malformed, invalid_text)."""
    found = text(value, where).strip()
    if len(found) > MAX_ID_LENGTH:
        raise malformed(where, "id")
    return found or None


def deleted(row: Mapping[str, Any]) -> bool:
    """Whether ``row`` is marked deleted (``deleted`` or ``isDeleted``, as a sync copy may)."""
    return any(row.get(key) is True or row.get(key) == 1 for key in ("deleted", "isDeleted"))


def parse_date(value: Any, where: str) -> tuple[datetime.date, datetime.time | None]:
    """A date, with the time when one is given: "2020-10-23 19:16:58" (BG Stats),
    "2015-12-27" (BoardGameGeek), or ISO 8601 with a T. Raises ``Refused`` (bad_date)."""
    if value is None or value == "":
        raise Refused("bad_date", _("the play has no date"))
    matched = _DATE.fullmatch(value.strip()) if isinstance(value, str) else None
    try:
        if matched is None:
            raise ValueError(value)
        year, month, day, hour, minute, second = matched.groups()
        date = datetime.date(int(year), int(month), int(day))
        time = None
        if hour is not None:
            time = datetime.time(int(hour), int(minute), int(second or 0))
    except ValueError:
        raise Refused(
            "bad_date",
            _("%(where)s, %(text)s, is not a date") % {"where": where, "text": shown(str(value))},
        ) from None
    return date, time


def score_problem(code: str, name: str, score_text: str, seat: int) -> Problem:
    """The problem of a score that is no whole number (``scores.parse_score``'s codes)."""
    values = {"name": shown(name), "text": shown(score_text)}
    if code == SCORE_NOT_INTEGER:
        message = _("the score of %(name)s, “%(text)s”, is not a whole number: left out")
    elif code == SCORE_OUT_OF_RANGE:
        message = _("the score of %(name)s, “%(text)s”, is out of range: left out")
    else:
        message = _("the score of %(name)s, “%(text)s”, cannot be read: left out")
    return Problem(code, message % values, seat=seat)


def score_problems(players: Iterable[ForeignPlayer]) -> list[Problem]:
    """One problem for each seat whose score text says no whole number."""
    problems = []
    for seat, player in enumerate(players):
        if player.score is None and player.score_text:
            code = parse_score(player.score_text).problem or "score_unreadable"
            problems.append(score_problem(code, player.name, player.score_text, seat))
    return problems


def player_twice(players: Iterable[ForeignPlayer]) -> None:
    """Refuse a play where one person (not an anonymous seat) sits at two seats: the records
    hold a player once per game. Raises ``Refused`` (player_twice)."""
    seen: set[str] = set()
    for player in players:
        if player.anonymous or player.ref is None:
            continue
        if player.ref in seen:
            raise Refused(
                "player_twice", _("%(name)s sits at two seats") % {"name": shown(player.name)}
            )
        seen.add(player.ref)
