"""A file's import plan: what happens to each play (created, updated, left unchanged or
skipped) and what it was matched to, and the plan as the import's answer (``plan_summary``,
``plan_details``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from games.exchange.formats.plays import ForeignPlay, Problem, Skipped
from games.records.models import BoardGame, Club, Game, name_key
from scoring.engine import get_engine

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


def _sheet_from_places(game_type: str) -> Callable[[Sequence[int]], dict[str, Any]] | None:
    """How one of our games' final sheet follows from every player's place alone
    (``GameInfo.sheet_from_places``): a play of it ranking every player apart becomes that sheet,
    scored by the game's own engine, rather than a game known by its result."""
    return get_engine(game_type).info.sheet_from_places


def _place_sheet(game_type: str, places: Sequence[int]) -> dict[str, Any]:
    make = _sheet_from_places(game_type)
    assert make is not None  # a play becomes a sheet only where its game has one (Plan.mode)
    return make(places)


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
