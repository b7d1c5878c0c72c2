"""Errors, and the checks of a log header, shared by every game engine.

An engine's refusal is said in English, and kept as its template and parameters too
(``said``), so that the service can say it in the reader's language without the engine knowing
of languages: the English template is the key of its translations, and a parameter that is a
seat (``Seat``) or a log code (``Code``) is worded by whoever shows the message (a page names
the player; the API keeps the code as it is, a contract in every language).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Seat:
    """A seat in a refusal: "seat 2" in the engine's English."""

    __slots__ = ("number",)

    def __init__(self, number: int) -> None:
        self.number = number

    def __str__(self) -> str:
        return f"seat {self.number}"


class Code:
    """A log code or key in a refusal (an action, a character, a field): quoted in the
    engine's English ("'foreign_aid'") unless ``quoted`` is False ("the inquisitor")."""

    __slots__ = ("value", "quoted")

    def __init__(self, value: str, quoted: bool = True) -> None:
        self.value = value
        self.quoted = quoted

    def __str__(self) -> str:
        return f"'{self.value}'" if self.quoted else self.value


class Said:
    """A refusal's words: an English ``template`` (``str.format`` fields, braces doubled) and
    its ``params``. ``str()`` is the English message."""

    __slots__ = ("template", "params")

    def __init__(self, template: str, params: dict[str, Any]) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return self.template.format(**self.params)


def said(template: str, /, **params: Any) -> Said:
    """A refusal's message, kept translatable: ``said("{seat} has {coins} coins", seat=Seat(2),
    coins=7)`` reads "seat 2 has 7 coins". The template is what translations are keyed on
    (the service's message catalogues extract every ``said`` call's first argument)."""
    return Said(template, params)


class LogError(ValueError):
    """An impossible game log: it cannot have happened at a real table.

    ``code`` is stable (clients and tests match on it), ``round`` is the 1-based number of the
    log entry (a round; in a game logged turn by turn, the turn) and ``None`` for the log
    header, ``seat`` is the seat whose action is impossible, when there is one. ``turn``, when
    set, is the turn: in a turn-by-turn log the same number as ``round``, in a game whose rounds
    hold turns (Bruges) the 1-based turn within the round.
    """

    def __init__(
        self,
        code: str,
        message: str | Said,
        *,
        round: int | None = None,
        seat: int | None = None,
        turn: int | None = None,
    ) -> None:
        if isinstance(message, Said):
            self.template, self.params = message.template, message.params
            message = str(message)
        else:
            # A message not written with said(): its own template, with nothing to fill in.
            self.template, self.params = message.replace("{", "{{").replace("}", "}}"), {}
        super().__init__(message)
        self.code = code
        self.message = message
        self.round = round
        self.seat = seat
        self.turn = turn

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
            "round": self.round,
            "seat": self.seat,
        }
        if self.turn is not None:
            out["turn"] = self.turn
        return out

    def __repr__(self) -> str:
        return f"LogError({self.code!r}, {self.message!r}, round={self.round}, seat={self.seat})"


def check_player_names(names: Any, *, game: str, fewest: int, most: int) -> list[str]:
    """The player names of a log header in seat order: a list of ``fewest`` to ``most``
    non-blank strings. Raises ``LogError`` (malformed, bad_player_count)."""
    if not isinstance(names, list):
        raise LogError(
            "malformed",
            said("{players} is the list of player names in seat order", players=Code("players")),
        )
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise LogError(
                "malformed",
                said(
                    "{players} is the list of player names (non-empty strings)",
                    players=Code("players"),
                ),
            )
    if not fewest <= len(names) <= most:
        raise LogError(
            "bad_player_count",
            said(
                "{game} is for {fewest} to {most} players, not {count}",
                game=game,
                fewest=fewest,
                most=most,
                count=len(names),
            ),
        )
    return list(names)


def check_header(log: Any, log_format: str) -> dict[str, Any]:
    """The log as a dict (a mapping is copied) whose ``format`` is ``log_format``. Raises
    ``LogError`` (malformed, unsupported_format)."""
    if type(log) is not dict:
        if not isinstance(log, Mapping):
            raise LogError("malformed", said("a log is a JSON object"))
        log = dict(log)
    header: dict[str, Any] = log
    if header.get("format") != log_format:
        raise LogError(
            "unsupported_format",
            said(
                "{format} must be {expected}, not {value!r}",
                format=Code("format"),
                expected=Code(log_format),
                value=header.get("format"),
            ),
        )
    return header


def check_first_player(first: Any, players: int) -> int:
    """The header's ``first_player``: a seat (an int, not a bool). Raises ``LogError``
    (bad_first_player)."""
    if type(first) is not int or not 0 <= first < players:
        raise LogError(
            "bad_first_player",
            said(
                "{first_player} must be a seat from 0 to {last}",
                first_player=Code("first_player"),
                last=players - 1,
            ),
        )
    seat: int = first
    return seat


def check_no_teams(teams: Any, *, game: str) -> None:
    """A game without teams: ``teams`` is missing or null. Raises ``LogError`` (bad_teams)."""
    if teams is not None:
        raise LogError(
            "bad_teams",
            said(
                "{game} has no teams: {teams} must be missing or null",
                game=game,
                teams=Code("teams"),
            ),
        )
