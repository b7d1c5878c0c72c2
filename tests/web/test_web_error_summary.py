"""Every refused form puts an error summary first in <main> (GOV.UK's pattern): role="alert",
"There is a problem", one link per error to an id on the page, the title prefixed "Error:",
and the script that focuses it. One mechanism (``games.templatetags.error_summary``) for every
form of the pages: the new game and its options, the scorepad sheets, the entry forms, the
other games' play and named game, the club's forms, the sign-up, the password, the settings,
the import, the re-score, the sign-in. A page without a refusal has none of it."""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import pytest
from django.core.cache import cache
from django.forms import BaseForm
from django.test import Client

from games.records import clubs, services
from games.templatetags.error_summary import refused_forms
from tests.accounts import first_club, make_user
from tests.web.test_web_pages import new_game_data

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_rate_limits() -> None:
    cache.clear()


class _Page(HTMLParser):
    """The page's title, ids, <main>'s first element, the summary's links, its script."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.title = ""
        self.first_in_main: dict[str, str | None] | None = None
        self.links: list[tuple[str, str]] = []
        self.scripts: list[str] = []
        self._in: list[str] = []
        self._main = False
        self._summary_depth = 0
        self._link: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "script" and values.get("src"):
            self.scripts.append(str(values["src"]))
        if self._main and self.first_in_main is None:
            self.first_in_main = {"tag": tag, **values}
        if tag == "main":
            self._main = True
        if values.get("id") == "error-summary":
            self._summary_depth = 1
        elif self._summary_depth and tag not in ("br", "img", "input"):
            self._summary_depth += 1
        if self._summary_depth and tag == "a":
            self._link = str(values.get("href"))
        self._in.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._summary_depth:
            self._summary_depth -= 1
        if tag == "a":
            self._link = None

    def handle_data(self, data: str) -> None:
        if self._in and self._in[-1] == "title":
            self.title += data
        if self._link is not None and data.strip():
            self.links.append((self._link, " ".join(data.split())))


def read(response: Any) -> _Page:
    page = _Page()
    page.feed(response.content.decode())
    return page


def errors_in(response: Any) -> int:
    """How many errors the page's forms hold (the view's context)."""
    keys = response.context.keys()  # a list of contexts: its keys, not its items
    dicts = [{key: response.context[key]} for key in keys]
    forms: list[BaseForm] = refused_forms(dicts)
    return sum(len(errors) for form in forms for errors in form.errors.values())


def assert_summary(response: Any) -> _Page:
    page = read(response)
    assert page.first_in_main is not None, "no <main>"
    first = page.first_in_main
    assert (first["tag"], first.get("id"), first.get("role")) == ("div", "error-summary", "alert")
    assert first.get("tabindex") == "-1"
    assert "There is a problem" in response.content.decode()
    assert page.title.strip().startswith("Error: "), page.title
    assert any(src.endswith("/js/errors.js") for src in page.scripts)
    assert page.links, "no link in the summary"
    for href, text in page.links:
        assert href.startswith("#") and href[1:] in page.ids, (href, text)
        assert href not in ("#main", "#error-summary"), (href, text)  # somewhere, not the page
        assert text
    assert len(page.links) == errors_in(response), page.links
    return page


def assert_no_summary(response: Any) -> None:
    page = read(response)
    assert "error-summary" not in page.ids
    assert not page.title.strip().startswith("Error")
    assert not any(src.endswith("/js/errors.js") for src in page.scripts)


def _game(user: Any, game_type: str, names: list[str], **options: Any) -> Any:
    services.editions_ensure_builtin()
    return services.game_create(
        club=first_club(),
        owner=user,
        players=services.players_resolve(names, club=first_club(), created_by=user),
        game_type=game_type,
        first_player=0,
        **options,
    )


def _admin() -> Client:
    client = Client()
    client.force_login(make_user("olga", role="admin"))
    return client


Case = Callable[[Client, Any], Any]

CASES: dict[str, Case] = {
    "new game and its options": lambda web, user: web.post(
        "/games/new/pot-de-vin/",
        new_game_data(player_0="x" * 81, player_2="", player_3="Dev", deck="nope", teams="zz"),
    ),
    "new game: a refusal of the whole form": lambda web, user: web.post(
        "/games/new/pot-de-vin/", new_game_data(game_type="complots", deck="standard")
    ),
    "Pot de Vin scorepad sheet": lambda web, user: web.post(
        "/games/scorepad/pot-de-vin/",
        {"game_type": "pot-de-vin", "player_0": "Ada", "player_1": "Bea", "player_2": "Cy"},
    ),
    "Complots scorepad sheet": lambda web, user: web.post(
        "/games/scorepad/complots/",
        {"game_type": "complots", "player_0": "Ada", "player_1": "Bea", "winner": "9"},
    ),
    "Bruges scorepad sheet": lambda web, user: web.post(
        "/games/scorepad/bruges/",
        {"game_type": "bruges", "player_0": "Ada", "player_1": "Bea", "points_0_total": "x"},
    ),
    "Pot de Vin round entry": lambda web, user: web.post(
        f"/games/{_game(user, 'pot-de-vin', ['Ada', 'Bea', 'Cy']).pk}/rounds/",
        {"number": "1", "trump": "Z99"},
    ),
    "Complots turn entry": lambda web, user: web.post(
        f"/games/{_game(user, 'complots', ['Ada', 'Bea', 'Cy'], variant='inquisitor').pk}/rounds/",
        {"number": "1", "action": "nope"},
    ),
    "Bruges round entry": lambda web, user: web.post(
        f"/games/{_game(user, 'bruges', ['Ada', 'Bea']).pk}/rounds/",
        {"number": "1", "step": "draw", "action": "nope", "p_name": "x" * 81},
    ),
    "other game's play": lambda web, user: web.post(
        "/plays/new/",
        {"game_type": "other", "new_win": "highest", "player_0": "Ada", "score_0": "x"},
    ),
    "a named game": lambda web, user: web.post("/board-games/", {"name": " ", "win": "?"}),
    "club invitation": lambda web, user: _admin().post(
        f"/clubs/{first_club().slug}/invitations/", {"role": "owner", "days": "0"}
    ),
    "club settings": lambda web, user: _admin().post(
        f"/clubs/{first_club().slug}/settings/", {"name": " "}
    ),
    "re-score": lambda web, user: _admin().post(
        "/jobs/rescore/", {"edition": "nope", "date_from": "x"}
    ),
    "invitation sign-up": lambda web, user: Client().post(
        clubs.invitation_create(
            club=first_club(), role="member", by=make_user("ivan", role="admin")
        ).get_absolute_url(),
        {"username": "nina", "password1": "12345", "password2": "123456"},
    ),
    "password change": lambda web, user: web.post(
        "/account/password/",
        {"old_password": "wrong", "new_password1": "a", "new_password2": "b"},
    ),
    "settings": lambda web, user: web.post("/account/", {"language": "xx"}),
    "import": lambda web, user: web.post("/imports/", {}),
    "sign-in": lambda web, user: Client().post(
        "/accounts/login/", {"username": "alice", "password": "wrong"}
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_refused_form_has_the_error_summary_first(web: Client, user: Any, case: str) -> None:
    response = CASES[case](web, user)
    assert response.status_code in (200, 400), (response.status_code, response.get("Location"))
    assert_summary(response)


def test_a_field_error_links_to_its_field_and_a_form_error_to_the_form(
    web: Client, user: Any
) -> None:
    response = CASES["new game and its options"](web, user)
    page = assert_summary(response)
    hrefs = dict((text, href) for href, text in page.links)
    assert hrefs["Ensure this value has at most 80 characters (it has 81)."] == "#id_player_0"
    assert hrefs["Fill the seats in order, with no gap."] == "#id_player_2"
    # In the page's order: the seats come before the game's own options.
    assert [h for h, _ in page.links][:2] == ["#id_player_0", "#id_player_2"]
    response = CASES["new game: a refusal of the whole form"](web, user)
    page = assert_summary(response)
    # The hidden field's error: the form itself (a hidden input shows nothing).
    assert page.links == [("#new-game", "This form records Pot de Vin games.")]


def test_a_sign_in_refusal_links_to_its_form(user: Any) -> None:
    page = assert_summary(CASES["sign-in"](Client(), user))
    ((href, text),) = page.links
    assert href[1:] in page.ids and "correct username and password" in text


@pytest.mark.parametrize(
    "url", ["/", "/games/new/pot-de-vin/", "/plays/new/", "/account/", "/imports/"]
)
def test_a_page_without_a_refusal_has_no_summary(web: Client, url: str) -> None:
    response = web.get(url)
    assert response.status_code == 200
    assert_no_summary(response)
