"""Which language a request is answered in (potdevin_site/language.py): the pages by the
user's setting, the switcher's cookie, then Accept-Language; the API by Accept-Language only,
with its codes unchanged."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.records import services
from games.records.models import UserSettings
from tests.builders import complots_game

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def lang_of(response: Any) -> str:
    match = re.search(r'<html lang="([^"]+)"', response.content.decode())
    assert match, response.content.decode()[:500]
    return match.group(1)


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("it", "it"),
        ("it-IT,it;q=0.9,en;q=0.5", "it"),
        ("pt-BR,pt;q=0.9", "pt-br"),
        ("pt", "pt-br"),
        ("de-DE,fr;q=0.8", "en"),  # none spoken here: English
        ("de, it;q=0.3", "it"),
        ("", "en"),
        ("\x00;q=x,*", "en"),  # garbled: English, not an error
    ],
)
def test_the_sign_in_page_follows_the_browsers_language(
    client: Client, header: str, language: str
) -> None:
    response = client.get(reverse("web:login"), HTTP_ACCEPT_LANGUAGE=header)
    assert response.status_code == 200
    assert lang_of(response) == language
    assert response["Content-Language"] == language
    assert "Accept-Language" in response["Vary"]


def test_the_switcher_works_without_scripts_and_is_remembered(client: Client) -> None:
    page = client.get(reverse("web:login"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # One plain form and one submit button per language, each in its own words.
    form = re.search(r'<form class="languages" method="post"[^>]* action="([^"]+)">(.*?)</form>',
                     page, re.S)  # fmt: skip
    assert form and form.group(1) == reverse("web:language")
    buttons = re.findall(r'<button type="submit" name="language" value="([^"]+)"[^>]*>([^<]+)<',
                         form.group(2))  # fmt: skip
    assert buttons == [("en", "English"), ("it", "Italiano"), ("pt-br", "Português (Brasil)")]
    response = client.post(
        reverse("web:language"), {"language": "it", "next": reverse("web:login")}
    )
    assert response.status_code == 302 and response["Location"] == reverse("web:login")
    assert response.cookies[COOKIE].value == "it"
    # The cookie outweighs the browser's header from now on.
    assert lang_of(client.get(reverse("web:login"), HTTP_ACCEPT_LANGUAGE="en")) == "it"


@pytest.mark.parametrize("target", ["https://elsewhere.example/", "//elsewhere.example/x"])
def test_the_switcher_never_sends_elsewhere(client: Client, target: str) -> None:
    response = client.post(reverse("web:language"), {"language": "it", "next": target})
    assert response.status_code == 302 and response["Location"] == reverse("web:home")


@pytest.mark.parametrize("posted", ["xx", "", "it%00", "%ED%A0%80", "%FF", "e" * 10_000])
def test_a_language_not_spoken_here_changes_nothing(client: Client, posted: str) -> None:
    body = f"next=/&language={posted}"  # as sent: a lone surrogate's bytes, NUL, bad UTF-8
    response = client.post(
        reverse("web:language"), body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 302
    assert COOKIE not in response.cookies


def test_a_users_language_follows_them_to_every_device(user: Any) -> None:
    phone = Client()
    phone.force_login(user)
    phone.post(reverse("web:language"), {"language": "pt-br", "next": "/"})
    assert UserSettings.objects.get(user=user).language == "pt-br"
    # Another device: no cookie, an English browser; the user's setting wins.
    laptop = Client()
    laptop.force_login(user)
    assert lang_of(laptop.get(reverse("web:home"), HTTP_ACCEPT_LANGUAGE="en")) == "pt-br"


def test_the_settings_page_sets_and_clears_the_language(user: Any) -> None:
    web = Client()
    web.force_login(user)
    url = reverse("web:account")
    page = web.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.findall(r'<option value="([^"]*)"', page) == ["", "en", "it", "pt-br"]
    response = web.post(url, {"language": "it"}, follow=True)
    assert UserSettings.objects.get(user=user).language == "it"
    assert lang_of(response) == "it"
    # Back to the browser's language: the setting and the cookie go.
    response = web.post(url, {"language": ""})
    assert UserSettings.objects.get(user=user).language == ""
    assert response.cookies[COOKIE].value == ""
    assert lang_of(web.get(reverse("web:home"), HTTP_ACCEPT_LANGUAGE="pt-BR")) == "pt-br"
    # A language not offered is the form's error; nothing changes.
    response = web.post(url, {"language": "de"})
    assert response.status_code == 400
    assert UserSettings.objects.get(user=user).language == ""


def test_the_settings_page_needs_a_signed_in_user(client: Client) -> None:
    response = client.post(reverse("web:account"), {"language": "it"})
    assert response.status_code == 302 and not UserSettings.objects.exists()


def test_the_scripts_words_come_in_the_pages_language(client: Client) -> None:
    italian = client.get(reverse("javascript-catalog"), HTTP_ACCEPT_LANGUAGE="it")
    assert italian.status_code == 200
    assert "django.catalog" in italian.content.decode()
    english = client.get(reverse("javascript-catalog"), HTTP_ACCEPT_LANGUAGE="en")
    assert italian.content != english.content


# --- The API: Accept-Language only, codes as they are -------------------------------------------


BLUFF = {
    "actor": 0,
    "action": "inquire",
    "target": 1,
    "challenge": {"by": 2, "truthful": False},
    "losses": [{"seat": 0, "card": "inquisitor"}],
}


def refusal(user: Any, game: Any, **headers: str) -> dict[str, Any]:
    client = APIClient()
    client.force_authenticate(user)
    response = client.post(f"/api/games/{game.pk}/turns/", BLUFF, format="json", **headers)
    assert response.status_code == 400
    return {**response.json(), "content-language": response["Content-Language"]}


def test_an_engine_refusal_follows_accept_language_with_the_same_code_and_seat(
    user: Any,
) -> None:
    game = complots_game(user)
    english = refusal(user, game)
    italian = refusal(user, game, HTTP_ACCEPT_LANGUAGE="it")
    portuguese = refusal(user, game, HTTP_ACCEPT_LANGUAGE="pt-BR")
    assert english["message"] == "seat 0 was caught bluffing the inquisitor: it cannot turn one up"
    assert english["content-language"] == "en"
    for other, language in ((italian, "it"), (portuguese, "pt-br")):
        assert other["content-language"] == language
        assert {k: v for k, v in other.items() if k not in ("message", "content-language")} == {
            k: v for k, v in english.items() if k not in ("message", "content-language")
        }
        assert other["message"] != english["message"]
        assert "seat" not in other["message"]
    assert not game.rounds.exists()


def test_the_api_ignores_the_pages_language_cookie(user: Any) -> None:
    game = complots_game(user)
    client = APIClient()
    client.force_authenticate(user)
    client.cookies[COOKIE] = "it"
    UserSettings.objects.create(user=user, language="it")
    response = client.post(f"/api/games/{game.pk}/turns/", BLUFF, format="json")
    assert response["Content-Language"] == "en"
    assert response.json()["message"].startswith("seat 0 was caught bluffing")


def test_the_apis_own_messages_follow_accept_language(user: Any) -> None:
    client = APIClient()
    client.force_authenticate(user)
    english = client.post("/api/games/", {"players": None}, format="json")
    italian = client.post(
        "/api/games/", {"players": None}, format="json", HTTP_ACCEPT_LANGUAGE="it"
    )
    assert english.status_code == italian.status_code == 400
    assert english.json()["code"] == italian.json()["code"]
    assert set(english.json().get("fields", {})) == set(italian.json().get("fields", {}))
    assert english.json()["message"] != italian.json()["message"]
    missing_en = client.get("/api/games/999999/")
    missing_it = client.get("/api/games/999999/", HTTP_ACCEPT_LANGUAGE="it")
    assert missing_en.status_code == missing_it.status_code == 404
    assert missing_en.json()["code"] == missing_it.json()["code"] == "not_found"
    assert missing_en.json()["message"] != missing_it.json()["message"]


def test_every_api_operation_documents_accept_language(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    operations = [
        (path, method, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in {"get", "post", "put", "patch", "delete"}
    ]
    assert len(operations) > 20
    for path, method, operation in operations:
        headers = {p["name"]: p for p in operation["parameters"] if p["in"] == "header"}
        assert "pt-br" in headers["Accept-Language"]["description"], (path, method)
        # Besides: a conditional read's tag (reads of a game), a write's key (every write).
        others = set(headers) - {"Accept-Language"}
        assert others <= ({"If-None-Match"} if method == "get" else {"Idempotency-Key"})
        if method != "get":
            assert others == {"Idempotency-Key"}, (path, method)


def test_an_answer_django_writes_itself_under_the_api_follows_accept_language(
    client: Client,
) -> None:
    """A URL no route takes, a request before any view: the same code, the reader's words,
    and never the language a previous request left behind."""
    client.get(reverse("web:login"), HTTP_ACCEPT_LANGUAGE="it")
    english = client.get("/api/no-such-route/")
    italian = client.get("/api/no-such-route/", HTTP_ACCEPT_LANGUAGE="it")
    assert english.status_code == italian.status_code == 404
    assert english.json()["code"] == italian.json()["code"] == "not_found"
    assert english.json()["message"] == "Not found."
    assert italian.json()["message"] != "Not found."


@pytest.mark.parametrize(
    ("language", "date", "moment"),
    [
        ("en", "Nov. 3, 2026", "Nov. 3, 2026, 9:14 p.m."),
        ("it", "3 novembre 2026", "martedì 3 novembre 2026 21:14"),
        ("pt-br", "3 de novembro de 2026", "3 de novembro de 2026 às 21:14"),
    ],
)
def test_dates_are_written_the_languages_way(language: str, date: str, moment: str) -> None:
    """Italian and Portuguese write month and day names in lowercase (Django's catalogues
    capitalise them: "3 Novembre 2026", "Martedì")."""
    import datetime

    from django.template import Context, Template
    from django.utils import translation

    template = Template('{{ day|date }} | {{ moment|date:"DATETIME_FORMAT" }}')
    context = Context(
        {"day": datetime.date(2026, 11, 3), "moment": datetime.datetime(2026, 11, 3, 21, 14)}
    )
    with translation.override(language):
        assert template.render(context) == f"{date} | {moment}"


def test_a_built_in_editions_description_is_shown_in_the_readers_language() -> None:
    """Stored in the engine's English; in English the page shows exactly what is stored."""
    from django.utils import translation

    from games.plugins.bruges import edition_pages
    from games.plugins.potdevin import web as potdevin_web
    from scoring.engine.bruges.editions import STANDARD_DESCRIPTION
    from scoring.engine.potdevin.decks import STANDARD_DECK

    services.editions_ensure_builtin()
    assert edition_pages.edition("standard").description == STANDARD_DESCRIPTION
    with translation.override("en"):
        assert edition_pages.edition("standard").description_shown == STANDARD_DESCRIPTION
        assert str(potdevin_web.BUILTIN_DESCRIPTIONS[STANDARD_DECK.description]) == (
            STANDARD_DECK.description
        )
    with translation.override("it"):
        assert edition_pages.edition("standard").description_shown != STANDARD_DESCRIPTION
        assert str(potdevin_web.BUILTIN_DESCRIPTIONS[STANDARD_DECK.description]) != (
            STANDARD_DECK.description
        )


# --- Engine refusals, on the pages and in the API, in each language ------------------------------


def complots_refused(turn: dict[str, Any]) -> Any:
    from scoring.engine import LogError, get_engine

    log = {
        "format": "complots-log/1",
        "players": ["Ada", "Bea", "Cy"],
        "variant": "inquisitor",
        "first_player": 0,
        "turns": [turn],
    }
    with pytest.raises(LogError) as caught:
        get_engine("complots").replay(log)
    return caught.value


@pytest.mark.parametrize(
    ("turn", "language", "page", "api"),
    [
        (BLUFF, "en", "Ada was caught bluffing the inquisitor: it cannot turn one up.",
         "seat 0 was caught bluffing the inquisitor: it cannot turn one up"),
        (BLUFF, "it",
         "Ada ha perso la sfida: bluffava su Inquisitore, quindi non può scoprire quel "
         "personaggio.",
         "posto 0 ha perso la sfida: bluffava su Inquisitore, quindi non può scoprire quel "
         "personaggio"),
        (BLUFF, "pt-br",
         "Ada perdeu a contestação: blefava com Inquisidor, então não pode revelar esse "
         "personagem.",
         "lugar 0 perdeu a contestação: blefava com Inquisidor, então não pode revelar esse "
         "personagem"),
        # A code in quotes stays a code in the API, in every language; the pages word it.
        ({"actor": 0, "action": "captain"}, "en", "Ada: captain needs a target.",
         "'captain' needs a 'target'"),
        ({"actor": 0, "action": "captain"}, "it", "Ada: Capitano richiede un bersaglio.",
         "'captain' richiede 'target'"),
        ({"actor": 0, "action": "income", "forced_swap": True}, "en",
         "Ada: a forced swap belongs to an inquiry only.",
         "'forced_swap' belongs to an 'inquire' only"),
    ],
)  # fmt: skip
def test_an_engine_refusal_in_each_language(
    turn: dict[str, Any], language: str, page: str, api: str
) -> None:
    from django.utils import translation

    from games.records.i18n import engine_message
    from games.web import refusals

    exc = complots_refused(turn)
    with translation.override(language):
        assert refusals.sentence(exc, ["Ada", "Bea", "Cy"], refusals.for_game("complots")) == page
        assert engine_message(exc) == api


def test_no_two_games_word_one_code_differently() -> None:
    """The API words a bare code with every game's refusal words together."""
    from django.utils import translation

    from games.records.game_types import plugins
    from games.web import refusals

    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            seen: dict[str, str] = {}
            for game_type in plugins():
                for code, word in refusals.for_game(game_type).words.items():
                    assert seen.setdefault(code, str(word)) == str(word), (language, code)
