"""A round in words: the review before it is saved, the message once it is, and the dice,
penalties and automatic effects as the round entry's steps recall them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.plugins.bruges import sheet, words
from games.plugins.bruges.entry import RoundForm
from games.web import present
from scoring.engine.bruges.rules import COLORS
from scoring.engine.bruges.table import Table


def _flips(result: dict[str, Any], number: int, names: list[str]) -> str:
    """The majority tiles flipped in round ``number``, in words ("" when none)."""
    rounds = result.get("rounds") or []
    if number > len(rounds):
        return ""
    return "; ".join(
        _("%(name)s flipped %(tiles)s")
        % {
            "name": names[s["seat"]],
            "tiles": present_list([str(words.MAJORITY_LABELS.get(m, m)) for m in s["flipped"]]),
        }
        for s in sheet.round_seats(rounds[number - 1], len(names))
        if s["flipped"]
    )


def entry_saved(result: dict[str, Any], number: int, names: list[str]) -> str:
    flips = _flips(result, number, names)
    if flips:
        return _("Round %(number)s saved. Majorities: %(flips)s.") % {
            "number": number,
            "flips": flips,
        }
    # Translators: a round of Bruges (Italian rulebook: "turno"; Portuguese: "rodada").
    return _("Round %(number)s saved.") % {"number": number}


def entry_review(
    result: dict[str, Any], number: int, names: list[str], form: RoundForm
) -> dict[str, Any]:
    """The whole round in words before it is saved (``result``: the game as it would stand
    with it, nothing stored): the effects at the draw, the dice, the penalties, the effects
    after the dice, prestige, the effects after prestige, every turn, then the majorities and
    the standings. "Change" opens the last turn again with all its steps; nothing is lost."""
    view = form.reading.view
    persons = _person_names(view)

    def person_name(pid: str) -> str:
        return persons.get(pid, pid)

    review = review_context(form, person_name)
    lines = [_("At the draw: %(what)s.") % {"what": w} for w in review["draw"]]
    lines.append(
        _("Dice: %(dice)s (threat tokens: %(threats)s).")
        % {"dice": review["dice"], "threats": review["threats"]}
    )
    lines.extend(_("Penalty: %(what)s.") % {"what": w} for w in review["penalties"])
    lines.extend(_("After the dice: %(what)s.") % {"what": w} for w in review["after_dice"])
    lines.append(_("Prestige: %(who)s.") % {"who": review["prestige"]})
    lines.extend(_("After prestige: %(what)s.") % {"what": w} for w in review["after_prestige"])
    for k, turn in enumerate(form.current.turns, start=1):
        seat = turn.get("seat")
        who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
        lines.append(
            _("Turn %(number)s, %(name)s: %(what)s.")
            % {"number": k, "name": who, "what": words.turn_words(turn, names, person_name)}
        )
    after = []
    flips = _flips(result, number, names)
    if flips:
        after.append(_("Majorities: %(flips)s.") % {"flips": flips})
    standing = sheet.standings(result)
    scores = "; ".join(f"{p.get('name')} {p.get('score')}" for p in standing if isinstance(p, dict))
    if scores:
        after.append(_("Scores after it: %(scores)s.") % {"scores": scores})
    return {
        "title": pgettext("bruges round", "Round %(number)s: check it before saving")
        % {"number": number},
        "number": number,
        "lines": lines,
        "after": " ".join(after),
        "change": ("step", "change"),
    }


def present_list(items: Sequence[str]) -> str:
    return present.names_joined(list(items))


def _person_names(view: Table) -> dict[str, str]:
    """Persons by name, with what tells apart cards of the same name."""
    return words.person_names(view.persons)


def dice_words(dice: dict[str, Any]) -> str:
    """ "blue 3, brown 5, ..."."""
    return ", ".join(f"{words.COLOR_NAMES[c]} {dice.get(c)}" for c in COLORS)


def review_context(form: RoundForm, person_name: Any) -> dict[str, Any]:
    """The whole round as it will be saved, in words, before it is stored."""
    draft = form.current
    names = form.names
    dice = draft.dice or {}
    threats = [c for c in COLORS if dice.get(c, 0) >= 5]
    by_at: dict[str, list[str]] = {"draw": [], "dice": [], "prestige": []}
    for u in draft.upkeep:
        if not isinstance(u, dict):
            continue
        at = u.get("at") if u.get("at") in by_at else "dice"
        if isinstance(u.get("penalty"), dict):
            by_at[at].append(words.penalty_words(u["penalty"], names, person_name))
        elif "effect" in u:
            who = words.seat_name(u.get("seat"), names)
            by_at[at].append(
                words.effect_words(person_name(str(u.get("effect"))), u.get("gain"), who)
            )
    return {
        "dice": dice_words(dice),
        "threats": present_list([str(words.COLOR_NAMES[c]) for c in threats])
        if threats
        # Translators: no threat tokens.
        else pgettext("bruges threat tokens", "none"),
        "draw": by_at["draw"],
        "penalties": [
            words.penalty_words(p, names, person_name)
            for p in draft.penalties
            if isinstance(p, dict)
        ],
        "after_dice": by_at["dice"],
        "prestige": present_list([names[s] for s in draft.prestige if 0 <= s < len(names)])
        if draft.prestige
        else _("no one"),
        "after_prestige": by_at["prestige"],
    }


def upkeep_words(form: RoundForm, person_name: Any, moments: Sequence[str]) -> list[str]:
    """The automatic effects of ``moments`` entered so far, in words, each followed by the
    penalty it caused."""
    names = form.names
    out = []
    for u in form.current.upkeep:
        if not isinstance(u, dict) or (u.get("at") or "dice") not in moments:
            continue
        if isinstance(u.get("penalty"), dict):
            out.append(words.penalty_words(u["penalty"], names, person_name))
        elif "effect" in u:
            who = words.seat_name(u.get("seat"), names)
            person = person_name(str(u.get("effect")))
            if tuple(moments) == ("draw",):
                out.append(words.effect_words(person, u.get("gain"), who))
                continue
            out.append(
                _("%(player)s's %(person)s, %(when)s: %(gain)s")
                % {
                    "player": who,
                    "person": person,
                    "when": words.AT_LABELS.get(u.get("at")),
                    "gain": words.gain_words(u.get("gain")),
                }
            )
    return out
