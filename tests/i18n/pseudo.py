"""A pseudo-locale for the pages: every string that goes through gettext comes out wrapped
(``⟦Save⟧``), so that text a page shows outside any wrapper was never marked for translation.
It stands in for Italian while installed (the pages choose Italian from ``Accept-Language``),
and it remembers every message it was asked for, with its context, so the tests can check that
each one is translated in every catalogue."""

from __future__ import annotations

import gettext as gettext_module
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from html.parser import HTMLParser

from django.utils.translation import trans_real

from games.web import engine_files

OPEN, CLOSE = "⟦", "⟧"
CONTEXT_SEPARATOR = "\x04"
LANGUAGE = "it"


class PseudoTranslation(gettext_module.NullTranslations):
    def __init__(self) -> None:
        super().__init__()
        self.seen: set[tuple[str | None, str]] = set()

    def _wrap(self, message: str) -> str:
        context, _, msgid = message.rpartition(CONTEXT_SEPARATOR)
        self.seen.add((context or None, msgid))
        return f"{OPEN}{msgid}{CLOSE}"

    def gettext(self, message: str) -> str:
        return self._wrap(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        self._wrap(msgid1)
        context, _, plural = msgid2.rpartition(CONTEXT_SEPARATOR)
        singular = msgid1.rpartition(CONTEXT_SEPARATOR)[2]
        return f"{OPEN}{singular if n == 1 else plural}{CLOSE}"

    def to_language(self) -> str:
        return LANGUAGE

    def language(self) -> str:
        return LANGUAGE


@contextmanager
def installed() -> Iterator[PseudoTranslation]:
    """The pseudo-locale in Italian's place for the block. The pages' words zip, built once
    per process from the catalogues, is built again after it (and within it, in its words)."""
    pseudo = PseudoTranslation()
    saved = trans_real._translations.get(LANGUAGE)
    trans_real._translations[LANGUAGE] = pseudo  # type: ignore[assignment]
    engine_files.built.cache_clear()
    try:
        yield pseudo
    finally:
        if saved is None:
            trans_real._translations.pop(LANGUAGE, None)
        else:
            trans_real._translations[LANGUAGE] = saved
        engine_files.built.cache_clear()


# The attributes a person reads (or hears from a screen reader).
READ_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "aria-description"}
# A textarea's text is a field's value (a link to copy, notes typed), as an input's value is.
SKIPPED_ELEMENTS = {"script", "style", "template", "textarea"}
WRAPPED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
WORD = re.compile(r"[^\W\d_]{2,}")


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED_ELEMENTS:
            self._skipping += 1
        for name, value in attrs:
            if value and (
                name in READ_ATTRIBUTES
                or (
                    name == "value"
                    and tag == "input"
                    and dict(attrs).get("type") in ("submit", "button")
                )
            ):
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED_ELEMENTS and self._skipping:
            self._skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self._skipping and data.strip():
            self.parts.append(data)


def unmarked(html: str, allowed: Iterable[str] = ()) -> list[str]:
    """The pieces of text a person reads on the page that no gettext wrapped: each with a
    word of two letters or more left once the wrapped parts, the ``allowed`` texts (player
    names, the brand) and numbers are taken out."""
    parser = _Text()
    parser.feed(html)
    allowed_sorted = sorted((a for a in allowed if a), key=len, reverse=True)
    found = []
    for part in parser.parts:
        text = part
        while True:
            shorter = WRAPPED.sub(" ", text)
            if shorter == text:
                break
            text = shorter
        for word in allowed_sorted:
            text = text.replace(word, " ")
        if WORD.search(text):
            found.append(part.strip())
    return found
