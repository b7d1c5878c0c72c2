"""Errors shared by every game engine."""

from __future__ import annotations

from typing import Any


class LogError(ValueError):
    """An impossible game log: it cannot have happened at a real table.

    ``code`` is stable (clients and tests match on it), ``round`` is 1-based and ``None`` for the
    log header, ``seat`` is the seat whose action is impossible, when there is one.
    """

    def __init__(
        self, code: str, message: str, *, round: int | None = None, seat: int | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.round = round
        self.seat = seat

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "round": self.round, "seat": self.seat}

    def __repr__(self) -> str:
        return f"LogError({self.code!r}, {self.message!r}, round={self.round}, seat={self.seat})"
