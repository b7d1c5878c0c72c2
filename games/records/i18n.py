"""An engine's refusal in the reader's language. The engines say their refusals in English and
keep each one's template and parameters (``scoring.engine.errors.said``); the English template
is the message catalogues' key, so the active language's translation is found with gettext and
filled with the parameters, worded by whoever shows the message:

- the API keeps codes as they are (contracts in every language) and writes a seat as
  "seat 2" in the reader's language;
- the pages name the player and put codes in words (``games.web.refusals``).

A translation whose placeholders do not fit its template (a broken catalogue) falls back to the
English message rather than failing the request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.utils.translation import get_language, gettext, pgettext

from games.records.game_types import UnknownGameType, plugin_for, plugins
from scoring.engine import LogError
from scoring.engine.errors import Code, Seat


def seat_in_words(seat: Seat) -> str:
    return pgettext("a seat at the table", "seat %(number)s") % {"number": seat.number}


def code_as_is(code: Code) -> str:
    return str(code)


def code_for_the_api(code: Code) -> str:
    """A quoted code is a log key or value: as it is, in every language. A bare one is a word
    of the sentence ("bluffing the inquisitor"): in English as the engine wrote it, in another
    language as the games' refusal words say it."""
    if code.quoted or get_language() == settings.LANGUAGE_CODE:
        return str(code)
    return str(all_games_words().get(code.value, code.value))


def refusal_vocabulary(game_type: str) -> Any:
    """The refusal words a game's web part declares (its ``REFUSAL_VOCABULARY``, a
    ``games.web.refusals.Vocabulary``), or None: the pages' words, one place."""
    try:
        web = plugin_for(game_type).part("web")
    except UnknownGameType:
        return None
    return getattr(web, "REFUSAL_VOCABULARY", None)


def all_games_words() -> dict[str, str]:
    """Every game's refusal words together (a test checks no two games word one code
    differently)."""
    words: dict[str, str] = {}
    for game_type in plugins():
        vocabulary = refusal_vocabulary(game_type)
        words = {**getattr(vocabulary, "words", {}), **words}
    return words


def engine_message(
    exc: LogError,
    *,
    seat: Callable[[Seat], str] = seat_in_words,
    code: Callable[[Code], str] = code_for_the_api,
    template_words: Callable[[str], str] = str,
) -> str:
    """``exc``'s message in the active language, its seats and codes worded by ``seat`` and
    ``code``; ``template_words`` may reword the translated template's own text first."""
    template = getattr(exc, "template", None)
    params: dict[str, Any] = getattr(exc, "params", None) or {}
    if not template:
        return exc.message
    filled = {
        key: seat(value)
        if isinstance(value, Seat)
        else code(value)
        if isinstance(value, Code)
        else value
        for key, value in params.items()
    }
    translated = gettext(template)
    try:
        return template_words(translated).format(**filled)
    except (KeyError, IndexError, ValueError):
        return template_words(template).format(**filled)
