"""One word per meaning: the glossary of docs/translations.md against the catalogues.

- Each of the service's terms ("The service's terms" table) is translated by its one word in
  every msgid listed for it.
- No two msgids of different meaning share a translation, unless the glossary's "Intended
  shared translations" lists them. Two msgids have the same meaning when they differ only by
  case, placeholders, hyphens or end punctuation; a plural is read by its singular, and a
  context does not make a new meaning (the same msgid in two contexts is one word).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "translations.md"
LOCALES = ("it", "pt_BR")
DOMAINS = ("django", "djangojs")

PLACEHOLDER = re.compile(r"%\([^)]*\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|%[sdifr]|\{[^{}]*\}")
END_PUNCTUATION = ".:;!?… "


def meaning(text: str) -> str:
    """A msgid's or a translation's words, whatever the case, placeholders, hyphens and end
    punctuation: "Score-track points." and "score track points" read the same."""
    text = PLACEHOLDER.sub("{}", text).replace("-", " ").casefold()
    return re.sub(r"\s+", " ", text).strip(END_PUNCTUATION)


@functools.cache
def catalogue(locale: str, domain: str) -> Catalog:
    with (ROOT / "locale" / locale / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return read_po(f, locale=locale)


def singular(value: str | tuple[str, ...] | list[str]) -> str:
    return value if isinstance(value, str) else value[0]


def forms(value: str | tuple[str, ...] | list[str]) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


# --- The glossary's tables ------------------------------------------------------------------


def table(heading: str) -> list[list[str]]:
    """The rows of the first table under ``heading`` (a "## " line), as cells; "\\|" is a "|"
    inside a cell."""
    text = GLOSSARY.read_text(encoding="utf-8")
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    rows = []
    for line in text[start : end if end >= 0 else None].splitlines():
        if not line.startswith("|") or set(line) <= set("|-"):
            continue
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        rows.append(cells)
    return rows[1:]  # the header row


def msgids(cell: str) -> list[tuple[str | None, str]]:
    """The `context|msgid` or `msgid` of a cell, as (context, msgid)."""
    out: list[tuple[str | None, str]] = []
    for code in re.findall(r"`([^`]+)`", cell):
        context, bar, msgid = code.partition("|")
        out.append((context, msgid) if bar else (None, code))
    return out


@functools.cache
def terms() -> list[dict[str, object]]:
    return [
        {"term": term, "msgids": msgids(ids), "it": it, "pt_BR": pt}
        for term, ids, it, pt in table("The service's terms: one word per meaning")
    ]


@functools.cache
def intended() -> dict[str, list[set[str]]]:
    """Per locale, the sets of meanings allowed to share a translation."""
    allowed: dict[str, list[set[str]]] = {locale: [] for locale in LOCALES}
    for languages, _translation, ids, _why in table("Intended shared translations"):
        group = {meaning(msgid) for _context, msgid in msgids(ids)}
        for locale in (code.strip() for code in languages.split(",")):
            allowed[locale].append(group)
    return allowed


# --- The checks -----------------------------------------------------------------------------


def test_the_glossary_has_its_tables() -> None:
    assert len(terms()) >= 20
    listed = {str(t["term"]).split(" (")[0] for t in terms()}
    for term in ("game", "round", "turn", "seat", "player", "club", "member", "recorder"):
        assert term in listed
    for term in ("admin", "owner", "scorepad", "score", "points", "rating", "leaderboard"):
        assert term in listed
    for term in ("share link", "invitation", "undo", "delete"):
        assert term in listed
    assert all(intended()[locale] for locale in LOCALES)


@pytest.mark.parametrize("locale", LOCALES)
def test_each_term_is_translated_by_its_word(locale: str) -> None:
    wrong = []
    for term in terms():
        word = str(term[locale]).casefold()
        for context, msgid in term["msgids"]:  # type: ignore[attr-defined]
            message = catalogue(locale, "django").get(msgid, context=context)
            if message is None:
                wrong.append(f"{term['term']}: {context}|{msgid} is not in the catalogue")
                continue
            for form in forms(message.string):
                if word not in form.casefold():
                    wrong.append(f"{term['term']}: {msgid!r} is {form!r}, not {word!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("locale", LOCALES)
def test_no_two_meanings_share_a_translation_unless_intended(locale: str) -> None:
    by_translation: dict[str, dict[str, str]] = {}
    for domain in DOMAINS:
        for message in catalogue(locale, domain):
            if not message.id or message.fuzzy:
                continue
            translation = singular(message.string)
            if not translation:
                continue
            msgid = singular(message.id)
            by_translation.setdefault(meaning(translation), {})[meaning(msgid)] = msgid
    allowed = intended()[locale]
    shared = []
    for translation, meanings in sorted(by_translation.items()):
        if len(meanings) > 1 and not any(set(meanings) <= group for group in allowed):
            shared.append(f"{translation!r}: {sorted(meanings.values())}")
    assert not shared, (
        "msgids of different meaning share a translation; give each its own word, or list "
        "them in docs/translations.md's Intended shared translations:\n" + "\n".join(shared)
    )


@pytest.mark.parametrize("locale", LOCALES)
def test_every_intended_pair_is_still_in_the_catalogue(locale: str) -> None:
    known = {
        meaning(singular(m.id)) for domain in DOMAINS for m in catalogue(locale, domain) if m.id
    }
    stale = [sorted(group - known) for group in intended()[locale] if group - known]
    assert not stale, stale


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Score track points", "Score-track points", True),
        ("%(counter)s game", "%(games)s game.", True),
        ("Change", "change:", True),
        ("Change", "Switch", False),
        ("Recorder", "Scorepad", False),
    ],
)
def test_meaning_reads_case_placeholders_hyphens_and_end_punctuation_alike(
    a: str, b: str, same: bool
) -> None:
    assert (meaning(a) == meaning(b)) is same
