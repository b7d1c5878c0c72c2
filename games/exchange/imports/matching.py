"""Matching a file's plays to the club's games, players and locations, and planning each
play from what was found (``plays_plan``). Writes nothing."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.exchange.exports import BGSTATS, play_uuid
from games.exchange.formats.plays import ForeignGame, ForeignPlay, ForeignPlayer, PlayFile, Problem
from games.exchange.imports.build import _win_rule, check_play
from games.exchange.imports.plans import (
    BY_BGG,
    BY_NAME,
    BY_REF,
    CREATE,
    ENGINE,
    NEW,
    OTHER,
    SKIP,
    UNCHANGED,
    UPDATE,
    GameMatch,
    ImportPlan,
    PlayPlan,
    SeatPlan,
)
from games.exchange.imports.play_json import fingerprint, play_file_prepared
from games.records import board_games
from games.records.errors import RecordError
from games.records.game_types import game_types
from games.records.i18n import engine_message
from games.records.models import (
    MAX_LOCATION_LENGTH,
    BoardGame,
    Club,
    Game,
    Player,
    PlaySource,
    SourceRef,
    name_key,
)
from games.records.names import BadName, player_name
from scoring.engine import LogError, get_engine


def _skip(plan: PlayPlan, code: str, message: str) -> PlayPlan:
    plan.action, plan.code, plan.message = SKIP, code, message
    return plan


class _Known:
    """What the club already has that a file's plays are matched to, read once per plan."""

    def __init__(self, club: Club, app: str, plays: Sequence[ForeignPlay]) -> None:
        self.club, self.app = club, app
        self.player_refs: dict[str, int] = {}
        self.game_refs: dict[str, int] = {}
        self.location_refs: dict[str, str] = {}
        rows = SourceRef.objects.filter(club=club, app=app).values_list(
            "kind", "external_id", "player_id", "board_game_id", "location"
        )
        for kind, external, player, board_game, location in rows:
            if kind == SourceRef.Kind.PLAYER and player is not None:
                self.player_refs[external] = player
            elif kind == SourceRef.Kind.GAME and board_game is not None:
                self.game_refs[external] = board_game
            elif kind == SourceRef.Kind.LOCATION:
                self.location_refs[external] = location
        keys = {name_key(p.name) for play in plays for p in play.players if p.name}
        self.players = dict(
            Player.objects.filter(club=club, name_key__in=keys).values_list("name_key", "id")
        )
        self.board_games = {
            b["id"]: b
            for b in BoardGame.objects.filter(club=club)
            .order_by("id")
            .values("id", "name", "name_key", "bgg_id", "win")
        }
        self.locations: dict[str, str] = {}
        stored = Game.objects.filter(club=club).exclude(location="").order_by("location")
        for location in stored.values_list("location", flat=True).distinct():
            self.locations.setdefault(name_key(location), location)
        ids = [p.external_id for p in plays]
        self.sources = {
            external: (game, digest)
            for external, game, digest in PlaySource.objects.filter(
                club=club, app=app, external_id__in=ids
            ).values_list("external_id", "game_id", "fingerprint")
        }
        self.own = self._own_plays(plays) if app == BGSTATS else {}
        self.installed = set(game_types())

    def _own_plays(self, plays: Sequence[ForeignPlay]) -> dict[str, int]:
        """The plays of the file that are this club's own games, as its BG Stats export gave
        them (their uuid is the game's: ``exports.play_uuid``): the club's file brought back
        in finds them already here, never copies. Looked for among the games of the plays'
        dates only."""
        dates = {p.played_on for p in plays if p.external_id not in self.sources}
        if not dates:
            return {}
        games = Game.objects.filter(club=self.club, played_on__in=dates)
        return {play_uuid(pk): pk for pk in games.values_list("pk", flat=True)}


def engine_game_type(game: ForeignGame, installed: Iterable[str] | None = None) -> str | None:
    """Our game (its game type) that a play's game is, or None: by BoardGameGeek id
    (``GameInfo.bgg_ids``), or by name (``GameInfo.known_names``) for a play without one and
    for a game whose id we do not know."""
    known = [get_engine(t).info for t in (game_types() if installed is None else installed)]
    if game.bgg_id is not None:
        by_id = next((i.game_id for i in known if game.bgg_id in i.bgg_ids), None)
        if by_id is not None:
            return by_id
    key = name_key(game.name)
    by_name = next((i for i in known if key in {name_key(n) for n in i.known_names}), None)
    if by_name is None:
        return None
    if game.bgg_id is None or not by_name.bgg_ids:
        return by_name.game_id
    return None  # a game of that name with another BoardGameGeek id is another game


def _match_game(game: ForeignGame, known: _Known) -> GameMatch:
    """Raises ``RecordError`` for a name no game can have."""
    ours = engine_game_type(game, known.installed)
    if ours is not None:
        return GameMatch(ours, game.name, ENGINE, bgg_id=game.bgg_id, ref=game.ref)
    name = board_games.clean_game_name(game.name)
    found, how = None, NEW
    if game.ref is not None and game.ref in known.game_refs:
        found, how = known.game_refs[game.ref], BY_REF
    if found is None and game.bgg_id is not None:
        found = next((b for b, g in known.board_games.items() if g["bgg_id"] == game.bgg_id), None)
        how = BY_BGG
    if found is None:
        key = name_key(name)
        found = next((b for b, g in known.board_games.items() if g["name_key"] == key), None)
        how = BY_NAME if found is not None else NEW
    if found is not None:
        stored = known.board_games[found]
        return GameMatch(
            OTHER,
            stored["name"],
            how,
            board_game_id=found,
            bgg_id=stored["bgg_id"],
            win=stored["win"],
            ref=game.ref,
        )
    win = game.win if game.win in BoardGame.Win.values else BoardGame.Win.HIGHEST
    return GameMatch(OTHER, name, NEW, bgg_id=game.bgg_id, win=win, ref=game.ref)


def _match_location(play: ForeignPlay, known: _Known) -> tuple[str, str]:
    if play.location_ref is not None and play.location_ref in known.location_refs:
        return known.location_refs[play.location_ref], BY_REF
    name = " ".join(play.location.split())
    if not name:
        return "", ""
    found = known.locations.get(name_key(name))
    return (found, BY_NAME) if found is not None else (name, NEW)


def _seat_plans(play: ForeignPlay, known: _Known) -> list[SeatPlan]:
    """The play's seats with a person behind them, matched. Raises ``RecordError`` for a name
    no player can have (``games.records.names``), with the seat."""
    seats: list[SeatPlan] = []
    for index, seat in enumerate(play.players):
        if seat.anonymous:
            continue
        try:
            name = player_name(seat.name)
        except BadName as exc:
            raise RecordError(exc.code, exc.message, seat=index) from None
        how, player_id = NEW, None
        if seat.ref is not None and seat.ref in known.player_refs:
            how, player_id = BY_REF, known.player_refs[seat.ref]
        elif name_key(name) in known.players:
            how, player_id = BY_NAME, known.players[name_key(name)]
        seats.append(
            SeatPlan(
                seat=index,
                name=name,
                ref=seat.ref,
                how=how,
                player_id=player_id,
                score=seat.score,
                rank=seat.rank,
                winner=seat.winner,
                team=seat.team,
                start_player=seat.start_player,
            )
        )
    return seats


def _ahead(a: ForeignPlayer, b: ForeignPlayer, win: str) -> bool:
    """Whether the file says ``a`` finished ahead of ``b``: by place, else by score under the
    game's rule, else by the winners marked."""
    if a.rank is not None and b.rank is not None:
        return a.rank < b.rank
    if a.score is not None and b.score is not None and win in ("highest", "lowest"):
        return a.score < b.score if win == "lowest" else a.score > b.score
    return a.winner is True and b.winner is False


def _anonymous_ahead(play: ForeignPlay, win: str) -> bool:
    """Whether a seat with no person finished ahead of one with a person."""
    if win == BoardGame.Win.COOPERATIVE:
        return False  # one side: everyone won or lost together
    nobody = [p for p in play.players if p.anonymous]
    somebody = [p for p in play.players if not p.anonymous]
    return any(_ahead(a, b, win) for a in nobody for b in somebody)


def _same_person_twice(seats: Sequence[SeatPlan]) -> SeatPlan | None:
    seen: set[Any] = set()
    for seat in seats:
        person = ("id", seat.player_id) if seat.player_id else ("new", name_key(seat.name))
        if person in seen:
            return seat
        seen.add(person)
    return None


def play_plan(key: int, play: ForeignPlay, known: _Known) -> PlayPlan:
    """What importing ``play`` would do, from what the club has (``known``). Writes nothing."""
    plan = PlayPlan(key=key, play=play, action=CREATE, problems=list(play.problems))
    own = known.own.get(play.external_id)
    if own is not None:  # one of the club's games, exported from here and brought back
        plan.existing_game_id = own
        plan.action = UNCHANGED
        return plan
    source = known.sources.get(play.external_id)
    if source is not None:
        plan.existing_game_id = source[0]
        if source[1] == fingerprint(play):
            plan.action = UNCHANGED
            return plan
        plan.action = UPDATE
    if play.incomplete:
        return _skip(
            plan,
            "incomplete",
            _("the play is marked incomplete, or left out of statistics, in the app"),
        )
    try:
        plan.game = _match_game(play.game, known)
        plan.seats = _seat_plans(play, known)
    except RecordError as exc:
        return _skip(plan, exc.code, _seat_said(exc.seat, exc.message))
    anonymous = len(play.players) - len(plan.seats)
    if anonymous:
        if _anonymous_ahead(play, _win_rule(plan)):
            return _skip(
                plan,
                "anonymous_ahead",
                _(
                    "a seat with no person behind it finished ahead of a player: without it "
                    "the player would take a place they did not"
                ),
            )
        plan.problems.append(
            Problem(
                "anonymous_seats",
                ngettext(
                    "%(count)s seat with no person behind it was left out",
                    "%(count)s seats with no person behind them were left out",
                    anonymous,
                )
                % {"count": anonymous},
            )
        )
    if not plan.seats:
        return _skip(plan, "no_players", _("the play has no player with a name"))
    twice = _same_person_twice(plan.seats)
    if twice is not None:
        return _skip(
            plan,
            "player_twice",
            _("%(name)s cannot sit at two seats of one game") % {"name": twice.name},
        )
    plan.location, plan.location_how = _match_location(play, known)
    if len(plan.location) > MAX_LOCATION_LENGTH:
        return _skip(
            plan,
            "too_long",
            _("a location has at most %(most)s characters") % {"most": MAX_LOCATION_LENGTH},
        )
    try:
        check_play(plan, known.club)
    except (LogError, RecordError) as exc:
        return _skip(plan, exc.code, _refusal(exc))  # the engine's words name the seat
    return plan


def _seat_said(seat: int | None, message: str) -> str:
    """A refusal of a seat's name, with the seat (in the file's order, counted from 1 as
    people count them, as the readers' own refusals do)."""
    if seat is None:
        return message
    return _("seat %(seat)s: %(message)s") % {"seat": seat + 1, "message": message}


def _refusal(exc: LogError | RecordError) -> str:
    if isinstance(exc, LogError):
        # i18n: engine message
        return engine_message(exc)
    return exc.message


def plays_plan(
    *,
    club: Club,
    play_file: PlayFile,
    format: str | None = None,
    keys: Sequence[int] | None = None,
) -> ImportPlan:
    """What importing ``play_file`` into ``club`` would do, play by play: created, updated, left
    unchanged or skipped (with a stable code and a reason), with every player, named game and
    location matched or to be created. ``keys`` number the plays (by default their place in
    the prepared file, ``play_file_prepared``). Writes nothing."""
    prepared = play_file_prepared(play_file)
    numbers = list(range(len(prepared.plays))) if keys is None else list(keys)
    known = _Known(club, prepared.app, prepared.plays)
    return ImportPlan(
        club=club,
        app=prepared.app,
        format=format or prepared.kind or prepared.app,
        plays=[play_plan(k, p, known) for k, p in zip(numbers, prepared.plays, strict=True)],
        skipped=list(prepared.skipped),
    )
