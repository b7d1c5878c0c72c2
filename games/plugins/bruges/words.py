"""Bruges in words, for the pages: colours, actions, person groups and icons, the scoring
categories, and a round's steps as people say them ("red card: 2 workers").

Every sentence is one message with named placeholders (Italian and Portuguese put words in
another order and make a colour agree with its noun): a colour is put in by the form its noun
needs (``COLOR_NAMES``: the colour's own name, also "a red worker"; ``COLOR_F``: a card, a house,
a threat token, a penalty; ``COLOR_MP``: workers; ``COLOR_FP``: threat tokens). In English every
form is the same word."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from scoring.engine.bruges.rules import CATEGORIES, COLORS, GROUPS

# The colour's name (a die, a token's colour said alone; in Italian and Portuguese the
# masculine singular: "rosso", "vermelho").
COLOR_NAMES = {
    # Translators: a colour's own name (Italian, Portuguese: the masculine singular, "rosso",
    # "vermelho"); the contexts "feminine singular", "masculine plural", "feminine plural" are
    # the same colour agreeing with a card or house, with workers, with threat tokens.
    "blue": pgettext_lazy("bruges colour", "blue"),
    "brown": pgettext_lazy("bruges colour", "brown"),
    "red": pgettext_lazy("bruges colour", "red"),
    "purple": pgettext_lazy("bruges colour", "purple"),
    "yellow": pgettext_lazy("bruges colour", "yellow"),
}
COLOR_LABELS = {
    "blue": pgettext_lazy("bruges colour", "Blue"),
    "brown": pgettext_lazy("bruges colour", "Brown"),
    "red": pgettext_lazy("bruges colour", "Red"),
    "purple": pgettext_lazy("bruges colour", "Purple"),
    "yellow": pgettext_lazy("bruges colour", "Yellow"),
}
# Of a card, a house, a threat token, a penalty (feminine singular: "rossa", "vermelha").
COLOR_F = {
    "blue": pgettext_lazy("bruges colour, feminine singular", "blue"),
    "brown": pgettext_lazy("bruges colour, feminine singular", "brown"),
    "red": pgettext_lazy("bruges colour, feminine singular", "red"),
    "purple": pgettext_lazy("bruges colour, feminine singular", "purple"),
    "yellow": pgettext_lazy("bruges colour, feminine singular", "yellow"),
}
# Of workers (masculine plural: "rossi", "vermelhos").
COLOR_MP = {
    "blue": pgettext_lazy("bruges colour, masculine plural", "blue"),
    "brown": pgettext_lazy("bruges colour, masculine plural", "brown"),
    "red": pgettext_lazy("bruges colour, masculine plural", "red"),
    "purple": pgettext_lazy("bruges colour, masculine plural", "purple"),
    "yellow": pgettext_lazy("bruges colour, masculine plural", "yellow"),
}
# Of threat tokens (feminine plural: "rosse", "vermelhas").
COLOR_FP = {
    "blue": pgettext_lazy("bruges colour, feminine plural", "blue"),
    "brown": pgettext_lazy("bruges colour, feminine plural", "brown"),
    "red": pgettext_lazy("bruges colour, feminine plural", "red"),
    "purple": pgettext_lazy("bruges colour, feminine plural", "purple"),
    "yellow": pgettext_lazy("bruges colour, feminine plural", "yellow"),
}
WORKER_LABELS = {
    "blue": gettext_lazy("Blue workers"),
    "brown": gettext_lazy("Brown workers"),
    "red": gettext_lazy("Red workers"),
    "purple": gettext_lazy("Purple workers"),
    "yellow": gettext_lazy("Yellow workers"),
}
THREAT_LABELS = {
    "blue": gettext_lazy("Blue threats"),
    "brown": gettext_lazy("Brown threats"),
    "red": gettext_lazy("Red threats"),
    "purple": gettext_lazy("Purple threats"),
    "yellow": gettext_lazy("Yellow threats"),
}
GROUP_LABELS = {
    "nobles": pgettext_lazy("bruges person group", "Nobles"),
    "bureaucrats": pgettext_lazy("bruges person group", "Bureaucrats"),
    "entertainers": pgettext_lazy("bruges person group", "Entertainers"),
    "merchants": pgettext_lazy("bruges person group", "Merchants"),
    "craftsmen": pgettext_lazy("bruges person group", "Craftsmen"),
    "courtiers": pgettext_lazy("bruges person group", "Courtiers"),
    "clergy": pgettext_lazy("bruges person group", "Clergy"),
    "artists": pgettext_lazy("bruges person group", "Artists"),
    "defenders": pgettext_lazy("bruges person group", "Defenders"),
    "underworld": pgettext_lazy("bruges person group", "Underworld"),
    "scholars": pgettext_lazy("bruges person group", "Scholars"),
}
assert tuple(GROUP_LABELS) == GROUPS
assert tuple(COLOR_NAMES) == COLORS
ICON_LABELS = {
    # Translators: the person card's activation icons, as the rulebook calls them (Italian:
    # freccia, lavoratore, infinito, corona d'alloro).
    "arrow": gettext_lazy("Arrow (once, on hire)"),
    "worker": gettext_lazy("Worker (pays a worker)"),
    "infinity": gettext_lazy("Infinity (∞)"),
    "laurel": gettext_lazy("Laurel (at the end)"),
}
ICON_SHORT = {
    "arrow": "→",
    "worker": pgettext_lazy("bruges icon", "worker"),
    "infinity": "∞",
    "laurel": pgettext_lazy("bruges icon", "laurel"),
}
PENALTY_NAMES = {
    "blue": gettext_lazy("flood: loses every worker"),
    "brown": gettext_lazy("plague: discards a person in play"),
    "red": gettext_lazy("fire: loses a house or the outermost canal tile"),
    "purple": gettext_lazy("plot: loses 3 points"),
    "yellow": gettext_lazy("pillage: loses every florin"),
}
CATEGORY_LABELS = {
    "track": gettext_lazy("Score track"),
    "persons": gettext_lazy("Persons (price ÷ 3)"),
    "houses": gettext_lazy("Houses (1 each)"),
    "laurels": gettext_lazy("Laurels"),
    "majorities": gettext_lazy("Majority tiles (4 each)"),
    "canals": gettext_lazy("Canals: 3rd space (3 each)"),
    "statues": gettext_lazy("Statues"),
    "prestige": gettext_lazy("Prestige"),
}
assert tuple(CATEGORY_LABELS) == CATEGORIES
MAJORITY_LABELS = {
    "prestige": pgettext_lazy("bruges majority tile", "prestige"),
    "persons": pgettext_lazy("bruges majority tile", "persons"),
    "canals": pgettext_lazy("bruges majority tile", "canals"),
}
# A canal section (in Italian and Portuguese the adjective of "sezione", "seção").
SECTION_LABELS = {
    "left": pgettext_lazy("bruges canal section", "left"),
    "right": pgettext_lazy("bruges canal section", "right"),
}
AT_LABELS = {
    "draw": gettext_lazy("at the draw"),
    "dice": gettext_lazy("after the dice"),
    "prestige": gettext_lazy("after prestige"),
}
UNVERIFIED = gettext_lazy("edition not verified")
# The log's keys and codes as a refusal says them (the generic pages' ``REFUSAL_VOCABULARY``
# and the round entry's refusals).
LOG_KEY_WORDS = {
    "upkeep": gettext_lazy("the automatic effects outside the turns"),
    "final": gettext_lazy("the end of the game"),
    "laurels": gettext_lazy("the laurel points"),
    "penalties": gettext_lazy("the penalties"),
    "turns": gettext_lazy("the turns"),
    "first_player": gettext_lazy("the first player"),
}


def colour(table: Mapping[str, Any], code: Any) -> str:
    """``code``'s colour in the form of ``table`` (a code no colour has: as it is)."""
    return str(table.get(code, code)) if isinstance(code, str) else str(code)


def majorities_joined(codes: Sequence[str]) -> str:
    return ", ".join(str(MAJORITY_LABELS.get(m, m)) for m in codes)


def gain_words(gain: Mapping[str, Any] | None) -> str:
    """ "+3 florins, +1 point, 2 red workers, returns 1 brown token" (empty gain: "nothing")."""
    nothing = pgettext("bruges gain", "nothing")
    if not gain:
        return nothing
    parts = []
    value = gain.get("florins")
    if isinstance(value, int) and value:
        parts.append(
            ngettext("%(value)+d florin", "%(value)+d florins", abs(value)) % {"value": value}
        )
    value = gain.get("points")
    if isinstance(value, int) and value:
        parts.append(
            ngettext("%(value)+d point", "%(value)+d points", abs(value)) % {"value": value}
        )
    prestige = gain.get("prestige")
    if isinstance(prestige, int) and prestige:
        parts.append(
            ngettext("%(value)+d prestige step", "%(value)+d prestige steps", abs(prestige))
            % {"value": prestige}
        )
    for color, value in (gain.get("workers") or {}).items():
        if isinstance(value, int) and value:
            form = COLOR_NAMES if abs(value) == 1 else COLOR_MP
            parts.append(
                ngettext(
                    "%(value)+d %(colour)s worker", "%(value)+d %(colour)s workers", abs(value)
                )
                % {"value": value, "colour": colour(form, color)}
            )
    for color, value in (gain.get("threats") or {}).items():
        if isinstance(value, int) and value > 0:
            form = COLOR_F if value == 1 else COLOR_FP
            parts.append(
                ngettext("+%(count)s %(colour)s threat", "+%(count)s %(colour)s threats", value)
                % {"count": value, "colour": colour(form, color)}
            )
        elif isinstance(value, int) and value < 0:
            form = COLOR_F if value == -1 else COLOR_FP
            parts.append(
                ngettext(
                    "returns %(count)s %(colour)s threat",
                    "returns %(count)s %(colour)s threats",
                    -value,
                )
                % {"count": -value, "colour": colour(form, color)}
            )
    plays = gain.get("plays")
    if isinstance(plays, int) and plays:
        parts.append(
            # Translators: no rulebook word: a card played at once thanks to an effect (Italian
            # chosen "giocata extra", Portuguese "jogada extra").
            ngettext("%(count)s extra play", "%(count)s extra plays", plays) % {"count": plays}
        )
    return ", ".join(parts) or nothing


def seat_name(seat: Any, names: Sequence[str]) -> str:
    """The player of ``seat`` in a round being entered, or "?" for a seat no player has (a
    draft the engine is still to refuse)."""
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def penalty_words(
    penalty: Mapping[str, Any], names: Sequence[str], person_name: Callable[[str], str]
) -> str:
    """ "Ada: red penalty, loses house 2" and the like."""
    seat = penalty.get("seat")
    params: dict[str, Any] = {
        "name": seat_name(seat, names),
        "colour": colour(COLOR_F, penalty.get("color")),
    }
    color = str(penalty.get("color"))
    if penalty.get("house") is not None:
        house = penalty["house"]
        params["house"] = house + 1 if isinstance(house, int) else house
        return _("%(name)s: %(colour)s penalty, loses house %(house)s") % params
    if penalty.get("section") is not None:
        params["section"] = colour(SECTION_LABELS, penalty["section"])
        return _("%(name)s: %(colour)s penalty, loses a tile of the %(section)s canal") % params
    if penalty.get("person") is not None:
        params["person"] = person_name(str(penalty["person"]))
        return _("%(name)s: %(colour)s penalty, discards %(person)s") % params
    if color in ("brown", "red"):
        return _("%(name)s: %(colour)s penalty, nothing to lose") % params
    return _("%(name)s: %(colour)s penalty") % params


def effect_words(person: str, gain: Mapping[str, Any] | None, owner: str | None = None) -> str:
    """ "Ada's Principe: +2 florins" (``owner``: another seat's person), "Principe: +2 florins"."""
    if owner is None:
        return _("%(person)s: %(gain)s") % {"person": person, "gain": gain_words(gain)}
    return _("%(player)s's %(person)s: %(gain)s") % {
        "player": owner,
        "person": person,
        "gain": gain_words(gain),
    }


def whose(player: str, person: str) -> str:
    """ "Ada's Principe": another seat's person."""
    return _("%(player)s's %(person)s") % {"player": player, "person": person}


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
            names[owner]
            if isinstance(owner, int) and 0 <= owner < len(names) and "seat" in step
            else None
        )
        return effect_words(person_name(pid), step.get("gain"), who)
    card = step.get("card")
    action = step.get("action")
    params: dict[str, Any] = {"card": colour(COLOR_F, card)}
    if action == "workers":
        params["workers"] = colour(COLOR_MP, card)
        # Translators: %(card)s is the card's colour (feminine singular form), %(workers)s the
        # same colour in the form of workers (masculine plural).
        return _("%(card)s card: 2 %(workers)s workers") % params
    if action == "florins":
        return _("%(card)s card: florins") % params
    if action == "threat":
        params["threat"] = colour(COLOR_F, card)
        # Translators: %(card)s and %(threat)s are the same colour, of a card and of a threat
        # token (both feminine singular forms).
        return _("%(card)s card: returns a %(threat)s threat (+1 point)") % params
    if action == "canal":
        params["section"] = colour(SECTION_LABELS, step.get("section"))
        return _("%(card)s card: canal, %(section)s") % params
    if action == "house":
        params["house"] = colour(COLOR_F, card)
        # Translators: %(card)s and %(house)s are the same colour (feminine singular forms).
        return _("%(card)s card: a %(house)s house") % params
    if action == "person":
        given = step.get("person")
        pid = given.get("id") if isinstance(given, Mapping) else given
        house = step.get("house")
        params["person"] = person_name(str(pid))
        if isinstance(house, int):
            params["house"] = house + 1
            return _("%(card)s card: hires %(person)s into house %(house)s") % params
        return _("%(card)s card: hires %(person)s into a house") % params
    params["action"] = action
    return _("%(card)s card: %(action)s") % params


def turn_words(
    turn: Mapping[str, Any], names: Sequence[str], person_name: Callable[[str], str]
) -> str:
    if turn.get("pass"):
        # Translators: the rulebook has no pass in phase 3 (Italian chosen "passa (non ha più
        # carte)").
        return _("passes (no cards left)")
    return "; ".join(step_words(s, names, person_name) for s in turn.get("steps") or [])


def person_details(person: Any) -> str:
    """What tells a person card apart from another of the same name: price, icon (and the
    worker it pays), group ("6 florins, worker: blue, artists")."""
    icon = str(ICON_SHORT.get(person.icon, person.icon))
    if person.icon == "worker" and getattr(person, "worker", None):
        icon = pgettext("bruges icon", "worker: %(colour)s") % {
            "colour": colour(COLOR_NAMES, person.worker)
        }
    group = str(GROUP_LABELS.get(person.group, person.group)).lower()
    return ngettext(
        "%(count)s florin, %(icon)s, %(group)s",
        "%(count)s florins, %(icon)s, %(group)s",
        person.price,
    ) % {"count": person.price, "icon": icon, "group": group}


def person_named(name: str, details: str) -> str:
    """ "Principe (6 florins, worker: blue, nobles)"."""
    return _("%(name)s (%(details)s)") % {"name": name, "details": details}


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
            if seen[details] > 1:
                out[p.id] = _("%(name)s (%(details)s, no. %(number)s)") % {
                    "name": p.name,
                    "details": details,
                    "number": count[details],
                }
            else:
                out[p.id] = person_named(p.name, details)
    return out
