"""Scorepad mode: a finished Bruges game known by its final score sheet only, for tables that
fill the paper sheet instead of logging rounds (docs/bruges-engine.md, "Score sheet").

The body is ``{"players": [...], "teams": null, "sheet": [one object per seat]}``; a seat's
object holds the rulebook's scoring categories ("Fine del gioco e punteggio") as the table
reads them at the end::

    {"track": 23, "persons": [9, 6, 3, 0], "houses": 5, "laurels": 4, "majorities": 2,
     "canals": 1, "statues": [7], "step": 6, "florins": 3,
     "points": {"prestige": 7}, "score": 63}

Every key may be left out (or null): 0, or an empty list. ``persons`` are the prices of the
persons in play (each scores price / 3, B4), ``statues`` the values of the statues taken,
``step`` the prestige step (its points are the edition's, B1); ``points`` (points per category
as the paper sheet wrote them) and ``score`` (the total written) are checked against what the
rules give. What no real game can leave is refused (``bad_sheet``, naming the seat and the
category); the points, totals and ranks are the replay's own functions (``score.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from scoring.engine.bruges.editions import Edition
from scoring.engine.bruges.play import check_players, choose_edition
from scoring.engine.bruges.rules import (
    ENGINE_VERSION,
    GAME_ID,
    MAJORITIES,
    MAX_STATUES,
    PRICES,
    RESULT_FORMAT,
    SECTIONS,
    STATUES,
    TOP_STEP,
)
from scoring.engine.bruges.score import (
    breakdown,
    canal_points,
    majority_points,
    person_points,
    prestige_points,
    ranking,
    total,
)
from scoring.engine.errors import Code, LogError, Said, Seat, check_no_teams, said

SHEET_KEY: Final = "sheet"
# A seat's keys, in the order they are read (and refused).
COUNTS: Final[tuple[str, ...]] = ("track", "houses", "laurels", "majorities", "canals")
FIELDS: Final[tuple[str, ...]] = (
    "track",
    "persons",
    "houses",
    "laurels",
    "majorities",
    "canals",
    "statues",
    "step",
    "florins",
    "points",
    "score",
)
# The most a seat can have (rules: three majority tiles of its colour, two canal sections,
# the prestige ladder's 12 steps).
MOST: Final[dict[str, int]] = {
    "majorities": len(MAJORITIES),
    "canals": len(SECTIONS),
    "step": TOP_STEP,
}
# The categories whose points a sheet may also write, to be checked (the others, the score
# track and the laurels, are points already).
CHECKED: Final[tuple[str, ...]] = (
    "persons",
    "houses",
    "majorities",
    "canals",
    "statues",
    "prestige",
)
# "165 carte": every house and every person in play is one of them.
CARDS: Final = 165


@dataclass(frozen=True)
class SeatSheet:
    """One seat's sheet as read: ``statues`` highest first (the order they were taken, B3);
    ``points`` the points per category written on the sheet, ``score`` its total (None: not
    written)."""

    track: int
    prices: tuple[int, ...]
    houses: int
    laurels: int
    majorities: int
    canals: int
    statues: tuple[int, ...]
    step: int
    florins: int
    points: dict[str, int]
    score: int | None


def _bad(message: Said, seat: int | None = None) -> LogError:
    return LogError("bad_sheet", message, seat=seat)


def _count(raw: Mapping[str, Any], key: str, seat: int) -> int:
    """A whole number 0 or more (up to ``MOST[key]``); missing or null is 0."""
    value = raw.get(key)
    if value is None:
        return 0
    most = MOST.get(key)
    if type(value) is not int or value < 0 or (most is not None and value > most):
        if most is None:
            raise _bad(
                said(
                    "{seat}: {category} must be a whole number, 0 or more",
                    seat=Seat(seat),
                    category=Code(key),
                ),
                seat,
            )
        raise _bad(
            said(
                "{seat}: {category} must be a whole number from 0 to {most}",
                seat=Seat(seat),
                category=Code(key),
                most=most,
            ),
            seat,
        )
    number: int = value
    return number


def _prices(raw: Mapping[str, Any], seat: int) -> tuple[int, ...]:
    value = raw.get("persons")
    if value is None:
        return ()
    if type(value) is not list or not all(type(p) is int and p in PRICES for p in value):
        raise _bad(
            said(
                "{seat}: {category} lists the price of each person in play: {prices} florins",
                seat=Seat(seat),
                category=Code("persons"),
                prices=", ".join(str(p) for p in PRICES),
            ),
            seat,
        )
    return tuple(value)


def _statues(raw: Mapping[str, Any], seat: int) -> tuple[int, ...]:
    value = raw.get("statues")
    if value is None:
        return ()
    if type(value) is not list or not all(type(v) is int and v in STATUES for v in value):
        raise _bad(
            said(
                "{seat}: {category} lists the values of the statues taken: {values}",
                seat=Seat(seat),
                category=Code("statues"),
                values=", ".join(str(v) for v in STATUES),
            ),
            seat,
        )
    if len(set(value)) != len(value):
        raise _bad(
            said(
                "{seat}: {category}: each statue is taken once, and {value} is listed twice",
                seat=Seat(seat),
                category=Code("statues"),
                value=next(v for v in value if value.count(v) > 1),
            ),
            seat,
        )
    if len(value) > MAX_STATUES:
        raise _bad(
            said(
                "{seat}: {category}: a player takes at most {most} statues, not {count}",
                seat=Seat(seat),
                category=Code("statues"),
                most=MAX_STATUES,
                count=len(value),
            ),
            seat,
        )
    return tuple(sorted(value, reverse=True))


def _points(raw: Mapping[str, Any], seat: int) -> dict[str, int]:
    value = raw.get("points")
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(k in CHECKED for k in value):
        raise _bad(
            said(
                "{seat}: {category} holds points by category, of {categories}",
                seat=Seat(seat),
                category=Code("points"),
                categories=", ".join(CHECKED),
            ),
            seat,
        )
    points: dict[str, int] = {}
    for key in CHECKED:  # in the categories' order, so the first wrong one is named
        given = value.get(key)
        if given is None:
            continue
        if type(given) is not int or given < 0:
            raise _bad(
                said(
                    "{seat}: {category} must be a whole number, 0 or more",
                    seat=Seat(seat),
                    category=Code(f"points.{key}"),
                ),
                seat,
            )
        points[key] = given
    return points


def read_seat(raw: Any, seat: int) -> SeatSheet:
    """One seat's object of the sheet, checked on its own. Raises ``LogError`` (malformed,
    bad_sheet)."""
    if not isinstance(raw, Mapping):
        raise LogError(
            "malformed", said("the sheet of {seat} is an object", seat=Seat(seat)), seat=seat
        )
    unknown = sorted(str(k) for k in raw if k not in FIELDS)
    if unknown:
        raise _bad(
            said(
                "{seat}: unknown sheet fields: {fields}", seat=Seat(seat), fields=", ".join(unknown)
            ),
            seat,
        )
    counts = {key: _count(raw, key, seat) for key in COUNTS}
    prices = _prices(raw, seat)
    statues = _statues(raw, seat)
    step = _count(raw, "step", seat)
    florins = _count(raw, "florins", seat)
    points = _points(raw, seat)
    score = None if raw.get("score") is None else _count(raw, "score", seat)
    if len(prices) > counts["houses"]:
        # "Ogni casa può ospitare esattamente 1 personaggio".
        raise _bad(
            said(
                "{seat}: {category}: one person per house, and the sheet gives more persons in "
                "play ({persons}) than houses ({houses})",
                seat=Seat(seat),
                category=Code("houses"),
                persons=len(prices),
                houses=counts["houses"],
            ),
            seat,
        )
    if counts["laurels"] and not prices:
        raise _bad(
            said(
                "{seat}: {category}: laurel points come from laurel persons in play, and the "
                "sheet has no person",
                seat=Seat(seat),
                category=Code("laurels"),
            ),
            seat,
        )
    return SeatSheet(
        track=counts["track"],
        prices=prices,
        houses=counts["houses"],
        laurels=counts["laurels"],
        majorities=counts["majorities"],
        canals=counts["canals"],
        statues=statues,
        step=step,
        florins=florins,
        points=points,
        score=score,
    )


def _check_table(seats: list[SeatSheet]) -> None:
    """What the seats' sheets must agree on together: each statue taken once, from the top of
    the pile (B3); as many houses and persons as there are cards."""
    holder: dict[int, int] = {}
    for s, sheet in enumerate(seats):
        for value in sheet.statues:
            if value in holder:
                raise _bad(
                    said(
                        "{seat}: {category}: the statue of {value} is also on the sheet of "
                        "{other}; each statue is taken once",
                        seat=Seat(s),
                        category=Code("statues"),
                        value=value,
                        other=Seat(holder[value]),
                    ),
                    s,
                )
            holder[value] = s
    taken = len(holder)
    for value in sorted(holder):
        if value not in STATUES[:taken]:
            missing = next(v for v in STATUES if v not in holder)
            raise _bad(
                said(
                    "{seat}: {category}: the statue of {value} cannot be taken while the "
                    "statue of {missing} is still on the pile (statues are taken from the "
                    "top: {pile})",
                    seat=Seat(holder[value]),
                    category=Code("statues"),
                    value=value,
                    missing=missing,
                    pile=", ".join(str(v) for v in STATUES),
                ),
                holder[value],
            )
    cards = sum(sheet.houses + len(sheet.prices) for sheet in seats)
    if cards > CARDS:
        raise _bad(
            said(
                "{category}: the sheets show {count} houses and persons, and each is one of the "
                "game's {cards} cards",
                category=Code("houses"),
                count=cards,
                cards=CARDS,
            )
        )


def _seat_points(sheet: SeatSheet, edition: Edition, seat: int) -> dict[str, int]:
    """The seat's breakdown by the replay's own rules, checked against the points and the
    total the sheet wrote."""
    persons = 0
    for price in sheet.prices:
        persons += person_points(price)
    points = breakdown(
        track=sheet.track,
        persons=persons,
        houses=sheet.houses,
        laurels=sheet.laurels,
        majorities=majority_points(sheet.majorities),
        canals=canal_points(sheet.canals),
        statues=sum(sheet.statues),
        prestige=prestige_points(edition, sheet.step),
    )
    for key in CHECKED:
        given = sheet.points.get(key)
        if given is None or given == points[key]:
            continue
        if key == "prestige":
            raise _bad(
                said(
                    "{seat}: {category} points are {given} on the sheet, but step {step} "
                    "scores {points} in edition {edition}",
                    seat=Seat(seat),
                    category=Code(key),
                    given=given,
                    step=sheet.step,
                    points=points[key],
                    edition=edition.id,
                ),
                seat,
            )
        raise _bad(
            said(
                "{seat}: {category} points are {given} on the sheet, but the sheet's counts "
                "score {points}",
                seat=Seat(seat),
                category=Code(key),
                given=given,
                points=points[key],
            ),
            seat,
        )
    if sheet.score is not None and sheet.score != total(points):
        raise _bad(
            said(
                "{seat}: {category} is {given} on the sheet, but its categories add up to {points}",
                seat=Seat(seat),
                category=Code("score"),
                given=sheet.score,
                points=total(points),
            ),
            seat,
        )
    return points


def score_sheet(body: Mapping[str, Any], edition: Any = None) -> dict[str, Any]:
    """The ``bruges-result/1`` document of a game known by its score sheet. Raises ``LogError``
    (malformed, bad_player_count, bad_teams, unknown_edition, bad_edition, bad_sheet)."""
    if not isinstance(body, Mapping):
        raise LogError("malformed", said("a scorepad sheet is a JSON object"))
    names = check_players(body.get("players"))
    n = len(names)
    check_no_teams(body.get("teams"), game="Bruges")
    ed = choose_edition(body.get("edition"), edition)
    raw = body.get(SHEET_KEY)
    if type(raw) is not list or len(raw) != n:
        raise LogError(
            "malformed",
            said(
                "{sheet} is a list of {count} objects, one per seat",
                sheet=Code(SHEET_KEY),
                count=n,
            ),
        )
    seats = [read_seat(item, s) for s, item in enumerate(raw)]
    _check_table(seats)
    breakdowns = [_seat_points(sheet, ed, s) for s, sheet in enumerate(seats)]
    scores = [total(points) for points in breakdowns]
    florins = [sheet.florins for sheet in seats]
    ranks, tiebreaks = ranking(scores, florins)
    players = [
        {
            "seat": s,
            "name": names[s],
            "team": None,
            "score": scores[s],
            "rank": ranks[s],
            "tiebreak": tiebreaks[s],
            "florins": sheet.florins,
            "breakdown": breakdowns[s],
            "step": sheet.step,
            "houses": sheet.houses,
            "persons": len(sheet.prices),
            # What a sheet does not say is null, never 0: statistics then count only the
            # games that know it.
            "canals": None,
            "workers": None,
            "threats": None,
            "majorities": None,
            "statues": list(sheet.statues),
            "tableau": None,
            "laurels": None,
            "majorities_flipped": sheet.majorities,
            "statues_taken": len(sheet.statues),
            "cards_played": None,
            "penalties": None,
            "hired": None,
        }
        for s, sheet in enumerate(seats)
    ]
    taken = sorted(
        ((value, s) for s, sheet in enumerate(seats) for value in sheet.statues), reverse=True
    )
    return {
        "format": RESULT_FORMAT,
        "game": GAME_ID,
        "engine_version": ENGINE_VERSION,
        "edition": ed.id,
        "complete": True,
        "rounds_played": 0,
        "players": players,
        "winners": [s for s in range(n) if ranks[s] == 1],
        "final": None,
        "majorities": None,
        "statues": {
            "taken": [
                {"seat": s, "section": None, "value": value, "round": None} for value, s in taken
            ],
            "pile": list(STATUES[len(taken) :]),
        },
        "persons": None,
        "rounds": [],
    }
