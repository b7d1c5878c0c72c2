"""A club's finished games as plays for another app: read from the records in bulk, turned into
the neutral plays of ``games.exchange.formats.plays`` and written by the app's own format (BG Stats'
export file and its ``createPlay`` link).

The ids the app keeps are stable, so that a second import into the app matches the players,
locations, games and plays of the first one instead of doubling them:

- a player, a location or a named game that came from BG Stats keeps the app's own uuid (the
  ``SourceRef`` the import learnt), and a play that came from it keeps its uuid
  (``PlaySource``): a round trip gives the app back its own ids;
- anything else gets a name-based uuid (``uuid5``) of what it is here: a player of
  ``player/<club id>/<player id>``, a location of ``location/<club id>/<folded name>``, a named
  game of ``board-game/<club id>/<id>``, one of our games of ``game/<game type>`` (the same game
  in every club), a play of ``play/<game id>``.

Only finished games are plays: a game in progress has no result to send.
"""

from __future__ import annotations

import datetime
import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import orjson
from django.utils import timezone

from games.exchange.formats import bgstats
from games.exchange.formats.plays import ForeignGame, ForeignPlay, ForeignPlayer
from games.records.game_types import UnknownGameType, plugin_for
from games.records.models import (
    BoardGame,
    Club,
    Game,
    Player,
    PlaySource,
    Seat,
    SourceRef,
    name_key,
)
from scoring.engine import get_engine

BGSTATS: str = PlaySource.App.BGSTATS.value
# The namespace of every uuid made here (a constant: changing it would give every player, game
# and play a new uuid, and the app would double them on the next import).
NAMESPACE = uuid.UUID("a3d61d93-fa69-4ba4-82e3-3322b1e39c66")
# What the app shows as the play's source in its import dialog.
SOURCE_NAME = "potdevin"
# The file the app imports (its own export's name).
EXPORT_FILENAME = "BGStatsExport.json"
# How often one user may ask for a club's file, on the API and the pages (a large club's takes
# a second or two to write: a member asks for it now and then, not in a loop).
EXPORT_RATE = "20/min"


def stable_uuid(*parts: object) -> str:
    """The uuid of ``parts`` joined by ``/`` (``stable_uuid("player", 3, 17)``)."""
    return str(uuid.uuid5(NAMESPACE, "/".join(str(p) for p in parts)))


def player_uuid(club_id: int, player_id: int) -> str:
    return stable_uuid("player", club_id, player_id)


def location_uuid(club_id: int, location: str) -> str:
    return stable_uuid("location", club_id, name_key(location))


def board_game_uuid(club_id: int, board_game_id: int) -> str:
    return stable_uuid("board-game", club_id, board_game_id)


def game_type_uuid(game_type: str) -> str:
    return stable_uuid("game", game_type)


def play_uuid(game_id: int) -> str:
    return stable_uuid("play", game_id)


# --- the rows read, and what a club's records say, read once for every game -----------------


@dataclass(frozen=True)
class _GameRow:
    id: int
    game_type: str
    board_game_id: int | None
    played_on: Any
    location: str
    notes: str
    duration: int | None
    first_player: int | None
    created_at: Any


@dataclass(frozen=True)
class _SeatRow:
    seat: int
    player_id: int
    team: int | None
    score: int | None
    rank: int | None


_GAME_FIELDS = (
    "id",
    "game_type",
    "board_game_id",
    "played_on",
    "location",
    "notes",
    "duration",
    "first_player",
    "created_at",
)
_SEAT_FIELDS = ("seat", "player_id", "team", "score", "rank")


@dataclass
class _Lookups:
    """Everything an export needs besides the games and their seats, by id."""

    club_id: int
    names: dict[int, str] = field(default_factory=dict)  # player id -> name
    board_games: dict[int, tuple[str, int | None, str]] = field(default_factory=dict)
    player_refs: dict[int, str] = field(default_factory=dict)  # player id -> app uuid
    board_game_refs: dict[int, str] = field(default_factory=dict)
    location_refs: dict[str, str] = field(default_factory=dict)  # folded name -> app uuid
    play_refs: dict[int, str] = field(default_factory=dict)  # game id -> app uuid
    imported: set[int] = field(default_factory=set)  # games that came from another app
    # What is worked out once and asked for in every play: each player's uuid, each game, each
    # location's uuid, the time zone of the times of day.
    _players: dict[int, str] = field(default_factory=dict)
    _games: dict[tuple[str, int | None], ForeignGame | None] = field(default_factory=dict)
    _locations: dict[str, str] = field(default_factory=dict)
    zone: Any = field(default_factory=timezone.get_current_timezone)

    def player_ref(self, player_id: int) -> str:
        found = self._players.get(player_id)
        if found is None:
            found = self.player_refs.get(player_id) or player_uuid(self.club_id, player_id)
            self._players[player_id] = found
        return found

    def location_ref(self, location: str) -> str:
        found = self._locations.get(location)
        if found is None:
            key = name_key(location)
            found = self.location_refs.get(key) or location_uuid(self.club_id, location)
            self._locations[location] = found
        return found

    def game(self, row: _GameRow) -> ForeignGame | None:
        key = (row.game_type, row.board_game_id)
        if key not in self._games:
            self._games[key] = _foreign_game(row, self)
        return self._games[key]


def _lookups(club_id: int, *, player_ids: Iterable[int] | None = None) -> _Lookups:
    """The club's names and the app's ids it learnt at import (``player_ids``: only these
    players' names, for one game)."""
    found = _Lookups(club_id)
    players = Player.objects.filter(club_id=club_id)
    if player_ids is not None:
        players = players.filter(pk__in=list(player_ids))
    found.names = dict(players.values_list("id", "name"))
    found.board_games = {
        pk: (name, bgg_id, win)
        for pk, name, bgg_id, win in BoardGame.objects.filter(club_id=club_id).values_list(
            "id", "name", "bgg_id", "win"
        )
    }
    refs = SourceRef.objects.filter(club_id=club_id, app=BGSTATS).order_by("id")
    for kind, external_id, player_id, board_game_id, location in refs.values_list(
        "kind", "external_id", "player_id", "board_game_id", "location"
    ):
        # The first one learnt wins (a player merged from two of the app's ids keeps one).
        if kind == SourceRef.Kind.PLAYER and player_id is not None:
            found.player_refs.setdefault(player_id, external_id)
        elif kind == SourceRef.Kind.GAME and board_game_id is not None:
            found.board_game_refs.setdefault(board_game_id, external_id)
        elif kind == SourceRef.Kind.LOCATION and location:
            found.location_refs.setdefault(name_key(location), external_id)
    return found


# --- one game as a play ------------------------------------------------------------------------


def _foreign_game(row: _GameRow, lookups: _Lookups) -> ForeignGame | None:
    """The game a play is of, as the app knows it: one of ours by its BoardGameGeek id, a
    named game of the club as the club named it. None for a game type no longer installed."""
    if row.board_game_id is not None:
        name, bgg_id, win = lookups.board_games[row.board_game_id]
        ref = lookups.board_game_refs.get(row.board_game_id) or board_game_uuid(
            lookups.club_id, row.board_game_id
        )
        return ForeignGame(ref=ref, name=name, bgg_id=bgg_id, win=win)
    try:
        plugin = plugin_for(row.game_type)
    except UnknownGameType:
        return None
    info = plugin.engine.info
    return ForeignGame(
        ref=game_type_uuid(row.game_type),
        name=info.label,
        bgg_id=bgg_id_of(row.game_type),
        # As a play of it known by its scores only is won (Complots, without points: its
        # ranks, the app's noPoints).
        win=info.result_win_rule(),
    )


def bgg_id_of(game_type: str) -> int | None:
    """The BoardGameGeek id of one of our games, the one the import knows it by (None when it
    knows none: the app then matches the game by its name, as the import does)."""
    return next(iter(get_engine(game_type).info.bgg_ids), None)


def _play(row: _GameRow, seats: list[_SeatRow], lookups: _Lookups) -> ForeignPlay | None:
    game = lookups.game(row)
    if game is None or not seats:
        return None
    cooperative = game.win == BoardGame.Win.COOPERATIVE
    # A cooperative game is won or lost by the whole table, stored as one team ranked first
    # when it won: the app has no team there, only the outcome.
    won = any(s.rank == 1 for s in seats) if cooperative else None
    if cooperative:
        seats = [replace(s, team=None) for s in seats]
    players = tuple(
        ForeignPlayer(
            ref=lookups.player_ref(s.player_id),
            name=lookups.names[s.player_id],
            score=s.score,
            score_text="" if s.score is None else str(s.score),
            rank=None if cooperative else s.rank,
            winner=won if cooperative else (None if s.rank is None else s.rank == 1),
            start_player=row.first_player is not None and s.seat == row.first_player,
            team=None if s.team is None else str(s.team + 1),
        )
        for s in seats
    )
    location = row.location.strip()
    imported = row.id in lookups.imported
    return ForeignPlay(
        app=BGSTATS,
        external_id=lookups.play_refs.get(row.id) or play_uuid(row.id),
        game=replace(game, uses_teams=any(s.team is not None for s in seats)),
        played_on=row.played_on,
        players=players,
        duration=row.duration,
        location_ref=lookups.location_ref(location) if location else None,
        location=location,
        comments=row.notes,
        cooperative_won=won,
        played_time=None if imported else _time_of_day(row, lookups.zone),
        manual_winner=game.win == BoardGame.Win.MANUAL and row.board_game_id is not None,
    )


def _time_of_day(row: _GameRow, zone: Any) -> datetime.time | None:
    """When a game recorded here was started: the time it was created, on the day it was
    played (None when it was recorded another day: the time would be the recording's)."""
    local: datetime.datetime = row.created_at.astimezone(zone)
    return local.time().replace(microsecond=0) if local.date() == row.played_on else None


# --- a club's plays, and one game's -------------------------------------------------------------


def club_plays(*, club: Club) -> list[ForeignPlay]:
    """The club's finished games as plays, oldest first, read in a few queries whatever their
    number (games, seats, names, the club's named games, the app's ids, where plays came
    from)."""
    return _club_plays(club)[0]


def _club_plays(club: Club) -> tuple[list[ForeignPlay], _Lookups]:
    finished = Game.objects.filter(club=club, status=Game.Status.FINISHED)
    rows = [
        _GameRow(*values)
        for values in finished.order_by("played_on", "id").values_list(*_GAME_FIELDS)
    ]
    seats: dict[int, list[_SeatRow]] = defaultdict(list)
    for game_id, *values in (
        Seat.objects.filter(game__club=club, game__status=Game.Status.FINISHED)
        .order_by("game_id", "seat")
        .values_list("game_id", *_SEAT_FIELDS)
    ):
        seats[game_id].append(_SeatRow(*values))
    lookups = _lookups(club.pk)
    _sources(lookups, PlaySource.objects.filter(club=club))
    plays = [_play(row, seats[row.id], lookups) for row in rows]
    return _teams_per_game([p for p in plays if p is not None]), lookups


def _sources(lookups: _Lookups, sources: Any) -> None:
    """Which games came from another app, and the app's uuid of those that came from BG
    Stats."""
    for game_id, app, external_id in sources.values_list("game_id", "app", "external_id"):
        lookups.imported.add(game_id)
        if app == BGSTATS:
            lookups.play_refs[game_id] = external_id


def _teams_per_game(plays: list[ForeignPlay]) -> list[ForeignPlay]:
    """The app keeps whether a game uses teams on the game, not the play: a game of which any
    play was played in teams uses them in every play of the file."""
    in_teams = {p.game.ref for p in plays if p.game.uses_teams}
    return [
        replace(p, game=replace(p.game, uses_teams=True))
        if p.game.ref in in_teams and not p.game.uses_teams
        else p
        for p in plays
    ]


def game_play(*, game: Game) -> ForeignPlay | None:
    """A finished game as a play (None for a game in progress, and for a play that came from
    BG Stats: it is in the app already). Reads the game's seats as prefetched, if they are."""
    if game.status != Game.Status.FINISHED:
        return None
    stored = sorted(game.seats.all(), key=lambda s: s.seat)
    lookups = _lookups(game.club_id, player_ids=[s.player_id for s in stored])
    _sources(lookups, PlaySource.objects.filter(game_id=game.pk))
    if game.pk in lookups.play_refs:
        return None
    seats = [_SeatRow(s.seat, s.player_id, s.team, s.score, s.rank) for s in stored]
    row = _GameRow(*(getattr(game, name) for name in _GAME_FIELDS))
    return _play(row, seats, lookups)


# --- BG Stats ----------------------------------------------------------------------------------


def bgstats_export(*, club: Club, user: Any = None) -> dict[str, Any]:
    """The club's finished games as BG Stats' export file (``BGStatsExport.json``). ``user``:
    who asks; the player linked to their account is the app's own user in the file (its
    "me"), as it would be in their own export."""
    plays, lookups = _club_plays(club)
    me = None
    if user is not None and user.is_authenticated:
        mine = Player.objects.filter(club=club, user=user).values_list("id", flat=True).first()
        if mine is not None:
            me = lookups.player_refs.get(mine) or player_uuid(club.pk, mine)
    return bgstats.export_document(plays, me=me)


def bgstats_file(*, club: Club, user: Any = None) -> bytes:
    """``bgstats_export`` as the bytes of the file (JSON in UTF-8, as the app writes its own)."""
    return orjson.dumps(bgstats_export(club=club, user=user))


def bgstats_url(*, game: Game) -> str | None:
    """BG Stats' ``createPlay`` link of a finished game: opened on a phone with the app, it
    shows the play for the player to match and save (and the app posts it on to
    BoardGameGeek). None for a game in progress, and for a play that came from BG Stats."""
    play = game_play(game=game)
    if play is None:
        return None
    return bgstats.create_play_url(play, source_name=SOURCE_NAME, source_play_id=play.external_id)
