"""The neutral shape of a play read from another app's file, whatever the file.

A reader (``bgstats``, ``bggxml``; ``detect`` finds which) turns a file into a ``PlayFile``: the
plays it could read and the ones it skipped, each with a stable code and words for people.
Nothing here is matched to the club yet: ``ref`` fields are the app's own ids (BG Stats' uuids,
BoardGameGeek's user ids), which the import matches before names.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from dataclasses import dataclass, field, replace
from typing import Any


class FormatError(ValueError):
    """A file no reader takes, or one past a limit: refused whole, nothing stored. ``code`` is
    stable (``unknown_format``, ``too_large``, ``too_deep``, ``malformed``,
    ``unknown_version``...), ``message`` says what is wrong in words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Problem:
    """Something a play held that could not be read as it stood (a score that is no number):
    reported with the play, which is still imported without it."""

    code: str
    message: str
    seat: int | None = None


@dataclass(frozen=True)
class ForeignGame:
    """The game a play is of, as the file names it."""

    ref: str | None  # the app's id of the game (BG Stats' uuid), None when it has none
    name: str
    bgg_id: int | None
    # How the winner is found: "highest", "lowest", "manual" (winners marked), "cooperative".
    win: str = "highest"
    uses_teams: bool = False


@dataclass(frozen=True)
class ForeignPlayer:
    """One seat of a play, in the file's seat order."""

    ref: str | None  # the app's id of the player (BG Stats' uuid; BGG's user id or username)
    name: str
    score: int | None  # the score if it reads as an integer (an expression is evaluated)
    score_text: str  # the score as written in the file ("" when none), for reports
    rank: int | None  # 1 is first; None when the file gives none
    winner: bool | None  # None when the file does not say
    start_player: bool = False
    team: str | None = None  # the file's team name or number, None outside team play
    anonymous: bool = False  # BG Stats' anonymous player: a seat with no person behind it
    new_player: bool = False
    role: str = ""  # BG Stats' role (a faction, a character); BoardGameGeek's colour


@dataclass(frozen=True)
class ForeignPlay:
    app: str  # "bgstats" or "bgg" (games.records.models.PlaySource.App)
    external_id: str  # BG Stats' play uuid, BGG's play id (as text)
    game: ForeignGame
    played_on: datetime.date
    players: tuple[ForeignPlayer, ...]
    duration: int | None = None  # minutes
    location_ref: str | None = None
    location: str = ""
    comments: str = ""
    cooperative_won: bool | None = None  # a cooperative game's outcome, None when not one
    incomplete: bool = False  # BGG's "incomplete" flag; BG Stats' "ignored" play
    problems: tuple[Problem, ...] = ()
    # The time of day the file gives with the date (BG Stats' playDate), None when it gives none.
    played_time: datetime.time | None = None
    board: str = ""  # BG Stats' board (the map or scenario played)
    # BG Stats' manualWinner: the winners were marked by hand in this play, whatever the scores.
    manual_winner: bool = False
    # A digest of everything the play holds (sha256 hex): a play edited in the app and read
    # again has another one, so the import knows to update its game.
    fingerprint: str = ""


@dataclass(frozen=True)
class Skipped:
    """A play the reader could not take (no players, no date it can read...)."""

    external_id: str | None
    code: str
    message: str


@dataclass
class PlayFile:
    app: str
    plays: list[ForeignPlay] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    # Which file it was: "bgstats-export" (the app's whole export), "bgsplay" (one play the app
    # shared), "bgg-xml" (BoardGameGeek's plays document).
    kind: str = ""


def play_fingerprint(play: ForeignPlay) -> str:
    """The sha256 (hex) of everything ``play`` holds but its fingerprint, as canonical JSON
    (keys sorted, no spaces, dates in ISO 8601). A problem counts by its code and seat only:
    its words are in the reader's language, and the same file read in another one is the same
    play."""
    # vars(), not dataclasses.asdict: asdict deep-copies every value, slow for an export of
    # thousands of plays; json.dumps only reads these dicts.
    content = dict(vars(play))
    del content["fingerprint"]
    content["game"] = vars(play.game)
    content["players"] = [vars(player) for player in play.players]
    content["problems"] = [[p.code, p.seat] for p in play.problems]
    text = json.dumps(
        content, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=_iso
    )
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def fingerprinted(play: ForeignPlay) -> ForeignPlay:
    """``play`` with its fingerprint (``play_fingerprint``) set."""
    return replace(play, fingerprint=play_fingerprint(play))


def _iso(value: Any) -> str:
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")
