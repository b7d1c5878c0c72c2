"""Builders of hand-written ``bruges-log/1`` logs for the Bruges engine tests.

Seats are 0-based and clockwise. A round is built with ``rnd``; its turns with ``turn`` (one
seat's steps) or ``order`` (the whole phase 3: 4 turns per seat clockwise from the first
player, each seat's given turns first, then filler ``workers`` turns).
"""

from __future__ import annotations

from typing import Any

NAMES = ("Ada", "Bea", "Cy", "Dan")
COLORS = ("blue", "brown", "red", "purple", "yellow")

# Dice with no 5 or 6 (no threat token) and no 1 or 2 (no prestige): a round that only plays.
QUIET = "34343"


def dice(spec: str) -> dict[str, int]:
    """``"21456"`` -> blue 2, brown 1, red 4, purple 5, yellow 6 (the order of ``COLORS``)."""
    assert len(spec) == 5
    return {color: int(ch) for color, ch in zip(COLORS, spec, strict=True)}


def make_log(
    n: int,
    rounds: list[dict[str, Any]],
    *,
    first: int = 0,
    final: dict[str, Any] | None = None,
    edition: Any = None,
) -> dict[str, Any]:
    log: dict[str, Any] = {
        "format": "bruges-log/1",
        "players": list(NAMES[:n]),
        "first_player": first,
        "rounds": rounds,
    }
    if edition is not None:
        log["edition"] = edition
    if final is not None:
        log["final"] = final
    return log


def rnd(
    spec: str,
    turns: list[dict[str, Any]],
    *,
    penalties: list[dict[str, Any]] | None = None,
    prestige: list[int] | None = None,
    upkeep: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """One round; the lists left out are left out of the log too (B8: missing means empty)."""
    out: dict[str, Any] = {"dice": dice(spec)}
    if penalties is not None:
        out["penalties"] = penalties
    if prestige is not None:
        out["prestige"] = prestige
    if upkeep is not None:
        out["upkeep"] = upkeep
    out["turns"] = turns
    return out


# --- turns and steps -----------------------------------------------------------------------------


def turn(seat: int, *steps: dict[str, Any]) -> dict[str, Any]:
    return {"seat": seat, "steps": list(steps)}


def pas(seat: int) -> dict[str, Any]:
    return {"seat": seat, "pass": True}


def card(color: str, action: str, **extra: Any) -> dict[str, Any]:
    return {"card": color, "action": action, **extra}


def workers(color: str) -> dict[str, Any]:
    return card(color, "workers")


def florins(color: str) -> dict[str, Any]:
    return card(color, "florins")


def threat(color: str) -> dict[str, Any]:
    return card(color, "threat")


def canal(color: str, section: str) -> dict[str, Any]:
    return card(color, "canal", section=section)


def house(color: str) -> dict[str, Any]:
    return card(color, "house")


def hire(color: str, at: int, person: Any) -> dict[str, Any]:
    """Play a ``color`` card as ``person`` (a dict the first time, its id again later) into the
    house at 0-based position ``at``."""
    return card(color, "person", house=at, person=person)


def person(
    pid: str,
    price: int,
    *,
    icon: str = "arrow",
    group: str = "nobles",
    name: str | None = None,
    worker: str | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": pid,
        "name": name or f"Person {pid}",
        "price": price,
        "group": group,
        "icon": icon,
    }
    if worker is not None:
        out["worker"] = worker
    return out


def eff(pid: str, *, seat: int | None = None, **gain: Any) -> dict[str, Any]:
    """An effect step; ``seat`` only for another seat's ``infinity`` person (B6)."""
    out: dict[str, Any] = {}
    if seat is not None:
        out["seat"] = seat
    out["effect"] = pid
    out["gain"] = gain
    return out


def pen(seat: int, color: str, **choice: Any) -> dict[str, Any]:
    """A penalty entry (phase 2 list): ``pen(0, "red", house=1)``, ``pen(1, "brown",
    person="p3")``, ``pen(0, "yellow")``."""
    return {"seat": seat, "color": color, **choice}


def pen_step(seat: int, color: str, **choice: Any) -> dict[str, Any]:
    """A penalty as a step (B8: right after the gain that triggered it)."""
    return {"penalty": pen(seat, color, **choice)}


def up(seat: int, pid: str, *, at: str | None = None, **gain: Any) -> dict[str, Any]:
    """An ``upkeep`` entry: an infinity person's effect outside phase 3 (B6)."""
    out: dict[str, Any] = {"seat": seat, "effect": pid, "gain": gain}
    if at is not None:
        out["at"] = at
    return out


def laurel(seat: int, pid: str, points: int) -> dict[str, Any]:
    return {"seat": seat, "person": pid, "points": points}


def final(*laurels: dict[str, Any]) -> dict[str, Any]:
    return {"laurels": list(laurels)}


# --- whole phases --------------------------------------------------------------------------------


def order(
    n: int,
    first: int,
    given: dict[int, list[Any]] | None = None,
    *,
    filler: str = "red",
    action: str = "workers",
) -> list[dict[str, Any]]:
    """Phase 3: 4 turns per seat, clockwise from ``first``. ``given[seat]`` lists that seat's
    turns in order: each a list of steps, a single step dict, or a whole turn (a dict with
    ``seat``, e.g. ``pas(s)``); the seat's remaining turns play a ``filler`` card for
    ``action`` (by default: 2 red workers, which changes no score)."""
    given = given or {}
    assert all(len(v) <= 4 for v in given.values())
    turns = []
    for k in range(4):
        for i in range(n):
            seat = (first + i) % n
            mine = given.get(seat, [])
            if k < len(mine):
                item = mine[k]
                if isinstance(item, dict) and "seat" in item:
                    turns.append(item)
                elif isinstance(item, dict):
                    turns.append(turn(seat, item))
                else:
                    turns.append(turn(seat, *item))
            else:
                turns.append(turn(seat, card(filler, action)))
    return turns


def quiet_round(
    n: int, first: int, given: dict[int, list[Any]] | None = None, **kw: Any
) -> dict[str, Any]:
    """A round with ``QUIET`` dice (no token, no prestige) and the given phase 3."""
    return rnd(QUIET, order(n, first, given), **kw)


def first_of(first: int, index: int, n: int) -> int:
    """The first player of the round at 0-based ``index``: passes clockwise every round."""
    return (first + index) % n


def five_of(color: str) -> str:
    """Dice where only ``color`` shows 5 (every seat gets that token), the others 3 or 4."""
    return "".join("5" if c == color else ch for c, ch in zip(COLORS, QUIET, strict=True))


# The round of the rules file's worked example ("Log format"), verbatim: Ada 12, Bea 15.
WORKED_EXAMPLE_ROUND: dict[str, Any] = {
    "dice": {"blue": 2, "brown": 5, "red": 1, "purple": 4, "yellow": 6},
    "penalties": [],
    "prestige": [1],
    "turns": [
        {"seat": 0, "steps": [{"card": "red", "action": "workers"}]},
        {"seat": 1, "steps": [{"card": "yellow", "action": "florins"}]},
        {"seat": 0, "steps": [{"card": "red", "action": "house"}]},
        {"seat": 1, "steps": [{"card": "blue", "action": "canal", "section": "left"}]},
        {"seat": 0, "steps": [{"card": "blue", "action": "florins"}]},
        {"seat": 1, "steps": [{"card": "brown", "action": "threat"}]},
        {
            "seat": 0,
            "steps": [
                {
                    "card": "purple",
                    "action": "person",
                    "house": 0,
                    "person": {
                        "id": "p1",
                        "name": "Alchimista",
                        "price": 6,
                        "group": "scholars",
                        "icon": "arrow",
                    },
                },
                {"effect": "p1", "gain": {"florins": 6}},
            ],
        },
        {"seat": 1, "steps": [{"card": "purple", "action": "workers"}]},
    ],
}
