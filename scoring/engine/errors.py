"""Errors, and the checks of a log header, shared by every game engine."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


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
        message: str,
        *,
        round: int | None = None,
        seat: int | None = None,
        turn: int | None = None,
    ) -> None:
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
        raise LogError("malformed", "'players' is the list of player names in seat order")
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise LogError("malformed", "'players' is the list of player names (non-empty strings)")
    if not fewest <= len(names) <= most:
        raise LogError(
            "bad_player_count", f"{game} is for {fewest} to {most} players, not {len(names)}"
        )
    return list(names)


def check_header(log: Any, log_format: str) -> dict[str, Any]:
    """The log as a dict (a mapping is copied) whose ``format`` is ``log_format``. Raises
    ``LogError`` (malformed, unsupported_format)."""
    if type(log) is not dict:
        if not isinstance(log, Mapping):
            raise LogError("malformed", "a log is a JSON object")
        log = dict(log)
    header: dict[str, Any] = log
    if header.get("format") != log_format:
        raise LogError(
            "unsupported_format",
            f"'format' must be {log_format!r}, not {header.get('format')!r}",
        )
    return header


def check_first_player(first: Any, players: int) -> int:
    """The header's ``first_player``: a seat (an int, not a bool). Raises ``LogError``
    (bad_first_player)."""
    if type(first) is not int or not 0 <= first < players:
        raise LogError("bad_first_player", f"'first_player' must be a seat from 0 to {players - 1}")
    seat: int = first
    return seat


def check_no_teams(teams: Any, *, game: str) -> None:
    """A game without teams: ``teams`` is missing or null. Raises ``LogError`` (bad_teams)."""
    if teams is not None:
        raise LogError("bad_teams", f"{game} has no teams: 'teams' must be missing or null")
