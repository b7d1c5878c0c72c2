"""Plays from other apps into a club's records: every play a file holds (``games.exchange.formats``)
is matched to the club's games, players and locations, planned (what would be created, updated,
left as it is or skipped, and why) and stored.

Matching, the first rule that finds something winning:

- **The game.** One of ours (an engine) by its BoardGameGeek id (``GameInfo.bgg_ids``), or by its
  name where the play gives no BGG id, or where we know no BGG id for the game
  (``GameInfo.known_names``); else a named game of the club (an "other game") by the app's id of the
  game learnt at an earlier import (``SourceRef``), then by BGG id, then by name; else a new
  named game.
- **A player.** By the app's id learnt at an earlier import (``SourceRef``), then by name
  (``name_key``: case and Unicode forms folded); else a new player of the club.
- **A location.** By the app's id learnt earlier, then by the name of a location the club's
  games already have (its spelling kept); else the file's name.

**Seats with no person** (BG Stats' anonymous player) are left out of the game: the players
known keep their own scores, ranks and winners as the file gives them. Counting an anonymous
seat as a player would put one "Anonymous" in every game's statistics, head-to-head and
ratings as if they were one person, and skipping every such play would lose the known players'
games; leaving it out keeps every number about a real person true (each known player's games,
wins, scores, and who beat whom), and the plan reports it (``anonymous_seats``). Unless an
anonymous seat finished ahead of a known player: left out, it would move that player up a
place they did not take, so that play is skipped (``anonymous_ahead``).

**Winners marked by hand** against the scores (BG Stats' ``manualWinner``) are the app's word on
who won: where the scores say otherwise, the play is kept with its winners and ranks and
without its scores (``scores_left_out``), rather than refused.

**Plays of our own games** (Complots, Bruges, Pot de Vin) have no entry log in another app:
they become games known by their result (``Game.Mode.RESULT``), or, for Complots when the file
ranks every player apart, the Complots result sheet (the elimination order, scorepad mode).
Never an entry log.

**Idempotent** by (club, app, the app's id of the play), kept in ``PlaySource`` with the play's
fingerprint: the same play read again leaves its game unchanged; a play edited in the app (another
fingerprint) updates its game in place (seats, scores, result, date, location...), with an
"edited" line in its history, and statistics follow. A play whose game was deleted here is
created again.

``plays_plan`` writes nothing; ``plays_store`` stores a whole file in one transaction (all or
nothing); an import job stores each play alone (``play_store_one``), a refused play reported
with its reason.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.exchange.formats.plays import (
    ForeignGame,
    ForeignPlay,
    ForeignPlayer,
    PlayFile,
    Problem,
    Skipped,
)
from games.records import adapters, board_games, events, services, stored_json
from games.records.errors import GameConflict, RecordError
from games.records.game_types import game_types
from games.records.i18n import engine_message
from games.records.models import (
    MAX_LOCATION_LENGTH,
    BoardGame,
    Club,
    Game,
    GameEvent,
    Player,
    PlaySource,
    Seat,
    SourceRef,
    name_key,
)
from games.records.names import BadName, player_name
from scoring.engine import LogError, get_engine
from scoring.engine.errors import check_first_player

# The game type of a club's named games (the generic scores engine's).
OTHER = "other"
# An import job whose inputs are plays (``play_to_json``), not log documents.
PLAYS_INPUT = "plays"

# What happens to a play.
CREATE, UPDATE, UNCHANGED, SKIP = "create", "update", "unchanged", "skip"
# What a job's item says was done with a play (``JobItem.outcome``), by action.
OUTCOMES = {CREATE: "created", UPDATE: "updated", UNCHANGED: "unchanged", SKIP: "skipped"}
# How a game, a player or a location was found: by the app's id, a BGG id, a name, as one of
# our games; or new.
BY_REF, BY_BGG, BY_NAME, ENGINE, NEW = "ref", "bgg", "name", "engine", "new"


# --- the plan ----------------------------------------------------------------------------------


@dataclass
class GameMatch:
    """What a play's game is here."""

    game_type: str
    name: str  # as stored (a new named game's name)
    how: str  # ENGINE, BY_REF, BY_BGG, BY_NAME or NEW
    board_game_id: int | None = None  # the club's named game found (None: one of ours, or new)
    bgg_id: int | None = None
    win: str = BoardGame.Win.HIGHEST  # how the named game is won (the one found, or the file's)
    ref: str | None = None

    @property
    def key(self) -> tuple[str, str]:
        """Tells games apart in the plan's counts: a new named game by its name."""
        if self.board_game_id is not None:
            return ("id", str(self.board_game_id))
        if self.how == ENGINE:
            return ("engine", self.game_type)
        return ("new", name_key(self.name))


@dataclass
class SeatPlan:
    """One seat of a play with a person behind it, and the player it is (or will be)."""

    seat: int  # in the file's order, anonymous seats counted
    name: str  # as stored (``games.records.names``)
    ref: str | None
    how: str  # BY_REF, BY_NAME or NEW
    player_id: int | None
    score: int | None
    rank: int | None
    winner: bool | None
    team: str | None
    start_player: bool


@dataclass
class PlayPlan:
    key: int  # the play's number (its place in the file, or in a job)
    play: ForeignPlay
    action: str
    code: str = ""
    message: str = ""
    game: GameMatch | None = None
    seats: list[SeatPlan] = field(default_factory=list)
    location: str = ""
    location_how: str = ""
    existing_game_id: int | None = None
    problems: list[Problem] = field(default_factory=list)
    scores_left_out: bool = False  # winners marked by hand against the scores

    def sheet_lines(self) -> list[dict[str, Any]]:
        """One line per seat, as a game known by its result stores them."""
        return [
            {
                "score": None if self.scores_left_out else s.score,
                "rank": s.rank,
                "winner": s.winner,
            }
            for s in self.seats
        ]

    def places(self) -> list[int] | None:
        """Every seat's place when the play ranks every player apart (1 to n, winners marked
        where marked agreeing), else None."""
        ranks = [s.rank for s in self.seats]
        if any(r is None for r in ranks) or sorted(ranks) != list(range(1, len(ranks) + 1)):  # type: ignore[type-var]
            return None
        if any(s.winner is not None and s.winner != (s.rank == 1) for s in self.seats):
            return None
        return [r for r in ranks if r is not None]

    def mode(self) -> str:
        """How its game is kept: the final sheet of one of ours that its places make, or the
        result."""
        assert self.game is not None
        if _sheet_from_places(self.game.game_type) is not None and self.places() is not None:
            return Game.Mode.SCOREPAD
        return Game.Mode.RESULT


@dataclass
class ImportPlan:
    club: Club
    app: str
    format: str
    plays: list[PlayPlan]
    skipped: list[Skipped] = field(default_factory=list)  # before planning (the reader's...)

    def summary(self, outcomes: dict[int, tuple[str, int | None]] | None = None) -> dict[str, Any]:
        """The plan (or, with ``outcomes``, what was stored: key to action and game id) as the
        import's answer (``plan_summary``)."""
        return plan_summary(self, outcomes)


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
        self.installed = set(game_types())


def _sheet_from_places(game_type: str) -> Callable[[Sequence[int]], dict[str, Any]] | None:
    """How one of our games' final sheet follows from every player's place alone
    (``GameInfo.sheet_from_places``): a play of it ranking every player apart becomes that sheet,
    scored by the game's own engine, rather than a game known by its result."""
    return get_engine(game_type).info.sheet_from_places


def _place_sheet(game_type: str, places: Sequence[int]) -> dict[str, Any]:
    make = _sheet_from_places(game_type)
    assert make is not None  # a play becomes a sheet only where its game has one (Plan.mode)
    return make(places)


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
    """A refusal of a seat's name, with the seat (in the file's order)."""
    if seat is None:
        return message
    return _("seat %(seat)s: %(message)s") % {"seat": seat, "message": message}


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


def plan_summary(
    plan: ImportPlan, outcomes: dict[int, tuple[str, int | None]] | None = None
) -> dict[str, Any]:
    """The import's answer: ``{"format", "plays" (in the file), "created": {"games",
    "players", "board_games", "locations"}, "matched": {"players", "board_games",
    "locations"}, "updated", "unchanged", "game_types" (games created or updated, by type),
    "skipped": [{"play", "code", "message"}], "problems": [{"play", "code", "message",
    "seat"}]}``. ``outcomes`` (key to what was done and the game) replace the planned actions
    with what the store did."""
    actions: Counter[str] = Counter()
    types_done: Counter[str] = Counter()
    players: dict[Any, str] = {}
    games: dict[Any, str] = {}
    locations: dict[str, str] = {}
    skipped = [{"play": s.external_id, "code": s.code, "message": s.message} for s in plan.skipped]
    problems = []
    for play in plan.plays:
        action = outcomes[play.key][0] if outcomes and play.key in outcomes else play.action
        actions[action] += 1
        if action == SKIP:
            skipped.append(
                {"play": play.play.external_id, "code": play.code, "message": play.message}
            )
            continue
        if action == UNCHANGED or play.game is None:
            continue
        problems.extend({"play": play.play.external_id, **asdict(p)} for p in play.problems)
        types_done[play.game.game_type] += 1
        if play.game.how != ENGINE:
            games.setdefault(play.game.key, play.game.how)
        for seat in play.seats:
            person = seat.player_id if seat.player_id is not None else name_key(seat.name)
            players.setdefault(person, seat.how)
        if play.location:
            locations.setdefault(name_key(play.location), play.location_how)

    def count(found: dict[Any, str], new: bool) -> int:
        return sum(1 for how in found.values() if (how == NEW) == new)

    return {
        "format": plan.format,
        "plays": len(plan.plays) + len(plan.skipped),
        "created": {
            "games": actions[CREATE],
            "players": count(players, True),
            "board_games": count(games, True),
            "locations": count(locations, True),
        },
        "matched": {
            "players": count(players, False),
            "board_games": count(games, False),
            "locations": count(locations, False),
        },
        "updated": actions[UPDATE],
        "unchanged": actions[UNCHANGED],
        "game_types": dict(sorted(types_done.items())),
        "skipped": skipped,
        "problems": problems,
    }


def plan_details(plan: ImportPlan) -> dict[str, Any]:
    """The plan play by play, and each player, named game and location it found or would make:
    what a dry run shows before anything is written."""
    players: dict[Any, dict[str, Any]] = {}
    games: dict[Any, dict[str, Any]] = {}
    locations: dict[str, dict[str, Any]] = {}
    plays = []
    for play in plan.plays:
        plays.append(
            {
                "play": play.play.external_id,
                "played_on": play.play.played_on.isoformat(),
                "game": play.game.name if play.game else play.play.game.name,
                "game_type": play.game.game_type if play.game else None,
                "mode": play.mode() if play.game and play.action in (CREATE, UPDATE) else None,
                "action": play.action,
                "game_id": play.existing_game_id,
                "players": [s.name for s in play.seats],
                "code": play.code or None,
                "message": play.message or None,
            }
        )
        if play.action not in (CREATE, UPDATE) or play.game is None:
            continue
        if play.game.how != ENGINE:
            games.setdefault(
                play.game.key,
                {
                    "name": play.game.name,
                    "bgg_id": play.game.bgg_id,
                    "match": play.game.how,
                    "board_game": play.game.board_game_id,
                },
            )
        for seat in play.seats:
            person = seat.player_id if seat.player_id is not None else name_key(seat.name)
            players.setdefault(
                person, {"name": seat.name, "match": seat.how, "player": seat.player_id}
            )
        if play.location:
            locations.setdefault(
                name_key(play.location), {"name": play.location, "match": play.location_how}
            )
    return {
        "plays": plays,
        "players": list(players.values()),
        "board_games": list(games.values()),
        "locations": list(locations.values()),
    }


# --- building a play's game --------------------------------------------------------------------


def fingerprint(play: ForeignPlay) -> str:
    """The play's fingerprint: the reader's, or a digest of everything the play holds."""
    if play.fingerprint:
        return play.fingerprint
    body = play_to_json(play)
    body.pop("fingerprint", None)
    body["problems"] = [[p.code, p.seat] for p in play.problems]
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _teams(seats: Sequence[SeatPlan]) -> list[list[int]] | None:
    """Teams as seat lists, in order of first appearance; a seat with no team plays alone."""
    if not any(s.team is not None for s in seats):
        return None
    teams: dict[Any, list[int]] = {}
    for index, seat in enumerate(seats):
        key = ("team", seat.team) if seat.team is not None else ("alone", index)
        teams.setdefault(key, []).append(index)
    return list(teams.values())


def _first_player(seats: Sequence[SeatPlan]) -> int | None:
    return next((i for i, s in enumerate(seats) if s.start_player), None)


def _win_rule(plan: PlayPlan) -> str:
    """How the play's game is won here: one of ours as its engine says, a named game as the
    club's says (a new one: as the file's)."""
    assert plan.game is not None
    if plan.game.game_type != OTHER:
        return services._game_info(plan.game.game_type).result_win_rule()
    return plan.game.win


def _built(plan: PlayPlan, club: Club, names: list[str]) -> tuple[Game, dict[str, Any]]:
    """The play's game as it would be stored (unsaved) and its result: the checks of
    ``board_games.result_game_create`` (a game known by its result) and of
    ``services.scorepad_game_create`` (the sheet its places make), without writing. Raises
    ``LogError`` and ``RecordError`` as they do."""
    assert plan.game is not None
    game_type = plan.game.game_type
    info = services._game_info(game_type)
    n = len(names)
    location, notes = services._clean_notes(plan.location, plan.play.comments)
    first = _first_player(plan.seats)
    game = Game(
        club=club,
        game_type=game_type,
        edition=services._edition_for(info, None),
        variant=info.default_variant or "",
        status=Game.Status.FINISHED,
        player_count=n,
        first_player=first,
        played_on=plan.play.played_on,
        location=location,
        notes=notes,
        duration=board_games._clean_duration(plan.play.duration),
        finished_at=timezone.now(),
    )
    board_games.check_player_count(info, n)
    if first is not None:
        check_first_player(first, n)
    places = plan.places()
    if plan.mode() == Game.Mode.SCOREPAD and places is not None:
        game.mode = Game.Mode.SCOREPAD
        game.sheet = stored_json.clean(_place_sheet(game_type, places), path="sheet")
        return game, adapters.score_sheet(game, names, game.sheet, None)
    teams = _teams(plan.seats)
    if teams is not None and info.logged and n not in info.team_counts:
        raise RecordError(
            "bad_teams",
            _("%(game)s has no teams with %(count)s players") % {"game": info.label, "count": n},
        )
    game.mode = Game.Mode.RESULT
    game.teams = stored_json.clean(teams, path="teams")
    lines = board_games._clean_sheet(plan.sheet_lines(), n)
    rule = _win_rule(plan)
    won = plan.play.cooperative_won if rule == BoardGame.Win.COOPERATIVE else None
    game.sheet = {"win": rule, "sheet": lines, "won": won}
    result = adapters.score_final(game, names)
    if result["teams"] is not None:  # a cooperative game is one team, however it came
        game.teams = [t["seats"] for t in result["teams"]]
    return game, result


def check_play(plan: PlayPlan, club: Club) -> None:
    """Check the play's game as storing it would, without writing: raises the ``LogError``
    or ``RecordError`` the store would. Winners marked by hand against the scores keep the
    winners and leave the scores out (``scores_left_out``)."""
    names = [s.name for s in plan.seats]
    try:
        _built(plan, club, names)
    except LogError as exc:
        if not plan.play.manual_winner or exc.code not in ("winner_disagrees", "rank_disagrees"):
            raise
        plan.scores_left_out = True
        _built(plan, club, names)
        plan.problems.append(
            Problem(
                "scores_left_out",
                _("the winners were marked by hand against the scores: the scores are left out"),
            )
        )


# --- storing -----------------------------------------------------------------------------------


@dataclass
class _Resolved:
    players: list[Player]
    board_game: BoardGame | None


def _resolve(plan: PlayPlan, club: Club, app: str, by: AbstractBaseUser) -> _Resolved:
    """The play's players and named game as records, created where new, looked up again now
    (an earlier play of the same import may have made them)."""
    assert plan.game is not None
    refs = dict(
        SourceRef.objects.filter(
            club=club,
            app=app,
            kind=SourceRef.Kind.PLAYER,
            external_id__in=[s.ref for s in plan.seats if s.ref is not None],
            player__isnull=False,
        ).values_list("external_id", "player_id")
    )
    by_ref = Player.objects.filter(club=club).in_bulk(list(refs.values()))
    named = [s.name for s in plan.seats if s.ref not in refs or refs[s.ref] not in by_ref]
    created = iter(services.players_resolve(named, club=club, created_by=by) if named else [])
    players = [
        by_ref[refs[s.ref]] if s.ref in refs and refs[s.ref] in by_ref else next(created)
        for s in plan.seats
    ]
    board_game = None
    if plan.game.game_type == OTHER:
        board_game = _board_game(plan.game, club, app, by)
    return _Resolved(players, board_game)


def _board_game(match: GameMatch, club: Club, app: str, by: AbstractBaseUser) -> BoardGame:
    games = BoardGame.objects.filter(club=club).order_by("id")
    if match.ref is not None:
        learnt = SourceRef.objects.filter(
            club=club, app=app, kind=SourceRef.Kind.GAME, external_id=match.ref
        ).values("board_game_id")
        found = games.filter(pk__in=learnt).first()
        if found is not None:
            return found
    if match.bgg_id is not None:
        found = games.filter(bgg_id=match.bgg_id).first()
        if found is not None:
            return found
    found = games.filter(name_key=name_key(match.name)).first()
    if found is not None:
        return found
    return board_games.board_game_create(
        club=club, name=match.name, bgg_id=match.bgg_id, win=match.win, by=by
    )


def _learn(plan: PlayPlan, resolved: _Resolved, club: Club, app: str) -> None:
    """Keep what the app's ids mean here, for the next import (``SourceRef``)."""
    rows = [
        SourceRef(
            club=club, app=app, kind=SourceRef.Kind.PLAYER, external_id=seat.ref, player=player
        )
        for seat, player in zip(plan.seats, resolved.players, strict=True)
        if seat.ref
    ]
    if resolved.board_game is not None and plan.game is not None and plan.game.ref:
        rows.append(
            SourceRef(
                club=club,
                app=app,
                kind=SourceRef.Kind.GAME,
                external_id=plan.game.ref,
                board_game=resolved.board_game,
            )
        )
    if plan.play.location_ref and plan.location:
        rows.append(
            SourceRef(
                club=club,
                app=app,
                kind=SourceRef.Kind.LOCATION,
                external_id=plan.play.location_ref,
                location=plan.location,
            )
        )
    # What an id already means is kept: it was matched first.
    SourceRef.objects.bulk_create(rows, ignore_conflicts=True)


def _create(
    plan: PlayPlan, resolved: _Resolved, club: Club, owner: AbstractBaseUser, by: AbstractBaseUser
) -> Game:
    """A new game through the services that record games known by their result or sheet."""
    assert plan.game is not None
    common: dict[str, Any] = {
        "club": club,
        "owner": owner,
        "players": resolved.players,
        "game_type": plan.game.game_type,
        "played_on": plan.play.played_on,
        "location": plan.location,
        "notes": plan.play.comments,
        "by": by,
    }
    places = plan.places()
    if plan.mode() == Game.Mode.SCOREPAD and places is not None:
        game = services.scorepad_game_create(
            sheet=_place_sheet(plan.game.game_type, places), **common
        )
        # What the sheet does not hold, kept like any game's.
        game.first_player = _first_player(plan.seats)
        game.duration = board_games._clean_duration(plan.play.duration)
        game.save(update_fields=["first_player", "duration"])
        return game
    rule = _win_rule(plan)
    return board_games.result_game_create(
        sheet=plan.sheet_lines(),
        board_game=resolved.board_game,
        won=plan.play.cooperative_won if rule == BoardGame.Win.COOPERATIVE else None,
        teams=_teams(plan.seats),
        first_player=_first_player(plan.seats),
        duration=plan.play.duration,
        **common,
    )


# What an update replaces of a game: everything a play says.
_UPDATED_FIELDS = [
    "game_type",
    "edition",
    "variant",
    "board_game",
    "mode",
    "status",
    "player_count",
    "first_player",
    "teams",
    "finish",
    "sheet",
    "result",
    "engine_version",
    "played_on",
    "location",
    "notes",
    "duration",
    "finished_at",
    "updated_at",
]


def _update(
    plan: PlayPlan, resolved: _Resolved, game: Game, club: Club, by: AbstractBaseUser
) -> Game:
    """Make ``game`` the play as it reads now, in place: its seats, sheet, result, date,
    location... (checked as a new one would be, ``_built``), with an "edited" line in its
    history; statistics follow. Runs under ``select_for_update`` of the game."""
    locked = Game.objects.select_for_update(of=("self",)).get(pk=game.pk)
    built, result = _built(plan, club, [p.name for p in resolved.players])
    built.board_game = resolved.board_game
    for name in _UPDATED_FIELDS:
        if name != "updated_at":
            setattr(locked, name, getattr(built, name))
    locked.finish = None
    seats = services._seats_for(locked, resolved.players)
    adapters.store_result(locked, seats, result, final=True)
    Seat.objects.filter(game=locked).delete()
    locked.save(update_fields=_UPDATED_FIELDS)
    Seat.objects.bulk_create(seats)
    services.history_event(locked, GameEvent.Action.EDITED, by).save()
    events.results_changed(game_ids=[locked.pk])
    return locked


def play_store(
    plan: PlayPlan,
    *,
    club: Club,
    app: str,
    owner: AbstractBaseUser,
    by: AbstractBaseUser | None = None,
) -> tuple[str, Game | None]:
    """Store one planned play: (what was done, its game). The caller holds the transaction.
    Raises ``LogError`` and ``RecordError`` for a play the records refuse, and
    ``GameConflict`` (``play_imported``) when the same play was stored meanwhile."""
    if plan.action == SKIP:
        return SKIP, None
    if plan.action == UNCHANGED:
        return UNCHANGED, Game.objects.filter(pk=plan.existing_game_id).first()
    who = by or owner
    resolved = _resolve(plan, club, app, who)
    digest = fingerprint(plan.play)
    source = None
    if plan.action == UPDATE:
        source = (
            PlaySource.objects.select_for_update()
            .select_related("game")
            .filter(club=club, app=app, external_id=plan.play.external_id)
            .first()
        )
    if source is not None:
        game = _update(plan, resolved, source.game, club, who)
        source.fingerprint, source.imported_at = digest, timezone.now()
        source.save(update_fields=["fingerprint", "imported_at"])
        _learn(plan, resolved, club, app)
        return UPDATE, game
    # New, or its game was deleted meanwhile: the play is new again.
    game = _create(plan, resolved, club, owner, who)
    try:
        with transaction.atomic():
            PlaySource.objects.create(
                club=club, app=app, external_id=plan.play.external_id, game=game, fingerprint=digest
            )
    except IntegrityError as exc:
        raise GameConflict(
            "play_imported", _("this play was imported meanwhile, by another import")
        ) from exc
    _learn(plan, resolved, club, app)
    return CREATE, game


def plays_store(
    *,
    club: Club,
    owner: AbstractBaseUser,
    play_file: PlayFile,
    format: str | None = None,
    by: AbstractBaseUser | None = None,
) -> tuple[ImportPlan, dict[int, tuple[str, int | None]]]:
    """Import every play of ``play_file`` into ``club``: planned (``plays_plan``), then stored
    in one transaction, all or nothing: a play the records refuse that the plan did not foresee
    stores nothing, and its error is raised with the play's number as ``index``. The plays the
    plan skips are skipped. Returns the plan and what was done (play number to action and
    game id): ``plan.summary(outcomes)`` is the import's answer."""
    with transaction.atomic(), events.results_held():
        plan = plays_plan(club=club, play_file=play_file, format=format)
        outcomes: dict[int, tuple[str, int | None]] = {}
        for play in plan.plays:
            try:
                action, game = play_store(play, club=club, app=plan.app, owner=owner, by=by)
            except LogError as exc:
                # i18n: engine message
                raise RecordError(
                    exc.code, engine_message(exc), seat=exc.seat, index=play.key
                ) from exc
            except RecordError as exc:
                exc.index = play.key
                raise
            outcomes[play.key] = (action, game.pk if game is not None else None)
    return plan, outcomes


# --- plays as JSON (an import job keeps them until its batches read them) ----------------------


def play_to_json(play: ForeignPlay) -> dict[str, Any]:
    """The play as plain JSON values (lists, dates and times as ISO text)."""
    body: dict[str, Any] = json.loads(json.dumps(asdict(play), default=_iso))
    return body


def _iso(value: Any) -> str:
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")


def _from(cls: type[Any], body: Any) -> Any:
    names = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: v for k, v in body.items() if k in names})


def play_from_json(body: dict[str, Any]) -> ForeignPlay:
    """A play as ``play_to_json`` wrote it. Raises ``KeyError``, ``TypeError`` or
    ``ValueError`` for anything else."""
    fields = {f.name for f in dataclasses.fields(ForeignPlay)}
    values = {k: v for k, v in body.items() if k in fields}
    values["game"] = _from(ForeignGame, body["game"])
    values["players"] = tuple(_from(ForeignPlayer, p) for p in body["players"])
    values["problems"] = tuple(_from(Problem, p) for p in body.get("problems", ()))
    values["played_on"] = datetime.date.fromisoformat(body["played_on"])
    if values.get("played_time") is not None:
        values["played_time"] = datetime.time.fromisoformat(values["played_time"])
    return ForeignPlay(**values)


def safe_text(text: str) -> str:
    """``text`` as every database stores it: NUL removed, a lone surrogate replaced. For what
    a report quotes from a file (a play's id, a reader's words), never for what is imported."""
    return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text.replace("\x00", ""))


def play_file_prepared(play_file: PlayFile) -> PlayFile:
    """``play_file`` as the import reads it: a play the file holds twice is skipped after its
    first time (``duplicate_play``), and a play no database stores whole (a NUL or a lone
    surrogate in a name: ``games.records.stored_json``) is skipped with the gate's code. A prepared
    file is its own preparation."""
    kept: list[ForeignPlay] = []
    skipped = [
        Skipped(s.external_id and safe_text(s.external_id), s.code, safe_text(s.message))
        for s in play_file.skipped
    ]
    seen: set[str] = set()
    for play in play_file.plays:
        try:
            stored_json.check(play_to_json(play))
        except RecordError as exc:
            skipped.append(Skipped(safe_text(play.external_id), exc.code, safe_text(exc.message)))
            continue
        if play.external_id in seen:
            skipped.append(
                Skipped(
                    play.external_id,
                    "duplicate_play",
                    _("the file holds this play twice: the first one is imported"),
                )
            )
            continue
        seen.add(play.external_id)
        kept.append(play)
    return dataclasses.replace(play_file, plays=kept, skipped=skipped)


# --- one way in for every file -----------------------------------------------------------------

LOG_FORMAT = "log"  # the summary's format of our own game logs


def file_import(
    *,
    club: Club,
    owner: AbstractBaseUser,
    read: PlayFile | list[dict[str, Any]],
    dry_run: bool = False,
    by: AbstractBaseUser | None = None,
) -> dict[str, Any]:
    """Import what ``games.exchange.formats.detect.read_play_file`` read: another app's plays
    (``plays_store``), or our own game logs (``services.game_import``), all or nothing; with
    ``dry_run``, what would be done, writing nothing. Returns the summary (``plan_summary``).
    Raises ``RecordError`` (with the play's or the document's ``index``) and ``LogError``."""
    if isinstance(read, list):
        return _logs_import(club, owner, read, dry_run)
    if dry_run:
        return plays_plan(club=club, play_file=read).summary()
    plan, outcomes = plays_store(club=club, owner=owner, play_file=read, by=by)
    return plan.summary(outcomes)


def logs_plan(
    *, club: Club, owner: AbstractBaseUser, documents: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """What importing our own log documents would create (``services.import_plan`` on each,
    which writes nothing), as a summary. Raises ``RecordError`` naming the first document the
    import would refuse (``index``): the log import is all or nothing."""
    editions = services.EditionCache()
    names: list[str] = []
    types: Counter[str] = Counter()
    for index, document in enumerate(documents):
        try:
            game, seated, _ = services.import_plan(
                club=club, owner=owner, document=document, editions=editions
            )
        except LogError as exc:
            # i18n: engine message
            raise RecordError(
                exc.code, engine_message(exc), round=exc.round, seat=exc.seat, index=index
            ) from exc
        except RecordError as exc:
            exc.index = index
            raise
        names.extend(seated)
        types[game.game_type] += 1
    keys = {name_key(n) for n in names}
    roster = Player.objects.filter(club=club, name_key__in=keys)
    known = set(roster.values_list("name_key", flat=True))
    count = len(documents)
    return {
        "format": LOG_FORMAT,
        "plays": count,
        "created": {
            "games": count,
            "players": len(keys - known),
            "board_games": 0,
            "locations": 0,
        },
        "matched": {"players": len(keys & known), "board_games": 0, "locations": 0},
        "updated": 0,
        "unchanged": 0,
        "game_types": dict(sorted(types.items())),
        "skipped": [],
        "problems": [],
    }


def _logs_import(
    club: Club, owner: AbstractBaseUser, documents: list[dict[str, Any]], dry_run: bool
) -> dict[str, Any]:
    with transaction.atomic():
        summary = logs_plan(club=club, owner=owner, documents=documents)
        if not dry_run:
            services.game_import(club=club, owner=owner, documents=documents)
    return summary
