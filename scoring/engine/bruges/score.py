"""The end of a Bruges game: each category's points, totals, ranks and tie-breaks (B7), and
the result document; the replay and the score sheet both score through these."""

from __future__ import annotations

from typing import Any

from scoring.engine.bruges.editions import Edition
from scoring.engine.bruges.play import State
from scoring.engine.bruges.rules import (
    COLORS,
    ENGINE_VERSION,
    GAME_ID,
    GROUPS,
    ICONS,
    IN_PLAY,
    LAUREL,
    MAJORITIES,
    MAJORITY_POINTS,
    PRICE_PER_POINT,
    RESULT_FORMAT,
    STATUES,
    STATUS_NAMES,
    THIRD_SPACE,
    THIRD_SPACE_POINTS,
    TIEBREAK_FLORINS,
    TIEBREAK_SHARED,
)
from scoring.engine.errors import LogError, Seat, said


def laurel_points(st: State, final: dict[str, Any]) -> tuple[list[int], list[list[dict[str, Any]]]]:
    """Per seat the laurel points ``final.laurels`` gives, and the entries applied. Raises
    ``LogError("bad_laurels")``."""
    n = st.players
    points = [0] * n
    applied: list[list[dict[str, Any]]] = [[] for _ in range(n)]
    seen: set[str] = set()
    for item in final["laurels"]:
        seat: int = item["seat"]
        pid: str = item["person"]
        value: int = item["points"]
        if not 0 <= seat < n:
            raise LogError(
                "bad_laurels", said("a laurel entry names {seat}, not a seat", seat=Seat(seat))
            )
        if pid in seen:
            raise LogError(
                "bad_laurels", said("laurel person {pid!r} is listed twice", pid=pid), seat=seat
            )
        seen.add(pid)
        if value < 0:
            raise LogError(
                "bad_laurels", said("laurel person {pid!r} scores points >= 0", pid=pid), seat=seat
            )
        p = st.person_index.get(pid, -1)
        person = st.persons[p] if p >= 0 else None
        if person is None or person.owner != seat or person.status != IN_PLAY:
            raise LogError(
                "bad_laurels",
                said("person {pid!r} is not in play in {seat}'s houses", pid=pid, seat=Seat(seat)),
                seat=seat,
            )
        if person.icon != LAUREL:
            raise LogError(
                "bad_laurels", said("person {pid!r} is not a laurel person", pid=pid), seat=seat
            )
        points[seat] += value
        applied[seat].append({"person": pid, "points": value})
    return points, applied


def ranking(scores: list[int], florins: list[int]) -> tuple[list[int], list[str | None]]:
    """Per seat the rank and the tie-break that placed it (B7): most points; a tie goes to the
    most florins; a tie there is shared (competition ranking: 1, 1, 3). A logged game and a
    score sheet (``sheet.py``) are ranked by this one function."""
    n = len(scores)
    ranks = [1] * n
    tiebreaks: list[str | None] = [None] * n
    for s in range(n):
        better = 0
        shared = False
        by_florins = False
        for o in range(n):
            if o == s:
                continue
            if scores[o] > scores[s]:
                better += 1
            elif scores[o] == scores[s]:
                if florins[o] > florins[s]:
                    better += 1
                    by_florins = True
                elif florins[o] == florins[s]:
                    shared = True
                else:
                    by_florins = True
        ranks[s] = better + 1
        if shared:
            tiebreaks[s] = TIEBREAK_SHARED
        elif by_florins:
            tiebreaks[s] = TIEBREAK_FLORINS
    return ranks, tiebreaks


def person_points(price: int) -> int:
    """B4: a person in play scores its price / 3."""
    return price // PRICE_PER_POINT


def majority_points(tiles: int) -> int:
    """4 points per majority tile flipped."""
    return MAJORITY_POINTS * tiles


def canal_points(sections: int) -> int:
    """3 points per canal section whose 3rd space holds a tile."""
    return THIRD_SPACE_POINTS * sections


def prestige_points(edition: Edition, step: int) -> int:
    """The points of a prestige step, as the edition prints them (B1)."""
    return edition.prestige_points[step]


def breakdown(
    *,
    track: int,
    persons: int,
    houses: int,
    laurels: int,
    majorities: int,
    canals: int,
    statues: int,
    prestige: int,
) -> dict[str, int]:
    """A seat's points by scoring category (the result's ``breakdown``, ``rules.CATEGORIES``):
    1 point per house, the other categories' points as given."""
    return {
        "track": track,
        "persons": persons,
        "houses": houses,
        "laurels": laurels,
        "majorities": majorities,
        "canals": canals,
        "statues": statues,
        "prestige": prestige,
    }


def total(points: dict[str, int]) -> int:
    """A seat's score: the sum of its breakdown."""
    return (
        points["track"]
        + points["persons"]
        + points["houses"]
        + points["laurels"]
        + points["majorities"]
        + points["canals"]
        + points["statues"]
        + points["prestige"]
    )


def build_result(st: State, final: dict[str, Any] | None) -> dict[str, Any]:
    """The ``bruges-result/1`` document for the game as it stands."""
    n = st.players
    complete = final is not None  # the log says the game ended; the engine trusts it
    if complete and final is not None:
        laurels, applied = laurel_points(st, final)
    else:
        laurels = [0] * n
        applied = [[] for _ in range(n)]
    ed = st.edition
    seats = st.seats
    persons = st.persons
    breakdowns: list[dict[str, int]] = []
    scores: list[int] = []
    florins: list[int] = []
    for s in range(n):
        ps = seats[s]
        worth = 0
        for p in ps.tenants:
            if p >= 0:
                worth += person_points(persons[p].price)
        flipped = ps.flipped
        sections = 0
        if ps.canal[0] >= THIRD_SPACE:
            sections += 1
        if ps.canal[1] >= THIRD_SPACE:
            sections += 1
        statues = 0
        for v in ps.statues:
            statues += v
        track = ps.points
        houses = len(ps.houses)
        laurel = laurels[s]
        tile_points = majority_points((flipped & 1) + (flipped >> 1 & 1) + (flipped >> 2 & 1))
        canals = canal_points(sections)
        prestige = prestige_points(ed, ps.step)
        breakdowns.append(
            breakdown(
                track=track,
                persons=worth,
                houses=houses,
                laurels=laurel,
                majorities=tile_points,
                canals=canals,
                statues=statues,
                prestige=prestige,
            )
        )
        # ``total`` of that breakdown, summed here from the numbers at hand (a hot path).
        scores.append(track + worth + houses + laurel + tile_points + canals + statues + prestige)
        florins.append(ps.florins)
    ranks, tiebreaks = ranking(scores, florins)
    players: list[dict[str, Any]] = []
    winners: list[int] = []
    for s in range(n):
        ps = seats[s]
        if ranks[s] == 1:
            winners.append(s)
        flipped = ps.flipped
        tiles_names = [MAJORITIES[t] for t in range(3) if flipped >> t & 1]
        colors = ps.houses
        tenants = ps.tenants
        tableau: list[dict[str, Any]] = []
        for h in range(len(colors)):
            p = tenants[h]
            tableau.append(
                {"color": COLORS[colors[h]], "person": persons[p].id if p >= 0 else None}
            )
        players.append(
            {
                "seat": s,
                "name": st.names[s],
                "team": None,
                "score": scores[s],
                "rank": ranks[s],
                "tiebreak": tiebreaks[s],
                "florins": ps.florins,
                "breakdown": breakdowns[s],
                "step": ps.step,
                "houses": len(colors),
                "persons": ps.in_play,
                "canals": {"left": ps.canal[0], "right": ps.canal[1]},
                "workers": _per_color(ps.workers),
                "threats": _per_color(ps.threats),
                "majorities": tiles_names,
                "statues": list(ps.statues),
                "tableau": tableau,
                "laurels": applied[s],
                "majorities_flipped": len(tiles_names),
                "statues_taken": len(ps.statues),
                "cards_played": ps.cards_played,
                "penalties": _per_color(ps.penalties),
                "hired": _per_group(ps.hired),
            }
        )
    majorities: dict[str, list[int]] = {}
    for t in range(3):
        majorities[MAJORITIES[t]] = [s for s in range(n) if seats[s].flipped >> t & 1]
    persons_met = [
        {
            "id": p.id,
            "name": p.name,
            "price": p.price,
            "group": GROUPS[p.group],
            "icon": ICONS[p.icon],
            "worker": COLORS[p.worker] if p.worker >= 0 else None,
            "seat": p.owner,
            "status": STATUS_NAMES[p.status],
        }
        for p in persons
    ]
    return {
        "format": RESULT_FORMAT,
        "game": GAME_ID,
        "engine_version": ENGINE_VERSION,
        "edition": ed.id,
        "complete": complete,
        "rounds_played": st.round_no,
        "players": players,
        "winners": winners,
        "final": _final_copy(final),
        "majorities": majorities,
        "statues": {"taken": list(st.statues_taken), "pile": list(STATUES[st.pile :])},
        "persons": persons_met,
        "rounds": list(st.rounds),
    }


def _per_color(counts: list[int]) -> dict[str, int]:
    return {
        "blue": counts[0],
        "brown": counts[1],
        "red": counts[2],
        "purple": counts[3],
        "yellow": counts[4],
    }


def _per_group(counts: list[int]) -> dict[str, int]:
    return {
        "nobles": counts[0],
        "bureaucrats": counts[1],
        "entertainers": counts[2],
        "merchants": counts[3],
        "craftsmen": counts[4],
        "courtiers": counts[5],
        "clergy": counts[6],
        "artists": counts[7],
        "defenders": counts[8],
        "underworld": counts[9],
        "scholars": counts[10],
    }


def _final_copy(final: dict[str, Any] | None) -> dict[str, Any] | None:
    if final is None:
        return None
    return {"laurels": [dict(item) for item in final["laurels"]]}
