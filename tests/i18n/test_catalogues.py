"""The message catalogues (locale/): complete, placeholders kept, the compiled files exactly
their sources compiled, and every marked text of the sources in every catalogue."""

from __future__ import annotations

import gettext
import io

import pytest
from babel.messages.catalog import Message

from potdevin_site import messages as catalogues

PAIRS = [(locale, domain) for locale in catalogues.LOCALES for domain in catalogues.DOMAINS]


@pytest.mark.parametrize(("locale", "domain"), PAIRS)
def test_every_entry_is_translated_not_fuzzy_and_keeps_its_placeholders(
    locale: str, domain: str
) -> None:
    catalog = catalogues.read_catalog(catalogues.po_path(locale, domain), locale)
    problems = [
        f"{message.id!r}: {problem}"
        for message in catalog
        if message.id
        for problem in catalogues.entry_problems(message)
    ]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("locale", "domain"), PAIRS)
def test_every_marked_text_of_the_sources_is_in_the_catalogue(locale: str, domain: str) -> None:
    catalog = catalogues.read_catalog(catalogues.po_path(locale, domain), locale)
    missing = [
        f"{item.path}:{item.line}: {item.key[1]!r}"
        for item in catalogues.found_strings()
        if item.domain == domain and catalog.get(item.key[1], item.context) is None
    ]
    assert not missing, "run `make messages`:\n" + "\n".join(missing)


@pytest.mark.parametrize(("locale", "domain"), PAIRS)
def test_the_compiled_catalogue_is_its_source_compiled(locale: str, domain: str) -> None:
    """Django reads the .mo; what it reads is the .po's translations, nothing else."""
    source = catalogues.po_path(locale, domain)
    compiled = source.with_suffix(".mo").read_bytes()
    assert compiled == catalogues.mo_bytes(catalogues.read_catalog(source, locale))
    # And by an independent reader: Python's gettext finds each translation.
    read = gettext.GNUTranslations(io.BytesIO(compiled))
    for message in catalogues.read_catalog(source, locale):
        if message.id and not isinstance(message.id, tuple | list):
            got = (
                read.pgettext(message.context, message.id)
                if message.context
                else read.gettext(message.id)
            )
            assert got == message.string


def test_the_plural_rules_are_the_languages() -> None:
    """Italian says "0 turni", Brazilian Portuguese "0 pontos": zero takes the plural in both
    (gettext's usual Portuguese rule, "n > 1", wrote "0 ponto" on the pages)."""
    forms = {}
    for locale in catalogues.LOCALES:
        path = catalogues.po_path(locale, "django").with_suffix(".mo")
        forms[locale] = gettext.GNUTranslations(io.BytesIO(path.read_bytes())).plural
    assert [forms["it"](n) for n in (0, 1, 2)] == [1, 0, 1]
    assert [forms["pt_BR"](n) for n in (0, 1, 2)] == [1, 0, 1]


@pytest.mark.parametrize(
    ("msgid", "translation", "ok"),
    [
        ("Round %(number)s", "Turno %(number)s", True),
        ("Round %(number)s", "Turno %(numero)s", False),
        ("Round %(number)s", "Turno", False),
        ("{seat} has {coins} coins", "{seat} ha {coins} monete", True),
        ("{seat} has {coins} coins", "{posto} ha {coins} monete", False),
        ("{name!r} is not a card", "{name!r} non è una carta", True),
        ("{name!r} is not a card", "{name} non è una carta", False),
        ("100%% sure", "sicuro al 100%%", True),
        ("Save", "", False),
    ],
)
def test_the_placeholder_check_can_fail(msgid: str, translation: str, ok: bool) -> None:
    problems = catalogues.entry_problems(Message(msgid, translation))
    assert (not problems) is ok, problems


def test_a_fuzzy_entry_is_a_problem() -> None:
    assert catalogues.entry_problems(Message("Save", "Salva", flags=["fuzzy"])) == ["fuzzy"]


def test_a_plural_may_drop_the_count_in_its_singular_only() -> None:
    plural = ("%(count)s round", "%(count)s rounds")
    assert not catalogues.entry_problems(Message(plural, ("un turno", "%(count)s turni")))
    assert catalogues.entry_problems(Message(plural, ("un turno", "turni")))
