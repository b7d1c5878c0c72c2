"""Bruges's score sheet as the rulebook's example counts it ("Esempio di punteggio finale"):
per player the score track, the persons (price / 3 each), the houses, the laurels, the majority
tiles, the canals' 3rd spaces, the statues and the prestige step, then the total, the rank and
the florins that break a tie (rules B7), in words. Every number is the engine's result
(docs/bruges-engine.md); nothing is counted here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, npgettext, pgettext

from games.plugins.bruges import words
from games.records.models import Game
from games.web import present
from scoring.engine import get_engine
from scoring.engine.bruges.rules import CATEGORIES, PRICE_PER_POINT, THIRD_SPACE

GAME_TYPE = "bruges"
# The engine's wording of its tie-breaks (``info.tiebreak_wording``), for the pages.
TIEBREAK_WORDS = {
    "florins": gettext_lazy("placed by florins among players with as many points"),
    "shared": gettext_lazy("shared: as many points and as many florins"),
}


def _persons(result: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {p["id"]: p for p in result.get("persons") or []}


def tiebreak_words(player: Mapping[str, Any], players: Sequence[Mapping[str, Any]]) -> str:
    """The tie-break that placed ``player`` (B7) in words, with the players tied with it."""
    code = player.get("tiebreak")
    if not code:
        return ""
    wording = get_engine(GAME_TYPE).info.tiebreak_wording.get(code, code)
    score = player["score"]
    tied = [p for p in players if p is not player and p["score"] == score]
    if not tied:
        return ""
    names = present.names_joined([p["name"] for p in tied])
    florins = player["florins"]
    if code == "shared":
        same = [p for p in tied if p["florins"] == florins]
        return ngettext(
            "Tied on %(score)s points and %(count)s florin with %(names)s: the place is "
            "shared: as many points and as many florins.",
            "Tied on %(score)s points and %(count)s florins with %(names)s: the place is "
            "shared: as many points and as many florins.",
            florins,
        ) % {
            "score": score,
            "count": florins,
            "names": present.names_joined([p["name"] for p in same or tied]),
        }
    others = ", ".join(f"{p['name']} {p['florins']}" for p in tied)
    params = {
        "score": score,
        "names": names,
        "name": player["name"],
        "count": florins,
        "others": others,
        "wording": TIEBREAK_WORDS.get(code, wording),
    }
    if code == "florins":
        return (
            ngettext(
                "Tied on %(score)s points with %(names)s: placed by florins among players with as "
                "many points. %(name)s has %(count)s florin (%(others)s).",
                "Tied on %(score)s points with %(names)s: placed by florins among players with as "
                "many points. %(name)s has %(count)s florins (%(others)s).",
                florins,
            )
            % params
        )
    return (
        ngettext(
            "Tied on %(score)s points with %(names)s: %(wording)s. %(name)s has %(count)s florin "
            "(%(others)s).",
            "Tied on %(score)s points with %(names)s: %(wording)s. %(name)s has %(count)s florins "
            "(%(others)s).",
            florins,
        )
        % params
    )


def _ranked(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    players = result.get("players") or []
    winners = result.get("winners") or []
    rows = [
        {
            **p,
            "rank_words": present.rank_words(p["rank"]),
            "winner": p["seat"] in winners,
            "tiebreak_words": tiebreak_words(p, players),
        }
        for p in players
    ]
    return sorted(rows, key=lambda p: (p["rank"], p["seat"]))


def standings(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The players by rank as the game stands (provisional: without laurels)."""
    return _ranked(result)


def _detail(
    category: str,
    player: Mapping[str, Any],
    persons: Mapping[str, Any],
    line: Mapping[str, Any] | None = None,
) -> str:
    """What a category counts, as the rulebook's example says it; ``line``: the player's line
    of the score sheet the game was entered by (its persons' prices, its counts)."""
    if category == "persons":
        if line is not None:
            prices = line.get("persons") or []
            values = [p // PRICE_PER_POINT for p in prices if isinstance(p, int)]
        else:
            values = [
                persons[h["person"]]["price"] // PRICE_PER_POINT
                for h in player.get("tableau") or []
                if h.get("person") in persons
            ]
        return " + ".join(str(v) for v in values) if len(values) > 1 else ""
    if category == "houses":
        houses = player.get("houses", 0)
        return ngettext("%(count)s house", "%(count)s houses", houses) % {"count": houses}
    if category == "laurels":
        return ", ".join(
            f"{persons.get(item['person'], {}).get('name', item['person'])} {item['points']}"
            for item in player.get("laurels") or []
        )
    if category == "majorities":
        if player.get("majorities") is None:  # a score sheet says how many, not which
            tiles = player.get("majorities_flipped") or 0
            if not tiles:
                return ""
            return npgettext(
                "bruges majority tiles flipped", "%(count)s tile", "%(count)s tiles", tiles
            ) % {"count": tiles}
        return words.majorities_joined(player.get("majorities") or [])
    if category == "canals":
        if player.get("canals") is None and line is not None:
            sections = line.get("canals") or 0
            return (
                npgettext(
                    "bruges canal sections with a 3rd tile",
                    "%(count)s section",
                    "%(count)s sections",
                    sections,
                )
                % {"count": sections}
                if isinstance(sections, int) and sections
                else ""
            )
        canals = player.get("canals") or {}
        return ", ".join(
            str(words.SECTION_LABELS[s])
            for s in ("left", "right")
            if canals.get(s, 0) >= THIRD_SPACE
        )
    if category == "statues":
        statues = player.get("statues") or []
        return " + ".join(str(v) for v in statues) if len(statues) > 1 else ""
    if category == "prestige":
        return _("step %(step)s") % {"step": player.get("step", 0)}
    return ""


def _sheet_lines(game: Game, players: int) -> list[Mapping[str, Any] | None]:
    """Per seat its line of the score sheet the game was entered by (None: a logged game)."""
    sheet = game.sheet if game.mode == Game.Mode.SCOREPAD else None
    if not isinstance(sheet, list) or len(sheet) != players:
        return [None] * players
    return [line if isinstance(line, Mapping) else None for line in sheet]


def score_sheet(result: Mapping[str, Any], game: Game) -> dict[str, Any]:
    """The finish page: the ranking, each laurel person's points, and the sheet (a column per
    player, a row per category, the total, the rank and the florins)."""
    players = result.get("players") or []
    persons = _persons(result)
    lines = _sheet_lines(game, len(players))
    rows = []
    for category in CATEGORIES:
        rows.append(
            {
                "key": category,
                "label": words.CATEGORY_LABELS[category],
                "cells": [
                    {
                        "seat": p["seat"],
                        "points": p["breakdown"][category],
                        "detail": _detail(category, p, persons, lines[p["seat"]]),
                    }
                    for p in players
                ],
            }
        )
    laurels = []
    for p in players:
        given = {item["person"]: item["points"] for item in p.get("laurels") or []}
        for h in p.get("tableau") or []:
            person = persons.get(h.get("person") or "")
            if person is not None and person.get("icon") == "laurel":
                laurels.append(
                    {
                        "seat": p["seat"],
                        "name": p["name"],
                        "person": person["name"],
                        "group": words.GROUP_LABELS.get(person["group"], person["group"]),
                        "points": given.get(person["id"], 0),
                    }
                )
    return {
        "players": players,
        "ranking": _ranked(result),
        "rows": rows,
        "laurels": laurels,
        "unverified": game.edition is not None and not game.edition.verified,
    }


COUNTS = ("points", "florins", "workers", "prestige", "houses", "persons", "tiles")
EVENTS = ("statues", "penalties", "flipped")


def round_seats(summary: Mapping[str, Any], players: int) -> list[dict[str, Any]]:
    """What each seat gained in a round of the result: ``{"seat", "points", ..., "statues",
    "penalties", "flipped"}`` per seat, from the round's summary (a list per seat, or counts in
    lists indexed by seat and events as ``[seat, value]``)."""
    if isinstance(summary.get("seats"), list):
        return list(summary["seats"])
    out = []
    for seat in range(players):
        row: dict[str, Any] = {"seat": seat}
        for key in COUNTS:
            values = summary.get(key) or []
            row[key] = values[seat] if isinstance(values, list) and seat < len(values) else 0
        for key in EVENTS:
            row[key] = [
                e[1]
                for e in summary.get(key) or []
                if isinstance(e, (list, tuple)) and len(e) == 2 and e[0] == seat
            ]
        out.append(row)
    return out


_GAINED = {
    "points": lambda n: ngettext("%(value)+d point", "%(value)+d points", n),
    "florins": lambda n: ngettext("%(value)+d florin", "%(value)+d florins", n),
    "workers": lambda n: ngettext("%(value)+d worker", "%(value)+d workers", n),
}
_COUNTED = {
    "houses": lambda n: ngettext("%(count)s house", "%(count)s houses", n),
    "persons": lambda n: ngettext("%(count)s person", "%(count)s persons", n),
    # Translators: canal tiles.
    "tiles": lambda n: ngettext("%(count)s tile", "%(count)s tiles", n),
}


def round_history(result: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """Per round: its first player, the prestige cost, and what each seat gained."""
    history = []
    for r in result.get("rounds") or []:
        seats = []
        for s in round_seats(r, len(names)):
            parts = []
            for key in ("points", "florins", "workers"):
                value = s[key]
                if value:
                    parts.append(_GAINED[key](abs(value)) % {"value": value})
            if s["prestige"]:
                parts.append(_("+%(value)s prestige") % {"value": s["prestige"]})
            for key in ("houses", "persons", "tiles"):
                if s[key]:
                    parts.append(_COUNTED[key](s[key]) % {"count": s[key]})
            if s["statues"]:
                statues = " + ".join(str(v) for v in s["statues"])
                parts.append(_("statue %(values)s") % {"values": statues})
            if s["penalties"]:
                colours = ", ".join(words.colour(words.COLOR_NAMES, c) for c in s["penalties"])
                parts.append(_("penalties: %(colours)s") % {"colours": colours})
            if s["flipped"]:
                flipped = words.majorities_joined(s["flipped"])
                parts.append(_("flipped %(tiles)s") % {"tiles": flipped})
            seats.append(
                {
                    "name": names[s["seat"]],
                    "words": "; ".join(parts) or pgettext("bruges gain", "nothing"),
                }
            )
        history.append(
            {
                "round": r["round"],
                "first": names[r["first_player"]],
                "cost": r["prestige_cost"],
                "seats": seats,
            }
        )
    return history
