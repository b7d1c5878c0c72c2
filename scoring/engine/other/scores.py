"""The generic scorer: a play known by its final scores, ranks or winners only, checked for
consistency (never for a game's rules) and ranked like every other result (rules O1-O6 in
docs/other-games.md).

The body is ``{"players": [names], "teams": null | [[seat, ...], ...], "win": "highest" |
"lowest" | "manual" | "cooperative", "sheet": [{"score": int | null, "rank": int | null,
"winner": bool | null}, ...one per seat], "won": bool | null}`` (``won``: cooperative only).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.engine.errors import Code, LogError, Said, Seat, check_player_names, said
from scoring.engine.other.rules import (
    COOPERATIVE,
    COOPERATIVE_LOST_RANK,
    COOPERATIVE_WON_RANK,
    ENGINE_VERSION,
    GAME_ID,
    HIGHEST,
    LOWEST,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RESULT_FORMAT,
    SEAT_KEYS,
    TIEBREAK_MARKED,
    TIEBREAK_RANKED,
    TIEBREAK_SHARED,
    WIN_RULES,
)


class Unit:
    """A scoring unit (O3): a player, or a team whose members share one line."""

    __slots__ = ("seats", "score", "rank", "winner")

    def __init__(self, seats: list[int]) -> None:
        self.seats = seats
        self.score: int | None = None
        self.rank: int | None = None  # as given
        self.winner: bool | None = None  # as given

    @property
    def seat(self) -> int:
        """The seat a refusal about the unit names: its first."""
        return self.seats[0]


def _refuse(code: str, message: Said, seat: int | None = None) -> LogError:
    return LogError(code, message, seat=seat)


def _check_teams(raw: Any, n: int, win: str) -> list[list[int]] | None:
    """The teams: null, or every seat in exactly one team (O3). A cooperative game is one unit
    (O5): null, or one team of every seat. Raises ``LogError`` (bad_teams)."""
    if raw is None:
        return None
    if not isinstance(raw, list) or not raw:
        raise _refuse(
            "bad_teams",
            said("{teams} is null or a list of teams, each a list of seats", teams=Code("teams")),
        )
    teams: list[list[int]] = []
    seen: set[int] = set()
    for team in raw:
        if not isinstance(team, list) or not team:
            raise _refuse("bad_teams", said("a team is a non-empty list of seats"), seat=None)
        members: list[int] = []
        for seat in team:
            if type(seat) is not int or not 0 <= seat < n:
                raise _refuse("bad_teams", said("a team's seats are from 0 to {last}", last=n - 1))
            if seat in seen:
                raise _refuse(
                    "bad_teams", said("{seat} is in two teams", seat=Seat(seat)), seat=seat
                )
            seen.add(seat)
            members.append(seat)
        teams.append(members)
    if len(seen) != n:
        missing = min(set(range(n)) - seen)
        raise _refuse(
            "bad_teams",
            said("{seat} is in no team: with teams, every seat is in one", seat=Seat(missing)),
            seat=missing,
        )
    if win == COOPERATIVE and len(teams) != 1:
        raise _refuse(
            "bad_teams",
            said("in a cooperative game every player is on one side: one team or none"),
        )
    return teams


def _read_line(raw: Any, seat: int) -> tuple[int | None, int | None, bool | None]:
    """One seat's line of the sheet: score, rank and winner, each possibly null (O1)."""
    if not isinstance(raw, Mapping):
        raise _refuse(
            "malformed",
            said(
                "the line of {seat} is an object with {score}, {rank} and {winner}",
                seat=Seat(seat),
                score=Code("score"),
                rank=Code("rank"),
                winner=Code("winner"),
            ),
            seat,
        )
    unknown = sorted(str(k) for k in raw if k not in SEAT_KEYS)
    if unknown:
        raise _refuse(
            "malformed",
            said(
                "unknown keys in the line of {seat}: {keys}",
                seat=Seat(seat),
                keys=", ".join(unknown),
            ),
            seat,
        )
    score = raw.get("score")
    if score is not None and type(score) is not int:
        raise _refuse(
            "bad_score",
            said("the score of {seat} is a whole number or null", seat=Seat(seat)),
            seat,
        )
    rank = raw.get("rank")
    if rank is not None and (type(rank) is not int or rank < 1):
        raise _refuse(
            "bad_rank",
            said("the rank of {seat} is a whole number from 1, or null", seat=Seat(seat)),
            seat,
        )
    winner = raw.get("winner")
    if winner is not None and type(winner) is not bool:
        raise _refuse(
            "bad_winner",
            said("whether {seat} won is true, false or null", seat=Seat(seat)),
            seat,
        )
    return score, rank, winner


def _merged(values: list[Any], seats: list[int], field: str) -> Any:
    """The one value a unit's members give for ``field`` (None when none gives one). Raises
    ``LogError`` (team_disagrees) at the first member whose value differs (O3)."""
    value: Any = None
    for seat in seats:
        given = values[seat]
        if given is None:
            continue
        if value is not None and given != value:
            raise _refuse(
                "team_disagrees",
                said(
                    "{seat} and its teammates give different values of {field}: a team shares one",
                    seat=Seat(seat),
                    field=Code(field),
                ),
                seat,
            )
        value = given
    return value


def _units(
    lines: Sequence[tuple[int | None, int | None, bool | None]], groups: list[list[int]]
) -> list[Unit]:
    """The units with their members' lines merged: what members give must agree (O3)."""
    scores: list[Any] = [line[0] for line in lines]
    ranks: list[Any] = [line[1] for line in lines]
    marks: list[Any] = [line[2] for line in lines]
    units: list[Unit] = []
    for seats in groups:
        unit = Unit(seats)
        unit.score = _merged(scores, seats, "score")
        unit.rank = _merged(ranks, seats, "rank")
        unit.winner = _merged(marks, seats, "winner")
        units.append(unit)
    return units


def _better(a: int, b: int, win: str) -> bool:
    return a < b if win == LOWEST else a > b


def _by_scores(units: list[Unit], win: str) -> tuple[list[int], list[str | None]]:
    """Ranks when every unit has a score (O3): competition ranking from the scores; units tied
    on score share the place unless every one of them has a rank that splits it (a tie-break
    the sheet knows), or, tied for first, some of them are marked winners: the marked ones are
    first, the others next."""
    n = len(units)
    ranks = [0] * n
    why: list[str | None] = [None] * n
    scores = [u.score if u.score is not None else 0 for u in units]
    for i in range(n):
        ranks[i] = 1 + sum(1 for j in range(n) if _better(scores[j], scores[i], win))
    done = [False] * n
    for i in range(n):
        if done[i]:
            continue
        tied = [j for j in range(n) if scores[j] == scores[i]]
        for j in tied:
            done[j] = True
        if len(tied) == 1:
            continue
        place = ranks[i]
        given = [units[j].rank for j in tied]
        if all(r is not None for r in given) and any(r != place for r in given):
            # The ranks given split the tie; whether they do it properly is checked below.
            for j in tied:
                rank = units[j].rank
                assert rank is not None
                ranks[j] = rank
                shared = any(units[k].rank == rank for k in tied if k != j)
                why[j] = TIEBREAK_SHARED if shared else TIEBREAK_RANKED
            for j in tied:
                rank = units[j].rank
                assert rank is not None
                below = sum(1 for k in tied if (units[k].rank or 0) < rank)
                if rank != place + below:
                    raise _refuse(
                        "rank_disagrees",
                        said(
                            "{seat} is ranked {rank}: the ranks of the players tied at "
                            "{score} are places {first} to {last}, counted like 1, 1, 3",
                            seat=Seat(units[j].seat),
                            rank=rank,
                            score=scores[j],
                            first=place,
                            last=place + len(tied) - 1,
                        ),
                        units[j].seat,
                    )
            continue
        marked = [j for j in tied if units[j].winner is True]
        if place == 1 and marked and len(marked) < len(tied):
            for j in tied:
                ranks[j] = 1 if units[j].winner is True else 1 + len(marked)
                why[j] = TIEBREAK_MARKED
            continue
        for j in tied:
            why[j] = TIEBREAK_SHARED
    return ranks, why


def _shared(ranks: list[int]) -> list[str | None]:
    return [TIEBREAK_SHARED if ranks.count(r) > 1 else None for r in ranks]


def _by_marks(units: list[Unit]) -> tuple[list[int], list[str | None]]:
    """Ranks from what the sheet says when scores do not decide (O4): every unit's rank, which
    must be a competition ranking (1, 1, 3), or the winners marked: they are first, the others
    next."""
    n = len(units)
    if n == 1:
        return [1], [None]
    given = [u.rank for u in units]
    if all(r is not None for r in given):
        ranks = [r or 0 for r in given]
        for i in range(n):
            expected = 1 + sum(1 for r in ranks if r < ranks[i])
            if ranks[i] != expected:
                raise _refuse(
                    "bad_ranks",
                    said(
                        "{seat} is ranked {rank}, but {ahead} ahead of it make it {expected}: "
                        "ranks count like 1, 1, 3",
                        seat=Seat(units[i].seat),
                        rank=ranks[i],
                        ahead=expected - 1,
                        expected=expected,
                    ),
                    units[i].seat,
                )
        return ranks, _shared(ranks)
    marked = sum(1 for u in units if u.winner is True)
    if not marked:
        raise _refuse(
            "result_undecided",
            said("nothing says who won: give every score, every rank, or mark the winners"),
        )
    ranks = [1 if u.winner is True else 1 + marked for u in units]
    return ranks, _shared(ranks)


def _check_scores_follow(units: list[Unit], ranks: list[int], win: str) -> None:
    """With some scores missing, the ranks decide; the scores given must not contradict them
    (O4): a better score never ranks below a worse one."""
    for i, a in enumerate(units):
        for j, b in enumerate(units):
            if a.score is None or b.score is None or not _better(a.score, b.score, win):
                continue
            if ranks[i] >= ranks[j]:
                raise _refuse(
                    "rank_disagrees",
                    said(
                        "{seat} scored {score}, better than {other}'s {other_score}, yet does "
                        "not rank above it",
                        seat=Seat(a.seat),
                        score=a.score,
                        other=Seat(b.seat),
                        other_score=b.score,
                    ),
                    a.seat,
                )


def _check_given(units: list[Unit], ranks: list[int]) -> None:
    """Every rank and winner mark given agrees with the ranks found (O3, O4)."""
    for unit, rank in zip(units, ranks, strict=True):
        if unit.rank is not None and unit.rank != rank:
            raise _refuse(
                "rank_disagrees",
                said(
                    "{seat} is ranked {given}, but the sheet places it {rank}",
                    seat=Seat(unit.seat),
                    given=unit.rank,
                    rank=rank,
                ),
                unit.seat,
            )
        if unit.winner is not None and unit.winner != (rank == 1):
            if unit.winner:
                message = said(
                    "{seat} is marked a winner, but the sheet places it {rank}",
                    seat=Seat(unit.seat),
                    rank=rank,
                )
            else:
                message = said(
                    "{seat} is marked as not winning, but the sheet places it first",
                    seat=Seat(unit.seat),
                )
            raise _refuse("winner_disagrees", message, unit.seat)


def score_result(body: Mapping[str, Any], *, game: str = GAME_ID) -> dict[str, Any]:
    """Rank a play known by its final scores, ranks or winners (O1-O6) into the common result
    shape, ``game`` naming the game it is a play of. Raises ``LogError`` (malformed,
    bad_player_count, bad_win, bad_teams, bad_score, bad_rank, bad_winner, bad_won,
    team_disagrees, rank_disagrees, bad_ranks, winner_disagrees, result_undecided), with the
    seat where one is at fault."""
    if not isinstance(body, Mapping):
        raise _refuse("malformed", said("a score sheet is a JSON object"))
    names = check_player_names(body.get("players"), game=game, fewest=MIN_PLAYERS, most=MAX_PLAYERS)
    n = len(names)
    win = body.get("win")
    if not isinstance(win, str) or win not in WIN_RULES:
        raise _refuse(
            "bad_win",
            said(
                "{win} is one of {rules}",
                win=Code("win"),
                rules=", ".join(WIN_RULES),
            ),
        )
    teams = _check_teams(body.get("teams"), n, win)
    raw = body.get("sheet")
    if not isinstance(raw, list) or len(raw) != n:
        raise _refuse(
            "malformed",
            said("{sheet} is a list of {count} lines, one per seat", sheet=Code("sheet"), count=n),
        )
    lines = [_read_line(line, seat) for seat, line in enumerate(raw)]
    won = body.get("won")
    if win == COOPERATIVE:
        if type(won) is not bool:
            raise _refuse(
                "bad_won",
                said(
                    "a cooperative game says whether the players won: {won} is true or false",
                    won=Code("won"),
                ),
            )
        groups = [list(range(n))]
    else:
        if won is not None:
            raise _refuse(
                "bad_won",
                said("{won} is for cooperative games only: leave it out", won=Code("won")),
            )
        groups = teams if teams is not None else [[s] for s in range(n)]
    units = _units(lines, groups)
    if win == COOPERATIVE:
        ranks = [COOPERATIVE_WON_RANK if won else COOPERATIVE_LOST_RANK]
        why: list[str | None] = [None]
    else:
        for unit in units:
            if unit.rank is not None and unit.rank > len(units):
                raise _refuse(
                    "bad_rank",
                    said(
                        "{seat} is ranked {rank}, but there are {count} places",
                        seat=Seat(unit.seat),
                        rank=unit.rank,
                        count=len(units),
                    ),
                    unit.seat,
                )
        scored = all(u.score is not None for u in units)
        if win in (HIGHEST, LOWEST) and scored:
            ranks, why = _by_scores(units, win)
        else:
            ranks, why = _by_marks(units)
            if win in (HIGHEST, LOWEST):
                _check_scores_follow(units, ranks, win)
    _check_given(units, ranks)
    return _document(game, names, win, groups, units, ranks, why, teams, won)


def _document(
    game: str,
    names: list[str],
    win: str,
    groups: list[list[int]],
    units: list[Unit],
    ranks: list[int],
    why: list[str | None],
    teams: list[list[int]] | None,
    won: Any,
) -> dict[str, Any]:
    """The result in the shape every engine's has: per seat its score, rank and tie-break
    (a team's members share their team's), the winners, and the teams."""
    n = len(names)
    unit_of = [0] * n
    for i, seats in enumerate(groups):
        for seat in seats:
            unit_of[seat] = i
    team_play = win == COOPERATIVE or teams is not None
    players = []
    for seat in range(n):
        i = unit_of[seat]
        players.append(
            {
                "seat": seat,
                "name": names[seat],
                "team": i if team_play else None,
                "score": units[i].score,
                "rank": ranks[i],
                "tiebreak": why[i],
                "winner": ranks[i] == 1,
            }
        )
    team_list = (
        [
            {
                "team": i,
                "seats": list(seats),
                "score": units[i].score,
                "rank": ranks[i],
                "tiebreak": why[i],
            }
            for i, seats in enumerate(groups)
        ]
        if team_play
        else None
    )
    return {
        "format": RESULT_FORMAT,
        "game": game,
        "engine_version": ENGINE_VERSION,
        "complete": True,
        "win": win,
        "won": won if win == COOPERATIVE else None,
        "players": players,
        "teams": team_list,
        "winners": [p["seat"] for p in players if p["rank"] == 1],
    }
