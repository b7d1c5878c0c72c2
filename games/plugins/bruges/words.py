"""Bruges in words, for the pages: colours, actions, person groups and icons, the scoring
categories, and a round's steps as people say them ("red card: 2 workers")."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scoring.engine.bruges.rules import CATEGORIES, COLORS, GROUPS

COLOR_LABELS = {c: c.capitalize() for c in COLORS}
GROUP_LABELS = {g: g.capitalize() for g in GROUPS}
ICON_LABELS = {
    "arrow": "Arrow (once, on hire)",
    "worker": "Worker (pays a worker)",
    "infinity": "Infinity (∞)",
    "laurel": "Laurel (at the end)",
}
ICON_SHORT = {"arrow": "→", "worker": "worker", "infinity": "∞", "laurel": "laurel"}
PENALTY_NAMES = {
    "blue": "flood: loses every worker",
    "brown": "plague: discards a person in play",
    "red": "fire: loses a house or the outermost canal tile",
    "purple": "plot: loses 3 points",
    "yellow": "pillage: loses every florin",
}
CATEGORY_LABELS = {
    "track": "Score track",
    "persons": "Persons (price ÷ 3)",
    "houses": "Houses (1 each)",
    "laurels": "Laurels",
    "majorities": "Majority tiles (4 each)",
    "canals": "Canals: 3rd space (3 each)",
    "statues": "Statues",
    "prestige": "Prestige",
}
assert tuple(CATEGORY_LABELS) == CATEGORIES
MAJORITY_LABELS = {"prestige": "prestige", "persons": "persons", "canals": "canals"}
SECTION_LABELS = {"left": "left", "right": "right"}
AT_LABELS = {"draw": "at the draw", "dice": "after the dice", "prestige": "after prestige"}
UNVERIFIED = "edition not verified"


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


def gain_words(gain: Mapping[str, Any] | None) -> str:
    """ "+3 florins, +1 point, 2 red workers, returns 1 brown token" (empty gain: "nothing")."""
    if not gain:
        return "nothing"
    parts = []
    for key, word in (("florins", "florin"), ("points", "point")):
        value = gain.get(key)
        if isinstance(value, int) and value:
            parts.append(f"{value:+d} {word}{'s' if abs(value) != 1 else ''}")
    prestige = gain.get("prestige")
    if isinstance(prestige, int) and prestige:
        parts.append(f"{prestige:+d} prestige step{'s' if abs(prestige) != 1 else ''}")
    for color, value in (gain.get("workers") or {}).items():
        if isinstance(value, int) and value:
            parts.append(f"{value:+d} {color} worker{'s' if abs(value) != 1 else ''}")
    for color, value in (gain.get("threats") or {}).items():
        if isinstance(value, int) and value > 0:
            parts.append(f"+{value} {color} threat{'s' if value != 1 else ''}")
        elif isinstance(value, int) and value < 0:
            parts.append(f"returns {-value} {color} threat{'s' if value != -1 else ''}")
    plays = gain.get("plays")
    if isinstance(plays, int) and plays:
        parts.append(f"{plays} extra play{'s' if plays != 1 else ''}")
    return ", ".join(parts) or "nothing"


def seat_name(seat: Any, names: Sequence[str]) -> str:
    """The player of ``seat`` in a round being entered, or "?" for a seat no player has (a
    draft the engine is still to refuse)."""
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def penalty_words(
    penalty: Mapping[str, Any], names: Sequence[str], person_name: Callable[[str], str]
) -> str:
    """ "Ada: fire, loses house 2" and the like."""
    seat = penalty.get("seat")
    who = seat_name(seat, names)
    color = str(penalty.get("color"))
    head = f"{who}: {color} penalty"
    if penalty.get("house") is not None:
        house = penalty["house"]
        return f"{head}, loses house {house + 1 if isinstance(house, int) else house}"
    if penalty.get("section") is not None:
        return f"{head}, loses a tile of the {penalty['section']} canal"
    if penalty.get("person") is not None:
        return f"{head}, discards {person_name(str(penalty['person']))}"
    if color in ("brown", "red"):
        return f"{head}, nothing to lose"
    return head


def step_words(
    step: Mapping[str, Any], names: Sequence[str], person_name: Callable[[str], str]
) -> str:
    """A step of a turn in words."""
    if "penalty" in step:
        return penalty_words(step["penalty"] or {}, names, person_name)
    if "effect" in step:
        pid = str(step.get("effect"))
        owner = step.get("seat")
        who = (
            f"{names[owner]}'s "
            if isinstance(owner, int) and 0 <= owner < len(names) and "seat" in step
            else ""
        )
        return f"{who}{person_name(pid)}: {gain_words(step.get('gain'))}"
    card = str(step.get("card"))
    action = step.get("action")
    head = f"{card} card"
    if action == "workers":
        return f"{head}: 2 {card} workers"
    if action == "florins":
        return f"{head}: florins"
    if action == "threat":
        return f"{head}: returns a {card} threat (+1 point)"
    if action == "canal":
        return f"{head}: canal, {step.get('section')}"
    if action == "house":
        return f"{head}: a {card} house"
    if action == "person":
        given = step.get("person")
        pid = given.get("id") if isinstance(given, Mapping) else given
        house = step.get("house")
        where = f"house {house + 1}" if isinstance(house, int) else "a house"
        return f"{head}: hires {person_name(str(pid))} into {where}"
    return f"{head}: {action}"


def turn_words(
    turn: Mapping[str, Any], names: Sequence[str], person_name: Callable[[str], str]
) -> str:
    if turn.get("pass"):
        return "passes (no cards left)"
    return "; ".join(step_words(s, names, person_name) for s in turn.get("steps") or [])


def person_details(person: Any) -> str:
    """What tells a person card apart from another of the same name: price, icon (and the
    worker it pays), group ("6 florins, worker: blue, artists")."""
    icon = ICON_SHORT.get(person.icon, person.icon)
    if person.icon == "worker" and getattr(person, "worker", None):
        icon = f"worker: {person.worker}"
    group = GROUP_LABELS.get(person.group, person.group).lower()
    return f"{plural(person.price, 'florin')}, {icon}, {group}"


def person_names(persons: Sequence[Any]) -> dict[str, str]:
    """Each person's name as the pages show it: the name alone where it is the only card of
    that name met in the game, else with its price, icon and group (and, if even those are the
    same, its number among them)."""
    by_name: dict[str, list[Any]] = {}
    for p in persons:
        by_name.setdefault(p.name.casefold(), []).append(p)
    out: dict[str, str] = {}
    for group in by_name.values():
        if len(group) == 1:
            out[group[0].id] = group[0].name
            continue
        seen: dict[str, int] = {}
        for p in group:
            details = person_details(p)
            seen[details] = seen.get(details, 0) + 1
        count: dict[str, int] = {}
        for p in group:
            details = person_details(p)
            count[details] = count.get(details, 0) + 1
            extra = f", no. {count[details]}" if seen[details] > 1 else ""
            out[p.id] = f"{p.name} ({details}{extra})"
    return out
