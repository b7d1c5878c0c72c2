"""Shaping the engine's result and state for the pages: card grids, the running tableau, the
scorepad breakdown and tie-breaks in words. Presentation only; every number comes from the
engine's result document (docs/pot-de-vin-engine.md)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from scoring.engine.potdevin.cards import CHARACTER_NAMES, CHARACTERS, GUILDS, VALUES

GUILD_LABELS = {g: g.capitalize() for g in GUILDS}
NEUTRAL_ROWS = (
    ("jokers", "Jokers"),
    ("bonus", "+2"),
    ("malus", "−2"),
    ("pot_de_vin", "Pot de Vin"),
)


def card_grid(
    *,
    name: str,
    prefix: str,
    blocked: Iterable[str] = (),
    allowed: Iterable[str] | None = None,
    checked: str | None = None,
) -> list[dict[str, Any]]:
    """Four rows (Aldo, Pietra, Enzo, Ugo) of 13 radio buttons for a card picker. A card is
    disabled when it is ``blocked`` or, if ``allowed`` is given, not in it."""
    blocked_set = set(blocked)
    allowed_set = None if allowed is None else set(allowed)
    rows = []
    for letter in CHARACTERS:
        cells = []
        for value in VALUES:
            card = f"{letter}{value}"
            off = card in blocked_set or (allowed_set is not None and card not in allowed_set)
            cells.append(
                {
                    "card": card,
                    "id": f"{prefix}-{card}",
                    "disabled": off,
                    "checked": card == checked and not off,
                }
            )
        rows.append(
            {"letter": letter, "name": CHARACTER_NAMES[letter], "name_": name, "cells": cells}
        )
    return rows


def unit_names(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The scoring units of a result (players, or teams in team games) with display names."""
    players = result.get("players") or []
    teams = result.get("teams")
    if teams:
        return [
            {
                **team,
                "name": " & ".join(players[s]["name"] for s in team["seats"]),
                "label": f"Team {team['team'] + 1}",
            }
            for team in teams
        ]
    return [{**p, "label": f"Seat {p['seat']}", "seats": [p["seat"]]} for p in players]


def tableau_table(result: dict[str, Any], *, current: int | None = None) -> dict[str, Any]:
    """The running tableau: one column per player, one row per guild, neutral card, gems."""
    players = result.get("players") or []
    rows = []
    for guild in GUILDS:
        rows.append({"label": GUILD_LABELS[guild], "cells": [p["tableau"][guild] for p in players]})
    for key, label in NEUTRAL_ROWS:
        rows.append({"label": label, "cells": [p["tableau"][key] for p in players]})
    rows.append({"label": "Gems won", "cells": [p["gems_won"] for p in players]})
    rows.append({"label": "Cards won", "cells": [p["cards_won"] for p in players]})
    rows.append({"label": "Cards in hand", "cells": [p["cards_in_hand"] for p in players]})
    rows.append({"label": "Gems in hand", "cells": [p["gems_in_hand"] for p in players]})
    return {
        "players": [
            {"name": p["name"], "seat": p["seat"], "current": p["seat"] == current} for p in players
        ],
        "rows": rows,
    }


def standings(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Units by rank, as the game stands."""
    units = unit_names(result)
    return sorted(units, key=lambda u: (u["rank"], u["seats"][0]))


def _guild_cell(entry: dict[str, Any], players: Sequence[dict[str, Any]], teams: bool) -> str:
    symbols = entry["symbols"]
    text = str(symbols)
    if entry.get("joker"):
        text += " + Joker"
    if teams and entry.get("seat") is not None and (symbols or entry.get("joker")):
        text += f" ({players[entry['seat']]['name']})"
    return text


def breakdown_table(result: dict[str, Any]) -> dict[str, Any]:
    """The scorepad as on paper: a column per player (or team), a row per scoring line."""
    players = result.get("players") or []
    teams = bool(result.get("teams"))
    units = unit_names(result)
    rows: list[dict[str, Any]] = []
    for guild in GUILDS:
        cells = []
        for u in units:
            entry = u["breakdown"]["guilds"][guild]
            cells.append({"detail": _guild_cell(entry, players, teams), "points": entry["points"]})
        rows.append({"label": GUILD_LABELS[guild], "key": guild, "cells": cells})
    rows.append(
        {
            "label": "Jokers",
            "key": "jokers",
            "cells": [
                {"detail": joker_words(u["breakdown"]["jokers"]), "points": None} for u in units
            ],
        }
    )
    rows.append(
        {
            "label": "Guilds",
            "key": "guild_points",
            "subtotal": True,
            "cells": [{"detail": "", "points": u["breakdown"]["guild_points"]} for u in units],
        }
    )
    for key, label, count in (
        ("bonus", "+2 cards", "cards"),
        ("malus", "−2 cards", "cards"),
        ("pot_de_vin", "Pot de Vin", "cards"),
        ("gems", "Gems won", "count"),
    ):
        rows.append(
            {
                "label": label,
                "key": key,
                "cells": [
                    {
                        "detail": f"{u['breakdown'][key][count]} ×"
                        if key != "pot_de_vin"
                        else f"{u['breakdown'][key][count]} held",
                        "points": u["breakdown"][key]["points"],
                    }
                    for u in units
                ],
            }
        )
    rows.append(
        {
            "label": "Total",
            "key": "total",
            "total": True,
            "cells": [{"detail": "", "points": u["breakdown"]["total"]} for u in units],
        }
    )
    shown = [
        {
            "index": i,
            "name": u["name"],
            "label": u["label"],
            "rank": u["rank"],
            "score": u["score"],
            "tiebreak": u.get("tiebreak"),
            "tiebreak_words": tiebreak_words(u, units),
            "winner": u["rank"] == 1,
        }
        for i, u in enumerate(units)
    ]
    return {
        "units": shown,
        "ranking": sorted(shown, key=lambda u: (u["rank"], u["index"])),
        "rows": rows,
    }


def joker_choices(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The scoring units whose Jokers could go more than one way: fewer are placed than there
    are columns to take them (rules D5). Each with those columns and the engine's placement,
    the one that scores most. A team's Jokers are pooled (D8) and stated under its first seat."""
    choices = []
    for unit in unit_names(result):
        breakdown = unit.get("breakdown") or {}
        guilds = breakdown.get("guilds") or {}
        jokers = breakdown.get("jokers") or {}
        placed = list(jokers.get("placed") or [])
        # A Joker joins a column with a real symbol (``symbols`` leaves the Joker out).
        open_columns = [g for g in GUILDS if g in guilds and guilds[g]["symbols"] > 0]
        if 0 < len(placed) < len(open_columns):
            choices.append(
                {
                    "seat": unit["seats"][0],
                    "name": unit["name"],
                    "seats": unit["seats"],
                    "held": jokers["held"],
                    "placed": placed,
                    "columns": [(g, GUILD_LABELS[g]) for g in open_columns],
                }
            )
    return choices


def joker_words(jokers: dict[str, Any]) -> str:
    held = jokers.get("held", 0)
    if not held:
        return "none"
    parts = []
    placed = jokers.get("placed") or []
    if placed:
        parts.append("on " + ", ".join(GUILD_LABELS.get(g, g) for g in placed))
    if jokers.get("discarded"):
        parts.append(f"{jokers['discarded']} discarded")
    return f"{held} held: " + "; ".join(parts)


def _names(units: Sequence[dict[str, Any]]) -> str:
    names = [u["name"] for u in units]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def tiebreak_words(unit: dict[str, Any], units: Sequence[dict[str, Any]]) -> str:
    """The tie-break that placed ``unit`` (rules D7), in words; "" when no other unit had the
    same score."""
    kind = unit.get("tiebreak")
    if not kind:
        return ""
    tied = [u for u in units if u is not unit and u["score"] == unit["score"]]
    if not tied:
        return ""
    head = f"Tied on {unit['score']} points with {_names(tied)}"
    cards = unit["cards_won"]
    gems = unit["gems_won"]
    if kind == "cards":
        others = ", ".join(str(u["cards_won"]) for u in tied)
        return f"{head}; more cards won decided it: {cards} against {others}."
    if kind == "gems":
        same = [u for u in tied if u["cards_won"] == cards]
        others = ", ".join(str(u["gems_won"]) for u in same or tied)
        return (
            f"{head} and the same number of cards won ({cards}); more gems won decided it: "
            f"{gems} against {others}."
        )
    return (
        f"{head}, the same number of cards won ({cards}) and of gems won ({gems}): "
        f"the place is shared."
    )


RANK_WORDS = {1: "1st", 2: "2nd", 3: "3rd"}


def rank_words(rank: int | None) -> str:
    if rank is None:
        return ""
    return RANK_WORDS.get(rank, f"{rank}th")
