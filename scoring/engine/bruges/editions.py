"""Editions (B1): the printed data that can be wrong, versioned like Pot de Vin decks.

An edition gives the points of each prestige step (0..12) and, per canal section, each of its
five spaces' cost and colour (``None``: unknown, any card builds it, B3).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeGuard

from scoring.engine.bruges.rules import COLOR_CODES, COLORS, SECTIONS, SPACES, TOP_STEP
from scoring.engine.errors import Code, LogError, Said, said


@dataclass(frozen=True)
class Edition:
    """An edition version. ``canal_cost[section * 5 + space]`` and ``canal_color[...]`` (a
    colour code, -1 when unknown), sections ``left`` = 0 and ``right`` = 1, spaces from the
    seal outward."""

    id: str
    prestige_points: tuple[int, ...]
    canal_cost: tuple[int, ...]
    canal_color: tuple[int, ...]
    description: str = ""

    def as_dict(self) -> dict[str, Any]:
        """The edition in the JSON form that ``edition_from_dict`` reads back."""
        return {"id": self.id, **self.data()}

    def data(self) -> dict[str, Any]:
        """The edition JSON without its ``id``."""
        canal: dict[str, Any] = {}
        for s, name in enumerate(SECTIONS):
            spaces = []
            for k in range(SPACES):
                color = self.canal_color[s * SPACES + k]
                spaces.append(
                    {
                        "cost": self.canal_cost[s * SPACES + k],
                        "color": COLORS[color] if color >= 0 else None,
                    }
                )
            canal[name] = spaces
        return {"prestige_points": list(self.prestige_points), "canal": canal}


def _bad(message: str | Said) -> LogError:
    return LogError("bad_edition", message)


def _is_int(value: object) -> TypeGuard[int]:
    return type(value) is int


def edition_from_dict(data: Any) -> Edition:
    """Build an edition from ``{"id", "prestige_points": [13 ints], "canal": {"left": [5 x
    {"cost", "color"}], "right": [...]}}`` (``description`` optional). Raises ``LogError``
    with code ``bad_edition``."""
    if not isinstance(data, Mapping):
        raise _bad(
            said(
                "an edition is an object with {id_key}, {points_key} and {canal_key}",
                id_key=Code("id"),
                points_key=Code("prestige_points"),
                canal_key=Code("canal"),
            )
        )
    edition_id = data.get("id")
    if not isinstance(edition_id, str) or not edition_id:
        raise _bad(said("an edition needs a non-empty string {key}", key=Code("id")))
    points = data.get("prestige_points")
    if (
        not isinstance(points, list)
        or len(points) != TOP_STEP + 1
        or not all(_is_int(p) and p >= 0 for p in points)
    ):
        raise _bad(
            said(
                "{key} is a list of {count} integers >= 0 (steps 0..{top})",
                key=Code("prestige_points"),
                count=TOP_STEP + 1,
                top=TOP_STEP,
            )
        )
    canal = data.get("canal")
    if not isinstance(canal, Mapping):
        raise _bad(
            said(
                "{key} is an object with the sections {left} and {right}",
                key=Code("canal"),
                left=Code("left"),
                right=Code("right"),
            )
        )
    costs: list[int] = []
    colors: list[int] = []
    for name in SECTIONS:
        spaces = canal.get(name)
        if not isinstance(spaces, list) or len(spaces) != SPACES:
            raise _bad(
                said(
                    "canal section {section} is a list of {spaces} spaces",
                    section=Code(name),
                    spaces=SPACES,
                )
            )
        for space in spaces:
            if not isinstance(space, Mapping):
                raise _bad(
                    said(
                        "a space of section {section} is an object {{{cost_key}, {color_key}}}",
                        section=Code(name),
                        cost_key=Code("cost"),
                        color_key=Code("color"),
                    )
                )
            cost = space.get("cost")
            if not _is_int(cost) or cost < 0:
                raise _bad(
                    said(
                        "a space's {key} in section {section} is an integer >= 0",
                        key=Code("cost"),
                        section=Code(name),
                    )
                )
            color = space.get("color")
            if color is None:
                colors.append(-1)
            elif isinstance(color, str) and color in COLOR_CODES:
                colors.append(COLOR_CODES[color])
            else:
                raise _bad(
                    said(
                        "a space's {key} is one of {colors} or null",
                        key=Code("color"),
                        colors=", ".join(COLORS),
                    )
                )
            costs.append(cost)
    description = data.get("description", "")
    if not isinstance(description, str):
        raise _bad(said("{key} is a string", key=Code("description")))
    return Edition(edition_id, tuple(points), tuple(costs), tuple(colors), description)


STANDARD_DESCRIPTION: Final = (
    "Default edition of rules B1: canal spaces cost 1 to 5 outward from the seal, colours "
    "unknown (any card builds a space); prestige points 0, 1, 2, 3, 4, 5, 7, 9, 11, 13, 15, "
    "17, 20 (only step 6 = 7 is known). NOT verified against the printed board: correct it by "
    "creating a new edition version."
)

STANDARD_EDITION: Final = edition_from_dict(
    {
        "id": "standard",
        "prestige_points": [0, 1, 2, 3, 4, 5, 7, 9, 11, 13, 15, 17, 20],
        "canal": {
            "left": [{"cost": c, "color": None} for c in (1, 2, 3, 4, 5)],
            "right": [{"cost": c, "color": None} for c in (1, 2, 3, 4, 5)],
        },
        "description": STANDARD_DESCRIPTION,
    }
)

BUILTIN_EDITIONS: Final[dict[str, Edition]] = {STANDARD_EDITION.id: STANDARD_EDITION}


def edition_from_data(key: str, data: Mapping[str, Any]) -> Edition:
    """An edition from stored data (the edition JSON without ``id``) under ``key``."""
    return edition_from_dict({**data, "id": key})
