"""What the browser's engine worker runs (``static/js/engine-worker.js``, under Pyodide): a log
replayed by the engine's own sources, and a refusal said in the page's words by the pages' own
``games.web.refusals``. The server never imports it: it puts stand-ins for Django in
``sys.modules``, so it refuses to load anywhere but in the browser.

Why this way, the least written twice: a page says a refusal with ``refusals.sentence`` over
``games.records.i18n.engine_message``; both go to the browser as they are (``words.zip``, built
by ``games.web.engine_files`` from the files the server runs), with the little they read of
Django stood in for here: ``gettext`` and ``pgettext`` over the standard library's ``gettext``
reading the project's compiled catalogues (the very ``.mo`` files Django reads from
``LOCALE_PATHS``), ``get_language``, and ``settings`` (the default language; no plugins). A
game's refusal words are not sent as code (they are lazy translations in modules that import
forms and models): the server writes each game's ``Vocabulary`` out in every language
(``refusal_words.json``) from the objects its pages use. No rule and no wording is written a
second time, in Python or in JavaScript.
"""

from __future__ import annotations

import gettext as stdlib_gettext
import json
import re
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

if sys.platform != "emscripten":
    raise ImportError("games.web.browser_check runs in the browser only (under Pyodide)")

# The root of the unpacked words.zip: games/, locale/ and refusal_words.json.
ROOT = Path(__file__).resolve().parents[2]
WORDS: dict[str, Any] = json.loads((ROOT / "refusal_words.json").read_text(encoding="utf-8"))


@cache
def _catalogue(language: str) -> stdlib_gettext.NullTranslations:
    """The language's compiled catalogue (English, the source, has none: the msgid is said)."""
    locale = WORDS["languages"].get(language, {}).get("locale")
    if not locale:
        return stdlib_gettext.NullTranslations()
    return stdlib_gettext.translation("django", ROOT / "locale", [locale], fallback=True)


_active = {"language": WORDS["default"]}


def _current() -> stdlib_gettext.NullTranslations:
    return _catalogue(_active["language"])


class _Lazy:
    """A translation said when it is shown, in the language active then (``gettext_lazy``)."""

    def __init__(self, say: Callable[..., str], *args: str) -> None:
        self._say, self._args = say, args

    def __str__(self) -> str:
        return self._say(*self._args)


def _package(name: str, **attributes: Any) -> ModuleType:
    module = ModuleType(name)
    module.__path__ = []  # a package: its stand-in submodules can be imported
    module.__dict__.update(attributes)
    return module


def _stand_ins() -> dict[str, ModuleType]:
    """What ``refusals`` and ``i18n`` import of Django, and no more: a new import there fails
    the browser test, loudly, rather than saying something else."""

    def gettext(message: str) -> str:
        return _current().gettext(message)

    def pgettext(context: str, message: str) -> str:
        return _current().pgettext(context, message)

    translation = ModuleType("django.utils.translation")
    translation.__dict__.update(
        gettext=gettext,
        pgettext=pgettext,
        gettext_lazy=lambda message: _Lazy(gettext, message),
        pgettext_lazy=lambda context, message: _Lazy(pgettext, context, message),
        get_language=lambda: _active["language"],
    )
    conf = ModuleType("django.conf")
    conf.__dict__.update(settings=SimpleNamespace(LANGUAGE_CODE=WORDS["default"], GAME_PLUGINS=()))
    utils = _package("django.utils", translation=translation)
    return {
        "django": _package("django", conf=conf, utils=utils),
        "django.conf": conf,
        "django.utils": utils,
        "django.utils.translation": translation,
    }


sys.modules.update(_stand_ins())

from games.web import refusals  # noqa: E402 (after the stand-ins)
from scoring.engine import LogError, engine_for_log  # noqa: E402


@cache
def _vocabulary(language: str, game_type: str) -> refusals.Vocabulary:
    """The game's refusal words in ``language``, as the server wrote them out; a game it did
    not write is worded plainly (``refusals.for_game``)."""
    found = WORDS["languages"].get(language, {}).get("games", {}).get(game_type)
    if found is None:
        return refusals.PLAIN
    return refusals.Vocabulary(
        words=found["words"],
        seat_phrases=tuple(re.compile(pattern, flags) for pattern, flags in found["seat_phrases"]),
    )


def _players(log: Any) -> list[str]:
    """The log's own names, when it has a list of them (a page passes the game's)."""
    players = log.get("players") if isinstance(log, dict) else None
    if isinstance(players, list) and all(isinstance(name, str) for name in players):
        return players
    return []


def _game_type(log: Any) -> str:
    try:
        return engine_for_log(log).game_id
    except LogError:
        return ""


def answer(log_text: str, request_text: str) -> str:
    """One check, the worker's reply as JSON text: ``{"ok": true, "result": ...}`` (the
    replay's result, as ``engine_for_log(log).replay(log)`` gives it to the server) or
    ``{"ok": false, "error": {code, message, round, seat[, turn], sentence}}``.

    ``log_text`` is the log as JSON text, parsed here as the server parses it (a JavaScript
    object would lose 1.0 against 1); ``request_text`` holds ``names`` (the players by seat;
    default the log's), ``language`` (default English) and ``game_type`` (default the log's
    engine). Anything but a ``LogError`` raised is no refusal: it propagates (a failed check)."""
    request = json.loads(request_text)
    log = json.loads(log_text)
    try:
        result = engine_for_log(log).replay(log)
    except LogError as exc:
        language = request.get("language") or WORDS["default"]
        names = request.get("names")
        if names is None:
            names = _players(log)
        game_type = request.get("game_type") or _game_type(log)
        _active["language"] = language if language in WORDS["languages"] else WORDS["default"]
        try:
            sentence = refusals.sentence(exc, names, _vocabulary(_active["language"], game_type))
        finally:
            _active["language"] = WORDS["default"]
        return json.dumps({"ok": False, "error": {**exc.as_dict(), "sentence": sentence}})
    return json.dumps({"ok": True, "result": result}, allow_nan=False)
