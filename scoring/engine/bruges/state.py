"""The state of a Bruges game as the engine keeps it: the seats, the persons met, the game
between rounds, and what the round being read tracks besides."""

from __future__ import annotations

from typing import Any

from scoring.engine.bruges.editions import Edition
from scoring.engine.bruges.rules import NCOLORS, NGROUPS, START_FLORINS, START_POINTS, START_WORKERS


class Seat:
    """One seat's counts, as native fields: a seat's hot counters are read and written once or
    more per step, and a field of a compiled class is far cheaper than an item of a list."""

    florins: int
    points: int  # the score track
    step: int  # prestige: 0 = the Town Hall
    workers: list[int]  # per colour
    threats: list[int]  # per colour
    houses: list[int]  # the colour of each house, in the order built
    tenants: list[int]  # per house, the index of the person in it, -1 empty
    in_play: int  # persons in play
    canal: list[int]  # tiles per section
    completed: int  # a bit per section completed once (B3)
    statues: list[int]  # values, in the order taken
    flipped: int  # a bit per majority tile
    # Statistics.
    penalties: list[int]  # suffered, per colour
    hired: list[int]  # per group
    cards_played: int
    # The round being played: what it changed so far, and the counts it started from.
    played: int  # cards played (for passes)
    gained_workers: int  # net
    built_houses: int
    hires: int
    tiles: int
    start_points: int
    start_florins: int
    start_step: int

    def clone(self) -> Seat:
        new = Seat()
        new.florins = self.florins
        new.points = self.points
        new.step = self.step
        new.workers = list(self.workers)
        new.threats = list(self.threats)
        new.houses = list(self.houses)
        new.tenants = list(self.tenants)
        new.in_play = self.in_play
        new.canal = list(self.canal)
        new.completed = self.completed
        new.statues = list(self.statues)
        new.flipped = self.flipped
        new.penalties = list(self.penalties)
        new.hired = list(self.hired)
        new.cards_played = self.cards_played
        new.played = self.played
        new.gained_workers = self.gained_workers
        new.built_houses = self.built_houses
        new.hires = self.hires
        new.tiles = self.tiles
        new.start_points = self.start_points
        new.start_florins = self.start_florins
        new.start_step = self.start_step
        return new


def _new_seat() -> Seat:
    ps = Seat()
    ps.florins = START_FLORINS
    ps.points = START_POINTS
    ps.step = 0
    ps.workers = [START_WORKERS] * NCOLORS
    ps.threats = [0] * NCOLORS
    ps.houses = []
    ps.tenants = []
    ps.in_play = 0
    ps.canal = [0, 0]
    ps.completed = 0
    ps.statues = []
    ps.flipped = 0
    ps.penalties = [0] * NCOLORS
    ps.hired = [0] * NGROUPS
    ps.cards_played = 0
    ps.played = 0
    ps.gained_workers = 0
    ps.built_houses = 0
    ps.hires = 0
    ps.tiles = 0
    ps.start_points = START_POINTS
    ps.start_florins = START_FLORINS
    ps.start_step = 0
    return ps


class Person:
    """A person met in the game (B4, B6): what the log gave the first time, and where it is."""

    id: str
    name: str
    price: int
    group: int
    icon: int
    worker: int  # the worker colour of a `worker` person, else -1
    owner: int
    status: int  # IN_PLAY, IN_HAND, DISCARDED
    used: int  # the round a `worker` person last acted in (0: never)

    def clone(self) -> Person:
        new = Person()
        new.id = self.id
        new.name = self.name
        new.price = self.price
        new.group = self.group
        new.icon = self.icon
        new.worker = self.worker
        new.owner = self.owner
        new.status = self.status
        new.used = self.used
        return new


class State:
    """The game after some rounds. Mutable for speed inside the engine; the public
    ``apply_entry`` works on a copy, so a state handed out is never changed."""

    # Never changed after the header (shared between copies).
    names: list[str]
    players: int
    first_player: int
    edition: Edition
    final: dict[str, Any] | None  # the log's `final`, its shape checked (normalised)
    seats: list[Seat]
    # Persons met, in the order first hired; ``person_index`` maps an id to its index.
    persons: list[Person]
    person_index: dict[str, int]
    # The game.
    pile: int  # statues taken from the pile (STATUES[pile] is its top)
    statues_taken: list[dict[str, Any]]
    round_no: int  # rounds played
    current_first: int  # the first player of the next round
    rounds: list[dict[str, Any]]  # one summary per round played (never changed once made)
    scratch: _Round | None  # reused by each round (not part of the game; a copy gets its own)

    def copy(self) -> State:
        new = State()
        new.names = self.names
        new.players = self.players
        new.first_player = self.first_player
        new.edition = self.edition
        new.final = self.final
        new.seats = [ps.clone() for ps in self.seats]
        new.persons = [p.clone() for p in self.persons]
        new.person_index = dict(self.person_index)
        new.pile = self.pile
        new.statues_taken = list(self.statues_taken)
        new.round_no = self.round_no
        new.current_first = self.current_first
        new.rounds = list(self.rounds)
        new.scratch = None
        return new


class _Round:
    """What one round tracks besides the seats: where the error is, and its events."""

    rno: int
    tno: int  # 0 outside the turns
    dice: list[int]
    first: int
    taken: list[list[int]]  # [seat, statue value]
    suffered: list[list[Any]]  # [seat, colour]
    flipped: list[list[Any]]  # [seat, majority tile]
    pending: list[int]  # penalties triggered by a gain and not suffered yet (seat * 5 + colour)
