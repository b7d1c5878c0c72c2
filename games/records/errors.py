"""Errors of the record services, each with a stable code; HTTP statuses are set at the edge
(potdevin_site/exceptions.py) from the class."""

from __future__ import annotations

from typing import Any


class RecordError(Exception):
    """A request the records refuse (400): it names something that cannot be. ``message`` is
    said in the language active where it is raised (the reader's in a request, English in a
    job's worker); ``code`` is the same in every language."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        round: int | None = None,
        seat: int | None = None,
        index: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.round = round
        self.seat = seat
        self.index = index  # which document of an import

    def as_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
            "round": self.round,
            "seat": self.seat,
        }
        if self.index is not None:
            body["index"] = self.index
        return body


class GameConflict(RecordError):
    """A request that does not fit the game's current state (409): finished, stale, taken."""


class Forbidden(RecordError):
    """A request the user may not make on a record they can see (403)."""
