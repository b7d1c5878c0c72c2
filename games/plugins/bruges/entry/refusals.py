"""The engine's refusals in the players' terms (``refusal_words``): the player first, by
name, persons by name, houses counted from 1."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.plugins.bruges import words
from scoring.engine import LogError
from scoring.engine.errors import Code, Seat

# In an engine's refusal: a seat, a house (0-based), a quoted person id or key (not the
# apostrophe of "a turn's").
REFUSAL_PARTS = re.compile(r"\bseat (\d+)|\bhouse (\d+)\b|(?<!\w)'([^']*)'(?!\w)")
QUOTED = re.compile(r"(?<!\w)'([^']*)'(?!\w)")


def _english_words(exc: LogError, names: Sequence[str], persons: Mapping[str, str]) -> str:
    """The engine's English message in the players' terms (seats, houses, persons)."""

    def words_of(match: re.Match[str]) -> str:
        seat, house, quoted = match.groups()
        if seat is not None:
            k = int(seat)
            return names[k] if 0 <= k < len(names) else f"player {k + 1}"
        if house is not None:
            return f"house {int(house) + 1}"
        return persons.get(quoted, quoted)

    text = exc.message.replace(" suffer its ", " suffer the ")
    # One pass over the engine's own words: a name put in (a player's "O'Brien", a person's
    # "in house 2") is not read again.
    return REFUSAL_PARTS.sub(words_of, text)


def _translated_words(
    exc: LogError, names: Sequence[str], persons: Mapping[str, str]
) -> str | None:
    """The engine's refusal in the active language, from its template (``said``): seats as
    names, codes in words, a house counted from 1, persons by name. None when the template has
    no translation (the English words are read from the message)."""
    template = getattr(exc, "template", None)
    params: Mapping[str, Any] = getattr(exc, "params", None) or {}
    if not template or not params:
        return None
    translated = _(template)
    if translated == template:
        return None
    filled: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, Seat):
            k = value.number
            filled[key] = (
                names[k] if 0 <= k < len(names) else _("player %(number)s") % {"number": k + 1}
            )
        elif isinstance(value, Code):
            filled[key] = persons.get(value.value) or str(
                words.LOG_KEY_WORDS.get(value.value, value.value.replace("_", " "))
            )
        elif "house" in key and isinstance(value, int) and not isinstance(value, bool):
            filled[key] = value + 1
        else:
            filled[key] = value
    try:
        text = translated.format(**filled)
    except (KeyError, IndexError, ValueError):
        return None
    return QUOTED.sub(lambda m: persons.get(m.group(1), m.group(1)), text)


def refusal_words(
    exc: LogError, names: Sequence[str], persons: Mapping[str, str] | None = None
) -> str:
    """The engine's refusal as the pages show it, in the players' terms: the player named
    first, persons by name, houses counted from 1, then where ("Bea has 3 florins, 6 needed
    (round 2, turn 5)."). The code and the 0-based seats are the API's (``exc`` keeps them)."""
    persons = persons or {}
    text = _translated_words(exc, names, persons)
    if text is None:
        text = _english_words(exc, names, persons)
    who = names[exc.seat] if exc.seat is not None and 0 <= exc.seat < len(names) else None
    if who is not None and not text.startswith(who):
        # Translators: a refusal about a player: the player's name, then the reason.
        text = _("%(name)s: %(message)s") % {"name": who, "message": text}
    if not any(text.startswith(name) for name in names if name):
        text = text[:1].upper() + text[1:]  # a player's name is written as it is
    params = {"message": text, "round": exc.round, "turn": exc.turn}
    if exc.round is not None and exc.turn is not None:
        return _("%(message)s (round %(round)s, turn %(turn)s).") % params
    if exc.round is not None:
        return _("%(message)s (round %(round)s).") % params
    if exc.turn is not None:
        return _("%(message)s (turn %(turn)s).") % params
    return f"{text}."
