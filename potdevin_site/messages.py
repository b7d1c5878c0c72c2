"""The message catalogues under ``locale/``, kept in pure Python (Babel), so that a fresh clone
needs no GNU gettext: extraction from the Python sources, the templates (through Django's own
``templatize``, as ``makemessages`` does) and the scripts; updating each language's ``.po``;
compiling the ``.mo`` files Django reads (they are committed: a test checks they match).

    python -m potdevin_site.messages update    # extract, merge into every .po, compile
    python -m potdevin_site.messages compile   # .po -> .mo only
    python -m potdevin_site.messages check     # untranslated, fuzzy, placeholders, stale .mo
    python -m potdevin_site.messages missing FILE.json   # what a translation file lacks
    python -m potdevin_site.messages merge FILE.json...  # fill the .po files from such files

A translation file is a JSON list of ``{"context", "msgid", "msgid_plural", "domain", "it",
"pt_BR"}`` objects (a plural's translations are lists), for translating outside a .po editor.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Run as a script, the catalogues' languages come from the project's settings.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "potdevin_site.settings")

from babel.messages.catalog import Catalog, Message  # noqa: E402 (after the settings module)
from babel.messages.extract import extract  # noqa: E402
from babel.messages.mofile import write_mo  # noqa: E402
from babel.messages.pofile import read_po, write_po  # noqa: E402
from django.conf import settings  # noqa: E402
from django.utils.translation import to_locale  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = ROOT / "locale"
# Every language of settings.LANGUAGES but English (the source), as locale folder names: adding
# a language there and running `make messages` starts its catalogues.
LOCALES = tuple(
    to_locale(code) for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE
)
LANGUAGE_NAMES = {to_locale(code): name for code, name in settings.LANGUAGES}
DOMAINS = ("django", "djangojs")
PROJECT = "potdevin"
# Two forms where CLDR's differ (it gives Italian a third, for millions, that no msgid needs);
# other languages take Babel's. Brazilian Portuguese says "0 pontos", "nenhum ponto" being the
# singular's: zero takes the plural (gettext's usual "n > 1" wrote "0 ponto" on the pages).
PLURALS = {"it": (2, "(n != 1)"), "pt_BR": (2, "(n != 1)")}

PYTHON_DIRS = ("games", "scoring", "potdevin_site")
TEMPLATE_DIRS = ("templates",)
SCRIPT_DIRS = ("static/js",)
SKIPPED_PARTS = {"migrations", "__pycache__"}

# Django's markers (``makemessages`` passes the same to xgettext), plus the engines' ``said``:
# an engine refusal's English template is its msgid.
PYTHON_KEYWORDS: dict[str, Any] = {
    "_": None,
    "gettext": None,
    "gettext_lazy": None,
    "gettext_noop": None,
    "ngettext": (1, 2),
    "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2),
    "pgettext_lazy": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "npgettext_lazy": ((1, "c"), 2, 3),
    "said": None,
}
SCRIPT_KEYWORDS: dict[str, Any] = {
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}
COMMENT_TAGS = ("Translators",)

# %(name)s, %s, %d and {name}, {name!r}, {0}: what a translation must keep, no more, no less.
PERCENT_PLACEHOLDER = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdifrxXeEgGc%]")
BRACE_PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*|\d*)(![rsa])?(:[^{}]*)?\}(?!\})")


@dataclass(frozen=True)
class Found:
    """One marked string in the sources."""

    domain: str
    context: str | None
    msgid: str | tuple[str, str]
    path: str
    line: int
    comments: tuple[str, ...]

    @property
    def key(self) -> tuple[str | None, str]:
        return self.context, self.msgid if isinstance(self.msgid, str) else self.msgid[0]


def _files(dirs: Iterable[str], suffix: str) -> Iterator[Path]:
    for folder in dirs:
        for path in sorted((ROOT / folder).rglob(f"*{suffix}")):
            if not SKIPPED_PARTS.intersection(path.parts):
                yield path


def _templatized(path: Path) -> bytes:
    from django.utils.translation.template import templatize

    return templatize(path.read_text(encoding="utf-8"), origin=str(path)).encode("utf-8")


def found_strings() -> list[Found]:
    """Every marked string of the project's sources, in source order."""
    out: list[Found] = []
    sources: list[tuple[str, Path, str, dict[str, Any]]] = [
        *(("django", p, "python", PYTHON_KEYWORDS) for p in _files(PYTHON_DIRS, ".py")),
        *(("django", p, "template", PYTHON_KEYWORDS) for p in _files(TEMPLATE_DIRS, ".html")),
        *(("djangojs", p, "javascript", SCRIPT_KEYWORDS) for p in _files(SCRIPT_DIRS, ".js")),
    ]
    for domain, path, kind, keywords in sources:
        if kind == "template":
            data, method = _templatized(path), "python"
        else:
            data, method = path.read_bytes(), kind
        relative = path.relative_to(ROOT).as_posix()
        for line, message, comments, context in extract(
            method, io.BytesIO(data), keywords=keywords, comment_tags=COMMENT_TAGS
        ):
            if not (message if isinstance(message, str) else message[0]):
                continue
            out.append(Found(domain, context, message, relative, line, tuple(comments)))
    return out


def template_catalog(domain: str, found: Iterable[Found]) -> Catalog:
    catalog = Catalog(project=PROJECT, fuzzy=False)
    for item in found:
        if item.domain == domain:
            catalog.add(
                item.msgid,
                locations=[(item.path, item.line)],
                auto_comments=item.comments,
                context=item.context,
            )
    return catalog


def po_path(locale: str, domain: str) -> Path:
    return LOCALE_DIR / locale / "LC_MESSAGES" / f"{domain}.po"


def write_catalog(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, omit_header=False, ignore_obsolete=True)
    path.write_bytes(buffer.getvalue())


def mo_bytes(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def new_catalog(locale: str, domain: str) -> Catalog:
    catalog = Catalog(
        locale=locale,
        domain=domain,
        project=PROJECT,
        version="",
        copyright_holder=PROJECT,
        msgid_bugs_address="",
        last_translator="",
        language_team="",
        header_comment=f"# {LANGUAGE_NAMES[locale]} messages of {PROJECT} ({domain}).",
        fuzzy=False,
    )
    catalog.revision_date = catalog.creation_date
    _plurals(catalog, locale)
    return catalog


def read_catalog(path: Path, locale: str) -> Catalog:
    with path.open("rb") as f:
        catalog = read_po(f, locale=locale, domain=path.stem)
    _plurals(catalog, locale)
    return catalog


def _plurals(catalog: Catalog, locale: str) -> None:
    if locale in PLURALS:  # Babel's Catalog has no setter for them
        catalog._num_plurals, catalog._plural_expr = PLURALS[locale]


def update() -> None:
    """Extract, merge into each language's .po (translations kept, what left the sources
    dropped), then compile."""
    found = found_strings()
    for domain in DOMAINS:
        template = template_catalog(domain, found)
        for locale in LOCALES:
            path = po_path(locale, domain)
            catalog = read_catalog(path, locale) if path.exists() else new_catalog(locale, domain)
            template.creation_date = catalog.creation_date  # no date churn in the files
            catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
            catalog.obsolete.clear()
            write_catalog(catalog, path)
    compile_all()


def compile_all() -> None:
    for locale in LOCALES:
        for domain in DOMAINS:
            path = po_path(locale, domain)
            path.with_suffix(".mo").write_bytes(mo_bytes(read_catalog(path, locale)))


def placeholders(text: str) -> list[str]:
    percent = [p for p in PERCENT_PLACEHOLDER.findall(text) if p != "%%"]
    braces = [m.group(0) for m in BRACE_PLACEHOLDER.finditer(text)]
    return sorted(percent + braces)


def _translations(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple | list) else [message.string]


def entry_problems(message: Message) -> list[str]:
    """What is wrong with one entry: untranslated, fuzzy, placeholders not those of the
    msgid (a plural's forms may drop the count, as "un turno" for 1)."""
    if message.fuzzy:
        return ["fuzzy"]
    strings = _translations(message)
    if not all(strings):
        return ["untranslated"]
    if isinstance(message.id, tuple | list):
        singular, plural = message.id
        allowed = set(placeholders(singular)) | set(placeholders(plural))
        for form in strings:
            extra = set(placeholders(form)) - allowed
            if extra:
                return [f"placeholders {sorted(extra)} not in the msgid"]
        if set(placeholders(strings[-1])) != set(placeholders(plural)):
            return ["placeholders differ from the plural msgid"]
        return []
    if placeholders(strings[0]) != placeholders(message.id):
        return [f"placeholders {placeholders(strings[0])} != {placeholders(message.id)}"]
    return []


def problems() -> list[str]:
    """Every problem of the catalogues: entries, strings of the sources missing from a .po,
    and a .mo that is not its .po compiled."""
    out: list[str] = []
    found = found_strings()
    for locale in LOCALES:
        for domain in DOMAINS:
            path = po_path(locale, domain)
            if not path.exists():
                out.append(f"{path.relative_to(ROOT)}: missing")
                continue
            catalog = read_catalog(path, locale)
            for message in catalog:
                if not message.id:
                    continue
                for problem in entry_problems(message):
                    out.append(f"{path.relative_to(ROOT)}: {message.id!r}: {problem}")
            for item in found:
                if item.domain == domain and catalog.get(item.key[1], item.context) is None:
                    where = f"{item.path}:{item.line}"
                    out.append(f"{path.relative_to(ROOT)}: {item.key[1]!r} ({where}) not in it")
            compiled = path.with_suffix(".mo")
            if not compiled.exists() or compiled.read_bytes() != mo_bytes(catalog):
                out.append(f"{compiled.relative_to(ROOT)}: not its .po compiled")
    return out


# --- translation files (JSON), for translating outside a .po editor -------------------------


def _load(files: Iterable[str]) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    for name in files:
        entries.extend(json.loads(Path(name).read_text(encoding="utf-8")))
    return entries


def missing(files: Iterable[str]) -> list[str]:
    """Marked strings that neither the .po files nor the translation files translate, and
    translation-file entries that are no marked string."""
    entries = _load(files)
    have = {(e.get("context"), e["msgid"]) for e in entries}
    translated: set[tuple[str | None, str]] = set()
    for domain in DOMAINS:
        path = po_path(LOCALES[0], domain)
        if path.exists():
            for message in read_catalog(path, LOCALES[0]):
                if message.id and all(_translations(message)) and not message.fuzzy:
                    key = message.id if isinstance(message.id, str) else message.id[0]
                    translated.add((message.context, key))
    found = found_strings()
    out = [
        f"{item.path}:{item.line}: {item.key[1]!r}"
        + (f" (context {item.context!r})" if item.context else "")
        for item in found
        if item.key not in have and item.key not in translated
    ]
    keys = {item.key for item in found}
    out += [
        f"not a marked string: {e['msgid']!r}"
        for e in entries
        if (e.get("context"), e["msgid"]) not in keys
    ]
    return out


def merge(files: Iterable[str]) -> int:
    """Fill every .po from translation files; returns how many entries were filled."""
    entries = _load(files)
    filled = 0
    for locale in LOCALES:
        for domain in DOMAINS:
            path = po_path(locale, domain)
            catalog = read_catalog(path, locale)
            for entry in entries:
                if entry.get("domain", "django") != domain or locale not in entry:
                    continue
                message = catalog.get(entry["msgid"], entry.get("context"))
                if message is None:
                    continue
                value = entry[locale]
                if isinstance(message.id, tuple | list):
                    forms = list(value) if isinstance(value, list) else [value, value]
                    message.string = tuple(forms[: catalog.num_plurals])
                else:
                    message.string = value[0] if isinstance(value, list) else value
                message.flags.discard("fuzzy")
                filled += 1
            write_catalog(catalog, path)
    compile_all()
    return filled


def main(argv: list[str]) -> int:
    import django

    django.setup()  # templatize reads the template engine's settings
    command, args = (argv[0], argv[1:]) if argv else ("check", [])
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "check":
        found = problems()
        print("\n".join(found) or "catalogues complete")
        return 1 if found else 0
    elif command == "missing":
        print("\n".join(missing(args)) or "nothing missing")
    elif command == "merge":
        print(f"{merge(args)} translations filled")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
