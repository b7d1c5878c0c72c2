"""The tables of a Pot de Vin game page: the scoring units (players, or teams), the running
tableau, the standings, and the scorepad as on paper with the tie-breaks in words. Every number
comes from the engine's result document (docs/pot-de-vin-engine.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext, pgettext

from games.plugins.potdevin.words import BONUS_CARDS, GEMS_WON, GUILD_LABELS, JOKERS, MALUS_CARDS
from games.web import present
from scoring.engine.potdevin.cards import GUILDS

NEUTRAL_ROWS = (
    ("jokers", JOKERS),
    ("bonus", "+2"),
    ("malus", "−2"),
    ("pot_de_vin", "Pot de Vin"),
)


def unit_names(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The scoring units of a result (players, or teams in team games) with display names."""
    players = result.get("players") or []
    teams = result.get("teams")
    if teams:
        return [
            {
                **team,
                "name": " & ".join(players[s]["name"] for s in team["seats"]),
                "label": _("Team %(number)s") % {"number": team["team"] + 1},
            }
            for team in teams
        ]
    return [
        {**p, "label": _("Seat %(number)s") % {"number": p["seat"] + 1}, "seats": [p["seat"]]}
        for p in players
    ]


def tableau_table(result: dict[str, Any], *, current: int | None = None) -> dict[str, Any]:
    """The running tableau: one column per player, one row per guild, neutral card, gems."""
    players = result.get("players") or []
    rows = []
    for guild in GUILDS:
        rows.append({"label": GUILD_LABELS[guild], "cells": [p["tableau"][guild] for p in players]})
    for key, label in NEUTRAL_ROWS:
        rows.append({"label": label, "cells": [p["tableau"][key] for p in players]})
    rows.append({"label": GEMS_WON, "cells": [p["gems_won"] for p in players]})
    rows.append({"label": _("Cards won"), "cells": [p["cards_won"] for p in players]})
    rows.append({"label": _("Cards in hand"), "cells": [p["cards_in_hand"] for p in players]})
    rows.append({"label": _("Gems in hand"), "cells": [p["gems_in_hand"] for p in players]})
    return {
        "players": [
            {
                "name": p["name"],
                "short": player_key(p["seat"]),
                "seat": p["seat"],
                "current": p["seat"] == current,
            }
            for p in players
        ],
        "rows": rows,
        "key": names_key(result),
    }


def standings(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Units by rank, as the game stands."""
    units = unit_names(result)
    return sorted(units, key=lambda u: (u["rank"], u["seats"][0]))


def _guild_cell(entry: dict[str, Any], players: Sequence[dict[str, Any]], teams: bool) -> str:
    symbols = entry["symbols"]
    text = str(symbols)
    if entry.get("joker"):
        text += " + " + pgettext("pot de vin card", "Joker")
    if teams and entry.get("seat") is not None and (symbols or entry.get("joker")):
        text += f" ({player_key(entry['seat'])})"  # the player's number in the names' key
    return text


def player_key(seat: int) -> str:
    """A player's short name in the tables' headers, explained in the key of names above them
    (a phone has no room for six long names side by side): "1" for the first seat."""
    return str(seat + 1)


def names_key(result: dict[str, Any]) -> list[dict[str, str]]:
    """The key of the tables' short names: each player's number and name, and in team games
    each team's players by number."""
    players = result.get("players") or []
    rows = [{"short": player_key(p["seat"]), "name": p["name"]} for p in players]
    for team in result.get("teams") or []:
        seats = " & ".join(player_key(s) for s in team["seats"])
        rows.append(
            {
                "short": _("Team %(number)s") % {"number": team["team"] + 1},
                # Translators: the players of a team by their numbers in the tables: "1 & 3".
                "name": _("players %(seats)s") % {"seats": seats},
            }
        )
    return rows


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
            "label": JOKERS,
            "key": "jokers",
            "cells": [joker_cell(u["breakdown"]["jokers"]) for u in units],
        }
    )
    rows.append(
        {
            "label": _("Guilds"),
            "key": "guild_points",
            "subtotal": True,
            "cells": [{"detail": "", "points": u["breakdown"]["guild_points"]} for u in units],
        }
    )
    for key, label, count in (
        ("bonus", BONUS_CARDS, "cards"),
        ("malus", MALUS_CARDS, "cards"),
        ("pot_de_vin", "Pot de Vin", "cards"),
        ("gems", GEMS_WON, "count"),
    ):
        rows.append(
            {
                "label": label,
                "key": key,
                "cells": [
                    {
                        "detail": f"{u['breakdown'][key][count]} ×"
                        if key != "pot_de_vin"
                        else _pot_de_vin_held(u["breakdown"][key][count]),
                        "points": u["breakdown"][key]["points"],
                    }
                    for u in units
                ],
            }
        )
    rows.append(
        {
            "label": _("Total"),
            "key": "total",
            "total": True,
            "cells": [{"detail": "", "points": u["breakdown"]["total"]} for u in units],
        }
    )
    shown = [
        {
            "index": i,
            "name": u["name"],
            "short": u["label"] if teams else player_key(u["seats"][0]),
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
        "key": names_key(result),
    }


def _pot_de_vin_held(count: int) -> str:
    # Translators: Pot de Vin cards in the player's (team's) tableau: "3 held".
    return ngettext("%(count)s held", "%(count)s held", count) % {"count": count}


def joker_cell(jokers: dict[str, Any]) -> dict[str, Any]:
    """A player's Jokers on the scorepad: how many were held (and discarded) and, shown on wide
    screens only, where they went; on a phone the guild rows already say "+ Joker"."""
    held = jokers.get("held", 0)
    # Translators: a player's Jokers on the scorepad: "1 held".
    detail = npgettext("jokers", "%(count)s held", "%(count)s held", held) % {"count": held}
    discarded = jokers.get("discarded")
    if discarded:
        # Translators: Jokers that could not be placed.
        detail += "; " + (
            ngettext("%(count)s discarded", "%(count)s discarded", discarded) % {"count": discarded}
        )
    placed = jokers.get("placed") or []
    guilds = ", ".join(str(GUILD_LABELS.get(g, g)) for g in placed)
    # Translators: where a player's Jokers went: "on Nobles, Artists".
    where = _("on %(guilds)s") % {"guilds": guilds} if placed else ""
    return {"detail": detail, "where": where, "points": None}


def tiebreak_words(unit: dict[str, Any], units: Sequence[dict[str, Any]]) -> str:
    """The tie-break that placed ``unit`` (rules D7), in words; "" when no other unit had the
    same score."""
    kind = unit.get("tiebreak")
    if not kind:
        return ""
    tied = [u for u in units if u is not unit and u["score"] == unit["score"]]
    if not tied:
        return ""
    score = unit["score"]
    words = {
        "score": score,
        "names": present.names_joined([u["name"] for u in tied]),
        "cards": unit["cards_won"],
        "gems": unit["gems_won"],
    }
    if kind == "cards":
        words["others"] = ", ".join(str(u["cards_won"]) for u in tied)
        return (
            ngettext(
                "Tied on %(score)s point with %(names)s; more cards won decided it: %(cards)s "
                "against %(others)s.",
                "Tied on %(score)s points with %(names)s; more cards won decided it: %(cards)s "
                "against %(others)s.",
                score,
            )
            % words
        )
    if kind == "gems":
        same = [u for u in tied if u["cards_won"] == unit["cards_won"]]
        words["others"] = ", ".join(str(u["gems_won"]) for u in same or tied)
        return (
            ngettext(
                "Tied on %(score)s point with %(names)s and the same number of cards won "
                "(%(cards)s); more gems won decided it: %(gems)s against %(others)s.",
                "Tied on %(score)s points with %(names)s and the same number of cards won "
                "(%(cards)s); more gems won decided it: %(gems)s against %(others)s.",
                score,
            )
            % words
        )
    return (
        ngettext(
            "Tied on %(score)s point with %(names)s, the same number of cards won (%(cards)s) "
            "and of gems won (%(gems)s): the place is shared.",
            "Tied on %(score)s points with %(names)s, the same number of cards won (%(cards)s) "
            "and of gems won (%(gems)s): the place is shared.",
            score,
        )
        % words
    )
