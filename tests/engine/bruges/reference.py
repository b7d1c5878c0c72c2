"""A naive, independent reference implementation of Bruges replay and scoring.

Written straight from ``shared/rules/bruges.md`` (decisions B1-B8, log format
``bruges-log/1``), for the property and golden-log tests. It imports nothing from ``scoring``:
its own edition data, its own seat bookkeeping, its own majorities, statues, penalties,
scoring by category and ranking with the florins tie-break (B7).

It reads VALID logs only (no error codes): a log that breaks the rules is a bug of the caller,
and the ``assert`` lines below are sanity checks, not the engine's validation.

``replay(log)`` gives the fields this module computes (``picked`` takes the same fields from an
engine result); ``golden_document(log)`` a whole golden file (``tests/golden/bruges/*.json``).
``test_bruges_golden.py`` checks that this module still reproduces every golden file, so the
golden data is tied to this reference, never to the engine's output.
"""

from __future__ import annotations

import copy
from typing import Any

COLORS = ("blue", "brown", "red", "purple", "yellow")
SECTIONS = ("left", "right")
STATUES = (7, 6, 5, 4, 3, 2)  # B3: the pile, top first
MAJORITIES = ("prestige", "persons", "canals")  # phase 4, in this order
GROUPS = (
    "nobles",
    "bureaucrats",
    "entertainers",
    "merchants",
    "craftsmen",
    "courtiers",
    "clergy",
    "artists",
    "defenders",
    "underworld",
    "scholars",
)
CATEGORIES = (
    "track",
    "persons",
    "houses",
    "laurels",
    "majorities",
    "canals",
    "statues",
    "prestige",
)

# B1: the default edition, not verified against the printed board.
STANDARD_EDITION: dict[str, Any] = {
    "id": "standard",
    "prestige_points": [0, 1, 2, 3, 4, 5, 7, 9, 11, 13, 15, 17, 20],
    "canal": {
        "left": [{"cost": cost, "color": None} for cost in (1, 2, 3, 4, 5)],
        "right": [{"cost": cost, "color": None} for cost in (1, 2, 3, 4, 5)],
    },
}


class Seat:
    """What the rules file says the engine tracks, per seat (with its starting values)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.florins = 5
        self.workers = dict.fromkeys(COLORS, 1)
        self.threats = dict.fromkeys(COLORS, 0)
        self.points = 5  # the score track
        self.step = 0  # 0 = the Town Hall
        self.houses: list[dict[str, Any]] = []  # {"color", "person": id | None}, in build order
        self.canals = dict.fromkeys(SECTIONS, 0)
        self.statues: list[int] = []
        self.statue_sections: set[str] = set()  # B3: sections that were completed once
        self.flipped: list[str] = []  # majority tiles, in the order flipped
        # counts for statistics
        self.cards_played = 0
        self.penalties = dict.fromkeys(COLORS, 0)
        self.hired = dict.fromkeys(GROUPS, 0)

    def persons_in_play(self) -> list[str]:
        return [h["person"] for h in self.houses if h["person"] is not None]


class Game:
    """The state of a game, advanced one round at a time."""

    def __init__(self, log: dict[str, Any], edition: dict[str, Any] | None = None) -> None:
        assert log["format"] == "bruges-log/1"
        if edition is None:
            assert log.get("edition", "standard") in (None, "standard")
            edition = STANDARD_EDITION
        self.edition = edition
        self.names: list[str] = list(log["players"])
        self.n = len(self.names)
        assert 2 <= self.n <= 4  # "per 2-4 giocatori"
        self.first: int = log["first_player"]
        self.seats = [Seat(name) for name in self.names]
        self.pile = list(STATUES)
        self.persons: dict[str, dict[str, Any]] = {}  # id -> the person as first given
        self.owner: dict[str, int] = {}  # id -> seat, for the persons in play
        self.holder: dict[str, int] = {}  # id -> seat, for the persons back in a hand (fire)
        self.last_seat: dict[str, int] = {}  # id -> its last owner
        self.plagued: set[str] = set()
        self.taken: list[dict[str, Any]] = []  # the statues, in the order taken
        self.rounds_played = 0
        self.dice: dict[str, int] = {}
        self.round_first = self.first
        # per turn: which arrow persons may still act, which worker persons acted this round
        self.arrow_ready: str | None = None
        self.worker_used: set[str] = set()

    # --- small rules --------------------------------------------------------------------------

    def give_threat(self, seat: int, color: str, count: int) -> None:
        s = self.seats[seat]
        s.threats[color] += count
        assert s.threats[color] >= 0

    def penalty(self, entry: dict[str, Any]) -> None:
        """A triggered penalty (phase 2, B2), with its choice where there is one."""
        seat: int = entry["seat"]
        color: str = entry["color"]
        s = self.seats[seat]
        assert s.threats[color] >= 3, entry
        if color == "blue":  # flood: all workers back to the supply
            s.workers = dict.fromkeys(COLORS, 0)
        elif color == "brown":  # plague: one person in play discarded, the house stays
            if "person" in entry:
                pid = entry["person"]
                assert self.owner.get(pid) == seat, entry
                for h in s.houses:
                    if h["person"] == pid:
                        h["person"] = None
                del self.owner[pid]
                self.plagued.add(pid)  # never returns
            else:
                assert not s.persons_in_play(), entry
        elif color == "yellow":  # pillage: all florins
            s.florins = 0
        elif color == "red":  # fire: a house (its person to the hand) or a section's last tile
            if "house" in entry:
                gone = s.houses.pop(entry["house"])  # B8: later houses move up
                if gone["person"] is not None:
                    del self.owner[gone["person"]]
                    self.holder[gone["person"]] = seat  # back in the hand
            elif "section" in entry:
                assert s.canals[entry["section"]] > 0, entry
                s.canals[entry["section"]] -= 1  # the statue, if any, stays
            else:
                assert not s.houses and not any(s.canals.values()), entry
        else:  # purple: plot, 3 points, not below 0
            assert color == "purple"
            s.points = max(0, s.points - 3)
        s.threats[color] -= 3  # returned, no points for them
        s.penalties[color] += 1

    def apply_gain(self, seat: int, gain: dict[str, Any]) -> int:
        """B8: all parts at once, then no count below zero. Returns the extra plays."""
        s = self.seats[seat]
        s.florins += gain.get("florins", 0)
        s.points += gain.get("points", 0)
        s.step = min(12, s.step + gain.get("prestige", 0))  # stops at 12
        for color, k in gain.get("workers", {}).items():
            s.workers[color] += k
        for color, k in gain.get("threats", {}).items():
            s.threats[color] += k
            if k < 0:
                s.points += -k  # every token returned by an effect scores 1 point
        assert s.florins >= 0 and s.points >= 0 and s.step >= 0
        assert min(s.workers.values()) >= 0 and min(s.threats.values()) >= 0
        return int(gain.get("plays", 0))

    def build_canal(self, seat: int, color: str, section: str) -> None:
        s = self.seats[seat]
        k = s.canals[section]  # the next space, 0-based, from the seal outward
        assert k < 5
        space = self.edition["canal"][section][k]
        assert space["color"] is None or space["color"] == color
        s.florins -= space["cost"]
        assert s.florins >= 0
        s.canals[section] = k + 1
        if k + 1 == 5 and section not in s.statue_sections:
            # B3: completing a section takes the top statue, once per section (a section
            # completed again after a fire takes none), none when the pile is empty.
            s.statue_sections.add(section)
            if self.pile and len(s.statues) < 2:
                value = self.pile.pop(0)
                s.statues.append(value)
                self.taken.append(
                    {
                        "seat": seat,
                        "section": section,
                        "value": value,
                        "round": self.rounds_played + 1,
                    }
                )

    def hire(self, seat: int, step: dict[str, Any]) -> str:
        s = self.seats[seat]
        given = step["person"]
        if isinstance(given, dict):
            pid = given["id"]
            assert pid not in self.persons
            assert given["price"] in (0, 3, 6, 9, 12)  # B4
            self.persons[pid] = dict(given)
        else:
            pid = given
            assert pid not in self.plagued
            assert self.holder.pop(pid) == seat  # back in this seat's hand after a fire
        assert pid not in self.owner
        h = s.houses[step["house"]]
        assert h["person"] is None
        s.florins -= self.persons[pid]["price"]
        assert s.florins >= 0
        h["person"] = pid
        self.owner[pid] = seat
        self.last_seat[pid] = seat
        s.hired[self.persons[pid]["group"]] += 1
        return pid

    def action(self, seat: int, step: dict[str, Any]) -> str | None:
        """One card played for one of the six actions; returns the hired person's id."""
        s = self.seats[seat]
        color: str = step["card"]
        kind: str = step["action"]
        s.cards_played += 1
        if kind == "workers":
            s.workers[color] += 2
        elif kind == "florins":
            s.florins += self.dice[color]
        elif kind == "threat":
            assert s.threats[color] > 0
            s.threats[color] -= 1
            s.points += 1
        elif kind == "canal":
            self.build_canal(seat, color, step["section"])
        elif kind == "house":
            assert s.workers[color] > 0
            s.workers[color] -= 1
            s.houses.append({"color": color, "person": None})
        else:
            assert kind == "person", kind
            return self.hire(seat, step)
        return None

    def effect(self, seat: int, entry: dict[str, Any], *, upkeep: bool = False) -> int:
        """A person effect (B6); returns the extra plays it grants."""
        pid: str = entry["effect"]
        owner = entry.get("seat", seat)
        assert self.owner.get(pid) == owner, entry
        info = self.persons[pid]
        icon = info["icon"]
        assert icon != "laurel"
        if upkeep or owner != seat:
            assert icon == "infinity"
        if icon == "arrow":
            assert self.arrow_ready == pid
            self.arrow_ready = None
        if icon == "worker":
            assert pid not in self.worker_used
            self.worker_used.add(pid)
            worker = info["worker"]
            s = self.seats[owner]
            s.workers[worker] -= 1  # B8: paid before the gain
            assert s.workers[worker] >= 0
        plays = self.apply_gain(owner, entry.get("gain") or {})
        assert plays == 0 or owner == seat
        return plays

    # --- a round ----------------------------------------------------------------------------

    def upkeep(self, entries: list[dict[str, Any]], at: str) -> None:
        for entry in entries:
            if (entry.get("at") or "dice") != at:  # missing or null: "dice"
                continue
            if "penalty" in entry:
                self.penalty(entry["penalty"])
            else:
                self.effect(entry["seat"], entry, upkeep=True)

    def play_round(self, entry: dict[str, Any]) -> None:
        n = self.n
        first = self.round_first
        upkeep = entry.get("upkeep") or []
        self.worker_used = set()
        # Phase 1: draw (not logged); the infinity effects at the draw.
        self.upkeep(upkeep, "draw")
        # Phase 2: dice, threat tokens, penalties (B2), prestige.
        self.dice = dict(entry["dice"])
        for color in COLORS:
            if self.dice[color] >= 5:
                for seat in range(n):
                    self.give_threat(seat, color, 1)
        for pen in entry.get("penalties") or []:
            self.penalty(pen)
        assert all(t < 3 for s in self.seats for t in s.threats.values())
        self.upkeep(upkeep, "dice")
        cost = sum(v for v in self.dice.values() if v <= 2)
        climbers = entry.get("prestige") or []
        assert cost > 0 or not climbers
        for seat in climbers:
            s = self.seats[seat]
            assert s.step < 12
            s.florins -= cost
            assert s.florins >= 0
            s.step += 1
        self.upkeep(upkeep, "prestige")
        # Phase 3: 4 turns per seat, clockwise from the first player.
        turns = entry["turns"]
        assert len(turns) == 4 * n
        for k, t in enumerate(turns):
            seat = (first + k) % n
            assert t["seat"] == seat, (self.rounds_played + 1, k + 1)
            if t.get("pass"):
                continue
            plays = 1
            cards = 0
            self.arrow_ready = None
            for step in t["steps"]:
                if "card" in step:
                    cards += 1
                    assert cards <= plays
                    self.arrow_ready = self.action(seat, step)
                    continue
                ready = self.arrow_ready
                if "penalty" in step:
                    self.penalty(step["penalty"])
                else:
                    plays += self.effect(seat, step)
                # an arrow person acts only in the step right after its hire
                if ready is not None and ready == self.arrow_ready:
                    self.arrow_ready = None
            assert cards == plays
        # Phase 4: majorities (B5), then the first player token passes clockwise.
        self.majorities()
        self.round_first = (first + 1) % n
        self.rounds_played += 1

    def majorities(self) -> None:
        counts = {
            "prestige": [s.step for s in self.seats],
            "persons": [len(s.persons_in_play()) for s in self.seats],
            "canals": [sum(s.canals.values()) for s in self.seats],
        }
        for tile in MAJORITIES:
            values = counts[tile]
            top = max(values)
            leaders = [seat for seat, v in enumerate(values) if v == top]
            # alone in the lead, with at least step 1 / one person / one tile (B5)
            if top >= 1 and len(leaders) == 1:
                s = self.seats[leaders[0]]
                if tile not in s.flipped:
                    s.flipped.append(tile)

    # --- scoring (End, B7) ------------------------------------------------------------------

    def breakdown(self, seat: int, laurels: dict[int, int]) -> dict[str, int]:
        s = self.seats[seat]
        return {
            "track": s.points,
            "persons": sum(self.persons[pid]["price"] // 3 for pid in s.persons_in_play()),
            "houses": len(s.houses),
            "laurels": laurels.get(seat, 0),
            "majorities": 4 * len(s.flipped),
            "canals": 3 * sum(1 for k in s.canals.values() if k >= 3),
            "statues": sum(s.statues),
            "prestige": self.edition["prestige_points"][s.step],
        }

    def result(self, final: dict[str, Any] | None) -> dict[str, Any]:
        laurels: dict[int, int] = {}
        applied: list[list[dict[str, Any]]] = [[] for _ in range(self.n)]
        if final is not None:
            seen: set[str] = set()
            for item in final.get("laurels") or []:
                seat, pid, points = item["seat"], item["person"], item["points"]
                assert pid not in seen and points >= 0
                assert self.owner.get(pid) == seat and self.persons[pid]["icon"] == "laurel"
                seen.add(pid)
                laurels[seat] = laurels.get(seat, 0) + points
                applied[seat].append({"person": pid, "points": points})
        breakdowns = [self.breakdown(seat, laurels) for seat in range(self.n)]
        scores = [sum(b.values()) for b in breakdowns]
        wealth = [s.florins for s in self.seats]
        ranks, tiebreaks = ranking(scores, wealth)
        players = []
        for seat, s in enumerate(self.seats):
            players.append(
                {
                    "seat": seat,
                    "name": s.name,
                    "score": scores[seat],
                    "rank": ranks[seat],
                    "tiebreak": tiebreaks[seat],
                    "florins": s.florins,
                    "breakdown": breakdowns[seat],
                    "statues": list(s.statues),
                    "majorities": sorted(s.flipped, key=MAJORITIES.index),
                    "step": s.step,
                    "houses": len(s.houses),
                    "persons": len(s.persons_in_play()),
                    "canals": dict(s.canals),
                    "workers": dict(s.workers),
                    "threats": dict(s.threats),
                    "tableau": [dict(h) for h in s.houses],
                    "laurels": applied[seat],
                    "majorities_flipped": len(s.flipped),
                    "statues_taken": len(s.statues),
                    "cards_played": s.cards_played,
                    "penalties": dict(s.penalties),
                    "hired": dict(s.hired),
                }
            )
        return {
            "complete": final is not None,
            "rounds_played": self.rounds_played,
            "players": players,
            "winners": [seat for seat in range(self.n) if ranks[seat] == 1],
            "majorities": {
                tile: sorted(seat for seat, s in enumerate(self.seats) if tile in s.flipped)
                for tile in MAJORITIES
            },
            "statues": {"taken": [dict(t) for t in self.taken], "pile": list(self.pile)},
            "persons": [self.person_status(pid) for pid in self.persons],
        }

    def person_status(self, pid: str) -> dict[str, Any]:
        if pid in self.owner:
            seat, status = self.owner[pid], "in_play"
        elif pid in self.holder:
            seat, status = self.holder[pid], "hand"
        else:
            assert pid in self.plagued
            seat, status = self.last_seat[pid], "discarded"
        return {"id": pid, "seat": seat, "status": status}


def ranking(scores: list[int], wealth: list[int]) -> tuple[list[int], list[str | None]]:
    """B7: most points; a tie goes to the most florins; a tie there is shared. Competition
    ranking: 1 + the seats strictly ahead. ``tiebreak``: ``"shared"`` for a seat tied on both
    with another, ``"florins"`` for a seat tied on points with another and told apart by
    florins, else None."""
    n = len(scores)
    keys = [(scores[i], wealth[i]) for i in range(n)]
    ranks = [1 + sum(1 for j in range(n) if keys[j] > keys[i]) for i in range(n)]
    tiebreaks: list[str | None] = [None] * n
    for i in range(n):
        same_score = [j for j in range(n) if j != i and scores[j] == scores[i]]
        if any(keys[j] == keys[i] for j in same_score):
            tiebreaks[i] = "shared"
        elif same_score:
            tiebreaks[i] = "florins"
    return ranks, tiebreaks


# --- the whole log --------------------------------------------------------------------------------


PLAYER_KEYS = (
    "seat",
    "name",
    "score",
    "rank",
    "tiebreak",
    "florins",
    "breakdown",
    "statues",
    "majorities",
    "step",
    "houses",
    "persons",
    "canals",
    "workers",
    "threats",
    "tableau",
    "laurels",
    "majorities_flipped",
    "statues_taken",
    "cards_played",
    "penalties",
    "hired",
)


def picked(result: dict[str, Any]) -> dict[str, Any]:
    """The fields of an engine result that ``replay`` below also computes."""
    out = {key: result[key] for key in ("complete", "rounds_played")}
    out["players"] = [{key: p[key] for key in PLAYER_KEYS} for p in result["players"]]
    out["winners"] = result["winners"]
    out["majorities"] = {tile: sorted(seats) for tile, seats in result["majorities"].items()}
    out["statues"] = result["statues"]
    out["persons"] = [
        {"id": p["id"], "seat": p["seat"], "status": p["status"]} for p in result["persons"]
    ]
    return out


def replay(
    log: dict[str, Any],
    *,
    edition: dict[str, Any] | None = None,
    rounds: int | None = None,
) -> dict[str, Any]:
    """The result fields this reference computes for a valid ``bruges-log/1`` (the first
    ``rounds`` rounds only, when given: then a game in progress)."""
    game = Game(log, edition)
    entries = log["rounds"] if rounds is None else log["rounds"][:rounds]
    for entry in entries:
        game.play_round(entry)
    final = log.get("final") if rounds is None else None
    return game.result(final)


def expected_for(log: dict[str, Any]) -> dict[str, Any]:
    """The golden ``expected`` of ``log``."""
    return replay(log)


def golden_document(log: dict[str, Any]) -> dict[str, Any]:
    return {"log": copy.deepcopy(log), "expected": expected_for(log)}
