"""The choices a penalty leaves (brown: a person in play; red: a house or a canal
section), and a person as a choice shows it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.plugins.bruges import words
from scoring.engine.bruges.rules import SECTIONS
from scoring.engine.bruges.table import Table


def person_label(view: Table, pid: str, *, house: bool = True) -> str:
    """A person as a choice shows it: the name and what tells it apart from another card of
    the same name (price, icon, group) and, in play, the house it sits in."""
    person = view.person(pid)
    if person is None:
        return pid
    if house and 0 <= person.seat < len(view.seats):
        for h in view.seats[person.seat].houses:
            if h.person == pid:
                return _("%(name)s (%(details)s; in house %(number)s, %(colour)s)") % {
                    "name": person.name,
                    "details": words.person_details(person),
                    "number": h.index + 1,
                    "colour": words.colour(words.COLOR_F, h.color),
                }
    return words.person_named(person.name, words.person_details(person))


def penalty_options(view: Table, seat: int, color: str) -> list[tuple[str, str]]:
    """The choices a penalty leaves, as (value, words): brown, each person in play; red, each
    house and each canal section with a tile. None when there is nothing to choose from."""
    me = view.seats[seat]
    if color == "brown":
        return [(f"person:{pid}", person_label(view, pid)) for pid in me.persons]
    if color == "red":
        out = []
        for house in me.houses:
            params = {
                "number": house.index + 1,
                "colour": words.colour(words.COLOR_F, house.color),
            }
            if house.person:
                params["person"] = person_label(view, house.person, house=False)
                what = (
                    _("house %(number)s (%(colour)s, with %(person)s, who goes back to the hand)")
                    % params
                )
            else:
                what = _("house %(number)s (%(colour)s, empty)") % params
            out.append((f"house:{house.index}", what))
        for section in SECTIONS:
            if me.canals[section]:
                out.append(
                    (
                        f"section:{section}",
                        ngettext(
                            "the outermost tile of the %(section)s canal (%(count)s built)",
                            "the outermost tile of the %(section)s canal (%(count)s built)",
                            me.canals[section],
                        )
                        % {
                            "section": words.SECTION_LABELS[section],
                            "count": me.canals[section],
                        },
                    )
                )
        return out
    return []


def split_person(value: str) -> tuple[int | None, str]:
    """A person choice: ``"p3"`` (the seat's own) or ``"2:p3"`` (seat 2's)."""
    head, sep, tail = value.partition(":")
    if sep and head.isdigit():
        return int(head), tail
    return None, value


def penalty_entry(seat: int, color: str, choice: str) -> dict[str, Any]:
    entry: dict[str, Any] = {"seat": seat, "color": color}
    kind, _sep, value = choice.partition(":")
    if kind == "person":
        entry["person"] = value
    elif kind == "house":
        entry["house"] = int(value) if value.isdigit() else value
    elif kind == "section":
        entry["section"] = value
    return entry


def choice_of(entry: Mapping[str, Any]) -> str:
    for key in ("person", "house", "section"):
        if entry.get(key) is not None:
            return f"{key}:{entry[key]}"
    return ""
