"""The engine's refusals in the players' terms, for the pages (the API keeps the engine's own
message, code and 0-based seat). An engine message speaks of seats by number and of log keys
and actions by their codes ("seat 2 was caught bluffing the inquisitor: it cannot turn one
up", "'foreign_aid' cannot be blocked"); a page names the player first, by name, in words:
"Cy was caught bluffing the inquisitor: it cannot turn one up."

One mechanism for every game: ``sentence(exc, names, vocabulary)``. What a game adds is its
``Vocabulary`` (its web part's ``REFUSAL_VOCABULARY``, found by ``for_game``): the words for
its codes and log keys, and the phrases of its messages where a bare number is a seat ("the
challenger is a live player other than the actor, not 3")."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext, gettext_lazy

from games.records.errors import RecordError
from games.records.i18n import engine_message, refusal_vocabulary
from scoring.engine import LogError
from scoring.engine.errors import Code, Seat

# "seat 2", "seats 1": every engine speaks of a player this way.
SEAT_NUMBER = re.compile(r"\bseats? (\d+)\b")
# "there is no seat 7": a seat past the table is no player at all.
NO_SUCH_SEAT = re.compile(r"\bno seat (\d+)\b")
# A code or log key in quotes: 'foreign_aid', 'losses'.
QUOTED_CODE = re.compile(r"'([a-z][a-z0-9_]*)'")
# A code left bare in the text: foreign_aid, pot_de_vin.
BARE_CODE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
# A str.format field of a translated refusal's template: never read as a code.
FORMAT_FIELD = re.compile(r"(\{[^{}]*\})")
UNKNOWN_PLAYER = gettext_lazy("a player not at this table")


@dataclass(frozen=True)
class Vocabulary:
    """A game's words for its refusals: ``words`` for codes and log keys ("foreign_aid":
    "foreign aid"; a code not listed is shown with spaces for its underscores), and
    ``seat_phrases``, patterns whose first group is a bare seat number."""

    words: Mapping[str, str] = field(default_factory=dict)
    seat_phrases: Sequence[re.Pattern[str]] = ()


PLAIN = Vocabulary()


def for_game(game_type: str) -> Vocabulary:
    """The game's vocabulary (``REFUSAL_VOCABULARY`` of its web part), or the plain one."""
    vocabulary = refusal_vocabulary(game_type)
    return vocabulary if isinstance(vocabulary, Vocabulary) else PLAIN


def player_name(seat: int | None, names: Sequence[str]) -> str | None:
    if seat is None:
        return None
    return names[seat] if 0 <= seat < len(names) else str(UNKNOWN_PLAYER)


def _code_words(text: str, vocabulary: Vocabulary) -> str:
    """Codes left in a text (quoted or bare) in the game's words."""
    words = vocabulary.words

    def code(match: re.Match[str]) -> str:
        key = match.group(1) if match.groups() else match.group(0)
        return str(words.get(key, key.replace("_", " ")))

    return BARE_CODE.sub(code, QUOTED_CODE.sub(code, text))


def _said(exc: LogError, names: Sequence[str], vocabulary: Vocabulary) -> str:
    """An engine refusal written with its template (``said``): translated, its seats as the
    players' names, its codes (those it holds and those its words quote) in the game's words."""

    def seat(value: Seat) -> str:
        return player_name(value.number, names) or ""

    def code(value: Code) -> str:
        return str(vocabulary.words.get(value.value, value.value.replace("_", " ")))

    def worded(template: str) -> str:
        parts = FORMAT_FIELD.split(template)
        return "".join(p if i % 2 else _code_words(p, vocabulary) for i, p in enumerate(parts))

    return engine_message(exc, seat=seat, code=code, template_words=worded)


def _only_group(names: Sequence[str]) -> Callable[[re.Match[str]], str]:
    """A replacement that turns the match's first group (a seat number) into the name."""

    def name_of(match: re.Match[str]) -> str:
        whole, offset = match.group(0), match.start(0)
        start, end = match.start(1) - offset, match.end(1) - offset
        return whole[:start] + (player_name(int(match.group(1)), names) or "") + whole[end:]

    return name_of


def words_of(message: str, names: Sequence[str], vocabulary: Vocabulary = PLAIN) -> str:
    """``message`` with every seat number turned into its player's name and every code into
    words; nothing else changed. The codes first: a name put in ("jean_luc") is not a code."""
    words = vocabulary.words

    def code(match: re.Match[str]) -> str:
        key = match.group(1) if match.groups() else match.group(0)
        return str(words.get(key, key.replace("_", " ")))

    text = QUOTED_CODE.sub(code, message)
    text = BARE_CODE.sub(code, text)
    return _seat_words(text, names, vocabulary)


def _seat_words(text: str, names: Sequence[str], vocabulary: Vocabulary) -> str:
    text = NO_SUCH_SEAT.sub(
        lambda m: m.group(0) if int(m.group(1)) < len(names) else gettext("no such player"),
        text,
    )
    text = SEAT_NUMBER.sub(lambda m: player_name(int(m.group(1)), names) or "", text)
    for phrase in vocabulary.seat_phrases:
        text = phrase.sub(_only_group(names), text)
    return text


def sentence(
    exc: LogError | RecordError,
    names: Sequence[str],
    vocabulary: Vocabulary = PLAIN,
) -> str:
    """The refusal as a page says it: the player it is about first, by name (when it names
    one), then the engine's reason in words, as a sentence. No code, no seat number."""
    if isinstance(exc, LogError):
        text = _said(exc, names, vocabulary)
        if not exc.params:  # written without said(): its seats are only in its words
            text = _seat_words(text, names, vocabulary)
        text = text.strip()
    else:
        text = words_of(exc.message, names, vocabulary).strip()
    who = names[exc.seat] if exc.seat is not None and 0 <= exc.seat < len(names) else None
    if who is not None and not text.startswith(who):
        text = f"{who}: {text}"
    if text and text[0].islower() and not any(text.startswith(name) for name in names if name):
        text = text[0].upper() + text[1:]  # a player's name is written as it is
    if text and text[-1] not in ".!?":
        text += "."
    return text
