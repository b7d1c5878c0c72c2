"""Where a Bruges round being entered stands: the engine's state part-way through a round, read
for the record side's round entry (a public read of ``play.State``; pure Python, no Django).

A round is checked and applied by ``play.play_round`` in the order of docs/bruges-engine.md
(the dice, the penalties, prestige, then the turns one by one, then ``missing_turn``). Reading
a round that is not complete yet therefore stops at the first thing missing, with everything
before it applied: ``round_progress`` gives that state and the refusal, and ``Table`` reads
what the entry shows of it (counts per seat, houses, persons, the canal spaces next to build).
The engine decides; nothing here checks a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.engine.bruges.play import State, play_round
from scoring.engine.bruges.rules import (
    COLORS,
    GROUPS,
    ICONS,
    MAJORITIES,
    NCOLORS,
    PENALTY_AT,
    PRESTIGE_MAX,
    SECTIONS,
    SPACES,
    STATUS_NAMES,
    THREAT_MIN,
    TOP_STEP,
    TURNS_PER_PLAYER,
)
from scoring.engine.errors import LogError


@dataclass(frozen=True)
class RoundProgress:
    """A round read as far as it goes: ``state`` has everything before ``error`` applied (the
    whole round, majorities included, when ``error`` is None)."""

    state: State
    error: LogError | None

    @property
    def complete(self) -> bool:
        return self.error is None


def round_progress(state: State, round_: Mapping[str, Any]) -> RoundProgress:
    """Read ``round_`` (complete or not) after ``state`` as the engine does; ``state`` is left
    unchanged."""
    st = state.copy()
    try:
        play_round(st, dict(round_))
    except LogError as exc:
        return RoundProgress(st, exc)
    return RoundProgress(st, None)


def prestige_cost(dice: Mapping[str, int]) -> int:
    """The cost of a prestige step: the sum of the dice showing 1 or 2 (0: no one climbs)."""
    return sum(v for v in dice.values() if isinstance(v, int) and v <= PRESTIGE_MAX)


def threat_colors(dice: Mapping[str, int]) -> list[str]:
    """The colours whose die shows 5 or 6: every seat gets a token of each."""
    return [c for c in COLORS if isinstance(dice.get(c), int) and dice[c] >= THREAT_MIN]


@dataclass(frozen=True)
class Person:
    id: str
    name: str
    price: int
    group: str
    icon: str
    worker: str | None  # the worker colour a `worker` person's activation costs
    seat: int  # its owner
    status: str  # in_play, hand (back after a fire), discarded (plague)
    used: bool  # a `worker` person that acted in the round being read


@dataclass(frozen=True)
class House:
    index: int  # 0-based, in the order built (B8)
    color: str
    person: str | None  # the id of the person in it


@dataclass(frozen=True)
class CanalSpace:
    section: str
    space: int  # 1-based, from the seal outward
    cost: int
    color: str | None  # None: the edition does not know it (any card builds it)


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str
    florins: int
    points: int  # the score track
    step: int  # prestige: 0 = the Town Hall
    workers: dict[str, int]
    threats: dict[str, int]
    houses: list[House]
    canals: dict[str, int]  # tiles per section
    statues: list[int]
    majorities: list[str]  # the tiles flipped
    next_spaces: list[CanalSpace]  # per section not complete, the space to build next

    @property
    def persons(self) -> list[str]:
        return [h.person for h in self.houses if h.person is not None]

    @property
    def empty_houses(self) -> list[House]:
        return [h for h in self.houses if h.person is None]

    @property
    def tiles(self) -> int:
        return sum(self.canals.values())


@dataclass(frozen=True)
class Table:
    """The game as ``state`` has it, as the round entry needs it."""

    round_no: int  # the round being played (rounds played + 1)
    first_player: int  # its first player
    players: int
    turns: int  # turns in a round
    top_step: int
    prestige_points: list[int]
    seats: list[Seat]
    persons: list[Person]  # every person met, in the order first hired
    pending: list[tuple[int, str]]  # (seat, colour) with 3 or more tokens: a penalty is due

    def person(self, pid: str) -> Person | None:
        for p in self.persons:
            if p.id == pid:
                return p
        return None

    def turn_seat(self, turn: int) -> int:
        """The seat of the round's ``turn`` (0-based): clockwise from the first player."""
        return (self.first_player + turn) % self.players


def read_table(state: State) -> Table:
    """What the round entry shows of ``state`` (a state between rounds, or part-way through
    a round as ``round_progress`` left it)."""
    n = state.players
    ed = state.edition
    seats: list[Seat] = []
    pending: list[tuple[int, str]] = []
    for s in range(n):
        ps = state.seats[s]
        houses = [
            House(
                h,
                COLORS[ps.houses[h]],
                state.persons[p].id if (p := ps.tenants[h]) >= 0 else None,
            )
            for h in range(len(ps.houses))
        ]
        canals = {name: ps.canal[k] for k, name in enumerate(SECTIONS)}
        spaces = []
        for k, name in enumerate(SECTIONS):
            built = canals[name]
            if built < SPACES:
                i = k * SPACES + built
                color = ed.canal_color[i]
                spaces.append(
                    CanalSpace(
                        name, built + 1, ed.canal_cost[i], COLORS[color] if color >= 0 else None
                    )
                )
        seats.append(
            Seat(
                seat=s,
                name=state.names[s],
                florins=ps.florins,
                points=ps.points,
                step=ps.step,
                workers={COLORS[c]: ps.workers[c] for c in range(NCOLORS)},
                threats={COLORS[c]: ps.threats[c] for c in range(NCOLORS)},
                houses=houses,
                canals=canals,
                statues=list(ps.statues),
                majorities=[MAJORITIES[t] for t in range(3) if ps.flipped >> t & 1],
                next_spaces=spaces,
            )
        )
        for c in range(NCOLORS):
            if ps.threats[c] >= PENALTY_AT:
                pending.append((s, COLORS[c]))
    playing = state.round_no + 1
    persons = [
        Person(
            id=p.id,
            name=p.name,
            price=p.price,
            group=GROUPS[p.group],
            icon=ICONS[p.icon],
            worker=COLORS[p.worker] if p.worker >= 0 else None,
            seat=p.owner,
            status=STATUS_NAMES[p.status],
            used=p.used == playing,
        )
        for p in state.persons
    ]
    return Table(
        round_no=playing,
        first_player=state.current_first,
        players=n,
        turns=TURNS_PER_PLAYER * n,
        top_step=TOP_STEP,
        prestige_points=list(ed.prestige_points),
        seats=seats,
        persons=persons,
        pending=pending,
    )
