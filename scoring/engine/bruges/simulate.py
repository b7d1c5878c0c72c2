"""A seeded simulator of legal Bruges games, for tests, demo data and benchmarks.

It plays on its own (it does not call the engine), so a replay of its logs is a check of the
engine by an independent route. It keeps the real cards: 165 cards of 5 colours, the draw piles
of the players' packets and the extra pile, the hands; the game ends as the rulebook says (after
the round in which a pile runs out in phase 1, or after the next one when it runs out in phase
3, by a person's draw). Persons are invented when their card is first hired (the log gives a
person whole the first time). Chance is drawn here, from ``random.Random(seed)``, and the log
records only what the table sees.

One bias, on purpose: a ``laurel`` person is only ever the first hire of rounds 1 and 2 and is
never hired again after a fire, so each laurel person listed in ``final`` has been in play
since round 2; a log cut after round 2 or later with the whole game's ``final`` (as the engine
contract suite does) then still names persons in play.
"""

from __future__ import annotations

import random
from typing import Any

from scoring.engine.bruges.editions import BUILTIN_EDITIONS, STANDARD_EDITION, Edition
from scoring.engine.bruges.rules import (
    COLORS,
    GROUPS,
    LOG_FORMAT,
    MAX_PLAYERS,
    MAX_STATUES,
    MIN_PLAYERS,
    PRICES,
    SECTIONS,
    STATUES,
    TOP_STEP,
)

PLAYER_NAMES = ("Ada", "Bea", "Cy", "Dan")
PERSON_NAMES = (
    "Alchimista",
    "Principe",
    "Bracciante",
    "Cocchiere",
    "Contabile",
    "Avvocato",
    "Inventore",
    "Vescovo",
    "Borgomastro",
    "Consigliere",
    "Carceriere",
    "Mercante",
    "Fabbro",
    "Menestrello",
    "Monaca",
    "Pittore",
    "Sentinella",
    "Ladro",
    "Erudito",
    "Cortigiana",
)
CARDS_PER_COLOR = 33  # 165 cards
PACKET = 33  # 5 packets "as equal as possible"
HAND = 5

# How the simulated players behave.
PRESTIGE_RATE = 0.5
EFFECT_RATE = 0.6  # an optional effect is used
FOREIGN_RATE = 0.03  # another seat's infinity person reacts in a turn
UPKEEP_RATE = 0.15  # an infinity person acts outside the turns
BAD_GAIN_RATE = 0.12  # an effect gives a threat token (and may trigger a penalty)
EXTRA_PLAY_RATE = 0.25  # a worker person grants an extra play
DRAW_RATE = 0.3  # a worker person draws a card
LEAN_FIRST = 0.6  # a player leans to the first draw pile this round (else the second)


class _Person:
    def __init__(self, pid: str, name: str, price: int, group: str, icon: str, worker: str | None):
        self.pid = pid
        self.name = name
        self.price = price
        self.group = group
        self.icon = icon
        self.worker = worker
        self.owner = -1
        self.status = "hand"  # hand (its card in a hand or the deck), play, gone
        self.used_round = 0
        self.kind = ""  # what its effect does: "draw", "plays" or "gain"

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.pid,
            "name": self.name,
            "price": self.price,
            "group": self.group,
            "icon": self.icon,
        }
        if self.worker is not None:
            out["worker"] = self.worker
        return out


class _Seat:
    def __init__(self) -> None:
        self.florins = 5
        self.points = 5
        self.step = 0
        self.workers = [1] * 5
        self.threats = [0] * 5
        self.houses: list[list[Any]] = []  # [colour, person or None]
        self.canal = [0, 0]
        self.completed = [False, False]
        self.statues = 0
        self.hand: list[int] = []  # card indexes
        self.flipped = 0

    def persons(self) -> list[_Person]:
        return [h[1] for h in self.houses if h[1] is not None]


class _Game:
    def __init__(self, rng: random.Random, n: int, first: int, edition: Edition) -> None:
        self.rng = rng
        self.n = n
        self.first = first
        self.edition = edition
        colors = [c for c in range(5) for _ in range(CARDS_PER_COLOR)]
        rng.shuffle(colors)
        self.card_color = colors
        self.card_person: list[_Person | None] = [None] * len(colors)
        cards = list(range(len(colors)))
        packets = [cards[i * PACKET : (i + 1) * PACKET] for i in range(5)]
        used = [c for p in packets[:n] for c in p]
        rng.shuffle(used)
        half = len(used) // 2
        self.piles: list[list[int]] = [used[:half], used[half:]]
        self.extra: list[int] = [c for p in packets[n:] for c in p]
        self.seats = [_Seat() for _ in range(n)]
        self.persons: list[_Person] = []
        self.statue_pile = list(STATUES)
        self.round_no = 0
        self.ran_out_phase1 = False
        self.ran_out_phase3 = False
        self.last_round = False
        self.lean = [0] * n

    # --- cards ----------------------------------------------------------------------------

    def draw(self, seat: int, phase3: bool) -> bool:
        piles = [p for p in self.piles if p]
        if not piles:
            return False
        # Each player leans to one pile this round (players do pick a pile).
        pile = piles[0] if len(piles) == 1 else self.piles[self.lean[seat]]
        if not pile or self.rng.random() < 0.15:
            pile = self.rng.choice(piles)
        self.seats[seat].hand.append(pile.pop())
        if not pile:
            if phase3:
                self.ran_out_phase3 = True
            else:
                self.ran_out_phase1 = True
            i = self.piles.index(pile)
            if self.extra:
                self.piles[i] = self.extra
                self.extra = []
            else:
                other = self.piles[1 - i]
                half = len(other) // 2
                self.piles[i] = other[:half]
                self.piles[1 - i] = other[half:]
        return True

    # --- small rules ------------------------------------------------------------------------

    def suffer(self, seat: int, color: int) -> dict[str, Any]:
        """Apply a triggered penalty with a random choice; returns its log entry."""
        s = self.seats[seat]
        rng = self.rng
        entry: dict[str, Any] = {"seat": seat, "color": COLORS[color]}
        if color == 0:
            s.workers = [0] * 5
        elif color == 1:
            persons = s.persons()
            if persons:
                victim = rng.choice(persons)
                entry["person"] = victim.pid
                for h in s.houses:
                    if h[1] is victim:
                        h[1] = None
                victim.status = "gone"
        elif color == 2:
            options: list[tuple[str, int]] = [("house", i) for i in range(len(s.houses))]
            options += [("section", k) for k in range(2) if s.canal[k]]
            if options:
                kind, i = rng.choice(options)
                if kind == "house":
                    entry["house"] = i
                    _, person = s.houses.pop(i)
                    if person is not None:
                        person.status = "hand"
                        # Its card goes back to the hand; a laurel person is never hired again.
                        s.hand.append(self.card_of(person))
                else:
                    entry["section"] = SECTIONS[i]
                    s.canal[i] -= 1
        elif color == 3:
            s.points = max(0, s.points - 3)
        else:
            s.florins = 0
        s.threats[color] -= 3
        return entry

    def card_of(self, person: _Person) -> int:
        return self.card_person.index(person)

    def gain(self, seat: int, gain: dict[str, Any]) -> list[int]:
        """Apply a (legal) gain; returns the colours whose penalty it triggers."""
        s = self.seats[seat]
        s.florins += gain.get("florins", 0)
        s.points += gain.get("points", 0)
        s.step = min(TOP_STEP, s.step + gain.get("prestige", 0))
        for name, k in gain.get("workers", {}).items():
            s.workers[COLORS.index(name)] += k
        triggered = []
        for name, k in gain.get("threats", {}).items():
            c = COLORS.index(name)
            s.threats[c] += k
            if k < 0:
                s.points -= k
            elif s.threats[c] >= 3:
                triggered.append(c)
        return triggered

    def random_gain(self, seat: int) -> dict[str, Any]:
        """A gain a printed person might give (never leaving a count below zero)."""
        rng = self.rng
        s = self.seats[seat]
        roll = rng.random()
        if roll < BAD_GAIN_RATE:
            return {"threats": {COLORS[rng.randrange(5)]: 1}}
        kind = rng.randrange(7)
        if kind == 0:
            return {"florins": rng.randint(1, 4)}
        if kind == 1:
            return {"points": rng.randint(1, 3)}
        if kind == 2:
            return {"workers": {COLORS[rng.randrange(5)]: rng.randint(1, 2)}}
        if kind == 3:
            held = [c for c in range(5) if s.threats[c]]
            if held:
                return {"threats": {COLORS[rng.choice(held)]: -1}}
            return {"florins": 1}
        if kind == 4:
            return {"prestige": 1}
        if kind == 5 and s.florins >= 2:
            return {"florins": -2, "points": 2}
        return {"florins": 2, "workers": {COLORS[rng.randrange(5)]: 1}}

    # --- phases -----------------------------------------------------------------------------

    def play_round(self) -> dict[str, Any]:
        rng = self.rng
        n = self.n
        self.round_no += 1
        first = (self.first + self.round_no - 1) % n
        order = [(first + i) % n for i in range(n)]
        self.lean = [0 if rng.random() < LEAN_FIRST else 1 for _ in range(n)]
        if self.ran_out_phase3:
            self.last_round = True  # a pile ran out in phase 3 of the last round
        # Phase 1: draw to 5.
        for seat in order:
            hand = self.seats[seat].hand
            while len(hand) < HAND and self.draw(seat, False):
                pass
        if self.ran_out_phase1:
            self.last_round = True
        upkeep: list[dict[str, Any]] = []
        self.upkeep(upkeep, "draw")
        # Phase 2: dice, threats, penalties, prestige.
        dice = [rng.randint(1, 6) for _ in range(5)]
        for c in range(5):
            if dice[c] >= 5:
                for s in self.seats:
                    s.threats[c] += 1
        triggered = [
            (seat, c) for seat in range(n) for c in range(5) if self.seats[seat].threats[c] >= 3
        ]
        rng.shuffle(triggered)
        penalties = [self.suffer(seat, c) for seat, c in triggered]
        self.upkeep(upkeep, "dice")
        cost = sum(v for v in dice if v <= 2)
        prestige = []
        if cost:
            for seat in order:
                s = self.seats[seat]
                if s.step < TOP_STEP and s.florins >= cost and rng.random() < PRESTIGE_RATE:
                    s.florins -= cost
                    s.step += 1
                    prestige.append(seat)
        self.upkeep(upkeep, "prestige")
        # Phase 3.
        self.dice = dice
        played = [0] * n
        turns = []
        for k in range(4 * n):
            seat = order[k % n]
            turns.append(self.turn(seat, played))
        # Phase 4.
        self.majorities()
        out: dict[str, Any] = {"dice": {COLORS[c]: dice[c] for c in range(5)}}
        if penalties or rng.random() < 0.5:
            out["penalties"] = penalties
        if prestige or rng.random() < 0.5:
            out["prestige"] = prestige
        if upkeep:
            out["upkeep"] = upkeep
        out["turns"] = turns
        return out

    def upkeep(self, entries: list[dict[str, Any]], at: str) -> None:
        rng = self.rng
        for seat in range(self.n):
            for person in self.seats[seat].persons():
                if person.status != "play" or person.owner != seat:
                    continue
                if person.icon != "infinity" or rng.random() >= UPKEEP_RATE:
                    continue
                gain = self.random_gain(seat)
                entry: dict[str, Any] = {"seat": seat, "effect": person.pid, "gain": gain}
                if at != "dice" or rng.random() < 0.5:
                    entry["at"] = at
                entries.append(entry)
                for c in self.gain(seat, gain):
                    pen: dict[str, Any] = {"penalty": self.suffer(seat, c)}
                    if at != "dice" or rng.random() < 0.5:
                        pen["at"] = at
                    entries.append(pen)

    def effect_steps(
        self,
        seat: int,
        owner: int,
        person: _Person,
        steps: list[dict[str, Any]],
        gain: dict[str, Any],
    ) -> None:
        step: dict[str, Any] = {"effect": person.pid, "gain": gain}
        if owner != seat:
            step = {"seat": owner, **step}
        steps.append(step)
        for c in self.gain(owner, gain):
            steps.append({"penalty": self.suffer(owner, c)})

    def own_effects(self, seat: int, steps: list[dict[str, Any]], need: int) -> int:
        """Optional effects of the seat's worker and infinity persons, with ``need`` cards
        still to play in the turn; returns the extra plays granted."""
        rng = self.rng
        s = self.seats[seat]
        extra = 0
        for person in list(s.persons()):
            if person.status != "play" or person.owner != seat:
                continue
            if rng.random() >= EFFECT_RATE / 2:
                continue
            if person.icon == "worker":
                w = COLORS.index(person.worker or "blue")
                if person.used_round == self.round_no or s.workers[w] < 1:
                    continue
                person.used_round = self.round_no
                s.workers[w] -= 1  # B8: paid before the gain
                if person.kind == "plays" and len(s.hand) >= need + extra + 1:
                    self.effect_steps(seat, seat, person, steps, {"plays": 1})
                    extra += 1
                elif person.kind == "draw":
                    self.effect_steps(seat, seat, person, steps, {})
                    self.draw(seat, True)
                else:
                    self.effect_steps(seat, seat, person, steps, self.random_gain(seat))
            elif person.icon == "infinity":
                self.effect_steps(seat, seat, person, steps, self.random_gain(seat))
        return extra

    def turn(self, seat: int, played: list[int]) -> dict[str, Any]:
        rng = self.rng
        s = self.seats[seat]
        if not s.hand:
            if played[seat] < HAND:
                raise RuntimeError("simulator: out of cards before 5 were played")
            return {"seat": seat, "pass": True}
        steps: list[dict[str, Any]] = []
        plays = 1 + self.own_effects(seat, steps, 1)
        cards = 0
        while cards < plays:
            card = s.hand.pop(rng.randrange(len(s.hand)))
            cards += 1
            played[seat] += 1
            hired = self.action(seat, card, steps)
            if hired is not None:
                self.after_hire(seat, hired, steps)
            self.foreign(seat, steps)
            if cards == plays and rng.random() < 0.3:
                plays += self.own_effects(seat, steps, 0)
        return {"seat": seat, "steps": steps}

    def after_hire(self, seat: int, person: _Person, steps: list[dict[str, Any]]) -> None:
        if person.icon == "arrow" and self.rng.random() < 0.8:
            self.effect_steps(seat, seat, person, steps, self.random_gain(seat))

    def foreign(self, seat: int, steps: list[dict[str, Any]]) -> None:
        rng = self.rng
        for other in range(self.n):
            if other == seat:
                continue
            for person in self.seats[other].persons():
                if person.status != "play" or person.owner != other:
                    continue
                if person.icon == "infinity" and rng.random() < FOREIGN_RATE:
                    self.effect_steps(seat, other, person, steps, self.random_gain(other))

    def action(self, seat: int, card: int, steps: list[dict[str, Any]]) -> _Person | None:
        rng = self.rng
        s = self.seats[seat]
        color = self.card_color[card]
        name = COLORS[color]
        options = ["workers", "florins", "workers", "florins"]
        if s.threats[color]:
            options += ["threat", "threat"]
        if s.workers[color]:
            options += ["house"] * (3 if len(s.houses) < 6 else 1)
        canal_sections = []
        for k in range(2):
            i = s.canal[k]
            if i < 5:
                space = k * 5 + i
                want = self.edition.canal_color[space]
                if (want < 0 or want == color) and s.florins >= self.edition.canal_cost[space]:
                    canal_sections.append(k)
        if canal_sections:
            options += ["canal"] * 3
        empty = [i for i, h in enumerate(s.houses) if h[1] is None]
        person = self.card_person[card]
        hireable = False
        if empty:
            if person is None:
                hireable = s.florins >= 0
            else:
                hireable = person.icon != "laurel" and s.florins >= person.price
        if hireable:
            options += ["person"] * 4
        action = rng.choice(options)
        step: dict[str, Any] = {"card": name, "action": action}
        steps.append(step)
        if action == "workers":
            s.workers[color] += 2
        elif action == "florins":
            s.florins += self.dice[color]
        elif action == "threat":
            s.threats[color] -= 1
            s.points += 1
        elif action == "house":
            s.workers[color] -= 1
            s.houses.append([color, None])
        elif action == "canal":
            k = rng.choice(canal_sections)
            step["section"] = SECTIONS[k]
            i = s.canal[k]
            s.florins -= self.edition.canal_cost[k * 5 + i]
            s.canal[k] = i + 1
            if i + 1 == 5 and not s.completed[k]:
                s.completed[k] = True
                if self.statue_pile and s.statues < MAX_STATUES:
                    self.statue_pile.pop(0)
                    s.statues += 1
        else:
            at = rng.choice(empty)
            step["house"] = at
            if person is None:
                person = self.new_person(s.florins)
                self.card_person[card] = person
                step["person"] = person.as_dict()
            else:
                step["person"] = person.pid
            s.florins -= person.price
            s.houses[at][1] = person
            person.owner = seat
            person.status = "play"
            return person
        return None

    def new_person(self, florins: int) -> _Person:
        rng = self.rng
        pid = f"p{len(self.persons) + 1}"
        price = rng.choice([p for p in PRICES if p <= florins])
        icons = ["arrow", "worker", "infinity"]
        if self.round_no <= 2:
            icons.append("laurel")
        icon = rng.choice(icons)
        worker = COLORS[rng.randrange(5)] if icon == "worker" else None
        person = _Person(pid, rng.choice(PERSON_NAMES), price, rng.choice(GROUPS), icon, worker)
        if icon == "worker":
            roll = rng.random()
            person.kind = (
                "plays"
                if roll < EXTRA_PLAY_RATE
                else "draw"
                if roll < EXTRA_PLAY_RATE + DRAW_RATE
                else "gain"
            )
        self.persons.append(person)
        return person

    def majorities(self) -> None:
        values = [
            [s.step for s in self.seats],
            [len(s.persons()) for s in self.seats],
            [s.canal[0] + s.canal[1] for s in self.seats],
        ]
        for tile in range(3):
            top = max(values[tile])
            leaders = [i for i, v in enumerate(values[tile]) if v == top]
            if top >= 1 and len(leaders) == 1:
                self.seats[leaders[0]].flipped |= 1 << tile

    def laurels(self) -> list[dict[str, Any]]:
        out = []
        for seat, s in enumerate(self.seats):
            for person in s.persons():
                if person.icon == "laurel":
                    out.append(
                        {"seat": seat, "person": person.pid, "points": self.rng.randint(0, 8)}
                    )
        return out


def simulate(
    players: int,
    *,
    seed: int,
    complete: bool = True,
    names: list[str] | None = None,
    edition: Edition | None = None,
) -> dict[str, Any]:
    """A random legal ``bruges-log/1`` log of ``players`` players, the same for the same seed.
    ``complete``: the whole game with its ``final`` (laurels); else a game cut short after a
    random number of rounds, without ``final``."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Bruges is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    rng = random.Random(seed)
    ed = edition or STANDARD_EDITION
    first = rng.randrange(players)
    game = _Game(rng, players, first, ed)
    rounds = []
    while True:
        rounds.append(game.play_round())
        if game.last_round:
            break
    log: dict[str, Any] = {
        "format": LOG_FORMAT,
        "players": list(names) if names else list(PLAYER_NAMES[:players]),
        "first_player": first,
    }
    if BUILTIN_EDITIONS.get(ed.id) is ed:
        log["edition"] = ed.id
    if complete:
        log["rounds"] = rounds
        log["final"] = {"laurels": game.laurels()}
    else:
        cut = rng.randint(1, len(rounds) - 1) if len(rounds) > 1 else 1
        log["rounds"] = rounds[:cut]
    return log
